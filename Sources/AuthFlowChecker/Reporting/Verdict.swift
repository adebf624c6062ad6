/// The outcome of a check.
public enum Verdict: String, Hashable, Sendable {
    case holds, violated, incomplete, invalid

    /// The process exit code the contract gives this verdict.
    public var exitCode: Int32 {
        switch self {
        case .holds: return 0
        case .violated: return 1
        case .invalid: return 2
        case .incomplete: return 3
        }
    }
}
