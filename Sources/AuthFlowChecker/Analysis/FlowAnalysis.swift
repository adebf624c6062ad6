import AuthFlow
import Foundation

/// One flow's analysis for one run: its configuration graph and every configuration's moves — each searched once, on first use, and shared by every
/// phase of the run that needs it (the fuzzer's runs and its shrinker, a replay's trails, the
/// trace funnel).
///
/// The limit policy lives here: the search stores at most ``limits``' `maxConfigurations` and stops
/// at the deadline the first phase that asks brings; later phases read what that search found,
/// `stoppedBy` saying whether it was cut. The graph is the only place a flow's configurations are
/// searched (``ConfigurationGraph`` is built nowhere else).
///
/// ```swift
/// let analysis = FlowAnalysis(model: model, limits: .supporting)
/// let graph = analysis.graph(within: .after(10))
/// if let stop = graph.stoppedBy { print("cut: \(stop)") }
/// ```
package final class FlowAnalysis: @unchecked Sendable {
    /// The flow.
    package let model: FlowModel
    /// `maxConfigurations` bounds the search (and `depth`, where a phase reads it); the time comes from each phase's deadline.
    package let limits: CheckLimits
    /// Whether the graph keeps its deduplicated edges, which only stack counts need (a quarter more work).
    package let keepsEdges: Bool
    /// For an analysis that only counts stacks of at most this many moves: the graph expands only what such a count
    /// reads (``ConfigurationGraph/countedThrough``); nil for a whole graph.
    package let countsThrough: Int?
    private let lock = NSLock()
    private var searched: ConfigurationGraph?
    private var moves: FrameMoves?
    private var movesCutBy: StopReason?

    /// The analysis of `model` within `limits`, searched on first use.
    package init(model: FlowModel, limits: CheckLimits = CheckLimits(), edges: Bool = false, countsThrough: Int? = nil) {
        self.model = model
        self.limits = limits
        keepsEdges = edges
        self.countsThrough = countsThrough
    }

    /// The analysis of a graph already searched (the limits it was searched within are its own).
    package init(graph: ConfigurationGraph) {
        model = graph.model
        limits = CheckLimits()
        keepsEdges = true
        countsThrough = graph.countedThrough
        searched = graph
    }

    /// Every reachable configuration, searched breadth-first the first time it is asked for, until `deadline`.
    /// - Complexity: O(C · m) the first time for C configurations and m events per step; O(1) after.
    package func graph(within deadline: Deadline) -> ConfigurationGraph {
        lock.lock()
        defer { lock.unlock() }
        return searchedGraph(within: deadline)
    }

    /// Every configuration's moves, expanded until `deadline` the first time they are asked for: what the
    /// complete checker decides every spec property of every flow from, `/1` and `/2` alike.
    /// - Complexity: O(C · m · b) the first time for C configurations, m emissions per step and b branches each; O(1) after.
    func moves(within deadline: Deadline) -> FrameMoves {
        lock.lock()
        defer { lock.unlock() }
        if let moves { return moves }
        let built = FrameMoves(graph: searchedGraph(within: deadline), deadline: deadline)
        moves = built
        movesCutBy = deadline.stopReason
        return built
    }

    /// For a flow whose moves depend on its data, every configuration's moves; `nil` for a static table.
    ///
    /// The random-path tester and the trails read a static flow's sites per state (``SiteRules``) and search no
    /// graph for them: a `/1` fuzz starts at once, however large its configuration graph.
    /// - Complexity: as ``moves(within:)``, or O(1) for a static table.
    func frameMoves(within deadline: Deadline) -> FrameMoves? {
        model.isStatic ? nil : moves(within: deadline)
    }

    /// Why what was searched so far is not the whole flow: the search stopped at a limit, or the moves'
    /// expansion at its deadline; `nil` when nothing was cut (or nothing searched yet).
    package var stoppedBy: StopReason? {
        lock.lock()
        defer { lock.unlock() }
        return searched?.stoppedBy ?? (moves?.isCut == true ? movesCutBy : nil)
    }

    private func searchedGraph(within deadline: Deadline) -> ConfigurationGraph {
        if let searched { return searched }
        var limits = limits
        limits.timeout = deadline.timeout
        let graph = ConfigurationGraph(model: model, limits: limits, start: deadline.start, edges: keepsEdges, expandingBelow: countsThrough)
        searched = graph
        return graph
    }
}

extension CheckLimits {
    /// The limits of a search that serves another phase rather than being the check itself — the fuzzer's guide,
    /// a replay's per-frame moves, the trace funnel's reachability: 1,000,000 configurations, a fifth of the check's default.
    package static let supporting = CheckLimits(maxConfigurations: 1_000_000)
}

extension StopReason {
    /// How a supporting search's stop reads to a user of a command that has no `--max-configurations`:
    /// `--timeout 2 s reached`, or `its limit of 1000000 configurations reached`.
    package var supportingDescription: String {
        switch self {
        case let .maxConfigurations(limit): return "its limit of \(limit) configurations reached"
        case .timeout: return description
        }
    }
}
