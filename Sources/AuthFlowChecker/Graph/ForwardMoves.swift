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

    /// The current configuration's in-place updates and resets, held until its pushes are all in.
    private var replaces: [(target: Int32, row: Int32)] = []
    private var resets: [(target: Int32, row: Int32)] = []

    init() {}

    /// Made from `graph`'s configurations by asking the semantics for each one's moves; a target not in the graph (beyond
    /// a limit that stopped the search) is left out.
    init(graph: ConfigurationGraph) {
        let model = graph.model
        var successors: [FlowModel.Successor] = []
        for c in graph.configurations {
            model.successors(state: Int(c.state), keys: c.keys, values: c.values, into: &successors)
            begin()
            for successor in successors {
                switch successor.outcome {
                case let .push(to, keys, values):
                    if let target = graph.index[Configuration(state: to.rawValue, keys: keys, values: values)] { add(.push, target, successor.row) }
                case let .replace(to, keys, values):
                    if let target = graph.index[Configuration(state: to.rawValue, keys: keys, values: values)] { add(.replace, target, successor.row) }
                case let .reset(keys, values):
                    if let target = graph.index[Configuration(state: model.initial.rawValue, keys: keys, values: values)] { add(.reset, target, successor.row) }
                case .illegal:
                    continue
                }
            }
            end()
        }
        close()
    }

    /// Starts the next configuration's moves.
    mutating func begin() { start.append(Int32(target.count)) }

    /// Adds a move of the configuration begun, in the semantics' order: to configuration `to`, by row `row`.
    @inline(__always)
    mutating func add(_ kind: Kind, _ to: Int32, _ row: Int) {
        switch kind {
        case .push:
            target.append(to)
            self.row.append(Int32(row))
        case .replace: replaces.append((to, Int32(row)))
        case .reset: resets.append((to, Int32(row)))
        }
    }

    /// Ends the configuration begun: its in-place updates and resets follow its pushes.
    mutating func end() {
        // Plain loops: most configurations have neither, and an `append(contentsOf:)` costs 140 instructions even empty.
        start.append(Int32(target.count))
        for move in replaces {
            target.append(move.target)
            row.append(move.row)
        }
        start.append(Int32(target.count))
        for move in resets {
            target.append(move.target)
            row.append(move.row)
        }
        if !replaces.isEmpty { replaces.removeAll(keepingCapacity: true) }
        if !resets.isEmpty { resets.removeAll(keepingCapacity: true) }
    }

    /// Ends the list after the last configuration's moves.
    mutating func close() { start.append(Int32(target.count)) }

    /// Configuration `i`'s moves of `kind`, as indices into ``target`` and ``row``.
    @inline(__always) func range(_ i: Int, _ kind: Kind) -> Range<Int> {
        Int(start[3 * i + kind.rawValue])..<Int(start[3 * i + kind.rawValue + 1])
    }

    /// The same moves (what is held for a configuration not yet ended does not count).
    static func == (a: ForwardMoves, b: ForwardMoves) -> Bool { a.start == b.start && a.target == b.target && a.row == b.row }

    /// All of configuration `i`'s moves.
    @inline(__always) func range(_ i: Int) -> Range<Int> { Int(start[3 * i])..<Int(start[3 * i + 3]) }
}
