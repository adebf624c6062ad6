/// A limit that stopped a run before it was complete.
public enum StopReason: Hashable, Sendable, CustomStringConvertible {
    case maxConfigurations(Int)
    case timeout(seconds: Double)

    public var description: String {
        switch self {
        case let .maxConfigurations(limit): return "--max-configurations \(limit) reached"
        case let .timeout(seconds): return "--timeout \(Self.format(seconds)) s reached"
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
