import AuthFlow

/// Every move of every reachable configuration of a flow, and what they decide: which configurations
/// can move, which can still reach a terminal configuration, which events no row takes.
///
/// The complete checker decides every flow from it, `/1` and `/2` alike: it reads it for the first
/// configuration of each site. The random-path tester reads it for the sites of every frame it drives
/// in a flow whose moves depend on its data, so both decide `deadlock` and `no-exit` from the same
/// graph and say so in the same words.
///
/// A flow whose moves the state alone decides (``FlowModel/isStatic``, every `/1` flow) has sites that
/// hold for every data of their state: their messages name no data, as ``SiteRules`` words them. Its
/// moves are found once per state and shared by the state's configurations (``sharedPerState(_:)``),
/// with the same answers as expanding each: a `/1` flow of 305,000 configurations is decided as fast
/// as by the per-state check it had before both formats came to share this path.
struct FrameMoves {
    let graph: ConfigurationGraph
    /// Per configuration: whether some move (a push or a reset) leaves it.
    let canMove: [Bool]
    /// Per configuration: whether some terminal configuration is reachable from it, or may be: a search
    /// stopped by a limit has not seen where every move leads, so `no-exit` is claimed only where it has.
    let canExit: [Bool]
    /// The first configuration (breadth-first) where each `(state, event)` has a branch no row takes,
    /// keyed `state << 32 | event`, with the data after that branch's effects.
    let firstIllegal: [Int64: (position: Int32, keys: UInt64, values: UInt64)]
    /// What the lint needs: rows that fired, events offered, who moves each state.
    let facts: ModelChecker.FrameFacts
    /// How many configurations (the first, breadth-first) were expanded: all of them unless the deadline came first.
    ///
    /// One not expanded is undecided: it may move and may exit, so it is never called stuck, nor are
    /// those that reach it; ``facts`` and ``firstIllegal`` then speak of the expanded ones only.
    let expanded: Int

    /// Whether the deadline stopped the expansion before every configuration was expanded.
    var isCut: Bool { expanded < graph.count }

    /// Moves already worked out (``sharedPerState(_:)``).
    init(graph: ConfigurationGraph, canMove: [Bool], canExit: [Bool],
         firstIllegal: [Int64: (position: Int32, keys: UInt64, values: UInt64)], facts: ModelChecker.FrameFacts, expanded: Int) {
        self.graph = graph
        self.canMove = canMove
        self.canExit = canExit
        self.firstIllegal = firstIllegal
        self.facts = facts
        self.expanded = expanded
    }

    /// Expands every configuration of `graph` once, or those it reaches before `deadline` (asked every 1,024).
    ///
    /// A static flow whose search finished is expanded once per state instead (``sharedPerState(_:)``), with the same
    /// answers; `perState: false` expands it configuration by configuration all the same, for the tests that compare the two.
    /// - Complexity: O(C · m · b) time and O(C + E) memory for C configurations, m emissions per step, b branches each.
    init(graph: ConfigurationGraph, deadline: Deadline = .none, perState: Bool = true) {
        if perState, let shared = FrameMoves.sharedPerState(graph) {
            self = shared
            return
        }
        self.graph = graph
        let model = graph.model
        let count = graph.count
        var successors: [FlowModel.Successor] = []
        var illegal: [Int64: (position: Int32, keys: UInt64, values: UInt64)] = [:]
        var canMove = [Bool](repeating: false, count: count)
        // The moves between stored configurations: configuration `i`'s targets are `edgeTarget[edgeStart[i] ..< edgeStart[i + 1]]`,
        // one flat list sorted by target below (an array per configuration cost a large flow twice the time and half again
        // the memory; a source per move, 4 MB more of an authenticator's million moves).
        var edgeStart = [Int](repeating: 0, count: count + 1), edgeTarget: [Int32] = []
        // Configurations with a move to a frame the search did not store (it stopped): where they lead is unknown.
        var open: [Int32] = []
        var facts = ModelChecker.FrameFacts(model)
        var expanded = count
        for i in 0..<count {
            if i & 1023 == 1023, deadline.hasPassed {
                expanded = i
                break
            }
            edgeStart[i] = edgeTarget.count
            let configuration = graph.configurations[i]
            let state = Int(configuration.state)
            model.successors(state: state, keys: configuration.keys, values: configuration.values, into: &successors)
            for successor in successors {
                facts.note(successor, in: state, of: model)
                switch successor.outcome {
                case .illegal:
                    let site = Int64(configuration.state) << 32 | Int64(successor.event.rawValue)
                    if illegal[site] == nil { illegal[site] = (Int32(i), successor.effectKeys, successor.effectValues) }
                case let .push(target, keys, values), let .replace(target, keys, values):
                    canMove[i] = true
                    if let child = graph.index[Configuration(state: target.rawValue, keys: keys, values: values)] {
                        edgeTarget.append(child)
                    } else {
                        open.append(Int32(i))
                    }
                case let .reset(keys, values):
                    canMove[i] = true
                    // The new run's root: the variant's, or the configuration the row's keeps make (the search found both).
                    if let root = graph.index[Configuration(state: model.initial.rawValue, keys: keys, values: values)] {
                        edgeTarget.append(root)
                    } else {
                        open.append(Int32(i))
                    }
                }
            }
        }
        // Those not expanded have no moves listed.
        for i in expanded...count { edgeStart[i] = edgeTarget.count }
        // Backward from every terminal configuration, and from every one whose moves leave what the search stored.
        var seeds: [Int32] = []
        for i in 0..<count where model.isTerminal[Int(graph.configurations[i].state)] { seeds.append(Int32(i)) }
        seeds.append(contentsOf: open)
        // Not expanded: where they lead is unknown, as for a move past what the search stored.
        for i in expanded..<count where !model.isTerminal[Int(graph.configurations[i].state)] {
            canMove[i] = true
            seeds.append(Int32(i))
        }
        let canExit = Self.reachBackward(count: count, edgeStart: edgeStart, targets: &edgeTarget, from: seeds)
        self.expanded = expanded
        self.canMove = canMove
        self.canExit = canExit
        self.firstIllegal = illegal
        self.facts = facts
    }

    /// `deadlock` when non-terminal configuration `i` cannot move, `no-exit` when it moves but can reach no terminal configuration.
    /// A back-only screen is left with back: never stuck.
    func stuck(_ i: Int) -> Property? {
        let state = Int(graph.configurations[i].state)
        guard !graph.model.isTerminal[state], !graph.model.isBackOnly[state] else { return nil }
        if !canMove[i] { return .deadlock }
        return canExit[i] ? nil : .noExit
    }

    /// The first configuration (breadth-first) of each state that is stuck (``stuck(_:)``), once as `deadlock` and
    /// once as `no-exit`, in breadth-first order.
    ///
    /// Most configurations move and can exit: they are passed over on the two flags alone, with no lookup of their
    /// state (asking ``stuck(_:)`` of each of 305,000 cost as much as expanding a static flow's states).
    /// - Complexity: O(C) for C configurations.
    func firstStuck() -> [(position: Int, property: Property)] {
        var found: [(position: Int, property: Property)] = []
        var deadlocked = [Bool](repeating: false, count: graph.model.stateCount), trapped = deadlocked
        canMove.withUnsafeBufferPointer { canMove in
            canExit.withUnsafeBufferPointer { canExit in
                for i in canMove.indices where !(canMove[i] && canExit.indices.contains(i) && canExit[i]) {
                    guard let property = stuck(i) else { continue }
                    let state = Int(graph.configurations[i].state)
                    if property == .deadlock ? !deadlocked[state] : !trapped[state] {
                        if property == .deadlock { deadlocked[state] = true } else { trapped[state] = true }
                        found.append((i, property))
                    }
                }
            }
        }
        return found
    }

    /// The message of a `deadlock` or `no-exit` at configuration `i`.
    func stuckMessage(_ property: Property, at i: Int) -> String {
        let state = Int(graph.configurations[i].state)
        let name = graph.model.states[state]
        // A static flow's site is its state's whatever the data: it names none (the `/1` wording).
        if graph.model.isStatic {
            return property == .deadlock ? SiteRules.deadlockMessage(graph.model, state: state) : SiteRules.noExitMessage(name)
        }
        return property == .deadlock
            ? "\(name) is not terminal and has no legal forward move with the data \(graph.dataText(i))"
            : "\(name) has forward moves, but no terminal state is reachable from it with the data \(graph.dataText(i))"
    }

    /// The message of an `illegal-transition`: `event` from `state` with the data after its effects.
    func illegalMessage(state: Int, event: EventID, keys: UInt64, values: UInt64) -> String {
        let name = graph.model.states[state], eventName = graph.model.events[event.index]
        // A static flow's event is illegal because no row takes it at all: the table is what to fix.
        if graph.model.isStatic { return SiteRules.illegalMessage(name, event: eventName) }
        return "\(name) emits \(eventName), but no row of the table from \(name) on \(eventName) holds for the data after it, "
            + graph.dataText(keys: keys, values: values)
    }
}

extension FrameMoves {
    /// Which of `count` nodes reach one of `seeds` over the edges `s -> targets[e]` for `e` in `edgeStart[s] ..< edgeStart[s + 1]`:
    /// a search backward from the seeds over each node's predecessors, kept as one flat list sorted by target. The
    /// targets are emptied once that list is made, so the two are not held at once.
    /// - Complexity: O(count + E) time and memory for E edges.
    static func reachBackward(count: Int, edgeStart: [Int], targets: inout [Int32], from seeds: [Int32]) -> [Bool] {
        // Each node's predecessors: `predecessors[predecessorStart[c] ..< predecessorStart[c + 1]]`. Each count is
        // summed into where its node's list ends, and each predecessor is placed by moving that end down one, so the
        // ends become the starts with no second array of them.
        var predecessorStart = [Int](repeating: 0, count: count + 1)
        for target in targets { predecessorStart[Int(target)] += 1 }
        for c in 0..<count { predecessorStart[c + 1] += predecessorStart[c] }
        var predecessors = [Int32](repeating: 0, count: targets.count)
        for source in 0..<count {
            for e in edgeStart[source]..<edgeStart[source + 1] {
                let target = Int(targets[e])
                predecessorStart[target] -= 1
                predecessors[predecessorStart[target]] = Int32(source)
            }
        }
        targets = []
        var reaches = [Bool](repeating: false, count: count)
        var work: [Int32] = []
        for seed in seeds where !reaches[Int(seed)] {
            reaches[Int(seed)] = true
            work.append(seed)
        }
        while let next = work.popLast() {
            for predecessor in predecessors[predecessorStart[Int(next)]..<predecessorStart[Int(next) + 1]] where !reaches[Int(predecessor)] {
                reaches[Int(predecessor)] = true
                work.append(predecessor)
            }
        }
        return reaches
    }
}
