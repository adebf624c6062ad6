import AuthFlow

extension ModelChecker {
    /// What the frame-by-frame pass learns besides sites, for the lint.
    struct FrameFacts {
        /// Rows of ``FlowModel/rows`` that fired from some reachable configuration.
        var firedRows = Set<Int>()
        /// `(state, event)` pairs offered from some reachable configuration, as `state << 32 | event`.
        var offered = Set<Int64>()
        /// Per state: whether some user event, or some system event, moves it.
        var userMoves: [Bool] = []
        var systemMoves: [Bool] = []
    }

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
        var deadlocked = Set<Int32>(), stuck = Set<Int32>()
        for i in 0..<graph.count {
            let state = graph.configurations[i].state
            guard let property = moves.stuck(i) else { continue }
            if property == .deadlock ? deadlocked.insert(state).inserted : stuck.insert(state).inserted {
                report(property, at: i, moves.stuckMessage(property, at: i))
            }
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
        var produced = Set<Int>()
        var used = Set<Int>()
        for state in 0..<model.stateCount {
            used.formUnion(model.requires[state].map(\.index))
            for set in model.anyOf[state] { used.formUnion(set.map(\.index)) }
            used.formUnion(model.optional[state].map(\.index))
            for emission in model.emissions[state] {
                for k in model.keys.indices where emission.addKeys & (1 << UInt64(k)) != 0 { produced.insert(k) }
                produced.formUnion(emission.addValued)
                produced.formUnion(emission.setKeys)
                produced.formUnion(emission.increment)
                if let when = emission.when { used.formUnion(when.keys) }
                for row in emission.rows {
                    if let when = row.when { used.formUnion(when.keys) }
                    // A row's own effects and its target's entry produce data too.
                    for effects in [row.effects, row.entry] {
                        for k in model.keys.indices where effects.addKeys & (1 << UInt64(k)) != 0 { produced.insert(k) }
                        produced.formUnion(effects.setKeys)
                        produced.formUnion(effects.increment)
                    }
                }
            }
        }
        for property in model.properties { used.formUnion(property.condition.keys) }
        used.formUnion(model.assurance.factorKeys)
        let unused = produced.subtracting(used).subtracting(model.outputs.map(\.index)).sorted()
        lint.unusedData = unused.map { model.keys[$0] }
        lint.overriddenAnywhere = model.anywhereOverrides
        lint.unreachable = (0..<model.stateCount).filter { !graph.isReachable($0) }.map { model.states[$0] }
        for state in 0..<model.stateCount where graph.isReachable(state) && !model.isTerminal[state] {
            let userCanBack = model.canGoBack[state] && state != model.initial.index
            if facts.systemMoves[state] && !facts.userMoves[state] && !userCanBack { lint.waitsOnSystem.append(model.states[state]) }
        }
        // Found step by step; ``listed(_:of:)`` puts them in the order lint has always listed them.
        var dead: [(row: Int, name: String)] = [], shadowed: [(row: Int, name: String)] = []
        for state in 0..<model.stateCount {
            for emission in model.emissions[state] {
                for (i, row) in emission.rows.enumerated() where !facts.firedRows.contains(row.row) {
                    let (from, on, to) = (model.states[state], model.events[emission.event.index], model.states[row.to.index])
                    let offered = facts.offered.contains(Int64(state) << 32 | Int64(emission.event.rawValue))
                    if offered && emission.rows[..<i].contains(where: { facts.firedRows.contains($0.row) })
                        && guardHolds(row, of: emission, at: state, in: graph) {
                        shadowed.append((row.row, Lint.rowName(from: from, on: on, to: to)))
                    } else {
                        // Several rows share `from` and `on` in `/2`: the target says which is dead.
                        dead.append((row.row, Lint.rowName(from: from, on: on, to: emission.rows.count > 1 ? to : nil)))
                    }
                }
            }
        }
        // Rows for an event the state never emits take no emission: dead too.
        let attached = Set(model.emissions.flatMap { $0.flatMap { $0.rows.map(\.row) } })
        for (i, row) in model.rows.enumerated() where !attached.contains(i) {
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
