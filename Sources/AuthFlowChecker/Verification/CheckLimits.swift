/// Limits on a run, so no input can exhaust memory or time.
public struct CheckLimits: Hashable, Sendable {
    /// The default bound on stored configurations: about 5 million (a few hundred MB at most).
    public static let defaultMaxConfigurations = 5_000_000

    /// The depth bound of the runtime walk: stacks of at most `depth` forward events.
    public var depth: Int
    /// The most `(state, data keys)` configurations the complete search may store.
    public var maxConfigurations: Int
    /// Wall-clock seconds after which the run stops as `incomplete`; `nil` for none.
    public var timeout: Double?

    public init(depth: Int = 12, maxConfigurations: Int = defaultMaxConfigurations, timeout: Double? = nil) {
        self.depth = depth
        self.maxConfigurations = maxConfigurations
        self.timeout = timeout
    }
}
