/// A guard declared in Swift with the app's own keys and values: the `when` of an `authflow/2`
/// emission or row, with nothing to parse.
///
/// ```swift
/// .equals(.nextStep, NextStep.confirmTotp) && .below(.attempts, 3)
/// ```
public indirect enum FlowGuard<Key: FlowName>: Sendable {
    /// The key is present (a valued key: has any value).
    case has(Key)
    /// The key is absent.
    case missing(Key)
    /// The valued key has this value (an absent key equals nothing).
    case equals(Key, any FlowName)
    /// The valued key has one of these values.
    case isIn(Key, [any FlowName])
    /// The counter is at least this.
    case atLeast(Key, Int)
    /// The counter is below this.
    case below(Key, Int)
    /// Every guard holds.
    case all([FlowGuard])
    /// Some guard holds.
    case any([FlowGuard])
    /// The guard does not hold.
    case not(FlowGuard)

    /// Both hold. A chain `a && b && c` is one `all` of the three, as a spec would write it.
    public static func && (lhs: FlowGuard, rhs: FlowGuard) -> FlowGuard {
        if case let .all(guards) = lhs { return .all(guards + [rhs]) }
        return .all([lhs, rhs])
    }

    /// Either holds. A chain `a || b || c` is one `any` of the three.
    public static func || (lhs: FlowGuard, rhs: FlowGuard) -> FlowGuard {
        if case let .any(guards) = lhs { return .any(guards + [rhs]) }
        return .any([lhs, rhs])
    }
    /// It does not hold.
    public static prefix func ! (guarded: FlowGuard) -> FlowGuard { .not(guarded) }

    /// The keys the guard names, in the order written.
    var keys: [Key] {
        switch self {
        case let .has(key), let .missing(key), let .equals(key, _), let .isIn(key, _), let .atLeast(key, _), let .below(key, _): return [key]
        case let .all(guards), let .any(guards): return guards.flatMap(\.keys)
        case let .not(inner): return inner.keys
        }
    }

    /// The guard by name, as a spec file writes it.
    public var spec: FlowSpec.Guard {
        switch self {
        case let .has(key): return .has(key.flowName)
        case let .missing(key): return .missing(key.flowName)
        case let .equals(key, value): return .equals([FlowSpec.KeyValue(key.flowName, value.flowName)])
        case let .isIn(key, values): return .isIn([FlowSpec.KeyValues(key.flowName, values.map(\.flowName))])
        case let .atLeast(key, bound): return .atLeast([FlowSpec.CounterBound(key.flowName, bound)])
        case let .below(key, bound): return .below([FlowSpec.CounterBound(key.flowName, bound)])
        case let .all(guards): return .all(guards.map(\.spec))
        case let .any(guards): return .any(guards.map(\.spec))
        case let .not(guarded): return .not(guarded.spec)
        }
    }
}

/// One event an `authflow/2` step sends, with its effects, declared in Swift.
///
/// ```swift
/// .emit(.submitted, adds: [.nextStep], by: .system)
/// .emit(.wrongPassword, increment: [.attempts], when: .below(.attempts, 3), by: .system)
/// ```
public struct FlowEmission<Event: FlowName, Key: FlowName>: Sendable {
    public var event: Event
    /// Keys that become present; a valued key takes each of its values (the system's answer).
    public var adds: [Key]
    /// Keys that become absent (a counter becomes 0).
    public var clears: [Key]
    /// Valued keys that take the given value.
    public var set: [(key: Key, value: any FlowName)]
    /// Counters that count one more (staying at their max).
    public var increment: [Key]
    /// The step offers the event only when this holds.
    public var when: FlowGuard<Key>?
    /// Who sends it: the user, or the system (a backend's answer, a timer).
    public var by: FlowSpec.Sender
    /// Valued keys of ``adds`` answered with these values only (in this order), one branch per value listed.
    public var answers: [(key: Key, values: [any FlowName])] = []

    /// - Parameter answers: valued keys of `adds` the system answers with only these values, one branch per value, in this order.
    public static func emit(_ event: Event, adds: [Key] = [], answers: KeyValuePairs<Key, [any FlowName]> = [:], clears: [Key] = [],
                            set: KeyValuePairs<Key, any FlowName> = [:], increment: [Key] = [], when: FlowGuard<Key>? = nil,
                            by: FlowSpec.Sender = .user) -> FlowEmission {
        var emission = FlowEmission(event: event, adds: adds, clears: clears, set: set.map { ($0.key, $0.value) }, increment: increment,
                                    when: when, by: by)
        emission.answers = answers.map { ($0.key, $0.value) }
        return emission
    }

    /// The emission by name; `object` says whether it needs the `authflow/2` object form.
    var spec: (emission: FlowSpec.Emission, object: Bool) {
        var emission = FlowSpec.Emission(event.flowName, adds: adds.map(\.flowName))
        emission.clears = clears.map(\.flowName)
        emission.set = set.map { FlowSpec.KeyValue($0.key.flowName, $0.value.flowName) }
        emission.increment = increment.map(\.flowName)
        emission.when = when?.spec
        emission.by = by
        emission.answers = answers.map { FlowSpec.KeyValues($0.key.flowName, $0.values.map(\.flowName)) }
        return (emission, !clears.isEmpty || !set.isEmpty || !increment.isEmpty || when != nil || by == .system || !answers.isEmpty)
    }
}

/// `authflow/2` in Swift: declared data, config, steps with effects and guards, guarded rows, resets and `anywhere` rows.
///
/// A definition that uses any of these is an `authflow/2` flow; its ``spec`` is the one the JSON
/// would load to, so the checker, the runtime and every export see the same model.
///
/// ```swift
/// var flow = FlowDefinition<S, E, K>(initial: .start, success: [.signedIn], abort: [])
/// flow.data(.nextStep, values: NextStep.allCases)
/// flow.counter(.attempts, max: 3)
/// flow.step(.signIn, requires: [.email], emitting: [.emit(.submitted, adds: [.nextStep], by: .system)])
/// flow.transition(.signIn, on: .submitted, to: .signedIn, when: .equals(.nextStep, NextStep.done))
/// flow.transition(.signedIn, on: .signOut, to: .start, reset: true)
/// ```
extension FlowDefinition {
    /// Declares `key` as a presence key (absent or present, as every `authflow/1` key), fixing its place among the keys.
    public mutating func data(_ key: Key) {
        extraKeys.append(key)
        declarations.append(FlowSpec.DataDeclaration(key.flowName, .presence))
    }

    /// Declares `key` as a valued key: absent, or one of `values`.
    public mutating func data(_ key: Key, values: [any FlowName]) {
        extraKeys.append(key)
        declarations.append(FlowSpec.DataDeclaration(key.flowName, .valued(values.map(\.flowName))))
    }

    /// Declares `key` as a counter from 0 to `max`.
    public mutating func counter(_ key: Key, max: Int) {
        extraKeys.append(key)
        declarations.append(FlowSpec.DataDeclaration(key.flowName, .counter(max: max)))
    }

    /// Declares `key` as a config key: fixed per variant, one variant per value.
    public mutating func config(_ key: Key, values: [any FlowName]) {
        extraKeys.append(key)
        configKeys.append(FlowSpec.ConfigKey(key.flowName, values: values.map(\.flowName)))
    }

    /// Declares the step for `state` with `authflow/2` emissions and requirements.
    /// - Parameters:
    ///   - anyOf: each list needs at least one of its keys present.
    ///   - optional: keys the step reads when present.
    ///   - backOnly: a screen the user is meant to leave with back, as for the step without emissions.
    ///   - entry: effects applied on every forward move into the step, after the row's (never by back; not on the initial step).
    public mutating func step(_ state: State, requires: [Key] = [], anyOf: [[Key]] = [], optional: [Key] = [],
                              emitting: [FlowEmission<Event, Key>], back: Bool = true, backOnly: Bool = false,
                              entry: FlowEffects<Key>? = nil, fileID: String = #fileID, line: Int = #line) {
        step(state, requires: requires, emits: [:], back: back, backOnly: backOnly, fileID: fileID, line: line)
        let index = steps.count - 1
        let version1 = FlowSpec.Step(state.flowName, requires: requires.map(\.flowName), emits: emitting.map(\.spec.emission), back: back)
        var declared = version1
        declared.anyOf = anyOf.map { $0.map(\.flowName) }
        declared.optional = optional.map(\.flowName)
        declared.entry = entry?.spec
        // A step that sets anything a `/1` step has not, or sends an emission only `/2` can write, is `authflow/2`.
        stepExtras[index] = StepExtra(step: declared, usesVersion2: declared != version1 || emitting.contains { $0.spec.object })
        if let entry { extraKeys += entry.clears + entry.adds + entry.set.map(\.key) + entry.increment }
        extraKeys += anyOf.flatMap { $0 } + optional
        for emission in emitting {
            extraKeys += emission.adds + emission.clears + emission.set.map(\.key) + emission.increment + (emission.when.map(Self.keys) ?? [])
            if !anywhereEvents.contains(emission.event) { anywhereEvents.append(emission.event) }
        }
    }

    /// A global row: every non-terminal state but `except` emits `event` and goes to `to`, unless it handles `event` itself.
    ///
    /// The emission each state gets has the entry's effects, as a step's emission has them; the row clears `clears`.
    ///
    /// ```swift
    /// flow.anywhere(on: .sessionExpired, to: .expired, by: .system, except: [.start, .expired], increment: [.expiries])
    /// ```
    /// - Parameters:
    ///   - adds: keys that become present; a valued key takes each of its values, one branch per value.
    ///   - set: valued keys that take the given value.
    ///   - increment: counters that count one more (staying at their max).
    ///   - clears: keys the row clears when it fires, after the effects.
    public mutating func anywhere(on event: Event, to: State, when: FlowGuard<Key>? = nil, by: FlowSpec.Sender = .user,
                                  except: [State] = [], adds: [Key] = [], set: KeyValuePairs<Key, any FlowName> = [:],
                                  increment: [Key] = [], clears: [Key] = []) {
        anywhereEvents.append(event)
        extraKeys += adds + set.map(\.key) + increment + clears + (when.map(Self.keys) ?? [])
        anywhereRows.append(FlowSpec.AnywhereRow(on: event.flowName, to: to.flowName, by: by, when: when?.spec,
                                                 except: except.map(\.flowName), adds: adds.map(\.flowName),
                                                 set: set.map { FlowSpec.KeyValue($0.key.flowName, $0.value.flowName) },
                                                 increment: increment.map(\.flowName), clears: clears.map(\.flowName)))
    }

    /// Whether the definition uses anything of `authflow/2`.
    var usesVersion2: Bool {
        !declarations.isEmpty || !configKeys.isEmpty || !anywhereRows.isEmpty || stepExtras.values.contains(where: \.usesVersion2)
            || !rowExtras.isEmpty || !backOnlySteps.isEmpty || !userProperties.isEmpty
            || !factors.isEmpty || !assuranceLevels.isEmpty
    }

    /// Adds the `authflow/2` parts to `spec`.
    func addVersion2(to spec: inout FlowSpec) {
        // Steps declared with `emitting:` keep their emissions, /2 or not.
        for (index, extra) in stepExtras { spec.steps[index].emits = extra.step.emits }
        guard usesVersion2 else { return }
        spec.format = 2
        spec.data = declarations
        spec.config = configKeys
        spec.anywhere = anywhereRows
        for (index, extra) in stepExtras { spec.steps[index] = extra.step }
        for (index, row) in rowExtras { spec.transitions[index] = row }
        for index in backOnlySteps { spec.steps[index].backOnly = true }
        spec.properties = userProperties
        addAssurance(to: &spec)
    }

    /// A session over the app's own types for a flow whose moves depend on its data, built from its model.
    func makeVersion2Session<Value: Equatable>(values: Value.Type, tracker: FlowTracker?, variant: Int) throws(FlowError<State, Event, Key>) -> FlowSession<State, Event, Key, Value> {
        let model: FlowModel
        do {
            model = try self.model()
        } catch {
            throw .invalidDefinition(problems: error.issues.map(\.description))
        }
        guard FlowModel.conversions(Value.self) != nil else {
            throw .invalidDefinition(problems: ["an authflow/2 session holds its values as FlowValue or String, not \(Value.self)"])
        }
        var states: [String: State] = [:], events: [String: Event] = [:], keys: [String: Key] = [:]
        for (state, contract) in steps {
            states[state.flowName] = state
            for emission in contract.emits { events[emission.event.flowName] = emission.event }
        }
        for state in success + abort + [initial] { states[state.flowName] = state }
        for transition in transitions {
            states[transition.from.flowName] = transition.from
            states[transition.to.flowName] = transition.to
            events[transition.event.flowName] = transition.event
        }
        for event in anywhereEvents { events[event.flowName] = event }
        for key in declaredKeys { keys[key.flowName] = key }
        // Every name the model interned was declared through one of the typed calls above.
        guard model.states.allSatisfy({ states[$0] != nil }), model.events.allSatisfy({ events[$0] != nil }),
              model.keys.allSatisfy({ keys[$0] != nil }) else {
            throw .invalidDefinition(problems: ["a state, event or key of the flow was not declared with its Swift value"])
        }
        return model.makeSession(states: model.states.map { states[$0]! }, events: model.events.map { events[$0]! },
                                 keys: model.keys.map { keys[$0]! }, values: Value.self, tracker: tracker, variant: variant)
    }
}

/// A step declared in Swift with `emitting:`, whole, and whether it needs `authflow/2`.
struct StepExtra: Sendable {
    /// The step as the spec holds it (its `backOnly` is kept in ``FlowDefinition/backOnlySteps``).
    var step: FlowSpec.Step
    var usesVersion2: Bool
}
