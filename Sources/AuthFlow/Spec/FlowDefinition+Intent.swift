/// A property's condition declared in Swift: a ``FlowGuard`` on the data, the state with ``at(_:)``, or both
/// combined, over the app's own state and key enums.
///
/// What `{"at": [...]}` and the guard operators are in a spec's `properties`, with nothing to parse:
///
/// ```swift
/// .at(.signedIn) && .has(.mfaChallenge) && .missing(.mfaPassed)
/// !.at(.signedIn) || .data(sessionGuard)
/// ```
public indirect enum FlowCondition<State: FlowName, Key: FlowName>: Sendable {
    /// The configuration's state is one of these.
    case states([State])
    /// The guard holds on the configuration's data.
    case data(FlowGuard<Key>)
    /// Every condition holds (true when empty).
    case all([FlowCondition])
    /// Some condition holds (false when empty).
    case any([FlowCondition])
    /// The condition does not hold.
    case not(FlowCondition)

    /// The configuration's state is one of `states`.
    public static func at(_ states: State...) -> FlowCondition { .states(states) }
    /// The key is present (a valued key: has any value).
    public static func has(_ key: Key) -> FlowCondition { .data(.has(key)) }
    /// The key is absent.
    public static func missing(_ key: Key) -> FlowCondition { .data(.missing(key)) }
    /// The valued key has this value (an absent key equals nothing).
    public static func equals(_ key: Key, _ value: any FlowName) -> FlowCondition { .data(.equals(key, value)) }
    /// The valued key has one of these values.
    public static func isIn(_ key: Key, _ values: [any FlowName]) -> FlowCondition { .data(.isIn(key, values)) }
    /// The counter is at least `bound`.
    public static func atLeast(_ key: Key, _ bound: Int) -> FlowCondition { .data(.atLeast(key, bound)) }
    /// The counter is below `bound`.
    public static func below(_ key: Key, _ bound: Int) -> FlowCondition { .data(.below(key, bound)) }

    /// Both hold. A chain `a && b && c` is one `all` of the three, as a spec would write it.
    public static func && (lhs: FlowCondition, rhs: FlowCondition) -> FlowCondition {
        if case let .all(conditions) = lhs { return .all(conditions + [rhs]) }
        return .all([lhs, rhs])
    }

    /// Either holds. A chain `a || b || c` is one `any` of the three.
    public static func || (lhs: FlowCondition, rhs: FlowCondition) -> FlowCondition {
        if case let .any(conditions) = lhs { return .any(conditions + [rhs]) }
        return .any([lhs, rhs])
    }
    /// It does not hold.
    public static prefix func ! (condition: FlowCondition) -> FlowCondition { .not(condition) }

    /// The condition by name, as a spec file writes it.
    public var spec: FlowSpec.Guard {
        switch self {
        case let .states(states): return .at(states.map(\.flowName))
        case let .data(guarded): return guarded.spec
        case let .all(conditions): return .all(conditions.map(\.spec))
        case let .any(conditions): return .any(conditions.map(\.spec))
        case let .not(condition): return .not(condition.spec)
        }
    }

    /// The keys the condition names.
    var keys: [Key] {
        switch self {
        case .states: return []
        case let .data(guarded): return guarded.keys
        case let .all(conditions), let .any(conditions): return conditions.flatMap(\.keys)
        case let .not(condition): return condition.keys
        }
    }
}

/// What only the author knows, declared in Swift: screens left with back (`backOnly:` on `step`) and the
/// team's own rules. Either makes the definition an `authflow/2` flow.
///
/// ```swift
/// flow.step(.help, backOnly: true)
/// flow.property("mfa-before-session", description: "signed in only after the code was accepted",
///               never: .at(.signedIn) && .has(.mfaChallenge) && .missing(.mfaPassed))
/// flow.property("lockout-reachable", reachable: .at(.locked))
/// ```
extension FlowDefinition {
    /// States that every reachable configuration satisfies `condition`; the first that does not is reported with its shortest path.
    /// - Parameters:
    ///   - id: printed in reports and taken by `--property`: lowercase words joined by hyphens, not a built-in id.
    ///   - description: the rule in the team's words, shown in reports.
    ///   - fileID: where it is declared, for reports; leave the default.
    ///   - line: the line it is declared on, for reports; leave the default.
    public mutating func property(_ id: String, description: String? = nil, always condition: FlowCondition<State, Key>,
                                  fileID: String = #fileID, line: Int = #line) {
        addProperty(id, .always, condition, description: description, fileID: fileID, line: line)
    }

    /// States that no reachable configuration satisfies `condition`; the first that does is reported with its shortest path.
    /// - Parameters: as for ``property(_:description:always:fileID:line:)``.
    public mutating func property(_ id: String, description: String? = nil, never condition: FlowCondition<State, Key>,
                                  fileID: String = #fileID, line: Int = #line) {
        addProperty(id, .never, condition, description: description, fileID: fileID, line: line)
    }

    /// States that in every variant some reachable configuration satisfies `condition`; the variants where none does are reported.
    /// - Parameters: as for ``property(_:description:always:fileID:line:)``.
    public mutating func property(_ id: String, description: String? = nil, reachable condition: FlowCondition<State, Key>,
                                  fileID: String = #fileID, line: Int = #line) {
        addProperty(id, .reachable, condition, description: description, fileID: fileID, line: line)
    }

    private mutating func addProperty(_ id: String, _ kind: FlowSpec.UserProperty.Kind, _ condition: FlowCondition<State, Key>,
                                      description: String?, fileID: String, line: Int) {
        userProperties.append(FlowSpec.UserProperty(id, kind, condition.spec, description: description))
        propertySites.append(Self.site(fileID, line))
        extraKeys += condition.keys
    }
}
