import AuthFlow

/// Each configuration's forward moves by kind (pushes, in-place updates, resets), a target configuration and a row each:
/// what section 5's count of histories reads (``ConfigurationGraph/countHistories(depth:timeout:start:progress:)``).
///
/// The breadth-first search finds them as it goes (it asks the semantics for every configuration's moves and looks
/// up every target anyway) and keeps them for a flow whose stacks are histories, in place of the edges it keeps for
/// the others; a graph from the search over backs, or one a limit stopped, has them made by asking again.
struct ForwardMoves: Sendable, Equatable {
    enum Kind: Int { case push = 0, replace = 1, reset = 2 }
    /// Configuration `i`'s moves of kind `k` are `start[3i + k] ..< start[3i + k + 1]`.
    private(set) var start: [Int32] = []
    /// Per move: the target configuration, and the index in ``FlowModel/rows`` of the row that fires.
    private(set) var target: [Int32] = []
    private(set) var row: [Int32] = []

    init() {}

    /// Made from `graph`'s configurations by asking the semantics for each one's moves; a target not in the graph (beyond
    /// a limit that stopped the search) is left out.
    init(graph: ConfigurationGraph) {
        let model = graph.model
        var successors: [FlowModel.Successor] = []
        var targets: [Int32] = []
        for c in graph.configurations {
            model.successors(state: Int(c.state), keys: c.keys, values: c.values, into: &successors)
            targets.removeAll(keepingCapacity: true)
            for successor in successors {
                switch successor.outcome {
                case let .push(to, keys, values), let .replace(to, keys, values):
                    targets.append(graph.index[Configuration(state: to.rawValue, keys: keys, values: values)] ?? -1)
                case let .reset(keys, values):
                    targets.append(graph.index[Configuration(state: model.initial.rawValue, keys: keys, values: values)] ?? -1)
                case .illegal:
                    targets.append(-1)
                }
            }
            append(successors, targets: targets)
        }
        close()
    }

    /// Adds the next configuration's moves: `successors` as the semantics lists them, `targets[j]` the configuration
    /// successor `j` reaches (-1: none, an illegal move or a target left out).
    mutating func append(_ successors: [FlowModel.Successor], targets: [Int32]) {
        for kind in 0..<3 {
            start.append(Int32(target.count))
            for (j, successor) in successors.enumerated() where targets[j] >= 0 {
                let k: Int
                switch successor.outcome {
                case .push: k = 0
                case .replace: k = 1
                case .reset: k = 2
                case .illegal: continue
                }
                guard k == kind else { continue }
                target.append(targets[j])
                row.append(Int32(successor.row))
            }
        }
    }

    /// Ends the list after the last configuration's moves.
    mutating func close() { start.append(Int32(target.count)) }

    /// Configuration `i`'s moves of `kind`, as indices into ``target`` and ``row``.
    @inline(__always) func range(_ i: Int, _ kind: Kind) -> Range<Int> {
        Int(start[3 * i + kind.rawValue])..<Int(start[3 * i + kind.rawValue + 1])
    }

    /// All of configuration `i`'s moves.
    @inline(__always) func range(_ i: Int) -> Range<Int> { Int(start[3 * i])..<Int(start[3 * i + 3]) }
}
