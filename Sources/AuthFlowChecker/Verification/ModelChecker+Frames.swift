import AuthFlow

extension ModelChecker {
    /// The sites of a flow whose moves depend on the data (`authflow/2`), decided per configuration.
    ///
    /// For every reachable configuration, in breadth-first order: an event its step offers whose
    /// rows all refuse is an `illegal-transition` at `(state, event)`; a non-terminal configuration
    /// with no move is a `deadlock`; one with a move from which no terminal configuration can be
    /// reached (user and system events alike, resets included) is `no-exit`. `terminal-exit` looks
    /// at the terminal state's declarations, not its guards. The first configuration that violates a
    /// site gives its shortest counterexample.
    /// - Complexity: O(C · m · b) for C configurations, m emissions per step and b branches each,
    ///   and O(C + E) memory for the reverse graph `no-exit` needs.
    static func frameSites(_ graph: ConfigurationGraph, rules: SiteRules) -> [(position: Int32, violation: Violation)] {
        let model = graph.model
        let count = graph.count
        var successors: [FlowModel.Successor] = []
        // Every move of every configuration: illegal events, whether it can move, and the reverse graph for no-exit.
        var illegal: [Int64: (position: Int32, keys: UInt64, values: UInt64)] = [:]   // state << 32 | event → first configuration
        var canMove = [Bool](repeating: false, count: count)
        var reverse = [[Int32]](repeating: [], count: count)
        let rootOf = graph.rootIndex
        for i in 0..<count {
            let configuration = graph.configurations[i]
            model.successors(state: Int(configuration.state), keys: configuration.keys, values: configuration.values, into: &successors)
            for successor in successors {
                switch successor.outcome {
                case .illegal:
                    let site = Int64(configuration.state) << 32 | Int64(successor.event.rawValue)
                    if illegal[site] == nil { illegal[site] = (Int32(i), successor.effectKeys, successor.effectValues) }
                case let .push(target, keys, values):
                    canMove[i] = true
                    if let child = graph.index[Configuration(state: target.rawValue, keys: keys, values: values)] {
                        reverse[Int(child)].append(Int32(i))
                    }
                case .reset:
                    canMove[i] = true
                    if let root = rootOf(configuration) { reverse[Int(root)].append(Int32(i)) }
                }
            }
        }
        // Backward from every terminal configuration.
        var canExit = [Bool](repeating: false, count: count)
        var work: [Int32] = []
        for i in 0..<count where model.isTerminal[Int(graph.configurations[i].state)] {
            canExit[i] = true
            work.append(Int32(i))
        }
        while let next = work.popLast() {
            for predecessor in reverse[Int(next)] where !canExit[Int(predecessor)] {
                canExit[Int(predecessor)] = true
                work.append(predecessor)
            }
        }

        var found: [(position: Int32, violation: Violation)] = []
        func report(_ property: Property, at position: Int, event: String? = nil, _ message: String) {
            let state = model.states[Int(graph.configurations[position].state)]
            found.append((Int32(position), Violation(property: property, state: state, event: event, message: message,
                                                      path: graph.path(to: Int32(position)))))
        }
        for (site, first) in illegal {
            let state = Int(site >> 32), event = model.events[Int(site & 0xFFFF_FFFF)]
            let name = model.states[state]
            report(.illegalTransition, at: Int(first.position), event: event,
                   "\(name) emits \(event), but no row of the table from \(name) on \(event) holds for the data after it, "
                   + graph.dataText(keys: first.keys, values: first.values))
        }
        var deadlocked = Set<Int32>(), stuck = Set<Int32>()
        for i in 0..<count {
            let state = graph.configurations[i].state
            guard !model.isTerminal[Int(state)] else { continue }
            if !canMove[i] {
                if deadlocked.insert(state).inserted {
                    report(.deadlock, at: i, "\(model.states[Int(state)]) is not terminal and has no legal forward move with the data \(graph.dataText(i))")
                }
            } else if !canExit[i], stuck.insert(state).inserted {
                report(.noExit, at: i, "\(model.states[Int(state)]) has forward moves, but no terminal state is reachable from it with the data \(graph.dataText(i))")
            }
        }
        for state in 0..<model.stateCount where graph.isReachable(state) && model.isTerminal[state] {
            if let violation = rules.terminalExit(state) {
                found.append((graph.firstOfState[state], violation))
                found[found.count - 1].violation.path = graph.path(to: graph.firstOfState[state])
            }
        }
        return found
    }
}
