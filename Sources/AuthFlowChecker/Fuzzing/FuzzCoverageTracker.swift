import AuthFlow

/// Counts what random runs hit.
struct FuzzCoverageTracker {
    let model: FlowModel
    var states: Set<Int> = []
    var fired: Set<Int> = []
    var pairs: Set<Int> = []
    let reachable: Set<Int>
    let live: Set<Int>
    let reachablePairs: Set<Int>
    var fullAt: Int?

    /// Reachability comes from the configuration graph, by index (a search stopped by its limit
    /// counts only what it found).
    /// A flow whose moves depend on its data counts from `frameMoves`: the rows some reachable
    /// configuration fires, and the events some reachable configuration's step offers.
    init(graph: ConfigurationGraph, frameMoves: FrameMoves? = nil) {
        let model = graph.model
        self.model = model
        let reachable = Set((0..<model.stateCount).filter(graph.isReachable))
        self.reachable = reachable
        let stride = max(1, model.events.count)
        if let facts = frameMoves?.facts {
            self.live = Set(facts.firedRows.filter(model.rows.indices.contains).map { model.rows[$0].from.index * stride + model.rows[$0].event.index })
            self.reachablePairs = Set(facts.offeredPairs(model).map { $0.state * stride + $0.event })
            return
        }
        self.live = Set(reachable.flatMap { state in model.moves[state].filter { $0.target != nil }.map { state * stride + $0.event.index } })
        self.reachablePairs = Set(reachable.flatMap { state in model.moves[state].map { state * stride + $0.event.index } })
    }

    mutating func enter(_ state: Int) { states.insert(state) }
    mutating func tried(state: Int, event: Int) { pairs.insert(state * max(1, model.events.count) + event) }
    mutating func fired(state: Int, event: Int) { fired.insert(state * max(1, model.events.count) + event) }
    mutating func endRun(_ run: Int) {
        if fullAt == nil, reachable.isSubset(of: states), live.isSubset(of: fired), reachablePairs.isSubset(of: pairs) { fullAt = run }
    }

    var summary: FuzzCoverage {
        FuzzCoverage(statesHit: states.count, statesReachable: reachable.count,
                     transitionsHit: fired.intersection(live).count, transitionsLive: live.count,
                     pairsHit: pairs.intersection(reachablePairs).count, pairsReachable: reachablePairs.count,
                     runsToFullCoverage: fullAt)
    }
}
