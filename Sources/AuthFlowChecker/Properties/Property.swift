/// A property authcheck decides, by its stable id (used in output and `--property`).
public enum Property: String, CaseIterable, Hashable, Sendable, Comparable {
    case illegalTransition = "illegal-transition"
    case unmetRequirement = "unmet-requirement"
    case deadlock
    case noExit = "no-exit"
    case terminalExit = "terminal-exit"
    case undoMismatch = "undo-mismatch"
    case divergence
    case passcode

    /// The id as printed and as `--property` takes it.
    public var id: String { rawValue }

    /// The properties decided on the spec's configuration graph (complete, no depth bound).
    public static let specProperties: [Property] = [.illegalTransition, .unmetRequirement, .deadlock, .noExit, .terminalExit]

    public static func < (lhs: Property, rhs: Property) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// One line saying what the property demands.
    public var summary: String {
        switch self {
        case .illegalTransition: return "every event a reachable step emits has a transition"
        case .unmetRequirement: return "every reachable screen is entered with the data it requires"
        case .deadlock: return "every reachable non-terminal state has a legal forward move"
        case .noExit: return "a terminal state stays reachable from every reachable state"
        case .terminalExit: return "terminal states emit nothing and have no outgoing transitions"
        case .undoMismatch: return "back restores exactly the previous state and data, and a rejected event changes nothing"
        case .divergence: return "the runtime agrees with the spec's semantics"
        case .passcode: return "the passcode normaliser is idempotent, stays within the policy, reads back every code however it is typed, and reports short and overlong input"
        }
    }
}
