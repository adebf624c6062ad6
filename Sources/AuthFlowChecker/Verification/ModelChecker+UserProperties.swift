import AuthFlow

extension ModelChecker {
    /// The spec's own properties over every reachable configuration, in breadth-first order.
    ///
    /// An `always` or `never` property is violated once, at the first configuration that breaks it:
    /// breadth-first order makes its path the shortest. A `reachable` property is violated when some
    /// variant has no configuration that satisfies it; it has no state and no path, and its message
    /// names those variants. A search stopped by a limit has not seen every configuration, so it
    /// reports no `reachable` violation.
    /// - Complexity: O(C · p · g) for C configurations, p properties and guards of size g.
    /// - Parameter cut: set when `deadline` stopped the pass before every configuration was looked at.
    static func userPropertySites(_ graph: ConfigurationGraph, deadline: Deadline = .none, cut: inout Bool) -> [(position: Int32, violation: Violation)] {
        let model = graph.model
        guard !model.properties.isEmpty else { return [] }
        let properties = Property.userProperties(of: model)
        let layout = model.layout
        var found: [(position: Int32, violation: Violation)] = []
        var open = Set(model.properties.indices.filter { model.properties[$0].kind != .reachable })
        // Per reachable property: the variants (roots) where some configuration satisfies it.
        let reachable = model.properties.indices.filter { model.properties[$0].kind == .reachable }
        var satisfiedIn = [Set<Int>](repeating: [], count: model.properties.count)
        var root = [Int32](repeating: 0, count: graph.count)
        for i in 0..<graph.count {
            if i & 4095 == 4095, deadline.hasPassed {
                cut = true
                return found
            }
            let parent = graph.parent[i]
            root[i] = parent < 0 ? Int32(i) : root[Int(parent)]
            let configuration = graph.configurations[i]
            for p in open where model.properties[p].isViolated(state: configuration.state, keys: configuration.keys,
                                                              values: configuration.values, layout: layout) {
                open.remove(p)
                let rule = model.properties[p]
                let state = model.states[Int(configuration.state)]
                found.append((Int32(i), Violation(property: properties[p], state: state,
                                                  message: RuleCheck.message(rule, state: state, data: graph.dataText(i)),
                                                  path: [])))
            }
            for p in reachable where !satisfiedIn[p].contains(Int(root[i])) {
                if model.properties[p].isSatisfied(state: configuration.state, keys: configuration.keys,
                                                   values: configuration.values, layout: layout) {
                    satisfiedIn[p].insert(Int(root[i]))
                }
            }
        }
        guard graph.stoppedBy == nil else { return found }
        let roots = (0..<graph.count).filter { graph.parent[$0] < 0 }
        for p in reachable {
            let missing = roots.filter { !satisfiedIn[p].contains($0) }
            guard !missing.isEmpty else { continue }
            let rule = model.properties[p]
            let variants = missing.map { graph.variant(of: Int32($0)) }
            var message = "\(rule.id) says reachable \(rule.text), but no reachable configuration satisfies it"
            if !model.spec.config.isEmpty {
                let names = variants.map { $0.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") }
                message += missing.count == 1 ? " in the variant \(names[0])" : " in the variants \(names.joined(separator: "; "))"
            }
            var violation = Violation(property: properties[p], state: nil, message: message, path: [])
            violation.unsatisfiedIn = variants
            // Sorted after every configuration: it is found only when the search is over.
            found.append((Int32(graph.count), violation))
        }
        return found
    }
}
