/// How a session's values are read and made: a valued key's value as its domain text, a counter's count.
struct SessionValues<Value> {
    /// The domain text of a value, or `nil` when it is not text.
    var text: (Value) -> String?
    /// A value holding domain text (a value `set` by the flow, a config value).
    var makeText: (String) -> Value
    /// A value holding a counter's count.
    var makeCount: (Int) -> Value
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
    let model: FlowModel
    /// The variant this session runs in: an index into ``FlowModel/roots``.
    let variant: Int
    let values: SessionValues<Value>
    /// The app's state, event and key for each model id.
    let states: [State]
    let keys: [Key]
    private let stateIndex: [State: Int]
    private let eventIndex: [Event: Int]
    private let keyIndex: [Key: Int]
    /// Per state, per emission: the keys the step's output must carry (presence keys, then valued keys it adds).
    let outputKeys: [[[Int]]]
    /// Per state, per emission: every key its effects may change, as bits (rows' clears are added per row).
    let touched: [[UInt64]]
    /// The dense frame of each step, root first: parallel to the machine's history.
    var frames: [(keys: UInt64, values: UInt64)]
    /// The config values of the variant, as the app's values.
    let config: [Key: Value]

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
        self.outputKeys = model.emissions.map { list in
            list.map { emission in
                (0..<model.keys.count).filter { emission.addKeys & (1 << UInt64($0)) != 0 } + emission.addValued
            }
        }
        self.touched = model.emissions.map { list in
            list.map { emission in
                var bits = emission.clearKeys | emission.addKeys
                for key in emission.addValued + emission.setKeys + emission.increment { bits |= 1 << UInt64(key) }
                for key in 0..<model.keys.count where emission.clearValues & layout.mask(key) != 0 { bits |= 1 << UInt64(key) }
                return bits
            }
        }
        let root = model.roots[variant]
        self.frames = [(root.keys, root.values)]
        var config: [Key: Value] = [:]
        for key in 0..<model.keys.count where layout.isConfig[key] {
            if let text = layout.shown(key, keys: root.keys, values: root.values) { config[keys[key]] = values.makeText(text) }
        }
        self.config = config
    }

    /// The model's id of `state`, `event`, `key`: the id itself for dense ids, else by name.
    @inline(__always) func id(of state: State) -> Int? { _DenseIndex.index(state) ?? stateIndex[state] }
    @inline(__always) func id(of event: Event) -> Int? { _DenseIndex.index(event) ?? eventIndex[event] }
    @inline(__always) func id(of key: Key) -> Int? { _DenseIndex.index(key) ?? keyIndex[key] }

    /// Drops the top frame (an undo), keeping the root.
    @usableFromInline func popFrame() {
        if frames.count > 1 { frames.removeLast() }
    }

    /// Back to the variant's root frame alone.
    func resetFrames() {
        frames.removeAll(keepingCapacity: true)
        frames.append(frame: model.roots[variant])
    }

    /// The current frame.
    var frame: (keys: UInt64, values: UInt64) { frames[frames.count - 1] }

    /// The index of `event`'s emission in the step of `state`, if the step emits it.
    func emission(_ event: Int, in state: Int) -> Int? {
        model.emissions[state].firstIndex { $0.event.index == event }
    }

    /// Where the emission leads from the current frame for `branch`, and the data after its effects.
    func outcome(state: Int, emission index: Int, branch: Int) -> (row: FlowModel.GuardedRow?, keys: UInt64, values: UInt64) {
        let emission = model.emissions[state][index]
        let frame = self.frame
        let (keys, values) = model.applying(emission, branch: branch, keys: frame.keys, values: frame.values)
        let row = emission.rows.first { $0.when?.holds(state: Int32(state), keys: keys, values: values, layout: model.layout) ?? true }
        return (row, keys, values)
    }

    /// Whether the step of `state` offers its emission `index` now and some branch of it has a row that fires.
    func accepts(state: Int, emission index: Int) -> Bool {
        let emission = model.emissions[state][index]
        let frame = self.frame
        guard model.offers(emission, state: state, keys: frame.keys, values: frame.values) else { return false }
        return (0..<emission.branchCount(model.layout)).contains { outcome(state: state, emission: index, branch: $0).row != nil }
    }

    /// The value the app holds for key `k` in the frame `(keys, values)`: `output` for a key the step
    /// sent, the domain text of a valued key, a counter's count (nothing at 0), nothing when absent.
    func value(of k: Int, keys: UInt64, values: UInt64, output: Value?) -> Value? {
        let layout = model.layout
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
    @usableFromInline
    func _sendByRules(_ rules: SessionRules<State, Event, Key, Value>, _ event: Event, sent: [Key]?,
                      output: (Key) -> Value?) throws(FlowError<State, Event, Key>) -> Transition<State, Event> {
        let from = machine.state
        let model = rules.model
        guard let s = rules.id(of: from), let e = rules.id(of: event), let index = rules.emission(e, in: s) else {
            if storage.tracker != nil { track(.rejection, from: from, event: event, reason: "not in the output contract") }
            throw .eventNotInContract(state: from, event: event)
        }
        let emission = model.emissions[s][index]
        let frame = rules.frame
        guard model.offers(emission, state: s, keys: frame.keys, values: frame.values) else {
            if storage.tracker != nil { track(.rejection, from: from, event: event, reason: "not offered now") }
            throw .eventNotOffered(state: from, event: event)
        }
        let expected = rules.outputKeys[s][index].map { rules.keys[$0] }
        if let sent, sent.count != expected.count || !expected.allSatisfy(sent.contains) {
            if storage.tracker != nil { track(.rejection, from: from, event: event, reason: "output data does not match the contract") }
            throw .outputMismatch(state: from, event: event, expected: expected, got: sent)
        }
        // The branch is the values the step sent for the valued keys it adds, the first key varying slowest.
        var branch = 0
        var outputs: [Int: Value] = [:]
        for k in rules.outputKeys[s][index] {
            guard let value = output(rules.keys[k]) else {
                throw .outputMismatch(state: from, event: event, expected: expected, got: sent ?? [])
            }
            outputs[k] = value
            guard case let .valued(count) = model.layout.kinds[k] else { continue }
            guard let text = rules.values.text(value), let position = model.layout.domains[k].firstIndex(of: text) else {
                if storage.tracker != nil { track(.rejection, from: from, event: event, reason: "a value outside its domain") }
                throw .valueNotInDomain(state: from, event: event, key: rules.keys[k])
            }
            branch = branch * count + position
        }
        let (row, keys, values) = rules.outcome(state: s, emission: index, branch: branch)
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
            rules.resetFrames()
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
        var changes: [(key: Key, value: Value?)] = []
        var bits = rules.touched[s][index] | row.clearKeys
        while bits != 0 {
            let k = bits.trailingZeroBitCount
            bits &= bits - 1
            changes.append((rules.keys[k], rules.value(of: k, keys: childKeys, values: childValues, output: outputs[k])))
        }
        storage.data.push(changes: changes)
        rules.frames.append((childKeys, childValues))
        entered(transition)
        return transition
    }

    /// The events the current step offers now that some branch of takes a row, in declaration order.
    func _enabledByRules(_ rules: SessionRules<State, Event, Key, Value>) -> [Event] {
        guard let s = rules.id(of: machine.state) else { return [] }
        return contract.emits.compactMap { emission in
            guard let e = rules.id(of: emission.event), let index = rules.emission(e, in: s),
                  rules.accepts(state: s, emission: index) else { return nil }
            return emission.event
        }
    }
}

private extension Array where Element == (keys: UInt64, values: UInt64) {
    mutating func append(frame root: FlowModel.Root) { append((root.keys, root.values)) }
}
