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
/// transitions), so every row the complete checker fires is taken.
///
/// ```swift
/// let cover = CoveringPaths(model: model, target: .transitions)
/// cover.length >= cover.lowerBound   // total steps against the bound
/// ```
public struct CoveringPaths: Sendable {
    /// One path: the events from the start and the state after each.
    public struct Path: Hashable, Sendable {
        public var events: [String]
        public var states: [String]
        /// The data keys after each step.
        public var data: [[String]]
    }

    /// The paths, in the order the tour takes them.
    public var paths: [Path]
    /// What they cover.
    public var target: CoverTarget
    /// The reachable items of the target (rows that fire, states, or configurations).
    public var reachable: Int
    /// No set of covering paths has fewer steps in all: each step covers at most one new item
    /// (for states and configurations, the start is covered without a step).
    public var lowerBound: Int
    /// The total number of steps.
    public var length: Int { paths.reduce(0) { $0 + $1.events.count } }

    /// The covering paths of `model`'s first variant for `target`.
    /// - Complexity: O(k · (C + M)) time for k extensions over C configurations and M moves; O(C + M) memory.
    public init(model: FlowModel, target: CoverTarget, limits: CheckLimits = CheckLimits()) {
        self.init(graph: ConfigurationGraph(model: model, limits: limits, edges: false), target: target)
    }

    init(graph: ConfigurationGraph, target: CoverTarget) {
        let model = graph.model
        // Every move of every configuration, deduplicated by nothing: (event, child, row).
        var moves: [[(event: Int32, child: Int32, row: Int32)]] = Array(repeating: [], count: graph.count)
        var successors: [FlowModel.Successor] = []
        for i in 0..<graph.count {
            let configuration = graph.configurations[i]
            model.successors(state: Int(configuration.state), keys: configuration.keys, values: configuration.values, into: &successors)
            for successor in successors {
                let child: Int32?
                switch successor.outcome {
                case let .push(target, keys, values):
                    child = graph.index[Configuration(state: target.rawValue, keys: keys, values: values)]
                case .reset:
                    child = graph.rootIndex(configuration)
                case .illegal:
                    child = nil
                }
                if let child { moves[i].append((successor.event.rawValue, child, Int32(successor.row))) }
            }
        }
        func item(of move: (event: Int32, child: Int32, row: Int32)) -> Int {
            switch target {
            case .transitions: return Int(move.row)
            case .states: return Int(graph.configurations[Int(move.child)].state)
            case .configurations: return Int(move.child)
            }
        }
        var reachable = Set<Int>()
        for list in moves { for move in list { reachable.insert(item(of: move)) } }
        var covered = Set<Int>()
        switch target {
        case .states:
            covered.insert(Int(graph.configurations[0].state))
            reachable.insert(Int(graph.configurations[0].state))
        case .configurations:
            covered.insert(0)
            reachable.insert(0)
        case .transitions:
            break
        }

        /// The shortest sequence of (configuration, move index) from `start` whose last move covers something new.
        func nearest(from start: Int) -> [(from: Int, move: Int)]? {
            var reachedBy = [(from: Int, move: Int)?](repeating: nil, count: graph.count)
            var seen = [Bool](repeating: false, count: graph.count)
            seen[start] = true
            var queue = [start]
            var head = 0
            while head < queue.count {
                let node = queue[head]
                head += 1
                for (m, move) in moves[node].enumerated() {
                    if !covered.contains(item(of: move)) {
                        var steps = [(from: node, move: m)]
                        var cursor = node
                        while let previous = reachedBy[cursor] {
                            steps.append(previous)
                            cursor = previous.from
                        }
                        return steps.reversed()
                    }
                    let child = Int(move.child)
                    if !seen[child] {
                        seen[child] = true
                        reachedBy[child] = (node, m)
                        queue.append(child)
                    }
                }
            }
            return nil
        }

        var paths: [Path] = []
        var current = 0
        var path = Path(events: [], states: [], data: [])
        while covered.count < reachable.count {
            guard let steps = nearest(from: current) else {
                // Nothing new from here: end this path and start over, unless the start is stuck too.
                if path.events.isEmpty { break }
                paths.append(path)
                path = Path(events: [], states: [], data: [])
                current = 0
                continue
            }
            for step in steps {
                let move = moves[step.from][step.move]
                covered.insert(item(of: move))
                let child = graph.configurations[Int(move.child)]
                path.events.append(model.events[Int(move.event)])
                path.states.append(model.states[Int(child.state)])
                path.data.append(model.names(of: KeySet(bits: child.keys)))
                current = Int(move.child)
            }
        }
        if !path.events.isEmpty { paths.append(path) }
        self.paths = paths
        self.target = target
        self.reachable = reachable.count
        self.lowerBound = target == .transitions ? reachable.count : reachable.count - 1
    }
}
