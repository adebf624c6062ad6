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
            case .back:
                let state = Int(top.state)
                if stack.count > 1, !model.isTerminal[state], model.canGoBack[state] { stack.removeLast() }
            case let .event(name, _):
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
        return graph.events(to: position).map { .event($0, values: nil) }
    }

    /// Paths that reach `state` by the shortest routes the graph knows, shortest first.
    func shortestPaths(toState state: String, limit: Int) -> [[FuzzAction]] {
        guard let id = model.state(named: state) else { return [] }
        return graph.configurations(of: id.index, limit: limit).map { graph.events(to: $0).map { .event($0, values: nil) } }
    }
}
