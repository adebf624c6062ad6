import AuthFlow

extension ModelChecker {
    /// What the frame-by-frame pass learns besides sites, for the lint: which rows fired, which emissions some
    /// step offered, who moves each state.
    ///
    /// Kept densely, by row number and by each state's emission: the lint asks about every row of the table,
    /// and a `/1` flow of 20,000 states asked sets a quarter of a million times.
    struct FrameFacts {
        /// Per row number (``FlowModel/GuardedRow/row``): whether it fired from some reachable configuration.
        private var fired: [Bool] = []
        /// Per emission, flat: whether some reachable configuration's step offered it. State `s`'s emissions
        /// (``FlowModel/emissions``) are at `emissionStart[s] ..< emissionStart[s + 1]`.
        private var offered: [Bool] = []
        private var emissionStart: [Int] = [0]
        /// Per state: whether some user event, or some system event, moves it.
        var userMoves: [Bool] = []
        var systemMoves: [Bool] = []

        /// No facts: nothing fired, nothing offered (a pass that did not run).
        init() {}

        /// Nothing fired or offered yet, with room for every row and emission of `model`.
        /// - Complexity: O(states + emissions + rows).
        init(_ model: FlowModel) {
            var start = [Int](repeating: 0, count: model.stateCount + 1)
            var rowCount = model.rows.count
            for state in 0..<model.stateCount {
                start[state + 1] = start[state] + model.emissions[state].count
                for emission in model.emissions[state] {
                    for row in emission.rows { rowCount = max(rowCount, row.row + 1) }
                }
            }
            emissionStart = start
            offered = [Bool](repeating: false, count: start[model.stateCount])
            fired = [Bool](repeating: false, count: rowCount)
            userMoves = [Bool](repeating: false, count: model.stateCount)
            systemMoves = [Bool](repeating: false, count: model.stateCount)
        }

        /// Notes what `successor`, a move of a configuration of `state` in `model`, says: its step offered the
        /// emission, its row (if one holds) fired, and the state has a move the user or the system makes.
        mutating func note(_ successor: FlowModel.Successor, in state: Int, of model: FlowModel) {
            let emission = successor.emission
            if emissionStart.indices.contains(state + 1), emission >= 0, emissionStart[state] + emission < emissionStart[state + 1] {
                offered[emissionStart[state] + emission] = true
            }
            guard successor.row >= 0 else { return }
            if fired.indices.contains(successor.row) { fired[successor.row] = true }
            if model.emissions[state][emission].bySystem { systemMoves[state] = true } else { userMoves[state] = true }
        }

        /// Whether row number `row` fired from some reachable configuration.
        func hasFired(_ row: Int) -> Bool { fired.indices.contains(row) && fired[row] }

        /// Whether some reachable configuration's step of `state` offered its `emission`-th emission.
        func isOffered(state: Int, emission: Int) -> Bool {
            guard emissionStart.indices.contains(state + 1), emission >= 0 else { return false }
            let flat = emissionStart[state] + emission
            return flat < emissionStart[state + 1] && offered[flat]
        }

        /// The row numbers that fired, in ascending order.
        var firedRows: [Int] { fired.indices.filter { fired[$0] } }

        /// The offered `(state, event)` pairs, state by state; a step emits each event once.
        func offeredPairs(_ model: FlowModel) -> [(state: Int, event: Int)] {
            var pairs: [(state: Int, event: Int)] = []
            for state in 0..<min(model.stateCount, emissionStart.count - 1) {
                for (e, emission) in model.emissions[state].enumerated() where isOffered(state: state, emission: e) {
                    pairs.append((state, emission.event.index))
                }
            }
            return pairs
        }
    }
}
