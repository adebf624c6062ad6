/// How a session's values are read and made: a valued key's value as its domain text, a counter's count.
@usableFromInline
struct SessionValues<Value> {
    /// The domain text of a value, or `nil` when it is not text.
    @usableFromInline var text: (Value) -> String?
    /// A value holding domain text (a value `set` by the flow, a config value).
    @usableFromInline var makeText: (String) -> Value
    /// A value holding a counter's count.
    @usableFromInline var makeCount: (Int) -> Value
}

/// The model of an `authflow/2` flow as a ``FlowSession`` runs it on the app's own values.
///
/// A session over a flow whose moves depend on its data (guards, valued keys, clears, counters,
/// resets or config) keeps, beside its data stack, the dense frame of each step: the model's
/// presence bits and packed values, computed from the real values the steps output. The session
/// decides every move by the model's one semantics on that frame (``FlowModel/offers(_:state:keys:values:)``,
/// ``FlowModel/applying(_:branch:keys:values:)`` and the emission's rows), pushes the target on the
/// machine and the changed keys on the data stack together, and pops all three on undo.
@usableFromInline
final class SessionRules<State: Hashable, Event: Hashable, Key: Hashable, Value: Equatable> {
    @usableFromInline let model: FlowModel
    /// The variant this session runs in: an index into ``FlowModel/roots``.
    @usableFromInline private(set) var variant: Int
    @usableFromInline let values: SessionValues<Value>
    /// The app's state, event and key for each model id.
    @usableFromInline let states: [State]
    @usableFromInline let keys: [Key]
    @usableFromInline let stateIndex: [State: Int]
    @usableFromInline let eventIndex: [Event: Int]
    @usableFromInline let keyIndex: [Key: Int]
    /// Per state, per emission: the keys the step's output must carry (presence keys, then valued keys it adds).
    @usableFromInline let outputKeys: [[[Int]]]
    /// Per state, per emission: every key its effects may change, as bits (rows' clears are added per row).
    @usableFromInline let touched: [[UInt64]]
    /// Per state, per emission: the keys the step's output must carry, as bits.
    @usableFromInline let outputBits: [[UInt64]]
    /// Per state, per emission: whether some row without a guard takes every branch (then the emission is
    /// accepted exactly when offered, with no branch to try).
    @usableFromInline let alwaysTaken: [[Bool]]
    /// Per state: the event of each emission, for finding the one a step sent without reading the emissions.
    @usableFromInline let emissionEvents: [[Int]]
    /// Per state, per emission: the valued keys it adds, in declaration order (the branch is their values).
    @usableFromInline let addValued: [[[Int]]]
    /// The model's layout and the variant's root frame, held apart so a move reads no other part of the model.
    @usableFromInline let layout: DataLayout
    @usableFromInline private(set) var root: (keys: UInt64, values: UInt64)

    /// The config values of the variant, as the app's values.
    private(set) var config: [Key: Value] = [:]

    init(model: FlowModel, variant: Int, states: [State], events: [Event], keys: [Key], values: SessionValues<Value>) {
        self.model = model
        self.variant = variant
        self.values = values
        self.states = states
        self.keys = keys
        self.stateIndex = Dictionary(states.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.eventIndex = Dictionary(events.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.keyIndex = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let layout = model.layout
        self.layout = layout
        self.emissionEvents = model.emissions.map { $0.map(\.event.index) }
        self.addValued = model.emissions.map { $0.map(\.addValued) }
        self.root = (model.roots[variant].keys, model.roots[variant].values)
        self.outputKeys = model.emissions.map { list in
            list.map { $0.outputKeys(keyCount: model.keys.count) }
        }
        self.outputBits = model.emissions.map { list in
            list.map { emission in emission.addValued.reduce(emission.addKeys) { $0 | 1 << UInt64($1) } }
        }
        self.alwaysTaken = model.emissions.map { list in list.map { emission in emission.rows.contains { $0.when == nil } } }
        self.touched = model.emissions.map { list in
            list.map { emission in
                var bits = emission.clearKeys | emission.addKeys
                for key in emission.addValued + emission.setKeys + emission.increment { bits |= 1 << UInt64(key) }
                for key in 0..<model.keys.count where emission.clearValues & layout.mask(key) != 0 { bits |= 1 << UInt64(key) }
                return bits
            }
        }
        select(variant: variant)
    }

    /// Runs `variant` from now on: its root frame and config values (the session resets to them).
    func select(variant: Int) {
        self.variant = variant
        let root = model.roots[variant]
        self.root = (root.keys, root.values)
        var config: [Key: Value] = [:]
        for key in 0..<model.keys.count where layout.isConfig[key] {
            if let text = layout.shown(key, keys: root.keys, values: root.values) { config[keys[key]] = values.makeText(text) }
        }
        self.config = config
    }

    /// The model's id of `state`, `event`, `key`: the id itself for dense ids, else by name.
    @inlinable @inline(__always) func id(of state: State) -> Int? { _DenseIndex.index(state) ?? stateIndex[state] }
    @inlinable @inline(__always) func id(of event: Event) -> Int? { _DenseIndex.index(event) ?? eventIndex[event] }
    @inlinable @inline(__always) func id(of key: Key) -> Int? { _DenseIndex.index(key) ?? keyIndex[key] }


    /// The index of `event`'s emission in the step of `state`, if the step emits it.
    @inlinable func emission(_ event: Int, in state: Int) -> Int? {
        emissionEvents[state].firstIndex(of: event)
    }

    /// Where the emission leads from the current frame for `branch`, and the data after its effects.
    @inlinable func outcome(state: Int, emission index: Int, branch: Int, from frame: (keys: UInt64, values: UInt64))
        -> (row: FlowModel.GuardedRow?, keys: UInt64, values: UInt64) {
        // The model's effects and its first-match rule: the runtime needs the row itself (target, clears, reset).
        let (keys, values) = model.applying(model.emissions[state][index], branch: branch, keys: frame.keys, values: frame.values)
        let row = model.emissions[state][index].rows.withUnsafeBufferPointer { rows in
            model.firstRow(in: rows, state: state, keys: keys, values: values).map { rows[$0] }
        }
        return (row, keys, values)
    }

    /// Whether the step of `state` offers its emission `index` now.
    @inlinable func offers(state: Int, emission index: Int, in frame: (keys: UInt64, values: UInt64)) -> Bool {
        return model.emissions[state][index].when?.holds(state: Int32(state), keys: frame.keys, values: frame.values, layout: layout) ?? true
    }

    /// Whether the step of `state` offers its emission `index` now and some branch of it has a row that fires.
    @inlinable func accepts(state: Int, emission index: Int, in frame: (keys: UInt64, values: UInt64)) -> Bool {
        guard offers(state: state, emission: index, in: frame) else { return false }
        if alwaysTaken[state][index] { return true }
        return (0..<model.emissions[state][index].branchCount(layout)).contains {
            outcome(state: state, emission: index, branch: $0, from: frame).row != nil
        }
    }

    /// The value the app holds for key `k` in the frame `(keys, values)`: `output` for a key the step
    /// sent, the domain text of a valued key, a counter's count (nothing at 0), nothing when absent.
    @inlinable func value(of k: Int, keys: UInt64, values: UInt64, output: Value?) -> Value? {
        if layout.isCounter(k) {
            let count = layout.field(k, in: values)
            return count == 0 ? nil : self.values.makeCount(count)
        }
        guard keys & (1 << UInt64(k)) != 0 else { return nil }
        if let output { return output }
        return layout.shown(k, keys: keys, values: values).map(self.values.makeText)
    }

    /// The value of key `key` as the flow holds it now: the data's, else the variant's config, else a counter's 0.
    func current(_ key: Key, data: DataStack<Key, Value>) -> Value? {
        if let value = data[key] { return value }
        if let value = config[key] { return value }
        if let k = id(of: key), model.layout.isCounter(k) { return values.makeCount(0) }
        return nil
    }
}

extension FlowSession {
    /// Handles `event` by the flow's `authflow/2` rules, with `output(key)` the value the step sent for each key it adds.
    ///
    /// Inlinable, like the rest of the session's hot path, so the checker's dense ids get a specialised copy.
    @inlinable @inline(never)
    func _sendByRules(_ rules: SessionRules<State, Event, Key, Value>, _ event: Event, sent: [Key]?,
                      output: (Key) -> Value?) throws(FlowError<State, Event, Key>) -> Transition<State, Event> {
        let from = machine.state
        guard let s = rules.id(of: from), let e = rules.id(of: event), let index = rules.emission(e, in: s) else {
            if storage.tracker != nil { track(.rejection, from: from, event: event, reason: "not in the output contract") }
            throw .eventNotInContract(state: from, event: event)
        }
        let frame = storage.frames[storage.frames.count - 1]
        guard rules.offers(state: s, emission: index, in: frame) else {
            if storage.tracker != nil { track(.rejection, from: from, event: event, reason: "not offered now") }
            throw .eventNotOffered(state: from, event: event)
        }
        func mismatch() -> FlowError<State, Event, Key> {
            .outputMismatch(state: from, event: event, expected: rules.outputKeys[s][index].map { rules.keys[$0] }, got: sent ?? [])
        }
        if let sent {
            let bits = rules.outputBits[s][index]
            var seen: UInt64 = 0
            for key in sent {
                guard let k = rules.id(of: key), bits & (1 << UInt64(k)) != 0 else { seen = ~0; break }
                seen |= 1 << UInt64(k)
            }
            if seen != bits || sent.count != bits.nonzeroBitCount {
                if storage.tracker != nil { track(.rejection, from: from, event: event, reason: "output data does not match the contract") }
                throw mismatch()
            }
        }
        // The branch is the values the step sent for the valued keys it adds, the first key varying slowest.
        let layout = rules.layout
        var branch = 0
        for k in rules.addValued[s][index] {
            guard let value = output(rules.keys[k]) else { throw mismatch() }
            guard let text = rules.values.text(value), let position = layout.domains[k].firstIndex(of: text) else {
                if storage.tracker != nil { track(.rejection, from: from, event: event, reason: "a value outside its domain") }
                throw .valueNotInDomain(state: from, event: event, key: rules.keys[k])
            }
            branch = branch * layout.domains[k].count + position
        }
        let (row, keys, values) = rules.outcome(state: s, emission: index, branch: branch, from: frame)
        guard let row else {
            let error = TransitionError<State, Event>.noTransition(from: from, on: event)
            if storage.tracker != nil { track(.rejection, from: from, event: event, reason: error.description) }
            throw .transition(error)
        }
        if row.reset {
            // The run ends and a new one starts at the variant's root: nothing to undo.
            let to = machine.initial
            machine.reset()
            storage.data.reset()
            storage.frames.removeAll(keepingCapacity: true)
            storage.frames.append(rules.root)
            if storage.tracker != nil { track(.reset, from: from, event: event, to: to) }
            if storage.presenter != nil { present() }
            return Transition(from: from, on: event, to: to)
        }
        let transition: Transition<State, Event>
        do {
            transition = try machine.move(on: event, to: rules.states[row.to.index])
        } catch {
            throw .transition(error)
        }
        let childKeys = keys & ~row.clearKeys
        let childValues = values & ~row.clearValues
        let sentBits = rules.outputBits[s][index]
        storage.data.beginFrame()
        var bits = rules.touched[s][index] | row.clearKeys
        while bits != 0 {
            let k = bits.trailingZeroBitCount
            bits &= bits - 1
            let key = rules.keys[k]
            let sentValue = sentBits & (1 << UInt64(k)) != 0 ? output(key) : nil
            storage.data.write(key, rules.value(of: k, keys: childKeys, values: childValues, output: sentValue))
        }
        storage.frames.append((childKeys, childValues))
        let data = storage.tracker == nil ? nil : rules.trackedData(state: s, emission: index, row: row, keys: childKeys, values: childValues)
        entered(transition, added: data?.added ?? [], cleared: data?.cleared, values: data?.values)
        return transition
    }

    /// The events the current step offers now that some branch of takes a row, in declaration order.
    func _enabledByRules(_ rules: SessionRules<State, Event, Key, Value>) -> [Event] {
        guard let s = rules.id(of: machine.state) else { return [] }
        return contract.emits.compactMap { emission in
            guard let e = rules.id(of: emission.event), let index = rules.emission(e, in: s),
                  rules.accepts(state: s, emission: index, in: storage.frames[storage.frames.count - 1]) else { return nil }
            return emission.event
        }
    }
}

private extension Array where Element == (keys: UInt64, values: UInt64) {
}
