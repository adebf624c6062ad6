import AuthFlow

/// The spec properties of section 3 as rules over one state (and, for requirements, its data).
///
/// The complete search applies them at the first configuration of each state; the random-path
/// tester applies them after every step. Both report the same sites with the same words, as
/// violations whose path the caller fills in.
struct SiteRules {
    let model: FlowModel
    /// Whether a terminal state is reachable from each state by legal forward moves.
    let canExit: [Bool]
    /// Whether each row of ``FlowModel/rows`` is a reset row.
    let isReset: [Bool]
    /// Each state's data-independent sites, with their messages, built once: the random-path
    /// tester asks after every step.
    private(set) var sitesOfState: [[Violation]] = []
    /// Per state: the indices in ``FlowModel/rows`` of the rows from it, in table order.
    ///
    /// Found once: searching every row for each terminal state took minutes on a star of 130,000 leaves.
    private let rowsFrom: [[Int]]

    /// Precomputes the backward reachability of the terminal states.
    /// - Complexity: O(states + moves).
    init(model: FlowModel) {
        self.model = model
        var reverse = [[Int]](repeating: [], count: model.stateCount)
        for state in 0..<model.stateCount {
            for move in model.moves[state] {
                if let target = move.target { reverse[target.index].append(state) }
            }
        }
        var canExit = model.isTerminal
        var work = (0..<model.stateCount).filter { model.isTerminal[$0] }
        while let state = work.popLast() {
            for predecessor in reverse[state] where !canExit[predecessor] {
                canExit[predecessor] = true
                work.append(predecessor)
            }
        }
        self.canExit = canExit
        var reset = [Bool](repeating: false, count: model.rows.count)
        for emissions in model.emissions {
            for emission in emissions { for row in emission.rows where row.reset { reset[row.row] = true } }
        }
        self.isReset = reset
        var rowsFrom = [[Int]](repeating: [], count: model.stateCount)
        for (i, row) in model.rows.enumerated() { rowsFrom[row.from.index].append(i) }
        self.rowsFrom = rowsFrom
        self.sitesOfState = (0..<model.stateCount).map(computeStateSites)
    }

    /// The `unmet-requirement` violation of the frame `(state, keys, values)`, if it breaks its state's input contract.
    ///
    /// The message shows the frame's data as every report does (``FlowModel/dataText(keys:values:)``: config and
    /// valued keys with their values), so the complete search and the random-path tester word the same frame alike.
    func unmetRequirement(state: Int, keys: UInt64, values: UInt64) -> Violation? {
        let missing = model.requires[state].bits & ~keys
        // Checked without building anything first: this runs on every frame a search or a walk enters.
        guard missing != 0 || model.anyOf[state].contains(where: { $0.bits & keys == 0 }) else { return nil }
        let unmetAnyOf = model.anyOf[state].filter { $0.bits & keys == 0 }
        let name = model.states[state]
        let wanted = model.names(of: KeySet(bits: missing))
            + unmetAnyOf.map { "one of {\(model.names(of: $0).joined(separator: ", "))}" }
        return violation(.unmetRequirement, state,
                         "\(name) requires \(wanted.joined(separator: ", ")), but the data is \(model.dataText(keys: keys, values: values))")
    }

    /// A violation at `state` with no path yet.
    private func violation(_ property: Property, _ state: Int, event: String? = nil, _ message: String) -> Violation {
        Violation(property: property, state: model.states[state], event: event, message: message, path: [])
    }

    /// The `terminal-exit` violation of terminal `state`, if it declares a way out that is not a reset.
    ///
    /// A terminal state may have reset rows (sign-out starts the flow again) and emit events only
    /// reset rows take; any other row or emission is a way out of a state that ends the flow.
    /// Guards are not consulted: declaring the way out is the defect.
    func terminalExit(_ state: Int) -> Violation? {
        let name = model.states[state]
        let rows = rowsFrom[state].filter { !isReset[$0] }.map { (offset: $0, element: model.rows[$0]) }
        let emitted = model.emissions[state].filter { emission in emission.rows.isEmpty || emission.rows.contains { !$0.reset } }
        guard !emitted.isEmpty || !rows.isEmpty else { return nil }
        var parts: [String] = []
        if !emitted.isEmpty { parts.append("emits \(emitted.map { model.events[$0.event.index] }.joined(separator: ", "))") }
        let targets = rows.map { "\(model.events[$0.element.event.index]) → \(model.states[$0.element.to.index])" }
        if !targets.isEmpty { parts.append("has outgoing transitions \(targets.joined(separator: ", "))") }
        return violation(.terminalExit, state, "\(name) is terminal but \(parts.joined(separator: " and "))")
    }

    /// The sites `state` violates whatever its data: illegal transitions, then terminal-exit, deadlock or no-exit.
    func stateSites(_ state: Int) -> [Violation] { sitesOfState[state] }

    private func computeStateSites(_ state: Int) -> [Violation] {
        let name = model.states[state]
        let moves = model.moves[state]
        var sites: [Violation] = []
        for move in moves where move.target == nil {
            let event = model.events[move.event.index]
            sites.append(violation(.illegalTransition, state, event: event, Self.illegalMessage(name, event: event)))
        }
        if model.isTerminal[state] {
            if let violation = terminalExit(state) { sites.append(violation) }
        } else if model.isBackOnly[state] {
            // Left with back by design (help, information): neither a deadlock nor a trap.
        } else if !moves.contains(where: { $0.target != nil }) {
            sites.append(violation(.deadlock, state, Self.deadlockMessage(model, state: state)))
        } else if !canExit[state] {
            sites.append(violation(.noExit, state, Self.noExitMessage(name)))
        }
        return sites
    }

    /// The message of an `illegal-transition` of a static flow: no row of the table takes `event` from `state`.
    static func illegalMessage(_ state: String, event: String) -> String {
        "\(state) emits \(event), but the table has no transition from \(state) on \(event)"
    }

    /// The message of a `deadlock` at `state` of a static flow, whatever its data.
    static func deadlockMessage(_ model: FlowModel, state: Int) -> String {
        let why = model.moves[state].isEmpty ? "its step emits no events" : "none of the events it emits has a transition"
        return "\(model.states[state]) is not terminal and has no legal forward move: \(why)"
    }

    /// The message of a `no-exit` at `state` of a static flow, whatever its data.
    static func noExitMessage(_ state: String) -> String {
        "\(state) has forward moves, but no terminal state is reachable from it"
    }
}
