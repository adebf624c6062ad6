import AuthFlow
import Foundation

/// A configuration of the spec's semantics: a state and the set of data keys collected.
struct Configuration: Hashable, Sendable {
    var state: Int32
    /// Presence bits (see ``DataLayout``).
    var keys: UInt64
    /// Packed values of valued keys and counters; 0 in every `/1` flow.
    var values: UInt64 = 0

    /// Hashes the values only when there are some, so a `/1` frame hashes as cheaply as before `/2`.
    func hash(into hasher: inout Hasher) {
        hasher.combine(keys ^ UInt64(UInt32(bitPattern: state)) << 32)
        if values != 0 { hasher.combine(values) }
    }
}

/// Every reachable `(state, data keys)` configuration of a flow, found once by one breadth-first search.
///
/// The complete checker derives its sites, shortest paths and lint from it; coverage counts
/// stacks over its edges; the random-path tester reads reachability from it by index. Building it
/// once is the only search of the configuration space any of them makes.
///
/// What it holds, by configuration index (breadth-first order, the root at 0):
/// - `configurations[i]`, the frame; `parent[i]` and `via[i]`, the configuration and the event
///   that first reached it (-1 at the root), so a shortest path is a walk up the parents;
/// - its outgoing edges `edges(of: i)`: one per distinct child frame, in the step's `emits` order.
///   When two events push the same frame the edge counts for the earlier event, exactly as the
///   runtime walk deduplicates siblings; each edge names the table row that fires.
///
/// When a limit stops the search (`stoppedBy`), the configurations found are kept but the ones
/// not expanded have no edges: counts over the graph are then lower bounds.
///
/// - Complexity: building is O(C · m) time and O(C + E) memory for C configurations, m events per
///   step and E deduplicated edges.
package struct ConfigurationGraph: Sendable {
    /// The flow.
    package let model: FlowModel
    /// Reachable configurations in breadth-first order; index 0 is the root. The same list as ``index``'s, held once.
    let configurations: [Configuration]
    /// The configuration each one was first reached from, or -1 for the root.
    let parent: [Int32]
    /// The raw event id that first reached each configuration, or -1 for the root.
    let via: [Int32]
    /// The edges of configuration `i` are `edgeStart[i] ..< edgeStart[i + 1]`; empty when the graph keeps no edges.
    let edgeStart: [Int]
    /// Per edge: the child configuration's index.
    let edgeTarget: [Int32]
    /// Per edge: the index in ``FlowModel/rows`` of the row that fires.
    let edgeRow: [Int32]
    /// A flow whose stacks are histories, searched whole with `edges`: each configuration's forward moves, kept in
    /// place of the edges for its count (``ForwardMoves``); nil otherwise.
    let forwardMoves: ForwardMoves?
    /// For a graph expanded only below a number of moves (`expandingBelow`): that number, the deepest count of stacks
    /// it can make; nil for a graph searched whole.
    private(set) var countedThrough: Int?
    /// Per state: the first configuration (breadth-first) in that state, or -1 when unreachable.
    let firstOfState: [Int32]
    /// Per state: the first configuration whose data lacks a key the state requires, or -1.
    let firstUnmet: [Int32]
    /// The limit that stopped the search, if one did.
    package let stoppedBy: StopReason?
    /// Each configuration's index.
    let index: ConfigurationIndex
    /// Per configuration: the steps of its shortest path, pushes, replaces, resets and backs alike.
    let depth: [Int32]
    /// Section 5, a flow with server-side keys: the search over backs (``BackReach``) and each configuration's index in
    /// it; `nil` otherwise, when every shortest path is a walk up the parents.
    let backReach: BackReach?
    let reachIndex: [Int32]
    /// The inverse of ``reachIndex``: each configuration of the search over backs by its index in the graph.
    let reachPosition: [Int32]

    /// Searches `model`'s configuration graph breadth-first within `limits`.
    ///
    /// Reports progress to ``CheckProgress/current`` every 1,024 configurations expanded, and
    /// stops at `limits.maxConfigurations` stored or `limits.timeout` seconds after `start`.
    /// - Parameter edges: whether to keep the deduplicated edges, which only stack counts need;
    ///   without them every configuration has none, and the search is about a quarter cheaper. A flow whose stacks are
    ///   histories (``FlowModel/stacksAreHistories``) keeps its forward moves instead (``forwardMoves``), which its count
    ///   reads (``countHistories(depth:timeout:start:progress:)``): the count made the same list itself before, so the
    ///   peak is the same (about 9 MB of an authenticator's 121,824 configurations).
    /// - Parameter expandingBelow: when set, only configurations fewer than this many moves from a root are expanded
    ///   (the others are found, with no moves): all a count of stacks of at most that many moves reads, for a walk that
    ///   counts its stacks without a whole graph to read them from. ``countedThrough`` records it.
    package init(model: FlowModel, limits: CheckLimits = CheckLimits(), start: Date = Date(), edges: Bool = true,
                 expandingBelow bound: Int? = nil) {
        let keepEdges = edges && !model.stacksAreHistories
        let keepsMoves = edges && model.stacksAreHistories
        let stateCount = model.stateCount
        if model.layout.hasServerKeys {
            let reach = BackReach(model: model, limits: limits, start: start)
            self = ConfigurationGraph(model: model, reach: reach)
            return
        }
        let bound = bound.map { Int32(clamping: Swift.max(0, $0)) }
        let progress = CheckProgress.current
        let isStatic = model.isStatic
        let requires = model.requires.map(\.bits)
        let hasAnyOf = model.anyOf.map { !$0.isEmpty }
        // For the static table: the row of each (state, event), read only when edges are kept.
        var rowOf = [[EventID: Int32]](repeating: [:], count: keepEdges && isStatic ? stateCount : 0)
        if keepEdges && isStatic {
            for (i, row) in model.rows.enumerated() where rowOf[row.from.index][row.event] == nil { rowOf[row.from.index][row.event] = Int32(i) }
        }

        // The configurations found are `index.configurations`, in the order found.
        var index = ConfigurationIndex()
        var parent: [Int32] = []
        var via: [Int32] = []
        var edgeStart: [Int] = []
        var edgeTarget: [Int32] = []
        var edgeRow: [Int32] = []
        var firstOfState = [Int32](repeating: -1, count: stateCount)
        var firstUnmet = [Int32](repeating: -1, count: stateCount)
        var stoppedBy: StopReason?
        // Per configuration: the fewest moves from a root (pushes and resets alike).
        var distance: [Int32] = []

        func discover(_ configuration: Configuration, from parentIndex: Int32, event: Int32) -> Int32 {
            let position = index.append(configuration)
            distance.append(parentIndex < 0 ? 0 : distance[Int(parentIndex)] + 1)
            parent.append(parentIndex)
            via.append(event)
            let state = Int(configuration.state)
            if firstOfState[state] < 0 { firstOfState[state] = position }
            if firstUnmet[state] < 0,
               requires[state] & ~configuration.keys != 0 || (hasAnyOf[state] && !model.meetsRequirements(state: state, keys: configuration.keys)) {
                firstUnmet[state] = position
            }
            return position
        }

        // The roots, one per variant, in variant order.
        for root in model.roots {
            let configuration = Configuration(state: model.initial.rawValue, keys: root.keys, values: root.values)
            if index[configuration] == nil { _ = discover(configuration, from: -1, event: -1) }
        }
        // Per configuration: the last configuration that took an edge to it, so a sibling's duplicate is found in O(1),
        // not by searching the edges so far (a step of 130,000 events made that quadratic).
        var edgeFrom: [Int32] = []
        var successors: [FlowModel.Successor] = []
        var forwardMoves = ForwardMoves()
        var head = 0
        search: while head < index.count {
            // Breadth-first: once one configuration is at the bound, every one after it is too.
            if let bound, distance[head] >= bound { break }
            let configuration = index.configurations[head]
            if keepEdges { edgeStart.append(edgeTarget.count) }
            /// Records the child `(target, keys, values)` reached by `event` through `row`: its index, or nil when a limit
            /// stops the search.
            func visit(_ target: StateID, _ keys: UInt64, _ values: UInt64, event: EventID, row: Int32) -> Int32? {
                let child = Configuration(state: target.rawValue, keys: keys, values: values)
                let position: Int32
                if let known = index[child] {
                    position = known
                } else {
                    if index.count >= limits.maxConfigurations {
                        stoppedBy = .maxConfigurations(limits.maxConfigurations)
                        return nil
                    }
                    position = discover(child, from: Int32(head), event: event.rawValue)
                }
                // Only siblings can push the same frame; the earlier event keeps it.
                if keepEdges {
                    while edgeFrom.count < index.count { edgeFrom.append(-1) }
                    if edgeFrom[Int(position)] != Int32(head) {
                        edgeFrom[Int(position)] = Int32(head)
                        edgeTarget.append(position)
                        edgeRow.append(row)
                    }
                }
                return position
            }
            if isStatic {
                // The state alone fixes every move: the precomputed table lists exactly the successors.
                for move in model.moves[Int(configuration.state)] {
                    guard let target = move.target else { continue }
                    let row = keepEdges ? rowOf[Int(configuration.state)][move.event] ?? -1 : -1
                    if visit(target, configuration.keys | move.adds.bits, 0, event: move.event, row: row) == nil { break search }
                }
            } else {
                model.successors(state: Int(configuration.state), keys: configuration.keys, values: configuration.values, into: &successors)
                if keepsMoves { forwardMoves.begin() }
                for successor in successors {
                    switch successor.outcome {
                    case let .push(target, keys, values):
                        guard let position = visit(target, keys, values, event: successor.event, row: Int32(successor.row)) else { break search }
                        if keepsMoves { forwardMoves.add(.push, position, successor.row) }
                    case let .replace(target, keys, values):
                        guard let position = visit(target, keys, values, event: successor.event, row: Int32(successor.row)) else { break search }
                        if keepsMoves { forwardMoves.add(.replace, position, successor.row) }
                    case let .reset(keys, values):
                        // A reset lands on a root, already found, unless its row keeps keys: then on a configuration that
                        // starts a history of its own. Found here (a path to it shows the reset), it has no edge: nothing is pushed.
                        let landing = Configuration(state: model.initial.rawValue, keys: keys, values: values)
                        var position = index[landing]
                        if position == nil {
                            if index.count >= limits.maxConfigurations {
                                stoppedBy = .maxConfigurations(limits.maxConfigurations)
                                break search
                            }
                            position = discover(landing, from: Int32(head), event: successor.event.rawValue)
                        }
                        if keepsMoves, let position { forwardMoves.add(.reset, position, successor.row) }
                    case .illegal:
                        continue
                    }
                }
                if keepsMoves { forwardMoves.end() }
            }
            head += 1
            if head & 1023 == 0 {
                if let progress {
                    var depth = 0
                    var cursor = parent[head - 1]
                    while cursor >= 0 { depth += 1; cursor = parent[Int(cursor)] }
                    progress.update(.configurations, count: index.count, depth: depth)
                }
                if let timeout = limits.timeout, Date().timeIntervalSince(start) > timeout {
                    stoppedBy = .timeout(seconds: timeout)
                    break
                }
            }
        }
        // Configurations the search did not expand (it stopped early) have none.
        if keepEdges {
            while edgeStart.count < index.count { edgeStart.append(edgeTarget.count) }
            edgeStart.append(edgeTarget.count)
        }

        if keepsMoves, bound != nil {
            // The configurations at the bound have no moves.
            while forwardMoves.start.count < 3 * index.count {
                forwardMoves.begin()
                forwardMoves.end()
            }
        }
        forwardMoves.close()
        // A search a limit stopped has configurations it did not expand: their moves are asked for again when counted. (A
        // static flow's stacks are never histories: it has no in-place update, reset or server-side key.)
        self.init(model: model, parent: parent, via: via, edges: (edgeStart, edgeTarget, edgeRow),
                  forwardMoves: keepsMoves && stoppedBy == nil ? forwardMoves : nil,
                  firstOfState: firstOfState, firstUnmet: firstUnmet, stoppedBy: stoppedBy, index: index,
                  depth: distance, backReach: nil, reachIndex: [], reachPosition: [])
        countedThrough = bound.map(Int.init)
    }

    /// The graph of a flow with server-side keys from its search over backs: configurations shortest first, each one's
    /// parent the configuration its shortest path's last step (or, after a back, the back's whole excursion) starts from.
    /// It keeps no edges: a flow with server-side keys counts histories (``FlowModel/stacksAreHistories``).
    private init(model: FlowModel, reach: BackReach) {
        let order = reach.settled
        var position = [Int32](repeating: -1, count: reach.configurations.count)
        for (i, c) in order.enumerated() { position[Int(c)] = Int32(i) }
        var parent: [Int32] = [], via: [Int32] = [], depth: [Int32] = []
        var index = ConfigurationIndex()
        var firstOfState = [Int32](repeating: -1, count: model.stateCount)
        var firstUnmet = [Int32](repeating: -1, count: model.stateCount)
        for (i, c) in order.enumerated() {
            let configuration = reach.configurations[Int(c)]
            index.append(configuration)
            depth.append(reach.length[Int(c)])
            switch reach.derivation[Int(c)] {
            case .start:
                parent.append(-1); via.append(-1)
            case let .step(item, event):
                parent.append(position[Int(item)]); via.append(event)
            case let .back(item, _, _, _):
                parent.append(position[Int(item)]); via.append(-2)
            }
            let state = Int(configuration.state)
            if firstOfState[state] < 0 { firstOfState[state] = Int32(i) }
            if firstUnmet[state] < 0, !model.meetsRequirements(state: state, keys: configuration.keys) { firstUnmet[state] = Int32(i) }
        }
        self.init(model: model, parent: parent, via: via, edges: ([], [], []), forwardMoves: nil,
                  firstOfState: firstOfState, firstUnmet: firstUnmet, stoppedBy: reach.stoppedBy, index: index,
                  depth: depth, backReach: reach, reachIndex: order, reachPosition: position)
    }

    /// Every field, as the two searches above find them.
    private init(model: FlowModel, parent: [Int32], via: [Int32],
                 edges: (start: [Int], target: [Int32], row: [Int32]), forwardMoves: ForwardMoves?, firstOfState: [Int32], firstUnmet: [Int32],
                 stoppedBy: StopReason?, index: ConfigurationIndex, depth: [Int32], backReach: BackReach?, reachIndex: [Int32], reachPosition: [Int32]) {
        self.model = model
        self.configurations = index.configurations
        self.parent = parent
        self.via = via
        self.edgeStart = edges.start
        self.edgeTarget = edges.target
        self.edgeRow = edges.row
        self.forwardMoves = forwardMoves
        self.firstOfState = firstOfState
        self.firstUnmet = firstUnmet
        self.stoppedBy = stoppedBy
        self.index = index
        self.depth = depth
        self.backReach = backReach
        self.reachIndex = reachIndex
        self.reachPosition = reachPosition
    }

    /// The steps of the shortest path to configuration `position`: each step's event id (-1 for back) and the configuration after it.
    func steps(to position: Int32) -> [(event: Int32, configuration: Int32)] {
        if let reach = backReach {
            return reach.steps(to: reachIndex[Int(position)]).map { ($0.event, reachPosition[Int($0.configuration)]) }
        }
        var chain: [(event: Int32, configuration: Int32)] = []
        var cursor = position
        while parent[Int(cursor)] >= 0 {
            chain.append((via[Int(cursor)], cursor))
            cursor = parent[Int(cursor)]
        }
        return chain.reversed()
    }

    /// The number of configurations found.
    package var count: Int { configurations.count }

    /// Whether some configuration of `state` was found.
    package func isReachable(_ state: Int) -> Bool { firstOfState[state] >= 0 }

    /// Whether `row` fires from some configuration found: its `from` state is reached and emits its event.
    package func fires(_ row: FlowModel.Row) -> Bool {
        isReachable(row.from.index) && model.moves[row.from.index].contains { $0.event == row.event }
    }

    /// Per row of ``FlowModel/rows``: whether it fires (``fires(_:)``), for every row at once.
    ///
    /// One pass over the moves of the reachable states: asking ``fires(_:)`` row by row searches
    /// the moves of the row's state each time, minutes for a step with 130,000 events.
    /// - Complexity: O(moves + rows).
    package func firedRows() -> [Bool] {
        var moved = Set<Int64>()
        for state in 0..<model.stateCount where isReachable(state) {
            for move in model.moves[state] { moved.insert(Int64(state) << 32 | Int64(move.event.rawValue)) }
        }
        return model.rows.map { moved.contains(Int64($0.from.index) << 32 | Int64($0.event.rawValue)) }
    }

    /// The number of states some configuration is in.
    package var reachableStates: Int { firstOfState.lazy.filter { $0 >= 0 }.count }

    /// The edges of configuration `i`, as indices into ``edgeTarget`` and ``edgeRow``: none when the graph keeps no edges.
    func edges(of i: Int) -> Range<Int> { edgeStart.isEmpty ? 0..<0 : edgeStart[i]..<edgeStart[i + 1] }

    /// The steps of the shortest path from its variant's root to configuration `position`.
    func events(to position: Int32) -> [FlowPath.Step] {
        steps(to: position).map { $0.event < 0 ? .back : .event(model.events[Int($0.event)]) }
    }

    /// The configurations of `state` in breadth-first order, at most `limit` of them.
    func configurations(of state: Int, limit: Int) -> [Int32] {
        var found: [Int32] = []
        var position = Int(firstOfState[state])
        guard position >= 0 else { return [] }
        while position < configurations.count && found.count < limit {
            if configurations[position].state == Int32(state) { found.append(Int32(position)) }
            position += 1
        }
        return found
    }

    /// The root configuration of `configuration`'s variant (its config values, at the initial state), by index.
    func rootIndex(_ configuration: Configuration) -> Int32? {
        let layout = model.layout
        return index[Configuration(state: model.initial.rawValue, keys: configuration.keys & layout.configKeys,
                                   values: configuration.values & layout.configValues)]
    }

    /// The data of configuration `i` as messages print it: `{email, nextStep=done, attempts=2}`, secrets redacted.
    func dataText(_ i: Int) -> String {
        dataText(keys: configurations[i].keys, values: configurations[i].values)
    }

    /// The data `(keys, values)` as messages print it (``FlowModel/dataText(keys:values:)``).
    func dataText(keys: UInt64, values: UInt64) -> String { model.dataText(keys: keys, values: values) }

    /// The keys present (and counters) with the value of each valued key or counter (`nil` for a presence key).
    func dataEntries(keys: UInt64, values: UInt64) -> [(key: String, value: String?)] { model.dataEntries(keys: keys, values: values) }

    /// Per configuration: its number of events from its variant's root, and that root's index.
    ///
    /// A parent is found before its children, so one pass in breadth-first order fills both.
    /// - Complexity: O(C) time and memory.
    func depthsAndRoots() -> (depth: [Int32], root: [Int32]) {
        var root = [Int32](repeating: 0, count: configurations.count)
        for i in configurations.indices {
            let up = Int(parent[i])
            root[i] = up < 0 ? Int32(i) : root[up]
        }
        return (depth, root)
    }

    /// The variant configuration `position` was reached in: the config values of the root its path starts from.
    ///
    /// The roots are the first configurations found, one per variant in variant order, so the
    /// root's index is its variant's index in ``FlowModel/variants``.
    /// - Complexity: O(the path's length).
    func variant(of position: Int32) -> [FlowSpec.KeyValue] {
        var cursor = position
        while cursor >= 0, parent[Int(cursor)] >= 0 { cursor = parent[Int(cursor)] }
        return model.variants.indices.contains(Int(cursor)) ? model.variants[Int(cursor)] : []
    }

    /// The shortest path from the root to configuration `position`, one step per frame.
    ///
    /// Each step's data lists the keys present and the counters (always defined), in declaration
    /// order; a flow with valued keys or counters also gives each one's value (secrets redacted).
    /// Config keys are left out: they never change along a path, and the violation names its variant.
    func path(to position: Int32) -> FlowPath {
        var root = position
        while parent[Int(root)] >= 0 { root = parent[Int(root)] }
        let chain = [(event: Int32(-1), configuration: root)] + steps(to: position)
        return FlowPath(chain.enumerated().map { step, element in
            let at = element.configuration
            let configuration = configurations[Int(at)]
            let event = step == 0 ? -1 : element.event
            // An authflow/2 path shows the values after each step (secrets redacted; none for a presence key), even
            // when the flow has only presence keys, so every /2 report has them; a /1 path shows the keys alone.
            var values: [String: String]?
            var data = model.names(of: KeySet(bits: configuration.keys))
            if model.format >= 2 || !model.layout.presenceOnly {
                values = [:]
                let entries = dataEntries(keys: configuration.keys & ~model.layout.configKeys, values: configuration.values)
                data = entries.map(\.key)
                for entry in entries {
                    if let value = entry.value { values?[entry.key] = value }
                }
            }
            return PathStep(step: step == 0 ? nil : event < 0 ? .back : .event(model.events[Int(event)]),
                            state: model.states[Int(configuration.state)], data: data, values: values)
        })
    }
}
