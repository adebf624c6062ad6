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
    /// The model's moves on dense ids, and per emission what its effects touch and its output carries.
    @usableFromInline let moves: SessionMoves
    /// Per emission (flat, as ``SessionMoves/emissionStart``): the valued keys it adds, in declaration
    /// order (the branch is their values), as `addValuedKeys[addValuedStart[e] ..< addValuedStart[e + 1]]`.
    @usableFromInline let addValuedStart: [Int]
    @usableFromInline let addValuedKeys: [Int]
    /// Parallel to ``addValuedKeys``: how many answers each may take (its domain's size, or how many the emission lists),
    /// and from `addValuedChoiceStart[position]`, per value index of its domain, the answer's place in branch order (-1:
    /// not an answer it may take). One flat list: a list per key cost a retain and a search per move.
    @usableFromInline let addValuedChoiceCount: [Int]
    @usableFromInline let addValuedChoiceStart: [Int]
    @usableFromInline let addValuedChoiceOf: [Int]
    /// The model's layout and the variant's root frame, held apart so a move reads no other part of the model.
    @usableFromInline let layout: DataLayout
    /// Per key: its domain's values as the app's values (`makeText` of each text), made once, so a move neither
    /// makes a value per key it writes nor reads a value's text to find its branch.
    @usableFromInline let domainValues: [[Value]]
    /// Every domain's values one after another: key `k`'s value `i` is `domainFlat[layout.fields[k].start + i]` below
    /// `layout.fields[k].end`. What a move reads to make a key's value, with one look per key (a list per key cost a
    /// retain and two bounds checks per value made).
    @usableFromInline let domainFlat: [Value]
    /// The valued keys, as bits by key id.
    @usableFromInline let valuedBits: UInt64
    /// Parallel to ``domainValues``: the UTF-8 length of each value that is a ``FlowValue`` text (-1 for any other), so
    /// ``domainIndex(of:key:)`` compares a text only with the domain's texts of its length.
    @usableFromInline let domainTextLengths: [[Int]]
    @usableFromInline private(set) var root: (keys: UInt64, values: UInt64)
    /// The counters, as bits by key id (a counter has no presence bit: its value is its count).
    @usableFromInline let counterBits: UInt64
    /// Section 5: the server-side counters, as bits by key id (a counter has no presence bit to find it by).
    @usableFromInline let serverCounters: UInt64
    /// Section 5: the server-side keys, by id (empty in a flow without them).
    @usableFromInline let serverKeyIDs: [Int]
    /// Section 5: whether the user's back is more than taking off one frame (server-side keys, or rows that replace).
    @usableFromInline let usesSection5History: Bool

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
        self.serverKeyIDs = layout.isServer.indices.filter { layout.isServer[$0] }
        self.counterBits = layout.kinds.indices.reduce(0) { layout.isCounter($1) ? $0 | 1 << UInt64($1) : $0 }
        self.serverCounters = serverKeyIDs.reduce(0) { layout.isCounter($1) ? $0 | 1 << UInt64($1) : $0 }
        self.usesSection5History = !serverKeyIDs.isEmpty || model.emissions.joined().contains { $0.rows.contains(where: \.replace) }
        let domainValues = layout.domains.map { $0.map(values.makeText) }
        self.domainValues = domainValues
        self.domainFlat = Array(domainValues.joined())
        self.valuedBits = layout.kinds.indices.reduce(0) { layout.isValued($1) ? $0 | 1 << UInt64($1) : $0 }
        self.domainTextLengths = domainValues.map { $0.map { Self.textLength($0) ?? -1 } }
        self.moves = SessionMoves(model: model)
        var addValuedStart = [0], addValuedKeys: [Int] = []
        var choiceCount: [Int] = [], choiceStart: [Int] = [], choiceOf: [Int] = []
        for emission in model.emissions.joined() {
            addValuedKeys += emission.addValued
            addValuedStart.append(addValuedKeys.count)
            for (i, key) in emission.addValued.enumerated() {
                let choices = emission.addChoices.indices.contains(i) ? emission.addChoices[i] : []
                choiceCount.append(choices.count)
                choiceStart.append(choiceOf.count)
                var places = [Int](repeating: -1, count: layout.domains[key].count)
                for (place, index) in choices.enumerated() where places.indices.contains(index) { places[index] = place }
                choiceOf += places
            }
        }
        self.addValuedStart = addValuedStart
        self.addValuedKeys = addValuedKeys
        self.addValuedChoiceCount = choiceCount
        self.addValuedChoiceStart = choiceStart
        self.addValuedChoiceOf = choiceOf
        self.root = (model.roots[variant].keys, model.roots[variant].values)
        self.outputKeys = model.emissions.map { list in
            list.map { $0.outputKeys(keyCount: model.keys.count) }
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
    @inlinable @inline(__always) func emission(_ event: Int, in state: Int) -> Int? {
        moves.emission(event, in: state)
    }

    /// Whether the step of `state` offers its emission `index` now and some branch of it has a row that fires.
    @inlinable @inline(__always) func accepts(state: Int, emission index: Int, in frame: (keys: UInt64, values: UInt64)) -> Bool {
        moves.accepts(state: state, emission: index, keys: frame.keys, values: frame.values)
    }

    /// The UTF-8 length of `value` when it is a ``FlowValue`` text (the runtime's own values), else `nil`.
    @inlinable @inline(__always) static func textLength(_ value: Value) -> Int? {
        // A test on the type: it folds away in code specialised for the value type.
        guard Value.self == FlowValue.self, case let .string(text) = value as! FlowValue else { return nil }
        return text.utf8.count
    }

    /// The index of `value` in key `k`'s domain (its first equal value: a domain lists no value twice).
    ///
    /// A text is compared first only with the domain's texts of its length: `==` on two long texts of different
    /// lengths reads their bytes, and the walk sends every answer of a 25-text domain from every frame. A text equal
    /// to a domain text of another length (canonically equivalent, other bytes) is found by the whole search after.
    @inlinable @inline(__always) func domainIndex(of value: Value, key k: Int) -> Int? {
        if let length = Self.textLength(value) {
            let lengths = domainTextLengths[k]
            for i in lengths.indices where lengths[i] == length && domainValues[k][i] == value { return i }
        }
        return domainValues[k].firstIndex(of: value)
    }

    /// The value the app holds for key `k` in the frame `(keys, values)`: `output` for a key the step
    /// sent, the domain text of a valued key, a counter's count (nothing at 0), nothing when absent.
    @inlinable func value(of k: Int, keys: UInt64, values: UInt64, output: Value?) -> Value? {
        let bit: UInt64 = 1 << UInt64(k)
        if counterBits & bit != 0 {
            let count = layout.fields[k].field(in: values)
            return count == 0 ? nil : self.values.makeCount(count)
        }
        guard keys & bit != 0 else { return nil }
        if let output { return output }
        if valuedBits & bit != 0 {
            let field = layout.fields[k]
            let position = field.start &+ field.field(in: values)
            if position < field.end { return domainFlat[position] }
        }
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

/// Why a session refused an event by its `authflow/2` rules, without the values a thrown ``FlowError`` carries:
/// the checker sends millions of refused events and needs only that they were refused.
@usableFromInline
enum _RulesRefusal<State: Hashable, Event: Hashable> {
    case notInContract, notOffered
    /// The output's keys are not the contract's (`tracked`: the tracker records it).
    case mismatch(tracked: Bool)
    /// The value of key `k` (a model id) is outside its domain.
    case notInDomain(Int)
    case noRow
    case machine(TransitionError<State, Event>)
}

extension FlowSession {
    /// Handles `event` by the flow's `authflow/2` rules, with `output(key)` the value the step sent for each key it adds.
    ///
    /// Inlinable, like the rest of the session's hot path, so the checker's dense ids get a specialised copy.
    @inlinable @inline(never)
    func _sendByRules(_ rules: SessionRules<State, Event, Key, Value>, _ event: Event, sent: [Key]?,
                      output: (Key) -> Value?) throws(FlowError<State, Event, Key>) -> Transition<State, Event> {
        var refusal: _RulesRefusal<State, Event>?
        if let transition = _moveByRules(rules, event, sent: sent, refusal: &refusal, output: output) { return transition }
        throw _rulesError(rules, event, sent: sent, refusal: refusal ?? .noRow)
    }

    /// The error ``_sendByRules(_:_:sent:output:)`` throws for `refusal`, recorded by the tracker as the session always has.
    @usableFromInline @inline(never)
    func _rulesError(_ rules: SessionRules<State, Event, Key, Value>, _ event: Event, sent: [Key]?,
                     refusal: _RulesRefusal<State, Event>) -> FlowError<State, Event, Key> {
        let from = machine.state
        func reject(_ reason: String) {
            if storage.tracker != nil { track(.rejection, from: from, event: event, reason: reason) }
        }
        func mismatch() -> FlowError<State, Event, Key> {
            guard let s = rules.id(of: from), let e = rules.id(of: event), let index = rules.emission(e, in: s) else {
                return .outputMismatch(state: from, event: event, expected: [], got: sent ?? [])
            }
            return .outputMismatch(state: from, event: event, expected: rules.outputKeys[s][index].map { rules.keys[$0] }, got: sent ?? [])
        }
        switch refusal {
        case .notInContract:
            reject("not in the output contract")
            return .eventNotInContract(state: from, event: event)
        case .notOffered:
            reject("not offered now")
            return .eventNotOffered(state: from, event: event)
        case let .mismatch(tracked):
            if tracked { reject("output data does not match the contract") }
            return mismatch()
        case let .notInDomain(k):
            reject("a value outside its domain")
            return .valueNotInDomain(state: from, event: event, key: rules.keys[k])
        case .noRow:
            let error = TransitionError<State, Event>.noTransition(from: from, on: event)
            reject(error.description)
            return .transition(error)
        case let .machine(error):
            return .transition(error)
        }
    }

    /// Whether the session runs its flow by `authflow/2` rules (where ``trySend(_:value:)`` builds no error for a refusal).
    @inlinable package var runsByRules: Bool { _rules != nil }

    /// Sends `event` by the flow's `authflow/2` rules and answers only whether it was accepted: the checker's
    /// path, which builds no error for the refused events it sends at every frame. A tracked or busy session,
    /// or one without rules, takes ``send(_:value:)`` (its rejections are recorded, its re-entrant calls refused).
    @inlinable
    package func trySend(_ event: Event, value: (Key) -> Value) -> Bool {
        guard _rules != nil, !storage.busy, storage.tracker == nil else { return (try? send(event, value: value)) != nil }
        storage.busy = true
        var refusal: _RulesRefusal<State, Event>?
        // Nothing between here and `end()` throws: ended in line, not by a `defer` (a call of its own per move).
        let moved = _moveByRules(_rules.unsafelyUnwrapped, event, sent: nil, refusal: &refusal) { value($0) } != nil
        end()
        return moved
    }

    /// Moves on `event` by the flow's `authflow/2` rules: the transition, or `nil` with why in `refusal` and nothing changed.
    @inlinable @inline(__always)
    func _moveByRules(_ rules: SessionRules<State, Event, Key, Value>, _ event: Event, sent: [Key]?,
                      refusal: inout _RulesRefusal<State, Event>?, output: (Key) -> Value?) -> Transition<State, Event>? {
        let from = machine.state
        guard let s = rules.id(of: from), let e = rules.id(of: event), let index = rules.emission(e, in: s) else {
            refusal = .notInContract
            return nil
        }
        let frame = storage.frames.last.frame
        let moves = rules.moves
        let d = moves.decisions(state: s, frame: storage.frames.lastPointer)
        guard moves.offers(d, state: s, emission: index, keys: frame.keys, values: frame.values) else {
            refusal = .notOffered
            return nil
        }
        let flat = moves.emissionStart[s] + index
        let sentBits = moves.outputBits[flat]
        if let sent, !Self._sends(sent, exactly: sentBits, rules) {
            refusal = .mismatch(tracked: true)
            return nil
        }
        // The branch is the values the step sent for the valued keys it adds, the first key varying slowest.
        let layout = rules.layout
        var branch = 0
        for position in rules.addValuedStart[flat]..<rules.addValuedStart[flat + 1] {
            let k = rules.addValuedKeys[position]
            guard let value = output(rules.keys[k]) else {
                refusal = .mismatch(tracked: false)
                return nil
            }
            // The walk sends the domain's own values: found by equality first, by their text otherwise. Only the
            // answers the emission lists for the key (its whole domain unless it lists some) make a branch.
            guard let index = rules.domainIndex(of: value, key: k)
                ?? rules.values.text(value).flatMap({ layout.domains[k].firstIndex(of: $0) }),
                case let choice = rules.addValuedChoiceOf[rules.addValuedChoiceStart[position] + index], choice >= 0 else {
                refusal = .notInDomain(k)
                return nil
            }
            branch = branch * rules.addValuedChoiceCount[position] + choice
        }
        let (outcome, position) = moves.outcome(d, state: s, emission: index, branch: branch, keys: frame.keys, values: frame.values)
        guard outcome.fires else {
            refusal = .noRow
            return nil
        }
        if outcome.reset {
            // Rare (a row that starts the flow again), so kept out of the move's own code.
            return _resetByRow(rules, from: from, event: event, outcome: outcome, flat: flat, sentBits: sentBits, output: output)
        }
        let transition: Transition<State, Event>
        do {
            transition = try machine.move(on: event, to: rules.states[Int(outcome.to)])
        } catch {
            refusal = .machine(error)
            return nil
        }
        // A `"history": "replace"` row is a frame of its own too, marked: undo takes it off alone (as the checker
        // backtracks), the user's back takes it off with the frame it updated (see ``_backFrames``).
        storage.data.beginFrame()
        let childKeys = outcome.nextKeys
        let childValues = outcome.nextValues
        // A key the frame below holds no value for (no presence bit, not a counter) and the move leaves absent has nothing
        // to write: most keys a move may change are clears of keys absent already (3.7 a move on Amplify's authenticator,
        // 2.6 of them absent before and after), and visiting each cost a look into the data to find nothing to do.
        var bits = (moves.touched[flat] | outcome.touched) & (frame.keys | childKeys | rules.counterBits | sentBits)
        while bits != 0 {
            let k = bits.trailingZeroBitCount
            bits &= bits - 1
            let key = rules.keys[k]
            let bit: UInt64 = 1 << UInt64(k)
            // A key the move leaves absent (no presence bit, not a counter, not sent) has no value to make: most are
            // clears of keys absent already, which the data stack then skips.
            if (childKeys | rules.counterBits | sentBits) & bit == 0 {
                storage.data.write(key, nil)
                continue
            }
            if sentBits & bit != 0 && rules.counterBits & bit == 0 {
                // A key the step sent holds what it sent while the frame has it (``SessionRules/value(of:keys:values:output:)``
                // for a sent key), moved in as it is: no call, no copy.
                storage.data.write(key, childKeys & bit != 0 ? output(key) : nil)
                continue
            }
            storage.data.write(key, rules.value(of: k, keys: childKeys, values: childValues, output: nil))
        }
        var child = _SessionFrame((childKeys, childValues), replaced: outcome.replace)
        // The pushed frame's decisions are where the branch found them last time, if it did in this generation.
        (child.decision, child.from, child.generation) = (outcome.next, position, moves.decided.generation)
        storage.frames.append(child)
        if storage.tracker != nil {
            // Only a tracked session builds what the tracker records (no list is made or released per move otherwise).
            let data = rules.trackedData(state: s, emission: index, row: Int(outcome.fired), keys: childKeys, values: childValues)
            entered(transition, added: data.added, cleared: data.cleared, values: data.values)
        } else if storage.presenter != nil {
            present()
        }
        return transition
    }

    /// The move of a row that starts the flow again: the run ends and a new one starts at the variant's root with the keys
    /// the row keeps (nothing to undo). Part of ``_moveByRules(_:_:sent:refusal:output:)``.
    @usableFromInline @inline(never)
    func _resetByRow(_ rules: SessionRules<State, Event, Key, Value>, from: State, event: Event, outcome: SessionMoves.Outcome,
                     flat: Int, sentBits: UInt64, output: (Key) -> Value?) -> Transition<State, Event> {
        let moves = rules.moves
        // The run ends and a new one starts at the variant's root with the keys the row keeps: nothing to undo.
        let to = machine.initial
        var kept: [(Key, Value)] = []
        // Kept presence and valued keys have their bit; server-side counters (always kept) have none.
        var bits = outcome.nextKeys & ~rules.root.keys | rules.serverCounters
        while bits != 0 {
            let k = bits.trailingZeroBitCount
            bits &= bits - 1
            let key = rules.keys[k]
            // The value the app holds: what the step sent now, else what it held (unless the emission just changed it).
            let held = sentBits & (1 << UInt64(k)) != 0 ? output(key) : (moves.touched[flat] & (1 << UInt64(k)) != 0 ? nil : storage.data[key])
            if let value = rules.value(of: k, keys: outcome.nextKeys, values: outcome.nextValues, output: held) { kept.append((key, value)) }
        }
        machine.reset()
        storage.data.reset(keeping: kept)
        storage.frames.removeAll()
        storage.frames.append(_SessionFrame((outcome.nextKeys, outcome.nextValues), replaced: false))
        if storage.tracker != nil { track(.reset, from: from, event: event, to: to) }
        if storage.presenter != nil { present() }
        return Transition(from: from, on: event, to: to)
    }

    /// Whether the keys `sent` are exactly the keys `bits` (a model id's bit each), each once.
    @usableFromInline @inline(never)
    static func _sends(_ sent: [Key], exactly bits: UInt64, _ rules: SessionRules<State, Event, Key, Value>) -> Bool {
        var seen: UInt64 = 0
        for key in sent {
            guard let k = rules.id(of: key), bits & (1 << UInt64(k)) != 0 else { return false }
            seen |= 1 << UInt64(k)
        }
        return seen == bits && sent.count == bits.nonzeroBitCount
    }

    /// The events the current step offers now that some branch of takes a row, in declaration order.
    func _enabledByRules(_ rules: SessionRules<State, Event, Key, Value>) -> [Event] {
        guard let s = rules.id(of: machine.state) else { return [] }
        return contract.emits.compactMap { emission in
            guard let e = rules.id(of: emission.event), let index = rules.emission(e, in: s),
                  rules.accepts(state: s, emission: index, in: storage.frames.last.frame) else { return nil }
            return emission.event
        }
    }
}
