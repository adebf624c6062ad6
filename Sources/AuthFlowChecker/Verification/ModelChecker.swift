import AuthFlow
import Foundation

/// Decides the spec properties of section 3 completely, by breadth-first search over `(state, data keys)`.
///
/// Every flow, `/1` and `/2`, is decided by one path: every reachable configuration's moves
/// (``FrameMoves``) give `illegal-transition`, `deadlock` and `no-exit`; the terminal states'
/// declarations `terminal-exit`; each state's first configuration lacking data `unmet-requirement`.
///
/// The configuration graph is finite (data only grows, and back returns to a frame already
/// reached), so every property is decided with no depth bound. Because the search is
/// breadth-first, the first configuration found violating a site gives its shortest
/// counterexample; ties go to the earlier event in declaration order.
package enum ModelChecker {
    /// Verifies `model` completely.
    /// - Complexity: O(C · m) time and O(C) memory for C reachable configurations and m events per step.
    package static func verify(_ model: FlowModel, limits: CheckLimits = CheckLimits()) -> SpecVerification {
        let analysis = FlowAnalysis(model: model, limits: limits)
        return verify(analysis, deadline: Deadline(timeout: limits.timeout))
    }

    /// Derives every spec property's sites, shortest paths and lint from `graph`, a search already made.
    package static func verify(_ graph: ConfigurationGraph, deadline: Deadline = .none) -> SpecVerification {
        verify(FlowAnalysis(graph: graph), deadline: deadline)
    }

    /// Derives every spec property's sites, shortest paths and lint from `graph`.
    ///
    /// The per-configuration passes of a `/2` flow (its moves, its own properties) take about as
    /// long as the search: they stop at `deadline` too. Sites found before it are reported; the
    /// configurations not looked at are undecided, so no `deadlock` or `no-exit` is claimed there,
    /// no lint is given and the verification is stopped by the deadline (verdict `incomplete`).
    /// - Complexity: O(C + rows · m) for C configurations.
    package static func verify(_ analysis: FlowAnalysis, deadline: Deadline = .none) -> SpecVerification {
        let graph = analysis.graph(within: deadline)
        let model = graph.model
        let stateCount = model.stateCount
        let rules = SiteRules(model: model)
        var found: [(position: Int32, violation: Violation)] = []
        var facts = FrameFacts()
        var cut = false
        found = frameSites(analysis, rules: rules, facts: &facts, deadline: deadline, cut: &cut)
        if !cut { found += userPropertySites(graph, deadline: deadline, cut: &cut) }
        var waysIn: [ProtectedStep]?
        if !cut && model.assurance.isUsed {
            let survey = assuranceSurvey(graph, deadline: deadline, cut: &cut)
            found += survey.sites
            waysIn = survey.waysIn
        }
        let stoppedBy = graph.stoppedBy ?? (cut ? deadline.stopReason : nil)
        for state in 0..<stateCount where graph.isReachable(state) {
            let unmet = graph.firstUnmet[state]
            if unmet >= 0, let violation = rules.unmetRequirement(state: state, keys: graph.configurations[Int(unmet)].keys,
                                                                  values: graph.configurations[Int(unmet)].values) {
                found.append((unmet, violation))
            }
        }
        // Breadth-first order, then property order, then declaration order (the index breaks ties stably).
        found = found.enumerated().sorted { lhs, rhs in
            if lhs.element.position != rhs.element.position { return lhs.element.position < rhs.element.position }
            if lhs.element.violation.property != rhs.element.violation.property {
                return lhs.element.violation.property < rhs.element.violation.property
            }
            return lhs.offset < rhs.offset
        }.map(\.element)

        attachPaths(&found, graph: graph)
        return SpecVerification(
            violations: found.map(\.violation), lint: cut ? Lint() : lint(graph, facts: facts),
            states: graph.reachableStates, configurations: graph.count, stoppedBy: stoppedBy, waysIn: waysIn)
    }

    /// The most frames a report's complete-check paths hold in all, past the first violation's.
    ///
    /// A chain of 8,000 states none of which can reach an exit has 8,000 `no-exit` sites, the k-th
    /// with a path of k frames: 32 million frames, gigabytes of memory and of text. Past this budget
    /// a violation keeps its length (``Violation/cutLength``) and the report says how to see its path.
    package static let reportedPathSteps = 10_000

    /// Gives each found site with a state its shortest path, in the report's order, while the paths
    /// hold at most ``reportedPathSteps`` frames in all (the first always has its path); the others
    /// get their length only. Each `/2` path names the variant it ran in: the one of its root.
    /// - Complexity: O(C + the frames attached) for C configurations.
    static func attachPaths(_ found: inout [(position: Int32, violation: Violation)], graph: ConfigurationGraph) {
        guard found.contains(where: { $0.violation.state != nil }) else { return }
        let (depth, root) = graph.depthsAndRoots()
        var budget = reportedPathSteps
        var first = true
        for i in found.indices where found[i].violation.state != nil {
            let position = Int(found[i].position)
            let frames = Int(depth[position]) + 1
            if first || frames <= budget {
                found[i].violation.path = graph.path(to: Int32(position))
                budget -= min(budget, frames)
            } else {
                found[i].violation.cutLength = frames - 1
            }
            first = false
            if graph.model.format >= 2 {
                let variant = Int(root[position])
                found[i].violation.variant = graph.model.variants.indices.contains(variant) ? graph.model.variants[variant] : []
            }
        }
    }
}
