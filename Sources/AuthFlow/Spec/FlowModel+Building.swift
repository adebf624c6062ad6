extension FlowModel {
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
    ///   - deadline: when building stops with an ``InvalidSpecError`` whose ``InvalidSpecError/timedOut`` is set:
    ///     asked between the passes and every few thousand steps and rows within them.
    public init(spec: FlowSpec, locations: [String: SourceLocation] = [:], file: String? = nil,
                deadline: Deadline = .none) throws(InvalidSpecError) {
        // The order of the passes is the order issues are found in, and events and keys get
        // their ids in: steps, then names, terminals, the steps' contracts, secrets, the table.
        var builder = _FlowModelBuilder(spec: spec, locations: locations)
        builder.deadline = deadline
        let passes: [(inout _FlowModelBuilder) -> Void] = [
            { $0.internStates() }, { $0.screenNames() }, { $0.readTerminals() }, { $0.readDeclarations() }, { $0.readSteps() },
            { $0.readSecrets() }, { $0.readTransitions() }, { $0.compileSemantics() }, { $0.readIntent() }, { $0.readAssurance() },
            { $0.warnIgnoredSettings() },
        ]
        for pass in passes {
            pass(&builder)
            if builder.timedOut || deadline.hasPassed {
                throw InvalidSpecError.timedOut(file: file, deadline: deadline, while: "building the model")
            }
        }
        if !builder.issues.isEmpty {
            throw InvalidSpecError(file: file, issues: builder.issues.reported(by: SpecIssue.inDocumentOrder))
        }

        self.spec = spec
        self.moves = builder.moves()
        self.states = builder.states
        self.events = builder.events
        self.keys = builder.keys
        self.stateIndex = builder.stateIndex
        self.eventIndex = builder.eventIndex
        self.keyIndex = builder.keyIndex
        self.initial = builder.initial!
        self.isSuccess = builder.isSuccess
        self.isAbort = builder.isAbort
        self.isTerminal = zip(builder.isSuccess, builder.isAbort).map { $0 || $1 }
        self.requires = builder.requires
        self.canGoBack = builder.canGoBack
        self.rows = builder.rows
        self.secrets = builder.secrets
        self.outputs = builder.outputs
        self.passcode = spec.passcode ?? .default
        self.warnings = builder.warnings
        self.locations = locations
        self.format = spec.format
        self.layout = builder.layout!
        self.emissions = builder.emissions
        self.anyOf = builder.anyOf
        self.optional = builder.optional
        let variants = builder.variants()
        self.roots = variants.roots.map { Root(keys: $0.keys, values: $0.values) }
        self.variants = variants.descriptions
        self.anywhereOverrides = builder.anywhereOverrides
        self.isBackOnly = builder.isBackOnly
        self.properties = builder.userProperties
        self.assurance = builder.assurance ?? .unused(states: builder.states.count)
        // Static: the `/1` table (``moves``) says everything. `anywhere` rows are not in it, and system events,
        // `anyOf` and `optional` need the frame-by-frame lint (waits-on-system, keys read).
        self.isStatic = builder.emissions.allSatisfy { list in
            list.allSatisfy { emission in
                emission.when == nil && emission.clearKeys == 0 && emission.addValued.isEmpty && emission.setKeys.isEmpty
                    && emission.increment.isEmpty && emission.rows.count <= 1 && !emission.bySystem
                    && emission.rows.allSatisfy { $0.when == nil && $0.clearKeys == 0 && !$0.reset && !$0.hasEffects && !$0.replace }
            }
        } && builder.configKeys.isEmpty && builder.serverKeys.isEmpty && spec.anywhere.isEmpty
            && builder.anyOf.allSatisfy(\.isEmpty) && builder.optional.allSatisfy(\.isEmpty)
        for i in properties.indices { properties[i].text = properties[i].condition.text(self) }
    }
}

/// One ``FlowModel`` being built from a ``FlowSpec``: the names interned so far and the problems found.
///
/// Each pass reads one part of the spec and reports what is wrong with it, in the order
/// ``FlowModel/init(spec:locations:file:)`` calls them; nothing is thrown until every pass has run,
/// so an error lists every problem (up to ``SpecLimits/maxIssues``).
struct _FlowModelBuilder {
    let spec: FlowSpec
    let locations: [String: SourceLocation]
    var issues = _SpecIssueList()
    var warnings: [SpecIssue] = []

    var states: [String] = []
    var stateIndex: [String: StateID] = [:]
    var events: [String] = []
    var eventIndex: [String: EventID] = [:]
    var keys: [String] = []
    var keyIndex: [String: KeyID] = [:]
    /// Whether a key past ``KeySet/capacity`` has been reported (it is reported once).
    var keyOverflow = false

    var initial: StateID?
    var isSuccess: [Bool] = []
    var isAbort: [Bool] = []
    var requires: [KeySet] = []
    var canGoBack: [Bool] = []
    /// Each state's emitted events, with the keys they add, in declaration order.
    var emitted: [[(event: EventID, adds: [KeyID])]] = []
    var secrets = KeySet()
    var outputs = KeySet()
    // The semantics' form (every format): what each key holds, the variants, the compiled emissions.
    var kinds = [DataLayout.Kind](repeating: .presence, count: KeySet.capacity)
    var domains = [[String]](repeating: [], count: KeySet.capacity)
    var configKeys: [KeyID] = []
    /// Section 5: the keys declared `"server": true`, in declaration order.
    var serverKeys: [KeyID] = []
    /// Keys whose declaration in `data` or `config` was refused (reported once; their uses are not).
    var refusedKeys = Set<KeyID>()
    var fieldMasks: [UInt64] = []
    var layout: DataLayout?
    var emissions: [[FlowModel.Emission]] = []
    /// Per state: its step's `entry` effects, compiled (empty when it has none).
    var entries: [FlowModel.Effects] = []
    var anyOf: [[KeySet]] = []
    var optional: [KeySet] = []
    /// Per accepted transition (by its index in the spec): its index in ``rows``.
    var rowOfTransition: [Int: Int] = [:]
    /// `anywhere` rows a state's own emission or row overrides, as `state.event` (lint).
    var anywhereOverrides: [String] = []
    /// The unguarded row of each `(from, event)`, with its position in `transitions`.
    var unguardedRow: [Int64: (to: StateID, position: Int)] = [:]
    var rows: [FlowModel.Row] = []
    /// Per state: whether its step is `backOnly`.
    var isBackOnly: [Bool] = []
    /// The user properties compiled, in declaration order.
    var userProperties: [FlowModel.UserProperty] = []
    /// Section 6 compiled (`factors`, steps' `assurance`), once ``readAssurance()`` has run.
    var assurance: FlowAssurance?
    /// The accepted rows keyed by `from << 32 | event`, with their position in `transitions`.
    var rowIndex: [Int64: (to: StateID, position: Int)] = [:]

    /// When building stops, leaving ``timedOut`` set.
    var deadline = Deadline.none
    /// Whether ``deadline`` stopped a pass: the model is partial and is not made.
    var timedOut = false

    init(spec: FlowSpec, locations: [String: SourceLocation]) {
        self.spec = spec
        self.locations = locations
    }

    /// Whether the deadline has passed, asked at item `i` of a pass over the steps or the rows: every 4,096 items.
    mutating func timeUp(_ i: Int) -> Bool {
        if !timedOut, i & 4095 == 4095, deadline.hasPassed { timedOut = true }
        return timedOut
    }

    // MARK: Reporting

    mutating func fail(_ path: @autoclosure () -> String, _ message: @autoclosure () -> String) {
        let locations = self.locations
        issues.append {
            let path = path()
            return SpecIssue(path: path, location: locations[path], message: message())
        }
    }

    mutating func warn(_ path: String, _ message: String) {
        warnings.append(SpecIssue(path: path, location: locations[path], message: message))
    }

    static func shown(_ name: String) -> String { SpecLimits.shown(name) }

    // MARK: Interning

    /// Gives each step's state an id, in declaration order; a state declared twice is an error.
    mutating func internStates() {
        for (i, step) in spec.steps.enumerated() {
            if timeUp(i) { break }
            if let existing = stateIndex[step.state] {
                let path = JSONPath.root.member("steps").member(step.state).text
                let problem = SpecLimits.normalisationProblem(step.state, states[existing.index], what: "step", existingWhat: "step")
                fail(path, problem ?? "step '\(Self.shown(step.state))' is declared twice")
                continue
            }
            stateIndex[step.state] = StateID(states.count)
            states.append(step.state)
        }
        if spec.steps.isEmpty { fail("$.steps", "a flow needs at least one step") }
        isSuccess = [Bool](repeating: false, count: states.count)
        isAbort = [Bool](repeating: false, count: states.count)
        requires = [KeySet](repeating: KeySet(), count: states.count)
        canGoBack = [Bool](repeating: true, count: states.count)
        emitted = Array(repeating: [], count: states.count)
    }

    /// The id of event `name`, given one when it is new; an event `String`'s `==` takes for one
    /// already named but written with other scalars is reported at `path` (the spec is then refused).
    mutating func internEvent(_ name: String, at path: @autoclosure () -> String) -> EventID {
        if let id = eventIndex[name] {
            if let problem = SpecLimits.normalisationProblem(name, events[id.index], what: "event name", existingWhat: "the event") {
                fail(path(), problem)
            }
            return id
        }
        let id = EventID(events.count)
        eventIndex[name] = id
        events.append(name)
        return id
    }

    /// The id of data key `name`, or `nil` (reported once, at `path`) past ``KeySet/capacity`` keys.
    mutating func key(_ name: String, at path: String) -> KeyID? {
        let id: KeyID
        if let existing = keyIndex[name] {
            if let problem = SpecLimits.normalisationProblem(name, keys[existing.index], what: "data key", existingWhat: "the data key") {
                fail(path, problem)
                return nil
            }
            id = existing
        } else {
            id = KeyID(keys.count)
            keyIndex[name] = id
            keys.append(name)
        }
        if id.index >= KeySet.capacity {
            if !keyOverflow { fail(path, "a flow may use at most \(KeySet.capacity) distinct data keys; '\(Self.shown(name))' is one too many") }
            keyOverflow = true
            return nil
        }
        return id
    }

    /// The id of the step named `name`; reported at `path`, as a `role`, when there is none.
    mutating func checkState(_ name: String, at path: String, role: String) -> StateID? {
        if let id = stateIndex[name] {
            guard let problem = SpecLimits.normalisationProblem(name, states[id.index], what: role, existingWhat: "step") else { return id }
            fail(path, problem)
            return nil
        }
        let states = self.states
        fail(path, Self.notAStep(name, role: role, states: states))
        return nil
    }

    /// The most steps ``notAStep(_:role:states:)`` searches for a near name.
    static let maxSearched = 128

    /// `success state 'Home' is not a step; did you mean 'home'? (names are case-sensitive)`: the
    /// step a typo or a capital letter stands for, when one is near, else the steps there are.
    static func notAStep(_ name: String, role: String, states: [String]) -> String {
        let head = "\(role) '\(shown(name))' is not a step"
        let folded = name.lowercased()
        if let same = states.first(where: { $0.lowercased() == folded }) {
            return head + "; did you mean '\(shown(same))'? (names are case-sensitive)"
        }
        // Past a hundred steps a search per reference costs more than a typo is worth: the list says how many there are.
        guard states.count <= maxSearched, let near = SpecLoader.suggestion(for: name, among: states) else {
            return head + " (steps: \(listed(states)))"
        }
        return head + "; did you mean '\(shown(near))'? (steps: \(listed(states)))"
    }

    /// Up to twelve names as a message lists them, then how many there are in all.
    static func listed(_ names: [String]) -> String {
        let shown = names.prefix(12).map(SpecLimits.shown).joined(separator: ", ")
        return names.count <= 12 ? shown : shown + ", … (\(names.count) in all)"
    }

    // MARK: Passes

    /// Holds every name a report will print to ``SpecLimits``' length and visibility limits.
    ///
    /// A spec file's names were screened by the loader already; a flow declared in Swift meets
    /// the same limits here. Each distinct name is reported once per kind.
    mutating func screenNames() {
        // By bytes: names String's == takes for one can differ in length (é precomposed and not).
        // A clean name (all of a loaded file's) costs one scan; paths are made only for the problems.
        var screened = Set<[UInt8]>()
        func screen(_ name: String, at path: @autoclosure () -> JSONPath, what: String) {
            guard let problem = SpecLimits.nameProblem(name, what: what), screened.insert(Array((what + "\u{0}" + name).utf8)).inserted else { return }
            fail(path().text, problem)
        }
        if let name = spec.name, let problem = SpecLimits.visibilityProblem(name, what: "the flow's name") { fail("$.name", problem) }
        for (s, step) in spec.steps.enumerated() {
            if timeUp(s) { return }
            let stepPath = { JSONPath.root.member("steps").member(step.state) }
            screen(step.state, at: stepPath(), what: "state name")
            let positions = step.requires.isEmpty ? nil : step.requirementIndices
            for (i, key) in step.requires.enumerated() { screen(key, at: stepPath().member("requires").index(positions?.keys[i] ?? i), what: "data key") }
            for (e, emission) in step.emits.enumerated() {
                if timeUp(e) { return }
                screen(emission.event, at: stepPath().member("emits").member(emission.event), what: "event name")
                for (i, key) in emission.adds.enumerated() {
                    screen(key, at: emission.addsPath(i, under: stepPath().member("emits").member(emission.event), format: spec.format),
                           what: "data key")
                }
            }
        }
        for (i, row) in spec.transitions.enumerated() {
            if timeUp(i) { return }
            screen(row.on, at: JSONPath.root.member("transitions").index(i).member("on"), what: "event name")
        }
    }

    /// Reads the initial state and the success and abort states; a state that is both is a warning.
    mutating func readTerminals() {
        let root = JSONPath.root
        initial = checkState(spec.initial, at: "$.initial", role: "initial state")
        for (i, name) in spec.success.enumerated() {
            if let id = checkState(name, at: root.member("success").index(i).text, role: "success state") { isSuccess[id.index] = true }
        }
        for (i, name) in spec.abort.enumerated() {
            let path = root.member("abort").index(i).text
            if let id = checkState(name, at: path, role: "abort state") {
                if isSuccess[id.index] { warn(path, "'\(Self.shown(name))' is both a success and an abort state") }
                isAbort[id.index] = true
            }
        }
    }

    /// Reads each step's contract: the keys it requires, whether back is allowed, the events it emits.
    mutating func readSteps() {
        let root = JSONPath.root
        for (s, step) in spec.steps.enumerated() {
            if timeUp(s) { return }
            guard let id = stateIndex[step.state], states[id.index] == step.state,
                  emitted[id.index].isEmpty, requires[id.index].isEmpty else { continue }
            let stepPath = root.member("steps").member(step.state)
            canGoBack[id.index] = step.back
            let positions = step.requirementIndices.keys
            for (i, name) in step.requires.enumerated() {
                if let key = key(name, at: stepPath.member("requires").index(positions[i]).text) { requires[id.index].insert(key) }
            }
            var seenEvents = Set<String>()
            for (e, emission) in step.emits.enumerated() {
                if timeUp(e) { return }
                // Made only for a problem: a hub of 100,000 events would build 100,000 paths for none.
                let eventPath = { stepPath.member("emits").member(emission.event).text }
                if emission.event == "back" {
                    fail(eventPath(), "'back' is reserved for undo; a step cannot emit it")
                    continue
                }
                if !seenEvents.insert(emission.event).inserted {
                    fail(eventPath(), "event '\(Self.shown(emission.event))' is listed twice in this step's emits")
                    continue
                }
                let event = internEvent(emission.event, at: eventPath())
                var added: [KeyID] = []
                for (i, name) in emission.adds.enumerated() {
                    let path = emission.addsPath(i, under: stepPath.member("emits").member(emission.event), format: spec.format)
                    if let key = key(name, at: path.text), !added.contains(key) {
                        added.append(key)
                    }
                }
                emitted[id.index].append((event, added))
            }
        }
    }

    /// Reads the keys a report must never print values of, and the keys handed to the app.
    ///
    /// These lists are settings about keys the steps use, not uses: a name no step requires or
    /// adds is an error (a misspelled secret must never leave the real one printed), and an output
    /// must be a key some event adds.
    mutating func readSecrets() {
        func used(_ name: String, at path: String, list: String) -> KeyID? {
            if let id = keyIndex[name], let problem = SpecLimits.normalisationProblem(name, keys[id.index], what: "\(list) names",
                                                                                     existingWhat: "the data key") {
                fail(path, problem)
                return nil
            }
            guard let id = keyIndex[name] else {
                let hint = SpecLoader.suggestion(for: name, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
                fail(path, "\(list) names '\(Self.shown(name))', which no step requires or adds\(hint)")
                return nil
            }
            return id.index < KeySet.capacity ? id : nil
        }
        for (i, name) in spec.secrets.enumerated() {
            if let key = used(name, at: JSONPath.root.member("secrets").index(i).text, list: "secrets") { secrets.insert(key) }
        }
        let produced = emitted.reduce(into: KeySet()) { set, events in for event in events { for key in event.adds { set.insert(key) } } }
        for (i, name) in spec.outputs.enumerated() {
            let path = JSONPath.root.member("outputs").index(i).text
            guard let key = used(name, at: path, list: "outputs") else { continue }
            if produced.contains(key) {
                outputs.insert(key)
            } else {
                fail(path, "outputs names '\(Self.shown(name))', which no event adds")
            }
        }
    }

    /// Reads the transition table: references checked, `back` reserved, deterministic.
    ///
    /// An identical duplicate row is a warning and ignored; a row that sends an existing
    /// `(from, event)` elsewhere is an error.
    mutating func readTransitions() {
        let root = JSONPath.root
        for (i, row) in spec.transitions.enumerated() {
            if timeUp(i) { return }
            let rowPath = root.member("transitions").index(i)
            let from = checkState(row.from, at: rowPath.member("from").text, role: "transition source")
            let to = checkState(row.to, at: rowPath.member("to").text, role: "transition target")
            if row.on == "back" {
                fail(rowPath.member("on").text, "'back' is reserved for undo; it cannot be used in a transition")
                continue
            }
            let event = internEvent(row.on, at: rowPath.member("on").text)
            guard let from, let to else { continue }
            let trigger = Self.trigger(from, event)
            if row.reset, to != initial {
                let message = "a reset row starts the flow again: its 'to' must be the initial state '\(Self.shown(spec.initial))'"
                fail(rowPath.member("to").text, message)
            }
            // Rows without a guard must agree; authflow/2 rows with one are tried in order, first match wins.
            if row.when == nil, let existing = unguardedRow[trigger] {
                let existingPath = root.member("transitions").index(existing.position).text
                let at = locations[existingPath].map { " (line \($0.line))" } ?? ""
                let existingTarget = states[existing.to.index]
                if existing.to == to && row == spec.transitions[existing.position] {
                    warn(rowPath.text, "duplicate of transitions[\(existing.position)]\(at): \(Self.shown(row.from)) --\(Self.shown(row.on))--> \(Self.shown(row.to)); ignored")
                } else {
                    fail(rowPath.text, "non-deterministic: \(Self.shown(row.from)) --\(Self.shown(row.on))--> \(Self.shown(row.to)) conflicts with transitions[\(existing.position)]\(at), which goes to \(Self.shown(existingTarget))")
                }
                continue
            }
            if row.when == nil { unguardedRow[trigger] = (to, i) }
            rowOfTransition[i] = rows.count
            if rowIndex[trigger] != nil {
                rows.append(FlowModel.Row(from: from, event: event, to: to))
                continue
            }
            rowIndex[trigger] = (to, i)
            rows.append(FlowModel.Row(from: from, event: event, to: to))
        }
    }

    // MARK: Result

    /// Each state's forward moves, with the target the table gives each (`nil`: an illegal transition).
    func moves() -> [[FlowModel.Move]] {
        emitted.enumerated().map { state, list in
            list.map { entry in
                let target = rowIndex[Self.trigger(StateID(state), entry.event)]?.to
                return FlowModel.Move(event: entry.event, adds: KeySet(entry.adds), addedKeys: entry.adds, target: target)
            }
        }
    }

    static func trigger(_ from: StateID, _ event: EventID) -> Int64 {
        Int64(from.rawValue) << 32 | Int64(event.rawValue)
    }
}
