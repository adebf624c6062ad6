/// A name a typed flow uses for its states, events or data keys (`String` raw-valued enums get it for free).
public protocol FlowName: Hashable, Sendable {
    /// The name as it appears in specs and reports.
    var flowName: String { get }
}

extension FlowName where Self: RawRepresentable, RawValue == String {
    public var flowName: String { rawValue }
}

extension String: FlowName {
    public var flowName: String { self }
}

/// A flow declared in Swift with typed states, events and data keys, the way an app declares its table.
///
/// It produces the same ``FlowSpec`` (and so the same ``FlowModel``) as the equivalent JSON spec,
/// and a ``FlowSession`` over the app's own types.
///
/// ```swift
/// enum S: String, FlowName { case start, email, done, cancelled }
/// enum E: String, FlowName { case go, submit, cancel }
/// enum K: String, FlowName { case email }
/// var flow = FlowDefinition<S, E, K>(name: "tiny", initial: .start, success: [.done], abort: [.cancelled])
/// flow.step(.start, back: false, emits: [.go: []])
/// flow.step(.email, emits: [.submit: [.email], .cancel: []])
/// flow.step(.done, requires: [.email])
/// flow.step(.cancelled)
/// flow.transition(.start, on: .go, to: .email)
/// let model = try flow.model()
/// ```
///
/// Each `step` and `transition` keeps the Swift file and line it was called from, so a mistake
/// is reported where it was written: `SignInFlow.swift:42: transition target 'nowhere' is not a step`.
public struct FlowDefinition<State: FlowName, Event: FlowName, Key: FlowName>: Sendable {
    public var name: String?
    /// What the flow is for, as a spec's `description`.
    public var description: String?
    public var initial: State
    public var success: [State]
    public var abort: [State]
    public var secrets: [Key] = []
    /// Keys the flow hands to the app that no step requires (not unused data).
    public var outputs: [Key] = []
    public var passcode: PasscodePolicy?
    public private(set) var steps: [(state: State, contract: StepContract<Event, Key>)] = []
    public private(set) var transitions: [Transition<State, Event>] = []
    /// Where the definition, each step and each transition were declared, as `File.swift:42`.
    private var site: String
    private var stepSites: [String] = []
    private var transitionSites: [String] = []
    /// `authflow/2` declarations (see `FlowDefinition+Version2.swift`).
    var declarations: [FlowSpec.DataDeclaration] = []
    var configKeys: [FlowSpec.ConfigKey] = []
    var anywhereRows: [FlowSpec.AnywhereRow] = []
    /// The steps declared with `emitting:`, by their index in ``steps``: each as the spec holds it.
    var stepExtras: [Int: StepExtra] = [:]
    /// The rows declared with `authflow/2` parts, by their index in ``transitions``: each whole, as the spec holds it.
    var rowExtras: [Int: FlowSpec.TransitionRow] = [:]
    /// The Swift values of events and keys named only in `authflow/2` declarations, for a session's tables.
    var anywhereEvents: [Event] = []
    var extraKeys: [Key] = []
    /// The steps declared `backOnly`, by their index in ``steps`` (see `FlowDefinition+Intent.swift`).
    var backOnlySteps: [Int] = []
    /// The team's own rules, and where each was declared.
    var userProperties: [FlowSpec.UserProperty] = []
    var propertySites: [String] = []
    /// Section 6: the factors and the levels steps ask for (see `FlowDefinition+Assurance.swift`).
    var factors: [FlowSpec.Factor] = []
    var assuranceLevels: [(state: String, level: AssuranceLevel)] = []

    public init(name: String? = nil, description: String? = nil, initial: State, success: [State], abort: [State],
                fileID: String = #fileID, line: Int = #line) {
        self.name = name
        self.description = description
        self.initial = initial
        self.success = success
        self.abort = abort
        self.site = Self.site(fileID, line)
    }

    /// Declares the step for `state`: its input contract, its output contract and whether back is allowed.
    /// - Parameters:
    ///   - backOnly: `authflow/2`: a screen the user is meant to leave with back (help, information), never
    ///     a `deadlock` or `no-exit`; it must allow back and be neither the initial nor a terminal state.
    ///   - fileID: where it is declared, for reports; leave the default.
    ///   - line: the line it is declared on, for reports; leave the default.
    public mutating func step(_ state: State, requires: [Key] = [], emits: KeyValuePairs<Event, [Key]> = [:], back: Bool = true,
                              backOnly: Bool = false, fileID: String = #fileID, line: Int = #line) {
        let contract = StepContract(requires: requires, emits: emits.map { StepContract.Emission($0.key, adds: $0.value) }, canGoBack: back)
        steps.append((state, contract))
        stepSites.append(Self.site(fileID, line))
        if backOnly { backOnlySteps.append(steps.count - 1) }
    }

    /// Adds the row `from --event--> to` to the transition table.
    /// - Parameters:
    ///   - when: `authflow/2`: the row fires only when this holds on the data after the emission's
    ///     effects; rows for the same `from` and `on` are tried in declaration order, the first that holds fires.
    ///   - clears: `authflow/2`: keys cleared when the row fires.
    ///   - adds: `authflow/2`: presence keys the row adds when it fires, after its clears (not on a reset row).
    ///   - set: `authflow/2`: valued keys the row sets when it fires, after its adds (not on a reset row).
    ///   - increment: `authflow/2`: counters the row increments when it fires, after its set (not on a reset row).
    ///   - reset: `authflow/2`: the row starts the flow again (`to` must be the initial state).
    ///   - keeps: `authflow/2`, reset rows: keys whose values the new run starts with.
    ///   - fileID: where it is declared, for reports; leave the default.
    ///   - line: the line it is declared on, for reports; leave the default.
    public mutating func transition(_ from: State, on event: Event, to: State, when: FlowGuard<Key>? = nil, clears: [Key] = [],
                                    adds: [Key] = [], set: KeyValuePairs<Key, any FlowName> = [:], increment: [Key] = [],
                                    reset: Bool = false, keeps: [Key] = [], fileID: String = #fileID, line: Int = #line) {
        transitions.append(Transition(from: from, on: event, to: to))
        transitionSites.append(Self.site(fileID, line))
        let plain = FlowSpec.TransitionRow(from: from.flowName, on: event.flowName, to: to.flowName)
        var row = plain
        row.when = when?.spec
        row.clears = clears.map(\.flowName)
        row.reset = reset
        row.adds = adds.map(\.flowName)
        row.set = set.map { FlowSpec.KeyValue($0.key.flowName, $0.value.flowName) }
        row.increment = increment.map(\.flowName)
        row.keeps = keeps.map(\.flowName)
        // A row that sets anything beyond from, on and to is `authflow/2`, whichever part it sets.
        if row != plain {
            rowExtras[transitions.count - 1] = row
            extraKeys += clears + adds + set.map(\.key) + increment + keeps + (when.map(Self.keys) ?? [])
        }
    }

    /// The keys `guarded` names.
    static func keys(_ guarded: FlowGuard<Key>) -> [Key] { guarded.keys }

    /// Every key the definition names, with its Swift value.
    var declaredKeys: [Key] {
        steps.flatMap { $0.contract.requires + $0.contract.emits.flatMap(\.adds) } + secrets + outputs + extraKeys
    }

    /// `SignInFlow.swift:42`: the file's name without its module, and the line.
    static func site(_ fileID: String, _ line: Int) -> String {
        "\(fileID.split(separator: "/").last.map(String.init) ?? fileID):\(line)"
    }

    /// The flow as a spec, by name.
    public var spec: FlowSpec {
        var spec = FlowSpec(
            name: name, description: description, initial: initial.flowName,
            success: success.map(\.flowName), abort: abort.map(\.flowName),
            steps: steps.map { state, contract in
                FlowSpec.Step(state.flowName, requires: contract.requires.map(\.flowName),
                              emits: contract.emits.map { FlowSpec.Emission($0.event.flowName, adds: $0.adds.map(\.flowName)) },
                              back: contract.canGoBack)
            },
            transitions: transitions.map { FlowSpec.TransitionRow(from: $0.from.flowName, on: $0.event.flowName, to: $0.to.flowName) },
            passcode: passcode, secrets: secrets.map(\.flowName), outputs: outputs.map(\.flowName))
        addVersion2(to: &spec)
        return spec
    }

    /// Validates the flow and builds the model the checker consumes.
    /// - Throws: ``InvalidSpecError`` with the checks of a spec file, each issue's path the Swift
    ///   file and line of the `step`, `transition` or `property` it is about (of the `init` for the rest).
    public func model() throws(InvalidSpecError) -> FlowModel {
        do {
            return try FlowModel(spec: spec)
        } catch {
            throw InvalidSpecError(file: error.file, issues: error.issues.map { issue in
                SpecIssue(path: declarationSite(ofPath: issue.path), location: issue.location, message: issue.message)
            })
        }
    }

    /// The Swift site a spec path points into: the step, row or property it is under, else the `init`.
    private func declarationSite(ofPath path: String) -> String {
        func isUnder(_ prefix: JSONPath) -> Bool {
            guard path.hasPrefix(prefix.text) else { return false }
            let rest = path.dropFirst(prefix.text.count)
            return rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("[")
        }
        let root = JSONPath.root
        if let row = transitionSites.indices.first(where: { isUnder(root.member("transitions").index($0)) }) {
            return transitionSites[row]
        }
        if let property = propertySites.indices.first(where: { isUnder(root.member("properties").index($0)) }) {
            return propertySites[property]
        }
        // The last declaration of a state: a second `step` for it is the one to fix.
        if let step = steps.indices.last(where: { isUnder(root.member("steps").member(steps[$0].state.flowName)) }) {
            return stepSites[step]
        }
        return site
    }

    /// A runtime session over the app's own types.
    ///
    /// An `authflow/2` definition runs on its model (guards, values, clears, counters, resets, config);
    /// its values are ``FlowValue`` or `String`.
    /// - Parameter variant: for an `authflow/2` definition with config, which variant to run (``FlowModel/variantNames``).
    /// - Throws: ``FlowError/transition(_:)`` for a conflicting transition; ``FlowError/invalidDefinition(problems:)``
    ///   for an `authflow/2` definition that is not a valid flow.
    public func makeSession<Value: Equatable>(values: Value.Type = FlowValue.self, tracker: FlowTracker? = nil,
                                              variant: Int = 0) throws(FlowError<State, Event, Key>) -> FlowSession<State, Event, Key, Value> {
        if usesVersion2 { return try makeVersion2Session(values: Value.self, tracker: tracker, variant: variant) }
        var contracts: [State: StepContract<Event, Key>] = [:]
        for (state, contract) in steps { contracts[state] = contract }
        let session = try FlowSession<State, Event, Key, Value>(
            initial: initial, transitions: transitions, contracts: contracts,
            terminals: Set(success + abort), tracker: tracker)
        session.describe = { ($0 as? any FlowName)?.flowName ?? String(describing: $0) }
        return session
    }
}

extension FlowModel {
    /// A runtime session over the model's dense ids: what the checker drives.
    /// - Parameter variant: for an `authflow/2` flow with `config`, the index of the variant to run
    ///   (``variantNames`` lists them in this order); ignored by flows without config.
    public func makeSession(tracker: FlowTracker? = nil, variant: Int = 0) -> FlowSession<StateID, EventID, KeyID, FlowValue> {
        makeSession(states: (0..<stateCount).map { StateID($0) }, events: (0..<events.count).map { EventID($0) },
                    keys: (0..<keys.count).map { KeyID($0) }, values: FlowValue.self, tracker: tracker, variant: variant)
    }

    /// A runtime session by name, for apps that load their flow from a server as data.
    /// - Parameter variant: as for ``makeSession(tracker:variant:)``.
    public func makeNamedSession(tracker: FlowTracker? = nil, variant: Int = 0) -> FlowSession<String, String, String, FlowValue> {
        makeSession(states: states, events: events, keys: keys, values: FlowValue.self, tracker: tracker, variant: variant)
    }

    /// The variants of an `authflow/2` flow with `config`, in the order the checker runs them, as
    /// `recovery=code, mfa=required`; one empty name for a flow without config.
    public var variantNames: [String] {
        variants.map { $0.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") }
    }

    /// A session over the app's names for the model's states, events and keys (indexed by id).
    ///
    /// A flow whose moves the state alone decides runs on the machine's table; any other
    /// (`authflow/2` guards, values, clears, counters, resets, config) on ``SessionRules``.
    /// - Precondition: `variant` is an index of ``variantNames``; `Value` is ``FlowValue`` or `String` for a data-dependent flow.
    func makeSession<State: Hashable, Event: Hashable, Key: Hashable, Value: Equatable>(
        states: [State], events: [Event], keys: [Key], values: Value.Type, tracker: FlowTracker?, variant: Int
    ) -> FlowSession<State, Event, Key, Value> {
        var contracts: [State: StepContract<Event, Key>] = [:]
        for state in 0..<stateCount {
            let emits: [StepContract<Event, Key>.Emission] = emissions[state].map { emission in
                StepContract.Emission(events[emission.event.index], adds: emission.outputKeys(keyCount: self.keys.count).map { keys[$0] })
            }
            contracts[states[state]] = StepContract(requires: self.requires[state].map { keys[$0.index] }, emits: emits,
                                                    canGoBack: canGoBack[state])
        }
        let terminals = Set((0..<stateCount).filter { isTerminal[$0] }.map { states[$0] })
        let session: FlowSession<State, Event, Key, Value>
        if isStatic {
            let machine = try! StateMachine(   // rows are deduplicated and deterministic by construction
                initial: states[initial.index], transitions: rows.map { Transition(from: states[$0.from.index], on: events[$0.event.index], to: states[$0.to.index]) })
            session = FlowSession(machine: machine, contracts: contracts, terminals: terminals, tracker: tracker)
        } else {
            precondition(roots.indices.contains(variant), "variant \(variant) of a flow with \(roots.count)")
            guard let converted = Self.conversions(Value.self) else {
                preconditionFailure("an authflow/2 session holds its values as FlowValue or String, not \(Value.self)")
            }
            // The rows decide the target from the data, so the machine keeps the history and no table.
            let machine = try! StateMachine<State, Event>(initial: states[initial.index])
            let rules = SessionRules<State, Event, Key, Value>(model: self, variant: variant, states: states, events: events, keys: keys,
                                                               values: converted)
            session = FlowSession(machine: machine, contracts: contracts, terminals: terminals, tracker: tracker, rules: rules)
        }
        let names = (self.states, self.events, self.keys)
        session.describe = { value in
            switch value {
            case let state as StateID: return names.0[state.index]
            case let event as EventID: return names.1[event.index]
            case let key as KeyID: return names.2[key.index]
            case let name as any FlowName: return name.flowName
            default: return String(describing: value)
            }
        }
        return session
    }

    /// How a session of `Value`s reads and makes domain text and counts.
    static func conversions<Value: Equatable>(_ type: Value.Type) -> SessionValues<Value>? {
        if Value.self == FlowValue.self {
            return .init(text: { value in
                if case let .string(text) = value as! FlowValue { return text }
                return nil
            }, makeText: { FlowValue.string($0) as! Value }, makeCount: { FlowValue.int($0) as! Value })
        }
        if Value.self == String.self {
            return .init(text: { $0 as? String }, makeText: { $0 as! Value }, makeCount: { String($0) as! Value })
        }
        return nil
    }
}
