import AuthFlow

/// What a set of covering paths must take: every reachable transition, state, or configuration.
public enum CoverTarget: String, CaseIterable, Sendable {
    case states, transitions, configurations
}

/// Paths from the initial configuration that together take every reachable transition (or enter every reachable state or configuration).
///
/// Made for UI and snapshot tests: each path is a plain sequence of forward events from the start
/// that a test can drive step by step. The set is a greedy tour over the configuration graph:
/// from where the current path is, a breadth-first search finds the nearest move that covers
/// something new and the path extends along the shortest way to it; when nothing new can be
/// reached from there (a terminal state), the path ends and the next one starts over. Every move
/// of every configuration is considered (two events that push the same frame are two
/// transitions), so every row the complete checker fires is taken. An `authflow/2` flow is toured
/// variant by variant from each variant's root, so a row is taken in every variant it fires in, and
/// each step says the value each valued key it adds takes (the system's answer): the branch of
/// the move the graph took, so a test that sends those values drives exactly this path.
///
/// ```swift
/// let cover = CoveringPaths(model: model, target: .transitions)
/// cover.length >= cover.lowerBound   // total steps against the bound
/// ```
public struct CoveringPaths: Sendable {
    /// One path: the initial frame, then each step (an event with the values its valued keys take) and the frame after it.
    ///
    /// Its ``FlowPath/variant`` is the `authflow/2` variant it runs in (empty without `config`); each step's values
    /// (``FlowPath/chosen``) are the value each valued key the step adds takes, in the emission's order (none for a flow
    /// whose moves the state alone decides); the frames carry values (``FlowPath/values``) for a flow whose moves depend on its data.
    public typealias Path = FlowPath

    /// The paths, in the order the tour takes them (an `authflow/2` flow's variants in order, each with its own tour).
    public var paths: [Path]
    /// What they cover.
    public var target: CoverTarget
    /// The reachable items of the target (rows that fire, states, or configurations), summed over the variants.
    public var reachable: Int
    /// No set of covering paths has fewer steps in all: each step covers at most one new item
    /// (for states and configurations, each variant's start is covered without a step).
    public var lowerBound: Int
    /// The total number of steps.
    public var length: Int { paths.reduce(0) { $0 + max(0, $1.count - 1) } }
    /// Whether the paths say each step's values and their variant (``Path/chosen``, ``Path/values``): the flow's moves depend on its data.
    public var carriesValues: Bool
    /// The items the paths take, summed over the variants: ``reachable`` unless a limit stopped the tour.
    public var covered: Int
    /// The limit that stopped the search or the tour before every reachable item was covered, if one did.
    ///
    /// The paths are then what the tour had built, over what the search had found: ``reachable``
    /// counts only what was seen, and other reachable items may be left untaken.
    public var stoppedBy: StopReason?

    /// The covering paths of `model` for `target`: per variant, every row that fires in it (or state, or configuration).
    /// - Parameters:
    ///   - limits: `maxConfigurations` bounds the search; `timeout`, counted from `deadline`'s start, the search and the tour.
    ///   - deadline: when the run began (the time spent loading counts); by default now, with `limits.timeout`.
    /// - Complexity: O(V · k · (C + M)) time for V variants, k extensions over C configurations and M moves; O(C + M) memory.
    public init(model: FlowModel, target: CoverTarget, limits: CheckLimits = CheckLimits(), deadline: Deadline? = nil) {
        let deadline = deadline ?? Deadline(timeout: limits.timeout)
        self.init(graph: FlowAnalysis(model: model, limits: limits).graph(within: deadline), target: target, deadline: deadline)
    }

    /// One move of the graph: the event, the configuration it leads to, the row that fires, and which move of the frame it is.
    private struct Move {
        var event: Int32
        var child: Int32
        var row: Int32
        /// The emission and the data after its effects (for the values the step adds).
        var emission: Int32
        var effectValues: UInt64
        /// Whether it is a reset: back at the root, where a path of its own begins.
        var resets = false
    }

    init(graph: ConfigurationGraph, target: CoverTarget, deadline: Deadline = .none) {
        let model = graph.model
        let layout = model.layout
        let carriesValues = !model.isStatic
        var timedOut = false
        var ticks = 0
        /// Whether the deadline has passed, asked every 1,024 calls; once it has, the tour stops where it is.
        func timeUp() -> Bool {
            if timedOut { return true }
            ticks &+= 1
            if ticks & 1023 == 0, deadline.hasPassed { timedOut = true }
            return timedOut
        }
        // Every move of every configuration, deduplicated by nothing, from the one semantics.
        var moves: [[Move]] = Array(repeating: [], count: graph.count)
        var successors: [FlowModel.Successor] = []
        for i in 0..<graph.count {
            if timeUp() { break }
            let configuration = graph.configurations[i]
            model.successors(state: Int(configuration.state), keys: configuration.keys, values: configuration.values, into: &successors)
            for successor in successors {
                let child: Int32?
                switch successor.outcome {
                case let .push(target, keys, values), let .replace(target, keys, values):
                    child = graph.index[Configuration(state: target.rawValue, keys: keys, values: values)]
                case let .reset(keys, values):
                    child = graph.index[Configuration(state: model.initial.rawValue, keys: keys, values: values)]
                case .illegal:
                    child = nil
                }
                if let child {
                    moves[i].append(Move(event: successor.event.rawValue, child: child, row: Int32(successor.row),
                                         emission: Int32(successor.emission), effectValues: successor.effectValues,
                                         resets: successor.outcome.isReset))
                }
            }
        }
        func item(of move: Move) -> Int {
            switch target {
            case .transitions: return Int(move.row)
            case .states: return Int(graph.configurations[Int(move.child)].state)
            case .configurations: return Int(move.child)
            }
        }
        let configBits = layout.configKeys
        let secrets = model.secrets

        var paths: [Path] = []
        var reachableCount = 0
        var coveredCount = 0
        var lowerBound = 0
        // The breadth-first search of `nearest`, allocated once: a configuration is seen in the current search when its stamp is the search's.
        var stamp = [UInt32](repeating: 0, count: graph.count)
        var searches: UInt32 = 0
        var reachedFrom = [Int32](repeating: -1, count: graph.count)
        var reachedMove = [Int32](repeating: -1, count: graph.count)
        var queue: [Int] = []
        // Each variant's root is found before any other configuration, in variant order.
        let roots = (0..<graph.count).prefix { graph.parent[$0] < 0 }
        for root in roots {
            // What this variant reaches, from its own root.
            var reachable = Set<Int>()
            var seenFromRoot = [Bool](repeating: false, count: graph.count)
            seenFromRoot[root] = true
            var frontier = [root]
            while let node = frontier.popLast() {
                if timeUp() { break }
                for move in moves[node] {
                    reachable.insert(item(of: move))
                    if !seenFromRoot[Int(move.child)] {
                        seenFromRoot[Int(move.child)] = true
                        frontier.append(Int(move.child))
                    }
                }
            }
            var covered = Set<Int>()
            switch target {
            case .states:
                covered.insert(Int(graph.configurations[root].state))
                reachable.insert(Int(graph.configurations[root].state))
            case .configurations:
                covered.insert(root)
                reachable.insert(root)
            case .transitions:
                break
            }
            reachableCount += reachable.count
            lowerBound += target == .transitions ? reachable.count : reachable.count - 1

            /// The shortest sequence of (configuration, move index) from `start` whose last move covers something new.
            /// `nil` too when the deadline passes during the search.
            func nearest(from start: Int) -> [(from: Int, move: Int)]? {
                searches &+= 1
                if searches == 0 {
                    // The stamps wrapped: clear them, so no configuration looks seen by an old search.
                    for i in stamp.indices { stamp[i] = 0 }
                    searches = 1
                }
                stamp[start] = searches
                reachedFrom[start] = -1
                queue.removeAll(keepingCapacity: true)
                queue.append(start)
                var head = 0
                while head < queue.count {
                    if timeUp() { return nil }
                    let node = queue[head]
                    head += 1
                    for (m, move) in moves[node].enumerated() {
                        if !covered.contains(item(of: move)) {
                            var steps = [(from: node, move: m)]
                            var cursor = node
                            while reachedFrom[cursor] >= 0 {
                                steps.append((from: Int(reachedFrom[cursor]), move: Int(reachedMove[cursor])))
                                cursor = Int(reachedFrom[cursor])
                            }
                            return steps.reversed()
                        }
                        let child = Int(move.child)
                        if stamp[child] != searches {
                            stamp[child] = searches
                            reachedFrom[child] = Int32(node)
                            reachedMove[child] = Int32(m)
                            queue.append(child)
                        }
                    }
                }
                return nil
            }

            let variant = carriesValues && model.variants.indices.contains(root) ? model.variants[root] : []
            /// The frame of configuration `c`, reached by `step`: with its values when the flow's moves depend on its data.
            func frame(_ c: Int, by step: FlowPath.Step?) -> FlowPath.Frame {
                let child = graph.configurations[c]
                guard carriesValues else {
                    return FlowPath.Frame(step: step, state: model.states[Int(child.state)], data: model.names(of: KeySet(bits: child.keys)))
                }
                let entries = graph.dataEntries(keys: child.keys & ~configBits, values: child.values)
                var values: [String: String] = [:]
                for entry in entries { if let value = entry.value { values[entry.key] = value } }
                return FlowPath.Frame(step: step, state: model.states[Int(child.state)], data: entries.map(\.key), values: values)
            }
            let empty = FlowPath([frame(root, by: nil)], variant: variant)
            var current = root
            var path = empty
            while covered.count < reachable.count {
                guard let steps = nearest(from: current) else {
                    // Nothing new from here: end this path and start over, unless the start is stuck too (or time is up).
                    if path.count <= 1 || timedOut { break }
                    paths.append(path)
                    path = empty
                    current = root
                    continue
                }
                if current != root, path.count > 1, steps.dropLast().contains(where: { moves[$0.from][$0.move].resets }) {
                    // The way on starts the flow again: a fresh session is as good, so the path ends here.
                    paths.append(path)
                    path = empty
                    current = root
                    continue
                }
                for (position, step) in steps.enumerated() {
                    let move = moves[step.from][step.move]
                    covered.insert(item(of: move))
                    var chosen: [FlowSpec.KeyValue] = []
                    if carriesValues {
                        let from = graph.configurations[step.from]
                        let emission = model.emissions[Int(from.state)][Int(move.emission)]
                        chosen = emission.addValued.map { k in
                            FlowSpec.KeyValue(model.keys[k], secrets.contains(KeyID(Int32(k))) ? FlowReport.redacted
                                              : layout.domains[k][layout.field(k, in: move.effectValues)])
                        }
                    }
                    path.append(frame(Int(move.child), by: .event(model.events[Int(move.event)], values: .init(pairs: chosen))))
                    current = Int(move.child)
                    if move.resets && (Int(move.child) == root || position == steps.count - 1) {
                        // A reset ends the path: what follows is a path of its own, as a tester would write it, not the
                        // tail of one long tour (sign-out after sign-out chained 44 steps). The next path starts from a
                        // fresh session, the root: a reset that keeps data (a row's keeps, section 5's server-side keys)
                        // lands elsewhere, and a path that needs that data goes through the reset on its way.
                        paths.append(path)
                        path = empty
                        current = root
                    }
                }
            }
            if path.count > 1 { paths.append(path) }
            coveredCount += covered.count
            if timedOut { break }
        }
        self.paths = paths
        self.covered = coveredCount
        self.stoppedBy = graph.stoppedBy ?? (timedOut ? deadline.stopReason : nil)
        self.target = target
        self.reachable = reachableCount
        self.lowerBound = lowerBound
        self.carriesValues = carriesValues
    }
}
