/// The model's moves as a session asks for them, on dense ids: which emission of a step an event
/// is, whether the step offers it now, and where a branch of it leads.
///
/// Every answer is the model's own (``FlowModel/offers(in:index:state:keys:values:layout:)``,
/// ``FlowModel/Emission/applying(branch:keys:values:layout:)`` and ``FlowModel/firstRow(in:state:keys:values:layout:)``),
/// read in place on the step's emissions. The class is not generic, so a session specialised for the
/// app's types calls into code compiled once with the model, passing a reference and a few integers.
@usableFromInline
final class SessionMoves {
    /// What a branch of an emission does from a frame: the first row that holds, and the data after the effects.
    @usableFromInline struct Outcome {
        /// The row that fires, or `nil` when none holds (an illegal transition): its target, clears, and whether it starts the flow again.
        @usableFromInline var row: (to: Int, clearKeys: UInt64, clearValues: UInt64, reset: Bool)?
        /// The data after the emission's effects, before the row's clears.
        @usableFromInline var keys: UInt64
        @usableFromInline var values: UInt64
    }

    /// Every state's emissions, one state after another (state `s`'s emission `i` is at `emissionStart[s] + i`),
    /// and every emission's rows, one emission after another (at `rowStart[e] ..< rowStart[e + 1]`): read in
    /// place through pointers, so a move retains none of the model's lists.
    let emissionList: UnsafeMutableBufferPointer<FlowModel.Emission>
    let rowList: UnsafeMutableBufferPointer<FlowModel.GuardedRow>
    let rowStart: [Int]
    let stateCount: Int
    let layout: DataLayout
    let eventCount: Int
    /// Per state and event (`state * eventCount + event`): the index of the event's emission in the state's step, or -1.
    let emissionIndex: [Int32]
    /// Where each state's emissions start in the flat per-emission tables below.
    @usableFromInline let emissionStart: [Int]
    /// Per emission: whether some row without a guard takes every branch (then it is accepted exactly when offered).
    let alwaysTaken: [Bool]
    /// Per emission: how many branches its effects have.
    let branchCount: [Int]
    /// Per emission: every key its effects may change, as bits (a row's clears are added per row).
    @usableFromInline let touched: [UInt64]
    /// Per emission: the keys the step's output must carry, as bits.
    @usableFromInline let outputBits: [UInt64]

    init(model: FlowModel) {
        let flat = Array(model.emissions.joined())
        emissionList = .allocate(capacity: flat.count)
        _ = emissionList.initialize(from: flat)
        let rows = flat.flatMap(\.rows)
        rowList = .allocate(capacity: rows.count)
        _ = rowList.initialize(from: rows)
        rowStart = flat.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.rows.count) }
        stateCount = model.stateCount
        let layout = model.layout
        self.layout = layout
        eventCount = model.events.count
        var index = [Int32](repeating: -1, count: model.stateCount * model.events.count)
        var start: [Int] = []
        var alwaysTaken: [Bool] = [], branchCount: [Int] = [], touched: [UInt64] = [], outputBits: [UInt64] = []
        for (state, list) in model.emissions.enumerated() {
            start.append(alwaysTaken.count)
            // The first emission of an event wins, as a step's contract lists it.
            for (position, emission) in list.enumerated().reversed() {
                index[state * model.events.count + emission.event.index] = Int32(position)
            }
            for emission in list {
                alwaysTaken.append(emission.rows.contains { $0.when == nil })
                branchCount.append(emission.branchCount(layout))
                var bits = emission.clearKeys | emission.addKeys
                for key in emission.addValued + emission.setKeys + emission.increment { bits |= 1 << UInt64(key) }
                for key in 0..<model.keys.count where emission.clearValues & layout.mask(key) != 0 { bits |= 1 << UInt64(key) }
                touched.append(bits)
                outputBits.append(emission.addValued.reduce(emission.addKeys) { $0 | 1 << UInt64($1) })
            }
        }
        start.append(alwaysTaken.count)
        emissionIndex = index
        emissionStart = start
        self.alwaysTaken = alwaysTaken
        self.branchCount = branchCount
        self.touched = touched
        self.outputBits = outputBits
    }

    deinit {
        emissionList.deinitialize().deallocate()
        rowList.deinitialize().deallocate()
    }

    /// The index of `event`'s emission in the step of `state`, if the step emits it.
    @usableFromInline func emission(_ event: Int, in state: Int) -> Int? {
        guard state >= 0, state < stateCount, event >= 0, event < eventCount else { return nil }
        let index = emissionIndex[state * eventCount + event]
        return index < 0 ? nil : Int(index)
    }

    /// Whether the step of `state` offers its emission `index` in the frame `(keys, values)`.
    @usableFromInline func offers(state: Int, emission index: Int, keys: UInt64, values: UInt64) -> Bool {
        FlowModel.offers(in: UnsafeBufferPointer(emissionList), index: emissionStart[state] + index, state: state, keys: keys, values: values, layout: layout)
    }

    /// What branch `branch` of the emission does from the frame `(keys, values)`: its effects, then the first row that holds.
    @usableFromInline func outcome(state: Int, emission index: Int, branch: Int, keys: UInt64, values: UInt64) -> Outcome {
        let flat = emissionStart[state] + index
        let (k, v) = emissionList[flat].applying(branch: branch, keys: keys, values: values, layout: layout)
        let rows = UnsafeBufferPointer(rebasing: rowList[rowStart[flat]..<rowStart[flat + 1]])
        guard let r = FlowModel.firstRow(in: rows, state: state, keys: k, values: v, layout: layout) else {
            return Outcome(row: nil, keys: k, values: v)
        }
        return Outcome(row: (rows[r].to.index, rows[r].clearKeys, rows[r].clearValues, rows[r].reset), keys: k, values: v)
    }

    /// Whether the step of `state` offers its emission `index` in the frame and some branch of it has a row that fires.
    @usableFromInline func accepts(state: Int, emission index: Int, keys: UInt64, values: UInt64) -> Bool {
        guard offers(state: state, emission: index, keys: keys, values: values) else { return false }
        let flat = emissionStart[state] + index
        if alwaysTaken[flat] { return true }
        return (0..<branchCount[flat]).contains {
            outcome(state: state, emission: index, branch: $0, keys: keys, values: values).row != nil
        }
    }
}
