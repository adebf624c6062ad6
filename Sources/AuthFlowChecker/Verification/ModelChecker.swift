import AuthFlow
import Foundation

/// Decides the spec properties of section 3 completely, by breadth-first search over `(state, data keys)`.
///
/// The configuration graph is finite (data only grows, and back returns to a frame already
/// reached), so every property is decided with no depth bound. Because the search is
/// breadth-first, the first configuration found violating a site gives its shortest
/// counterexample; ties go to the earlier event in declaration order.
package enum ModelChecker {
    /// Verifies `model` completely.
    /// - Complexity: O(C · m) time and O(C) memory for C reachable configurations and m events per step.
    package static func verify(_ model: FlowModel, limits: CheckLimits = CheckLimits()) -> SpecVerification {
        verify(ConfigurationGraph(model: model, limits: limits, edges: false))
    }

    /// Derives every spec property's sites, shortest paths and lint from `graph`.
    /// - Complexity: O(C + rows · m) for C configurations.
    package static func verify(_ graph: ConfigurationGraph) -> SpecVerification {
        let model = graph.model
        let stateCount = model.stateCount
        let rules = SiteRules(model: model)
        var found: [(position: Int32, violation: Violation)] = []
        var facts = FrameFacts()
        if !model.isStatic { found = frameSites(graph, rules: rules, facts: &facts) }
        found += userPropertySites(graph)
        for state in 0..<stateCount where graph.isReachable(state) {
            let first = graph.firstOfState[state]
            // A static flow's moves depend on the state alone: its sites are the state's, at its first configuration.
            var sites = model.isStatic ? rules.stateSites(state) : []
            let unmet = graph.firstUnmet[state]
            if unmet >= 0, let violation = rules.unmetRequirement(state: state, keys: graph.configurations[Int(unmet)].keys,
                                                                  values: graph.configurations[Int(unmet)].values) {
                sites.append(violation)
            }
            for site in sites {
                let at = site.property == .unmetRequirement ? unmet : first
                var violation = site
                violation.path = graph.path(to: at)
                found.append((at, violation))
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

        // Each `/2` path names the variant it ran in: the one of the root it starts from.
        if model.format >= 2 {
            for i in found.indices where found[i].violation.state != nil { found[i].violation.variant = graph.variant(of: found[i].position) }
        }
        return SpecVerification(
            violations: found.map(\.violation), lint: model.isStatic ? lint(graph) : frameLint(graph, facts: facts), states: graph.reachableStates,
            configurations: graph.count, stoppedBy: graph.stoppedBy)
    }

    /// Unreachable states, dead transitions and unused data (keys listed in `outputs` are handed to the app, and keys
    /// the spec's own properties test are read by them: neither is unused);
    /// a stopped search reports no lint: it claims nothing it has not seen the whole flow for.
    static func lint(_ graph: ConfigurationGraph) -> Lint {
        let model = graph.model
        var lint = Lint()
        guard graph.stoppedBy == nil else { return lint }
        var produced = KeySet()
        var required = KeySet()
        for state in 0..<model.stateCount {
            required = required.union(model.requires[state])
            for move in model.moves[state] { produced = produced.union(move.adds) }
        }
        // A key the team's own rules test is read, as a step's requirement is.
        for property in model.properties { for k in property.condition.keys { required.insert(KeyID(k)) } }
        lint.unusedData = model.names(of: produced.subtracting(required).subtracting(model.outputs))
        lint.unreachable = (0..<model.stateCount).filter { !graph.isReachable($0) }.map { model.states[$0] }
        for row in model.rows {
            if !graph.fires(row) { lint.deadTransitions.append(Lint.rowName(from: model.states[row.from.index], on: model.events[row.event.index])) }
        }
        return lint
    }
}
