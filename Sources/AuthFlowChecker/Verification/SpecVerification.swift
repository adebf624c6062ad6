/// The result of the complete verification of a spec's configuration graph.
package struct SpecVerification: Sendable {
    /// One violation per site, each with a shortest counterexample, in breadth-first order.
    package var violations: [Violation]
    /// Unreachable states, dead transitions, unused data.
    package var lint: Lint
    /// Reachable states.
    package var states: Int
    /// Reachable `(state, data keys)` configurations.
    package var configurations: Int
    /// The limit that stopped the search, if one did (the verdict is then incomplete).
    package var stoppedBy: StopReason?
    /// Section 6: every way into each protected screen, weakest first; `nil` for a spec that uses no section-6 key.
    package var waysIn: [ProtectedStep]? = nil
}
