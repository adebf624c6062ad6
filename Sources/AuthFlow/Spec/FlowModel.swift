/// A validated flow with its names interned into dense ids and bit sets: what the runtime and the checker run on.
///
/// Build one from a ``FlowSpec`` (loaded from JSON by ``SpecLoader`` or declared in Swift with
/// ``FlowDefinition``); both paths produce the same model. All per-node data the checker needs
/// is in flat arrays indexed by id, so exploration touches no strings and no dictionaries.
public struct FlowModel: Sendable {
    /// One forward move a step can make: the event it sends, the keys it adds, and where the table sends it.
    public struct Move: Hashable, Sendable {
        /// The event.
        public var event: EventID
        /// The data keys the event adds.
        public var adds: KeySet
        /// The added keys in declaration order (the order values are generated and pushed).
        public var addedKeys: [KeyID]
        /// The target state, or `nil` when the table has no transition (an illegal transition).
        public var target: StateID?
    }

    /// One declared row of the transition table, by id.
    public struct Row: Hashable, Sendable {
        public var from: StateID
        public var event: EventID
        public var to: StateID

        public init(from: StateID, event: EventID, to: StateID) {
            self.from = from
            self.event = event
            self.to = to
        }
    }

    /// The spec this model was built from.
    public let spec: FlowSpec
    /// The flow's name, or `nil`.
    public var name: String? { spec.name }
    /// State names, indexed by ``StateID``, in step declaration order.
    public let states: [String]
    /// Event names, indexed by ``EventID``, in order of first appearance.
    public let events: [String]
    /// Data key names, indexed by ``KeyID``, in order of first appearance.
    public let keys: [String]
    /// The initial state.
    public let initial: StateID
    /// Whether each state is terminal (success or abort).
    public let isTerminal: [Bool]
    /// Whether each state is a success state.
    public let isSuccess: [Bool]
    /// Whether each state is an abort state.
    public let isAbort: [Bool]
    /// Each state's input contract.
    public let requires: [KeySet]
    /// Whether back is allowed from each state (`back` of its step).
    public let canGoBack: [Bool]
    /// Each state's forward moves, in emits declaration order.
    public let moves: [[Move]]
    /// The declared transition table, deduplicated, in declaration order.
    public let rows: [Row]
    /// The keys a report must never print values of.
    public let secrets: KeySet
    /// The one-time-passcode policy (the default when the spec has none).
    public let passcode: PasscodePolicy
    /// Warnings found while validating (identical duplicate transitions and the like).
    public let warnings: [SpecIssue]

    let stateIndex: [String: StateID]
    let eventIndex: [String: EventID]
    let keyIndex: [String: KeyID]

    /// The id of the state named `name`, if the flow has it.
    public func state(named name: String) -> StateID? { stateIndex[name] }
    /// The id of the event named `name`, if the flow has it.
    public func event(named name: String) -> EventID? { eventIndex[name] }
    /// The id of the data key named `name`, if the flow has it.
    public func key(named name: String) -> KeyID? { keyIndex[name] }

    /// The name of `state`.
    @inlinable public func name(of state: StateID) -> String { states[state.index] }
    /// The name of `event`.
    @inlinable public func name(of event: EventID) -> String { events[event.index] }
    /// The name of `key`.
    @inlinable public func name(of key: KeyID) -> String { keys[key.index] }
    /// The names of `set`'s keys, in id order.
    public func names(of set: KeySet) -> [String] { set.map { keys[$0.index] } }

    /// The number of states.
    @inlinable public var stateCount: Int { states.count }

    /// Validates `spec` and interns it.
    ///
    /// - Parameters:
    ///   - spec: the flow, by name.
    ///   - locations: where each JSON path starts in the source file, to put line:column on errors.
    ///   - file: the file name errors mention.
    /// - Throws: ``InvalidSpecError`` listing every problem: references to states that are not
    ///   steps, the reserved event `back`, non-deterministic transitions, more than 64 data keys.
    ///   At most ``SpecLimits/maxIssues`` are listed, then one that counts the rest.
    /// - Complexity: O(*n* log *n*) in the size of the spec, and memory in proportion to it.
    public init(spec: FlowSpec, locations: [String: SourceLocation] = [:], file: String? = nil) throws(InvalidSpecError) {
        var issues = _SpecIssueList()
        var warnings: [SpecIssue] = []
        func fail(_ path: @autoclosure () -> String, _ message: @autoclosure () -> String) {
            issues.append {
                let path = path()
                return SpecIssue(path: path, location: locations[path], message: message())
            }
        }
        func shown(_ name: String) -> String { SpecLimits.shown(name) }

        self.spec = spec
        var stateIndex: [String: StateID] = [:]
        var states: [String] = []
        for (i, step) in spec.steps.enumerated() {
            if stateIndex[step.state] != nil {
                fail(JSONPath.root.member("steps").member(step.state).text, "step '\(shown(step.state))' is declared twice")
                continue
            }
            stateIndex[step.state] = StateID(states.count)
            states.append(step.state)
            _ = i
        }
        if spec.steps.isEmpty { fail("$.steps", "a flow needs at least one step") }

        // Names a report will print. A spec file's names were screened by the loader already;
        // a flow declared in Swift meets the same limits here.
        var screened = Set<String>()
        func screen(_ name: String, at path: JSONPath, what: String) {
            guard screened.insert(what + "\u{0}" + name).inserted, let problem = SpecLimits.nameProblem(name, what: what) else { return }
            fail(path.text, problem)
        }
        if let name = spec.name, let problem = SpecLimits.visibilityProblem(name, what: "the flow's name") { fail("$.name", problem) }
        for step in spec.steps {
            let stepPath = JSONPath.root.member("steps").member(step.state)
            screen(step.state, at: stepPath, what: "state name")
            for (i, key) in step.requires.enumerated() { screen(key, at: stepPath.member("requires").index(i), what: "data key") }
            for emission in step.emits {
                screen(emission.event, at: stepPath.member("emits").member(emission.event), what: "event name")
                for (i, key) in emission.adds.enumerated() {
                    screen(key, at: stepPath.member("emits").member(emission.event).index(i), what: "data key")
                }
            }
        }
        for (i, row) in spec.transitions.enumerated() {
            screen(row.on, at: JSONPath.root.member("transitions").index(i).member("on"), what: "event name")
        }

        var eventIndex: [String: EventID] = [:]
        var events: [String] = []
        func internEvent(_ name: String) -> EventID {
            if let id = eventIndex[name] { return id }
            let id = EventID(events.count)
            eventIndex[name] = id
            events.append(name)
            return id
        }
        var keyIndex: [String: KeyID] = [:]
        var keys: [String] = []
        func internKey(_ name: String) -> KeyID {
            if let id = keyIndex[name] { return id }
            let id = KeyID(keys.count)
            keyIndex[name] = id
            keys.append(name)
            return id
        }

        func checkState(_ name: String, at path: String, role: String) -> StateID? {
            if let id = stateIndex[name] { return id }
            fail(path, "\(role) '\(shown(name))' is not a step (steps: \(Self.listed(states)))")
            return nil
        }

        let root = JSONPath.root
        let initial = checkState(spec.initial, at: "$.initial", role: "initial state")
        var isSuccess = [Bool](repeating: false, count: states.count)
        var isAbort = [Bool](repeating: false, count: states.count)
        for (i, name) in spec.success.enumerated() {
            if let id = checkState(name, at: root.member("success").index(i).text, role: "success state") { isSuccess[id.index] = true }
        }
        for (i, name) in spec.abort.enumerated() {
            if let id = checkState(name, at: root.member("abort").index(i).text, role: "abort state") {
                if isSuccess[id.index] {
                    warnings.append(SpecIssue(path: root.member("abort").index(i).text, location: locations[root.member("abort").index(i).text],
                                              message: "'\(shown(name))' is both a success and an abort state"))
                }
                isAbort[id.index] = true
            }
        }

        var requires = [KeySet](repeating: KeySet(), count: states.count)
        var canGoBack = [Bool](repeating: true, count: states.count)
        var emitted: [[(event: EventID, adds: [KeyID], path: String)]] = Array(repeating: [], count: states.count)
        var keyOverflow = false
        func key(_ name: String, at path: String) -> KeyID? {
            let id = internKey(name)
            if id.index >= KeySet.capacity {
                if !keyOverflow { fail(path, "a flow may use at most \(KeySet.capacity) distinct data keys; '\(shown(name))' is one too many") }
                keyOverflow = true
                return nil
            }
            return id
        }
        for step in spec.steps {
            guard let id = stateIndex[step.state], states[id.index] == step.state,
                  emitted[id.index].isEmpty, requires[id.index].isEmpty else { continue }
            let stepPath = root.member("steps").member(step.state)
            canGoBack[id.index] = step.back
            for (i, name) in step.requires.enumerated() {
                if let key = key(name, at: stepPath.member("requires").index(i).text) { requires[id.index].insert(key) }
            }
            var seenEvents = Set<String>()
            for emission in step.emits {
                let eventPath = stepPath.member("emits").member(emission.event).text
                if emission.event == "back" {
                    fail(eventPath, "'back' is reserved for undo; a step cannot emit it")
                    continue
                }
                if !seenEvents.insert(emission.event).inserted {
                    fail(eventPath, "event '\(shown(emission.event))' is listed twice in this step's emits")
                    continue
                }
                let event = internEvent(emission.event)
                var added: [KeyID] = []
                for (i, name) in emission.adds.enumerated() {
                    if let key = key(name, at: stepPath.member("emits").member(emission.event).index(i).text), !added.contains(key) {
                        added.append(key)
                    }
                }
                emitted[id.index].append((event, added, eventPath))
            }
        }

        var secrets = KeySet()
        for (i, name) in spec.secrets.enumerated() {
            if let key = key(name, at: root.member("secrets").index(i).text) { secrets.insert(key) }
        }

        // The table: deterministic, references checked, `back` reserved.
        var rows: [Row] = []
        var rowIndex: [Int64: (to: StateID, position: Int)] = [:]
        for (i, row) in spec.transitions.enumerated() {
            let rowPath = root.member("transitions").index(i)
            let from = checkState(row.from, at: rowPath.member("from").text, role: "transition source")
            let to = checkState(row.to, at: rowPath.member("to").text, role: "transition target")
            if row.on == "back" {
                fail(rowPath.member("on").text, "'back' is reserved for undo; it cannot be used in a transition")
                continue
            }
            let event = internEvent(row.on)
            guard let from, let to else { continue }
            let trigger = Int64(from.rawValue) << 32 | Int64(event.rawValue)
            if let existing = rowIndex[trigger] {
                let existingPath = root.member("transitions").index(existing.position).text
                let at = locations[existingPath].map { " (line \($0.line))" } ?? ""
                if existing.to == to {
                    warnings.append(SpecIssue(path: rowPath.text, location: locations[rowPath.text],
                                              message: "duplicate of transitions[\(existing.position)]\(at): \(shown(row.from)) --\(shown(row.on))--> \(shown(row.to)); ignored"))
                } else {
                    fail(rowPath.text, "non-deterministic: \(shown(row.from)) --\(shown(row.on))--> \(shown(row.to)) conflicts with transitions[\(existing.position)]\(at), which goes to \(shown(states[existing.to.index]))")
                }
                continue
            }
            rowIndex[trigger] = (to, i)
            rows.append(Row(from: from, event: event, to: to))
        }

        if !issues.isEmpty {
            throw InvalidSpecError(file: file, issues: issues.reported(by: SpecIssue.inDocumentOrder))
        }

        self.moves = emitted.enumerated().map { state, list in
            list.map { entry in
                let target = rowIndex[Int64(state) << 32 | Int64(entry.event.rawValue)]?.to
                return Move(event: entry.event, adds: KeySet(entry.adds), addedKeys: entry.adds, target: target)
            }
        }
        self.states = states
        self.events = events
        self.keys = keys
        self.stateIndex = stateIndex
        self.eventIndex = eventIndex
        self.keyIndex = keyIndex
        self.initial = initial!
        self.isSuccess = isSuccess
        self.isAbort = isAbort
        self.isTerminal = zip(isSuccess, isAbort).map { $0 || $1 }
        self.requires = requires
        self.canGoBack = canGoBack
        self.rows = rows
        self.secrets = secrets
        self.passcode = spec.passcode ?? .default
        self.warnings = warnings
    }

    static func listed(_ names: [String]) -> String {
        let shown = names.prefix(12).map(SpecLimits.shown).joined(separator: ", ")
        return names.count <= 12 ? shown : shown + ", … (\(names.count) in all)"
    }
}
