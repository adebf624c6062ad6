import AuthFlow

extension ModelChecker {
    /// The sites of a flow, `/1` or `/2`, decided per configuration.
    ///
    /// For every reachable configuration, in breadth-first order: an event its step offers whose
    /// rows all refuse is an `illegal-transition` at `(state, event)`; a non-terminal configuration
    /// with no move is a `deadlock`; one with a move from which no terminal configuration can be
    /// reached (user and system events alike, resets included) is `no-exit`. `terminal-exit` looks
    /// at the terminal state's declarations, not its guards. The first configuration that violates a
    /// site gives its shortest counterexample. Sites found at one configuration keep the order of the
    /// step's `emits`. A flow whose moves the state alone decides finds each site at its state's first
    /// configuration, worded without data (``FrameMoves/stuckMessage(_:at:)``).
    /// - Complexity: O(C · m · b) for C configurations, m emissions per step and b branches each,
    ///   and O(C + E) memory for the reverse graph `no-exit` needs.
    /// - Parameter cut: set when `deadline` stopped the expansion (``FrameMoves/isCut``): the sites are then those decided.
    static func frameSites(_ analysis: FlowAnalysis, rules: SiteRules, facts: inout FrameFacts,
                           deadline: Deadline = .none, cut: inout Bool) -> [(position: Int32, violation: Violation)] {
        let graph = analysis.graph(within: deadline)
        let model = graph.model
        let moves = analysis.moves(within: deadline)
        cut = cut || moves.isCut
        facts = moves.facts
        let illegal = moves.firstIllegal
        var found: [(position: Int32, violation: Violation)] = []
        func report(_ property: Property, at position: Int, event: String? = nil, _ message: String) {
            let state = model.states[Int(graph.configurations[position].state)]
            found.append((Int32(position), Violation(property: property, state: state, event: event, message: message, path: [])))
        }
        // At one configuration, in the step's `emits` order (the dictionary's order is not stable from run to run).
        func emitsIndex(_ site: Int64) -> Int {
            let state = Int(site >> 32), event = Int32(site & 0xFFFF_FFFF)
            return model.emissions[state].firstIndex { $0.event.rawValue == event } ?? Int.max
        }
        let sites = illegal.sorted { lhs, rhs in
            lhs.value.position != rhs.value.position ? lhs.value.position < rhs.value.position : emitsIndex(lhs.key) < emitsIndex(rhs.key)
        }
        for (site, first) in sites {
            let state = Int(site >> 32), event = EventID(Int32(site & 0xFFFF_FFFF))
            report(.illegalTransition, at: Int(first.position), event: model.events[event.index],
                   moves.illegalMessage(state: state, event: event, keys: first.keys, values: first.values))
        }
        for (i, property) in moves.firstStuck() {
            report(property, at: i, moves.stuckMessage(property, at: i))
        }
        for state in 0..<model.stateCount where graph.isReachable(state) && model.isTerminal[state] {
            if let violation = rules.terminalExit(state) {
                found.append((graph.firstOfState[state], violation))
            }
        }
        return found
    }
}

extension ModelChecker {
    /// The lint of a flow checked frame by frame: unreachable states, dead transitions and unused data, plus
    /// `waits-on-system`, shadowed rows and overridden `anywhere` rows (which a `/1` flow never has).
    ///
    /// Keys count as used when a step requires them (`requires`, `anyOf`), reads them (`optional`),
    /// a guard tests them or one of the spec's own properties does. A row no reachable frame fires is
    /// shadowed when its guard held on some frame its event reached (an earlier row for the same `from`
    /// and `on` took it there), and dead otherwise: a row whose own guard never holds would not fire
    /// even without the rows above it.
    static func lint(_ graph: ConfigurationGraph, facts: FrameFacts) -> Lint {
        let model = graph.model
        var lint = Lint()
        // A stopped search reports no lint: it claims nothing it has not seen the whole flow for.
        guard graph.stoppedBy == nil else { return lint }
        // Keys as bits, as ``KeySet`` holds them (a flow has at most 64): a `/1` flow of 20,000 states made sets of them per state.
        func bits(_ keys: some Sequence<Int>) -> UInt64 {
            keys.reduce(0) { $1 >= 0 && $1 < KeySet.capacity ? $0 | 1 << UInt64($1) : $0 }
        }
        var produced: UInt64 = 0, used: UInt64 = 0
        // Found step by step; ``listed(_:of:)`` puts them in the order lint has always listed them.
        var dead: [(row: Int, name: String)] = [], shadowed: [(row: Int, name: String)] = []
        var attached = [Bool](repeating: false, count: model.rows.count)
        // One pass over every step's emissions and rows, read in place: copying each emission and row out of
        // the model (retaining its lists) cost a `/1` flow of 20,000 states a third of its complete check.
        for state in 0..<model.stateCount {
            used |= model.requires[state].bits | model.optional[state].bits
            for set in model.anyOf[state] { used |= set.bits }
            model.emissions[state].withUnsafeBufferPointer { emissions in
                for e in emissions.indices {
                    produced |= emissions[e].addKeys | bits(emissions[e].addValued) | bits(emissions[e].setKeys) | bits(emissions[e].increment)
                    if let when = emissions[e].when { used |= bits(when.keys) }
                    let rowCount = emissions[e].rows.count
                    emissions[e].rows.withUnsafeBufferPointer { rows in
                        for i in rows.indices {
                            if attached.indices.contains(rows[i].row) { attached[rows[i].row] = true }
                            if let when = rows[i].when { used |= bits(when.keys) }
                            // A row's own effects and its target's entry produce data too.
                            produced |= rows[i].effects.addKeys | bits(rows[i].effects.setKeys) | bits(rows[i].effects.increment)
                            produced |= rows[i].entry.addKeys | bits(rows[i].entry.setKeys) | bits(rows[i].entry.increment)
                            guard !facts.hasFired(rows[i].row) else { continue }
                            let (from, on, to) = (model.states[state], model.events[emissions[e].event.index], model.states[rows[i].to.index])
                            if facts.isOffered(state: state, emission: e) && rows[..<i].contains(where: { facts.hasFired($0.row) })
                                && guardHolds(rows[i], of: emissions[e], at: state, in: graph) {
                                shadowed.append((rows[i].row, Lint.rowName(from: from, on: on, to: to)))
                            } else {
                                // Several rows share `from` and `on` in `/2`: the target says which is dead.
                                dead.append((rows[i].row, Lint.rowName(from: from, on: on, to: rowCount > 1 ? to : nil)))
                            }
                        }
                    }
                }
            }
        }
        for property in model.properties { used |= bits(property.condition.keys) }
        used |= bits(model.assurance.factorKeys)
        let unused = produced & ~used & ~model.outputs.bits
        lint.unusedData = model.keys.indices.filter { $0 < KeySet.capacity && unused & (1 << UInt64($0)) != 0 }.map { model.keys[$0] }
        lint.overriddenAnywhere = model.anywhereOverrides
        lint.unreachable = (0..<model.stateCount).filter { !graph.isReachable($0) }.map { model.states[$0] }
        for state in 0..<model.stateCount where graph.isReachable(state) && !model.isTerminal[state] {
            let userCanBack = model.canGoBack[state] && state != model.initial.index
            if facts.systemMoves[state] && !facts.userMoves[state] && !userCanBack { lint.waitsOnSystem.append(model.states[state]) }
        }
        // Rows for an event the state never emits take no emission: dead too.
        for (i, row) in model.rows.enumerated() where !attached[i] {
            dead.append((i, Lint.rowName(from: model.states[row.from.index], on: model.events[row.event.index])))
        }
        lint.deadTransitions = listed(dead, of: model)
        lint.shadowedRows = listed(shadowed, of: model)
        return lint
    }

    /// Whether `row`'s guard holds on the data after `emission`'s effects, for some branch, in some reachable
    /// configuration of `state` that offers the emission: whether the row would fire there but for the rows above it.
    /// - Complexity: O(C · b) for C configurations and b branches; run only for rows that never fire.
    static func guardHolds(_ row: FlowModel.GuardedRow, of emission: FlowModel.Emission, at state: Int, in graph: ConfigurationGraph) -> Bool {
        guard let when = row.when else { return true }
        let model = graph.model
        for configuration in graph.configurations where Int(configuration.state) == state
            && model.offers(emission, state: state, keys: configuration.keys, values: configuration.values) {
            for branch in 0..<emission.branchCount(model.layout) {
                let (keys, values) = model.applying(emission, branch: branch, keys: configuration.keys, values: configuration.values)
                if when.holds(state: Int32(state), keys: keys, values: values, layout: model.layout) { return true }
            }
        }
        return false
    }
}
