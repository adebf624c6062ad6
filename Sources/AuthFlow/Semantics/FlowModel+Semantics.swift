/// The one definition of what a flow can do next: every checker, explorer and export asks it.
///
/// A frame is `(state, keys, values)` (see ``DataLayout``). From a frame, for each event the
/// state's step emits whose `when` holds, in declaration order, and for each branch of its effects
/// (one, or one per value of each valued key it adds, the first added key varying slowest): the
/// effects apply (clears, adds, set, increment), then the first row for `(state, event)` whose
/// `when` holds on the result fires: it pushes `(to, data)` after the row's clears, its own effects
/// and the `entry` of `to`, or for a reset row starts the flow again at the variant's root with the
/// keys the row keeps. When no row holds, the move is an illegal transition. An `authflow/1` flow is the special case with no guards, no values and one row at most.
extension FlowModel {
    /// One row of the table as the semantics runs it.
    @usableFromInline package struct GuardedRow: Hashable, Sendable {
        /// The row fires only when this holds on the data after the emission's effects.
        @usableFromInline package var when: Condition?
        /// Where it goes.
        @usableFromInline package var to: StateID
        /// Presence bits and value fields it clears.
        @usableFromInline package var clearKeys: UInt64
        @usableFromInline package var clearValues: UInt64
        /// Whether it starts the flow again.
        @usableFromInline package var reset: Bool
        /// Section 5, `"history": "replace"`: the move replaces the top frame instead of pushing one (`to` is the state it leaves).
        @usableFromInline package var replace = false
        /// Its index in ``FlowModel/rows``.
        @usableFromInline package var row: Int
        /// Its own effects after its clears (adds, set, increment; no clears), and the `entry` of `to`.
        @usableFromInline package var effects = Effects()
        @usableFromInline package var entry = Effects()
        /// Whether ``effects`` or ``entry`` changes anything (a push without them is the data less the clears).
        @usableFromInline package var hasEffects = false
        /// A reset row: the presence bits and value fields the new run starts with (config keys and
        /// `keeps`, less the row's clears); everything else is dropped.
        @usableFromInline package var keepKeys: UInt64 = 0
        @usableFromInline package var keepValues: UInt64 = 0
    }

    /// One emission of a step, compiled: its guard, its effects, and the rows that can take it.
    @usableFromInline package struct Emission: Hashable, Sendable {
        @usableFromInline package var event: EventID
        /// Who sends it.
        package var bySystem: Bool
        /// The step offers the event only when this holds.
        @usableFromInline package var when: Condition?
        /// Presence bits and value fields cleared first.
        package var clearKeys: UInt64
        package var clearValues: UInt64
        /// Presence keys added.
        package var addKeys: UInt64
        /// Valued keys added: one branch per combination of their answers.
        @usableFromInline package var addValued: [Int]
        /// Per key of ``addValued``: the value indices it may take, in branch order (its whole domain,
        /// or the answers an `adds` item `{"key": [values]}` lists).
        @usableFromInline package var addChoices: [[Int]] = []
        /// Valued keys set, with the value index each takes.
        package var setKeys: [Int]
        package var setValues: [Int]
        /// Counters incremented (staying at their maximum).
        package var increment: [Int]
        /// The rows for `(state, event)`, in declaration order (first match wins).
        @usableFromInline package var rows: [GuardedRow]

        /// The keys a step's output carries for it, in the order an output lists them: the presence
        /// keys it adds (by id), then the valued keys it adds (in declaration order).
        package func outputKeys(keyCount: Int) -> [Int] {
            (0..<keyCount).filter { addKeys & (1 << UInt64($0)) != 0 } + addValued
        }

        /// The data after its effects for `branch` from the frame `(keys, values)`.
        /// - Complexity: O(keys it names).
        @inline(__always)
        package func applying(branch: Int, keys: UInt64, values: UInt64, layout: DataLayout) -> (keys: UInt64, values: UInt64) {
            var keys = keys & ~clearKeys
            var values = values & ~clearValues
            keys |= addKeys
            // Lists are read by index: an iterator would retain each list once per move.
            var rest = branch
            // The first added key varies slowest: decode the branch from the last key up.
            var i = addValued.count
            while i > 0 {
                i -= 1
                let key = addValued[i]
                let count = addChoices[i].count
                guard count > 0 else { continue }
                keys |= 1 << UInt64(key)
                values = layout.setting(key, to: addChoices[i][rest % count], in: values)
                rest /= count
            }
            return FlowModel.setAndIncrement(setKeys, to: setValues, increment: increment, keys: keys, values: values, layout: layout)
        }

        /// How many branches its effects have.
        @usableFromInline package func branchCount(_ layout: DataLayout) -> Int {
            addChoices.reduce(1) { count, choices in choices.isEmpty ? count : count * choices.count }
        }
    }

    /// Where one move leads.
    package enum Outcome: Hashable, Sendable {
        /// The row pushes this frame.
        case push(StateID, keys: UInt64, values: UInt64)
        /// A `"history": "replace"` row: this frame replaces the top one (the screen updated in place); back then
        /// goes to the frame below it.
        case replace(StateID, keys: UInt64, values: UInt64)
        /// A reset row: the stack becomes one frame at the initial state with this data (the variant's
        /// config values and the keys the row keeps; exactly the variant's root when it keeps none).
        case reset(keys: UInt64, values: UInt64)
        /// No row holds: an illegal transition.
        case illegal
    }

    /// One move from a frame.
    @usableFromInline package struct Successor: Hashable, Sendable {
        /// The event sent.
        package var event: EventID
        /// Its emission's index among the state's emissions.
        package var emission: Int
        /// The branch of its effects (0 when there is one).
        package var branch: Int
        /// The data after the emission's effects, before any row's clears (what the runtime must hold if the row is refused).
        @usableFromInline package var effectKeys: UInt64
        @usableFromInline package var effectValues: UInt64
        /// Where it leads.
        package var outcome: Outcome
        /// The row that fired, or -1.
        @usableFromInline package var row: Int
    }

    /// The data after `emission`'s effects for `branch`.
    /// - Complexity: O(keys the emission names).
    @usableFromInline package func applying(_ emission: Emission, branch: Int, keys: UInt64, values: UInt64) -> (keys: UInt64, values: UInt64) {
        emission.applying(branch: branch, keys: keys, values: values, layout: layout)
    }

    /// The move of `state`'s emission `index` for `branch` from the frame `(keys, values)`: the data after
    /// its effects and the first row that holds on it. The one definition of a move: ``successors(state:keys:values:into:)``
    /// lists these, the runtime takes the one its step's values name, the random tester the one its action names.
    @usableFromInline @inline(__always)
    package func move(state: Int, emission index: Int, branch: Int, keys: UInt64, values: UInt64) -> Successor {
        emissions[state].withUnsafeBufferPointer { list in
            Self.move(in: list, state: state, index: index, branch: branch, keys: keys, values: values, layout: layout)
        }
    }

    /// ``move(state:emission:branch:keys:values:)`` on the state's emissions, read in place (no emission, and
    /// not the model, is copied: the runtime calls it with the pieces it holds).
    @inline(__always)
    package static func move(in list: UnsafeBufferPointer<Emission>, state: Int, index: Int, branch: Int,
                             keys: UInt64, values: UInt64, layout: DataLayout) -> Successor {
        // Through a pointer: a subscript's value is a copy of the emission (its lists retained), a pointee is read in place.
        precondition(index >= 0 && index < list.count, "emission index out of range")
        let emission = list.baseAddress.unsafelyUnwrapped + index
        return emission.pointee.rows.withUnsafeBufferPointer { rows in
            move(emission, index: index, rows: rows, state: state, branch: branch, keys: keys, values: values, layout: layout)
        }
    }

    /// ``move(in:state:index:branch:keys:values:layout:)`` of the emission at `emission` (the state's `index`th), its
    /// rows `rows` already in hand: ``successors(state:keys:values:into:)`` takes them once per emission, not per branch.
    @inline(__always)
    static func move(_ emission: UnsafePointer<Emission>, index: Int, rows: UnsafeBufferPointer<GuardedRow>, state: Int, branch: Int,
                     keys: UInt64, values: UInt64, layout: DataLayout) -> Successor {
        let (k, v) = emission.pointee.applying(branch: branch, keys: keys, values: values, layout: layout)
        var outcome = Outcome.illegal
        var fired = -1
        if let r = firstRow(in: rows, state: state, keys: k, values: v, layout: layout) {
            let row = rows.baseAddress.unsafelyUnwrapped + r
            outcome = GuardedRow.outcome(of: row, keys: k, values: v, layout: layout)
            fired = row.pointee.row
        }
        return Successor(event: emission.pointee.event, emission: index, branch: branch, effectKeys: k, effectValues: v, outcome: outcome, row: fired)
    }

    /// The position among an emission's `rows` of the first whose `when` holds on the data after its
    /// effects `(keys, values)` in `layout`, or `nil` when none does (an illegal transition): first match wins.
    @inline(__always)
    package static func firstRow(in rows: UnsafeBufferPointer<GuardedRow>, state: Int, keys: UInt64, values: UInt64, layout: DataLayout) -> Int? {
        guard let base = rows.baseAddress else { return nil }
        for r in 0..<rows.count where (base + r).pointee.when.holdsOrAbsent(state: Int32(state), keys: keys, values: values, layout: layout) {
            return r
        }
        return nil
    }

    /// Whether the step of `state` offers `list[index]` in the frame (its `when` holds), read in place.
    @inline(__always)
    package static func offers(in list: UnsafeBufferPointer<Emission>, index: Int, state: Int, keys: UInt64, values: UInt64, layout: DataLayout) -> Bool {
        precondition(index >= 0 && index < list.count, "emission index out of range")
        return (list.baseAddress.unsafelyUnwrapped + index).pointee.when.holdsOrAbsent(state: Int32(state), keys: keys, values: values, layout: layout)
    }

    /// Every move from the frame `(state, keys, values)`, in the order the semantics fixes.
    ///
    /// Appends to `successors` (cleared first), so a search reuses one buffer and allocates nothing per frame.
    /// - Complexity: O(Σ branches × rows) over the state's emissions.
    package func successors(state: Int, keys: UInt64, values: UInt64, into successors: inout [Successor]) {
        successors.removeAll(keepingCapacity: true)
        let stateID = Int32(state)
        // Fields are read in place: copying an emission would retain each of its lists per frame.
        emissions[state].withUnsafeBufferPointer { list in
            for index in list.indices {
                let emission = list.baseAddress.unsafelyUnwrapped + index
                if !emission.pointee.when.holdsOrAbsent(state: stateID, keys: keys, values: values, layout: layout) { continue }
                let branches = emission.pointee.branchCount(layout)
                emission.pointee.rows.withUnsafeBufferPointer { rows in
                    for branch in 0..<branches {
                        successors.append(Self.move(emission, index: index, rows: rows, state: state, branch: branch,
                                                    keys: keys, values: values, layout: layout))
                    }
                }
            }
        }
    }

    /// Whether the step of `state` offers `emission` in the frame (its `when` holds).
    package func offers(_ emission: Emission, state: Int, keys: UInt64, values: UInt64) -> Bool {
        emission.when?.holds(state: Int32(state), keys: keys, values: values, layout: layout) ?? true
    }

    /// Whether the frame meets the input contract of `state`: every required key, and one of each `anyOf`.
    package func meetsRequirements(state: Int, keys: UInt64) -> Bool {
        requires[state].bits & ~keys == 0 && anyOf[state].allSatisfy { $0.bits & keys != 0 }
    }
}
