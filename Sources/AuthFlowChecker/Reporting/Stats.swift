/// The figures of a run: how much was explored and how fast.
public struct Stats: Hashable, Sendable {
    /// Reachable states.
    public var states: Int = 0
    /// Reachable `(state, data keys)` configurations.
    public var configurations: Int = 0
    /// The depth bound of the stack walk.
    public var depth: Int = 0
    /// Distinct undo stacks of height at most depth + 1 (each driven through the runtime).
    public var stacks: Int = 0
    /// Wall-clock seconds for the whole check.
    public var seconds: Double = 0
    /// Whether ``stacks`` were counted from the model because the runtime walk did not run
    /// (`--property` left out both runtime properties): a figure of the spec, not stacks driven.
    public var stacksCounted = false

    public init(states: Int = 0, configurations: Int = 0, depth: Int = 0, stacks: Int = 0, seconds: Double = 0) {
        self.states = states
        self.configurations = configurations
        self.depth = depth
        self.stacks = stacks
        self.seconds = seconds
    }

    /// Undo stacks driven per second: the figure the summary line prints as `stacks/s`.
    public var rate: Double { seconds > 0 ? Double(stacks) / seconds : 0 }
}
