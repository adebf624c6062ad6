import AuthFlow

extension ModelChecker {
    /// What section 6 finds on the configuration graph: the `assurance` sites and every way in.
    struct AssuranceSurvey {
        /// One `assurance` violation per step, at its first breaking configuration (no path yet).
        var sites: [(position: Int32, violation: Violation)] = []
        /// For every step that asks for a level and every success state, in step order, each way in.
        var waysIn: [ProtectedStep] = []
    }

    /// The `assurance` sites and the ways in, in one pass over the configurations in breadth-first order.
    ///
    /// A configuration at a step that asks for a level its present factor keys do not meet breaks
    /// `assurance`; the first one per step is reported, so its path is a shortest one. For every
    /// step that asks for a level and every success state, each distinct pair (present factor keys,
    /// variant) is one way in, first reached at its first configuration in breadth-first order,
    /// whose path is therefore a shortest one. No second search: the graph's parents give the depth
    /// and the variant of each configuration as the pass goes.
    /// - Complexity: O(C) time for C configurations, and O(C) memory for the depths and roots;
    ///   O(1) hash work per configuration of a watched step.
    /// - Parameter cut: set when `deadline` stopped the pass before every configuration was looked at.
    static func assuranceSurvey(_ graph: ConfigurationGraph, deadline: Deadline = .none, cut: inout Bool) -> AssuranceSurvey {
        let model = graph.model
        var survey = AssuranceSurvey()
        guard model.assurance.isUsed else { return survey }
        let assurance = model.assurance
        let stateCount = model.stateCount
        let watched = (0..<stateCount).map { assurance.required[$0] != .none || model.isSuccess[$0] }
        var reported = [Bool](repeating: false, count: stateCount)
        // Per watched state: each (present factor bits, root) pair's first configuration, in the order found.
        struct Way: Hashable { var factors: UInt64; var root: Int32 }
        var first = [[Way: Int32]](repeating: [:], count: stateCount)
        var order = [[Way]](repeating: [], count: stateCount)
        let (depth, root) = graph.depthsAndRoots()
        for i in 0..<graph.count {
            if i & 4095 == 4095, deadline.hasPassed {
                cut = true
                break
            }
            let configuration = graph.configurations[i]
            let state = Int(configuration.state)
            guard watched[state] else { continue }
            let way = Way(factors: configuration.keys & assurance.factorMask, root: root[i])
            if first[state][way] == nil {
                first[state][way] = Int32(i)
                order[state].append(way)
            }
            if !reported[state] && AssuranceCheck.breaks(model, state: state, keys: configuration.keys) {
                reported[state] = true
                survey.sites.append((Int32(i), Violation(property: .assurance, state: model.states[state],
                                                         message: AssuranceCheck.message(model, state: state, keys: configuration.keys),
                                                         path: [])))
            }
        }
        var budget = reportedPathSteps
        for state in 0..<stateCount where watched[state] {
            var ways: [WayIn] = order[state].map { way in
                let position = first[state][way] ?? 0
                let variantIndex = Int(way.root)
                let variant: [FlowSpec.KeyValue]? = model.spec.config.isEmpty ? nil
                    : model.variants.indices.contains(variantIndex) ? model.variants[variantIndex] : []
                return WayIn(factors: model.factorNames(keys: way.factors), level: assurance.level(keys: way.factors),
                             length: Int(depth[Int(position)]), variant: variant, variantIndex: variantIndex, position: position)
            }
            ways.sort(by: WayIn.weakerFirst)
            // Paths while the report's budget lasts (the weakest first); past it, a way keeps its length only.
            for j in ways.indices where ways[j].length + 1 <= budget {
                ways[j].path = graph.path(to: ways[j].position)
                budget -= ways[j].length + 1
            }
            survey.waysIn.append(ProtectedStep(state: model.states[state], asks: assurance.required[state],
                                               isSuccess: model.isSuccess[state], ways: ways))
        }
        return survey
    }
}
