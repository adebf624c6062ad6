import AuthFlow

/// What the model knows that a generic shrinker does not: where a path is after each step, and the shortest way there.
///
/// A random path wanders: it repeats detours, and it reaches its failing screen by whatever
/// route the dice chose. The guide replays a path on the spec's semantics alone (no runtime) to
/// find its loops, and reads the configuration graph for the shortest route to any frame the
/// path visits. It only proposes candidates: every one is replayed through the runtime under
/// test before the shrinker keeps it.
struct ShrinkGuide {
    let graph: ConfigurationGraph
    /// Whether replays send events a step does not emit (an app's table must refuse them) instead of stopping there.
    var probesEveryEvent = false
    var model: FlowModel { graph.model }

    /// The undo stack after each prefix of `actions` (`stacks[k]` after the first k), as the spec's semantics run them.
    ///
    /// An event the screen does not emit ends the list early (a replay would stop there too),
    /// unless ``probesEveryEvent``; an event with no row, or a back the spec forbids, leaves the stack as it is.
    /// - Complexity: O(n · h) for n actions and stacks of height h.
    func stacks(_ actions: [FuzzAction]) -> [[Configuration]] {
        var stack = [Configuration(state: model.initial.rawValue, keys: 0)]
        var stacks = [stack]
        for action in actions {
            let top = stack[stack.count - 1]
            switch action {
            case .undo:
                return stacks   // no step of a random path
            case .back:
                let state = Int(top.state)
                if stack.count > 1, !model.isTerminal[state], model.canGoBack[state] { stack.removeLast() }
            case let .event(name, _), let .reset(name, _):
                guard let event = model.event(named: name) else { return stacks }
                guard let move = model.moves[Int(top.state)].first(where: { $0.event == event }) else {
                    if !probesEveryEvent { return stacks }
                    stacks.append(stack)
                    continue
                }
                if let target = move.target {
                    stack.append(Configuration(state: target.rawValue, keys: top.keys | move.adds.bits))
                }
            }
            stacks.append(stack)
        }
        return stacks
    }

    /// The events of the shortest path to the configuration `frame`, or nil when the graph does not hold it.
    func shortestPath(to frame: Configuration) -> [FuzzAction]? {
        guard let position = graph.index[frame] else { return nil }
        return graph.events(to: position)
    }

    /// Paths that reach `state` by the shortest routes the graph knows, shortest first.
    func shortestPaths(toState state: String, limit: Int) -> [[FuzzAction]] {
        guard let id = model.state(named: state) else { return [] }
        return graph.configurations(of: id.index, limit: limit).map { graph.events(to: $0) }
    }

    /// Paths to the configurations of variant `variant` that break the spec's own rule `property`, nearest first
    /// (the configuration graph's breadth-first order), at most `limit` of them; none for any other property.
    ///
    /// A rule's site has no state to aim at: its target is any configuration where it breaks.
    /// - Complexity: O(C · g) for C configurations and a condition of size g.
    func shortestPaths(breaking property: Property, variant: Int, limit: Int) -> [[FuzzAction]] {
        guard let rule = property.rule, rule.kind != .reachable else { return [] }
        var found: [[FuzzAction]] = []
        var root = [Int32](repeating: 0, count: graph.count)
        for i in 0..<graph.count where found.count < limit {
            let parent = graph.parent[i]
            root[i] = parent < 0 ? Int32(i) : root[Int(parent)]
            let configuration = graph.configurations[i]
            guard root[i] == Int32(variant),
                  rule.isViolated(state: configuration.state, keys: configuration.keys, values: configuration.values, layout: model.layout)
            else { continue }
            found.append(actions(to: Int32(i)))
        }
        return found
    }

    /// The actions of the shortest path to configuration `position`, each event with the values that take the
    /// graph's branch (a valued key's value; a presence key the run's default), or none where the defaults do.
    func actions(to position: Int32) -> [FuzzAction] {
        var from = position
        while graph.parent[Int(from)] >= 0 { from = graph.parent[Int(from)] }
        var successors: [FlowModel.Successor] = []
        return graph.steps(to: position).enumerated().map { step, element in
            let source = graph.configurations[Int(from)], to = graph.configurations[Int(element.configuration)]
            from = element.configuration
            // Section 5: a back on the way (server-side keys make it reach what no forward move does).
            guard element.event >= 0 else { return .back }
            let name = model.events[Int(element.event)]
            guard !model.layout.presenceOnly else { return .event(name) }   // no values to choose
            model.successors(state: Int(source.state), keys: source.keys, values: source.values, into: &successors)
            guard let taken = successors.first(where: {
                $0.event.index == Int(element.event)
                    && $0.outcome.landing(initial: model.initial).map { $0 == (StateID(to.state), to.keys, to.values) } == true
            }) else { return .event(name) }
            let emission = model.emissions[Int(source.state)][taken.emission]
            guard !emission.addValued.isEmpty else { return .event(name) }
            return .event(name, values: .ordered(emission.outputKeys(keyCount: model.keys.count).map { k in
                model.layout.isValued(k) ? model.layout.domains[k][model.layout.field(k, in: taken.effectValues)]
                    : Lockstep.simpleValue(model.keys[k], step: step + 1)
            }))
        }
    }
}
