/// The result of the complete verification of a spec's configuration graph.
public struct SpecVerification: Sendable {
    /// One violation per site, each with a shortest counterexample, in breadth-first order.
    public var violations: [Violation]
    /// Unreachable states, dead transitions, unused data.
    public var lint: Lint
    /// Reachable states.
    public var states: Int
    /// Reachable `(state, data keys)` configurations.
    public var configurations: Int
    /// The limit that stopped the search, if one did (the verdict is then incomplete).
    public var stoppedBy: StopReason?
}
