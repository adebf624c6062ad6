import AuthFlow

extension FrameMoves {
    /// The moves of a static flow whose search finished, found once per state and shared by that state's configurations.
    ///
    /// A static flow's (``FlowModel/isStatic``) step offers the same emissions, each taken by the same row or by none,
    /// whatever its data: its configurations of one state differ only in the data their moves carry along. So the
    /// first configuration of each reachable state is expanded alone. It gives the state's offered events, fired
    /// rows and illegal events (the first configuration breadth-first is where each `(state, event)` is first
    /// illegal), and a move to a state means a move from every configuration of the state to one of that state,
    /// which the finished search stored. A configuration can move when its state can, and can reach a terminal
    /// configuration when its state can reach a terminal state: the same answers as expanding every configuration
    /// (`StaticFrameMovesTests` compares them), for O(C) time and memory instead of O(C · m).
    ///
    /// `nil` for a flow whose moves depend on its data, and for a search stopped at a limit: there a move may
    /// lead past what was stored, which only the configuration knows.
    /// - Complexity: O(S · m + C) time for S reachable states, m emissions per step and C configurations; O(C + S · m) memory.
    static func sharedPerState(_ graph: ConfigurationGraph) -> FrameMoves? {
        let model = graph.model
        guard model.isStatic, graph.stoppedBy == nil else { return nil }
        let stateCount = model.stateCount
        var facts = ModelChecker.FrameFacts(model)
        var illegal: [Int64: (position: Int32, keys: UInt64, values: UInt64)] = [:]
        var stateMoves = [Bool](repeating: false, count: stateCount)
        // The state graph's moves, state `s`'s at `edgeStart[s] ..< edgeStart[s + 1]`, turned into each state's predecessors below.
        var edgeStart = [Int](repeating: 0, count: stateCount + 1), edgeTarget: [Int32] = []
        var successors: [FlowModel.Successor] = []
        for state in 0..<stateCount {
            edgeStart[state] = edgeTarget.count
            guard graph.isReachable(state) else { continue }
            let first = graph.firstOfState[state]
            let configuration = graph.configurations[Int(first)]
            model.successors(state: state, keys: configuration.keys, values: configuration.values, into: &successors)
            for successor in successors {
                facts.note(successor, in: state, of: model)
                switch successor.outcome {
                case .illegal:
                    let site = Int64(state) << 32 | Int64(successor.event.rawValue)
                    if illegal[site] == nil { illegal[site] = (first, successor.effectKeys, successor.effectValues) }
                case let .push(target, _, _), let .replace(target, _, _):
                    stateMoves[state] = true
                    edgeTarget.append(target.rawValue)
                case .reset:
                    stateMoves[state] = true
                    edgeTarget.append(model.initial.rawValue)
                }
            }
        }
        // Backward from the terminal states over the state graph's moves.
        let terminals = (0..<stateCount).filter { model.isTerminal[$0] && graph.isReachable($0) }.map(Int32.init)
        edgeStart[stateCount] = edgeTarget.count
        let stateExits = Self.reachBackward(count: stateCount, edgeStart: edgeStart, targets: &edgeTarget, from: terminals)
        // Each configuration takes its state's answers, read and written in place (two `map`s cost 60 instructions a configuration).
        var canMove = [Bool](repeating: false, count: graph.count), canExit = canMove
        graph.configurations.withUnsafeBufferPointer { configurations in
            canMove.withUnsafeMutableBufferPointer { canMove in
                canExit.withUnsafeMutableBufferPointer { canExit in
                    for i in configurations.indices where i < canMove.count && i < canExit.count {
                        let state = Int(configurations[i].state)
                        canMove[i] = stateMoves[state]
                        canExit[i] = stateExits[state]
                    }
                }
            }
        }
        return FrameMoves(graph: graph, canMove: canMove, canExit: canExit, firstIllegal: illegal, facts: facts, expanded: graph.count)
    }
}
