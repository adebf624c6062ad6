/// How the random-path tester walks.
public struct FuzzOptions: Hashable, Sendable {
    /// How many random paths to walk.
    public var runs: Int
    /// The most actions in one path.
    public var maxSteps: Int
    /// The seed; the same seed walks the same paths on every toolchain.
    public var seed: UInt64
    /// Relative weight of back against each enabled event (events weigh 4).
    public var backWeight: Int
    /// Relative weight of sending an event the table has no transition for (events weigh 4).
    public var illegalWeight: Int
    /// Relative weight of an event that ends the flow (its target is terminal; other events weigh 4).
    /// Below 4 so paths run long: retries, resends and back loops before the user finishes.
    public var terminalWeight: Int
    /// Swarm testing: each run leaves out a random subset of events, so deep paths are walked too.
    public var swarm: Bool
    /// Only these properties are checked; `nil` checks all of section 3.
    public var properties: Set<Property>?
    /// The most replays shrinking may spend.
    public var maxShrinkReplays: Int
    /// Wall-clock seconds after which no new run starts (the report is then incomplete); `nil` for none.
    public var timeout: Double?

    public init(runs: Int = 1_000, maxSteps: Int = 60, seed: UInt64 = 1, backWeight: Int = 1, illegalWeight: Int = 1,
                terminalWeight: Int = 1, swarm: Bool = true, properties: Set<Property>? = nil, maxShrinkReplays: Int = 20_000, timeout: Double? = nil) {
        self.timeout = timeout
        self.runs = runs
        self.maxSteps = maxSteps
        self.seed = seed
        self.backWeight = backWeight
        self.illegalWeight = illegalWeight
        self.terminalWeight = terminalWeight
        self.swarm = swarm
        self.properties = properties
        self.maxShrinkReplays = maxShrinkReplays
    }
}
