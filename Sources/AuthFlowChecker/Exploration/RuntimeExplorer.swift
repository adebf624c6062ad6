import AuthFlow
import Foundation

/// Drives the real runtime in lockstep with the spec's semantics through every undo stack up to a depth.
///
/// A depth-first walk over the distinct stacks of at most `depth` forward events: at every node
/// every legal event is sent, checked, explored and undone. The runtime's state, history height and
/// data values are compared with the model after every move and every undo, and the spec's own
/// `always`/`never` rules are checked on every frame the runtime holds (``RuleCheck``). Once per
/// configuration, at the shallowest stack that reaches it, the runtime is probed: its enabled
/// events are compared, illegal events are sent and must be rejected without change, and back is
/// tried where the spec forbids it and must be refused. Only siblings can push the same frame, so children are deduplicated and no
/// visited set is kept: memory is proportional to the depth.
///
/// Runtime paths are found depth-first, but every stack within the bound is visited, so keeping
/// the shortest occurrence of each site (the lexicographically first among equals, which is the
/// breadth-first order) gives the same counterexample a breadth-first search would.
///
/// ```swift
/// let explorer = RuntimeExplorer(model: model)
/// let walk = explorer.explore(SessionDriver(model: model), depth: 12)
/// walk.stacks == explorer.countStacks(depth: 12)   // true
/// ```
///
/// The hot loop works on flat integer tables of the model and on stacks allocated once per walk,
/// so it allocates nothing per node; the walk over a ``SessionDriver`` is specialised for it
/// (whatever type the caller passes it as), so every runtime query is inlined. To split the walk
/// between threads, see ``ParallelExplorer``.
package struct RuntimeExplorer: Sendable {
    let model: FlowModel
    /// What the walk asks the implementation and what it calls it.
    let traits: DriverTraits
    /// The spec's own `always`/`never` rules, checked on every frame the walk drives.
    let rules: RuleCheck
    /// The run's analysis of the flow, when the caller has one: section 5's stacks are counted on its graph (``counted(_:)``).
    let analysis: FlowAnalysis?

    /// An explorer of `model`; `traits` say what the walk may ask the implementation (by default, everything the built-in runtime answers).
    init(model: FlowModel, traits: DriverTraits, analysis: FlowAnalysis? = nil) {
        self.model = model
        self.traits = traits
        self.rules = RuleCheck(model: model)
        self.analysis = analysis
    }

    /// An explorer of `model` for the built-in runtime: every question asked; `analysis`, the run's own, when it has one.
    package init(model: FlowModel, analysis: FlowAnalysis? = nil) {
        self.init(model: model, traits: .runtime, analysis: analysis)
    }

    /// The value the explorer gives `key` when event `event` pushes a frame at height `height`.
    ///
    /// Unique per (height, event, key), so a self-loop that overwrites a key with a new value
    /// and an undo that fails to restore the old one are both visible.
    @inlinable static func token(height: Int, event: EventID, key: KeyID) -> Int {
        height << 32 | Int(event.rawValue) << 8 | Int(key.rawValue)
    }

    /// A value as reports show it: the explorer's values read `#N`, "the value step N entered".
    static func display(_ value: FlowValue) -> String {
        if case let .int(token) = value, token >= 1 << 32 { return "#\((token >> 32) - 1)" }
        return "\(value)"
    }

    /// Counts the stacks of at most `depth` forward events from the model alone (no runtime).
    ///
    /// Counted level by level over the configuration graph, as coverage counts them, with no
    /// limit on the configurations it stores (a count that overflows saturates at `Int.max`).
    /// - Complexity: O(C · m + depth · E) for C configurations and E deduplicated edges.
    package func countStacks(depth: Int) -> Int {
        countingGraph(depth: depth).countStacks(depth: max(0, depth)).total
    }

    /// The configuration graph a count of stacks of at most `depth` moves reads, with no limit on the configurations it
    /// stores: the run's own when its analysis has a whole one, else searched now, expanded only below `depth` moves
    /// (Amplify's authenticator: 121,824 configurations in all, a walk of depth 9 counts over those within 9 moves).
    func countingGraph(depth: Int) -> ConfigurationGraph {
        if let graph = analysis?.graph(within: .none), graph.stoppedBy == nil, graph.countedThrough.map({ depth <= $0 }) ?? true {
            return graph
        }
        return FlowAnalysis(model: model, limits: CheckLimits(depth: depth, maxConfigurations: .max), edges: true,
                            countsThrough: max(0, depth)).graph(within: .none)
    }

    /// Walks every stack of at most `depth` events through `driver`, which must be at its root.
    /// - Complexity: O(S · m) time for S stacks; O(depth) memory.
    package func explore<Driver: FlowDriver>(_ driver: Driver, depth: Int, timeout: Double? = nil) -> RuntimeExploration {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        // The real runtime gets a walk specialised for it, whatever type the caller knew it by.
        if let session = driver as? SessionDriver { return counted(walk(session, depth: depth, deadline: deadline, timeout: timeout)) }
        return counted(walk(driver, depth: depth, deadline: deadline, timeout: timeout))
    }

    /// The walk of ``explore(_:depth:timeout:)`` before section 5's count: its tables are released when it returns, before
    /// the count builds its own.
    private func walk<Driver: FlowDriver>(_ driver: Driver, depth: Int, deadline: Date?, timeout: Double?) -> RuntimeExploration {
        var walk = Walk(model: model, driver: driver, traits: traits, depth: depth, deadline: deadline, timeout: timeout,
                        start: { driver.start(variant: $0) })
        walk.progress = CheckProgress.current
        walk.runAll()
        return walk.result()
    }

    /// `exploration` with the stacks section 5 counts when two of the walk's paths can build the same history
    /// (``FlowModel/stacksAreHistories``): the walk drives every history at least once, and the count says how many
    /// distinct ones there are. A walk a limit stopped keeps the stacks it drove.
    func counted(_ exploration: RuntimeExploration, histories: Int? = nil) -> RuntimeExploration {
        guard model.stacksAreHistories, exploration.stoppedBy == nil else { return exploration }
        var counted = exploration
        counted.stacks = histories ?? countHistories(depth: exploration.depth) ?? exploration.stacks
        return counted
    }

    /// Section 5's count of the stacks of at most `depth` forward moves, on the run's graph when it has a whole one; nil
    /// when `timeout` seconds after `start` stopped it.
    func countHistories(depth: Int, timeout: Double? = nil, start: Date = Date()) -> Int? {
        let counts = countingGraph(depth: depth).countStacks(depth: max(0, depth), timeout: timeout, start: start)
        return counts.stoppedBy == nil ? counts.total : nil
    }
}
