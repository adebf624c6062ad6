/// The effects a row or a step's `entry` applies to a frame, on the dense data of ``DataLayout``.
///
/// An emission's effects live in ``FlowModel/Emission`` (they may branch); a row's own effects and
/// a step's entry never branch, so they are one value of this type each. Both apply in the order
/// clears, adds, set, increment, as an emission's do.
extension FlowModel {
    /// Clears, adds, sets and increments that do not branch: a row's own effects or a step's `entry`.
    @usableFromInline package struct Effects: Hashable, Sendable {
        /// Presence bits and value fields cleared first.
        package var clearKeys: UInt64 = 0
        package var clearValues: UInt64 = 0
        /// Presence keys added.
        package var addKeys: UInt64 = 0
        /// Valued keys set, with the value index each takes.
        package var setKeys: [Int] = []
        package var setValues: [Int] = []
        /// Counters incremented (staying at their maximum).
        package var increment: [Int] = []

        package init() {}

        /// Whether it changes nothing.
        package var isEmpty: Bool {
            clearKeys == 0 && clearValues == 0 && addKeys == 0 && setKeys.isEmpty && increment.isEmpty
        }

        /// The keys it names (presence bits), to report and to compare with a step's output.
        package var namedKeys: UInt64 {
            var bits = clearKeys | addKeys
            for key in setKeys + increment { bits |= 1 << UInt64(key) }
            return bits
        }

        /// The data `(keys, values)` after these effects.
        /// - Complexity: O(keys it sets or increments).
        @inline(__always)
        package func applying(keys: UInt64, values: UInt64, layout: DataLayout) -> (keys: UInt64, values: UInt64) {
            FlowModel.setAndIncrement(setKeys, to: setValues, increment: increment,
                                      keys: (keys & ~clearKeys) | addKeys, values: values & ~clearValues, layout: layout)
        }
    }

    /// The last two effects of every kind of effects, in their order: `set` (each key present with its value
    /// index), then `increment` (each counter one more, staying at its maximum). An emission, a row and an
    /// entry all end with these, so they are applied here only.
    /// - Complexity: O(keys set or incremented).
    @inline(__always)
    package static func setAndIncrement(_ setKeys: [Int], to setValues: [Int], increment: [Int], keys: UInt64, values: UInt64,
                                        layout: DataLayout) -> (keys: UInt64, values: UInt64) {
        var keys = keys, values = values
        // Lists are read by index: an iterator would retain each list once per move.
        for i in 0..<Swift.min(setKeys.count, setValues.count) {
            keys |= 1 << UInt64(setKeys[i])
            values = layout.setting(setKeys[i], to: setValues[i], in: values)
        }
        for i in 0..<increment.count {
            let key = increment[i]
            guard case let .counter(max) = layout.kinds[key] else { continue }
            values = layout.setting(key, to: Swift.min(max, layout.field(key, in: values) + 1), in: values)
        }
        return (keys, values)
    }
}

extension FlowModel.GuardedRow {
    /// Where the row leads from the data `(keys, values)` after the emission's effects: for a push, the
    /// data after its clears, its own effects and its target's `entry`; for a reset, the data the new
    /// run starts with (the variant's config values and the kept keys, less the row's clears).
    /// - Complexity: O(keys its effects name).
    ///
    /// Read through a pointer to the row, where it lies: a method called on a row read out of its list copied the row
    /// (about 150 bytes) and released its lists after, at every move the configuration search made.
    @inline(__always)
    package static func outcome(of row: UnsafePointer<FlowModel.GuardedRow>, keys: UInt64, values: UInt64, layout: DataLayout) -> FlowModel.Outcome {
        if row.pointee.reset { return .reset(keys: keys & row.pointee.keepKeys, values: values & row.pointee.keepValues) }
        var k = keys & ~row.pointee.clearKeys
        var v = values & ~row.pointee.clearValues
        if row.pointee.hasEffects {
            (k, v) = row.pointee.effects.applying(keys: k, values: v, layout: layout)
            (k, v) = row.pointee.entry.applying(keys: k, values: v, layout: layout)
        }
        return row.pointee.replace ? .replace(row.pointee.to, keys: k, values: v) : .push(row.pointee.to, keys: k, values: v)
    }
}

extension FlowModel.Emission {
    /// The value index each valued key it adds takes in `branch`, in the order of ``addValued``.
    package func branchValues(_ branch: Int) -> [Int] {
        var indices = [Int](repeating: 0, count: addValued.count)
        var rest = branch
        var i = addValued.count
        while i > 0 {
            i -= 1
            let choices = addChoices[i]
            guard !choices.isEmpty else { continue }
            indices[i] = choices[rest % choices.count]
            rest /= choices.count
        }
        return indices
    }

    /// The branch whose valued keys take the value indices `values` (in the order of ``addValued``),
    /// or `nil` when one is not among the answers its key may take.
    package func branch(values: [Int]) -> Int? {
        guard values.count == addValued.count else { return nil }
        var branch = 0
        for i in addValued.indices {
            guard let position = addChoices[i].firstIndex(of: values[i]) else { return nil }
            branch = branch * addChoices[i].count + position
        }
        return branch
    }
}

extension FlowModel.Outcome {
    /// Whether the move starts the flow again.
    package var isReset: Bool {
        if case .reset = self { return true }
        return false
    }
}

extension FlowModel.Outcome {
    /// The frame the move leads to: the pushed one, or for a reset the new run's root at `initial`; `nil` when illegal.
    package func landing(initial: StateID) -> (state: StateID, keys: UInt64, values: UInt64)? {
        switch self {
        case let .push(to, keys, values), let .replace(to, keys, values): return (to, keys, values)
        case let .reset(keys, values): return (initial, keys, values)
        case .illegal: return nil
        }
    }
}
