import AuthFlow

/// One step of a random path: a forward event (with the values it adds) or back.
public enum FuzzAction: Hashable, Sendable, CustomStringConvertible {
    /// Send `event`; `values` are the values of the keys it adds, in contract order (`nil`: simple default values).
    case event(String, values: [String]?)
    /// The user's back.
    case back

    public var description: String {
        switch self {
        case let .event(name, values?): return "\(name)(\(values.map { $0.debugDescription }.joined(separator: ", ")))"
        case let .event(name, nil): return name
        case .back: return "back"
        }
    }

    /// The event name, or `back`.
    public var name: String {
        switch self {
        case let .event(name, _): return name
        case .back: return "back"
        }
    }
}

/// What replaying a path found: the first violation, at which step, with the path up to it.
public struct FuzzOutcome: Sendable {
    /// The violation, with the path of frames and values up to the breaking step.
    public var violation: Violation
    /// The violated site.
    public var site: Site
    /// The actions up to and including the breaking one.
    public var actions: [FuzzAction]
    /// The `authflow/2` variant the actions ran in (an index of ``FlowModel/variantNames``; 0 without config).
    public var variant: Int = 0
}
