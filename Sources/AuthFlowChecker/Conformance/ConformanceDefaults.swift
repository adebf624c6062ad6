import AuthFlow

extension FlowGate {
    /// What ``assertConforms(spec:depth:runs:seed:callerFile:make:)`` checks when it is not told: public, so a team's own helper can say the same.
    ///
    /// ```swift
    /// try FlowGate.assertConforms(spec: path, depth: FlowGate.ConformanceDefaults.depth + 4) { SignInCoordinator() }
    /// ```
    public enum ConformanceDefaults {
        /// The exhaustive walk's bound on forward events.
        public static let depth = 12
        /// How many random paths the random tester walks after the walk.
        public static let runs = 1_000
        /// The random paths' seed.
        public static let seed: UInt64 = 1
        /// The longest random path, in actions (``FuzzOptions/maxSteps``).
        public static let maxSteps = FuzzOptions().maxSteps
        /// The most replays a failing random path's shrinking spends (``FuzzOptions/maxShrinkReplays``).
        public static let maxShrinkReplays = FuzzOptions().maxShrinkReplays
    }
}
