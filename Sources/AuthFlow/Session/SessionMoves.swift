/// The model's moves as a session asks for them, on dense ids: which emission of a step an event
/// is, whether the step offers it now, and where a branch of it leads.
///
/// Every answer is the model's own (``FlowModel/offers(in:index:state:keys:values:layout:)``,
/// ``FlowModel/Emission/applying(branch:keys:values:layout:)`` and ``FlowModel/firstRow(in:state:keys:values:layout:)``),
/// read in place on the step's emissions. The class is not generic, so a session specialised for the
/// app's types calls into code compiled once with the model, passing a reference and a few integers.
@usableFromInline
final class SessionMoves {
    /// What a branch of an emission does from a frame, as a session moves by it: the row that fires (if any) and the
    /// frame it pushes. One record of 40 bytes, kept per branch in a frame's decisions, so a move reads one cache line.
    @usableFromInline struct Outcome: Sendable {
        /// The data of the frame the row pushes (after its clears, its effects and its target's entry), or a reset's new root.
        @usableFromInline var nextKeys: UInt64
        @usableFromInline var nextValues: UInt64
        /// Every key the row or its target's `entry` may change (as bits); 0 when no row holds.
        @usableFromInline var touched: UInt64
        /// The fired row's target (a state id), or -1 when no row holds (an illegal transition).
        @usableFromInline var to: Int32
        /// The fired row's index in ``FlowModel/rows`` (-1: none): what a tracked session reads its effects from.
        @usableFromInline var fired: Int32
        /// Whether the row starts the flow again, and whether it replaces the top frame (section 5's `"history": "replace"`).
        @usableFromInline var reset: Bool
        @usableFromInline var replace: Bool
        /// The place of the decisions of the frame it pushes, once that frame was asked about (-1 until then).
        @usableFromInline var next: Int32 = -1

        /// No row holds.
        static let refused = Outcome(nextKeys: 0, nextValues: 0, touched: 0, to: -1, fired: -1, reset: false, replace: false)
        /// Whether a row fires.
        @inlinable var fires: Bool { to >= 0 }
    }

    /// Every state's emissions, one state after another (state `s`'s emission `i` is at `emissionStart[s] + i`),
    /// and every emission's rows, one emission after another (at `rowStart[e] ..< rowStart[e + 1]`): read in
    /// place through pointers, so a move retains none of the model's lists.
    let emissionList: UnsafeMutableBufferPointer<FlowModel.Emission>
    let rowList: UnsafeMutableBufferPointer<FlowModel.GuardedRow>
    let rowStart: [Int]
    /// Per row (as ``rowList``): every key its clears, its own effects and its target's entry may change, as bits.
    let rowTouched: [UInt64]
    @usableFromInline let stateCount: Int
    let layout: DataLayout
    @usableFromInline let eventCount: Int
    /// Per state and event (`state * eventCount + event`): the index of the event's emission in the state's step, or -1.
    @usableFromInline let emissionIndex: [Int32]
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
    /// Per emission: where its branches' rows start in a frame's decisions (``FrameDecisions``), from the state's first emission.
    @usableFromInline let branchOffset: [Int]
    /// Per state: how many branches its emissions have together (the size of a frame's row choices), or -1 when its
    /// emissions are too many for a frame's bit sets (its moves are then decided at every call).
    @usableFromInline let decisionSize: [Int]
    /// What the model decides in the frames this session has entered, each decided once (see ``decisions(state:keys:values:)``):
    /// behind a pointer, so the hot path pays no dynamic exclusivity check (a session is used by one task at a time).
    @usableFromInline let _decided: UnsafeMutablePointer<FrameDecisions>
    /// The most frames decided before the decisions are forgotten (``FrameDecisions/capacity``; smaller in tests).
    var decisionCapacity = FrameDecisions.capacity
    @inlinable var decided: FrameDecisions {
        @inline(__always) unsafeAddress { UnsafePointer(_decided) }
        @inline(__always) unsafeMutableAddress { _decided }
    }

    /// The model's decisions in every frame a session has entered: which emissions its step offers, which it
    /// accepts, and which row each branch takes, decided once per distinct frame by the guards and read back
    /// afterwards.
    ///
    /// A session walked by the checker enters a few thousand distinct frames millions of times, and asks
    /// at each whether every event is enabled: the guards are evaluated once per frame instead of at every
    /// question. Memory is bounded: past ``capacity`` frames the decisions are forgotten and made again.
    @usableFromInline struct FrameDecisions {
        /// A frame: the state and its data.
        @usableFromInline struct Key: Hashable {
            @usableFromInline var state: Int
            @usableFromInline var keys: UInt64
            @usableFromInline var values: UInt64
            @inlinable init(state: Int, keys: UInt64, values: UInt64) {
                self.state = state
                self.keys = keys
                self.values = values
            }
        }
        /// The frames decided, by position (frame `d` has id `d`).
        @usableFromInline var index = TripleIndex()
        /// Per frame: the bits (by emission index in its step) of the emissions offered and accepted, and where its row choices start.
        @usableFromInline var offered: [UInt64] = []
        @usableFromInline var accepted: [UInt64] = []
        @usableFromInline var rowStart: [Int32] = []
        /// Per frame, per emission, per branch: where the branch leads (its fired row and the frame that row pushes).
        @usableFromInline var outcomes: [Outcome] = []
        /// Which set of decisions this is: a frame's place in an earlier set is not one in this set.
        @usableFromInline var generation: UInt32 = 0
        /// The frame asked about last and its index (most questions come in runs about one frame).
        @usableFromInline var last = Key(state: -1, keys: 0, values: 0)
        @usableFromInline var lastIndex: Int32 = -1
        /// The most frames kept before they are forgotten: with 8,192 (40 bytes a branch) a checker's worker keeps a
        /// few MB where 65,536 kept 22 MB of an authenticator with 121,824 configurations, at no cost in time measured.
        static let capacity = 1 << 13

        /// The position of frame `key` among those decided, or `nil`.
        @usableFromInline
        func find(_ key: Key) -> Int32? {
            index.find(UInt64(bitPattern: Int64(key.state)), key.keys, key.values)
        }

        /// Records that frame `key` is decided at position `d`, the next one (the index numbers frames in order).
        mutating func insert(_ key: Key, at d: Int32) {
            assert(Int(d) == index.count, "frames are decided in order")
            index.insert(UInt64(bitPattern: Int64(key.state)), key.keys, key.values)
        }
    }

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
        rowTouched = rows.map { row in
            var bits = row.clearKeys | row.effects.namedKeys | row.entry.namedKeys
            for key in 0..<model.keys.count where (row.clearValues | row.effects.clearValues | row.entry.clearValues) & layout.mask(key) != 0 {
                bits |= 1 << UInt64(key)
            }
            return bits
        }
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
        var branchOffset: [Int] = [], decisionSize: [Int] = []
        for (state, list) in model.emissions.enumerated() {
            var total = 0
            for position in list.indices {
                branchOffset.append(total)
                total += branchCount[start[state] + position]
            }
            decisionSize.append(list.count <= 64 ? total : -1)
        }
        self.branchOffset = branchOffset
        self.decisionSize = decisionSize
        _decided = .allocate(capacity: 1)
        _decided.initialize(to: FrameDecisions())
        emissionIndex = index
        emissionStart = start
        self.alwaysTaken = alwaysTaken
        self.branchCount = branchCount
        self.touched = touched
        self.outputBits = outputBits
    }

    deinit {
        _decided.deinitialize(count: 1)
        _decided.deallocate()
        emissionList.deinitialize().deallocate()
        rowList.deinitialize().deallocate()
    }

    /// The index of `event`'s emission in the step of `state`, if the step emits it.
    @inlinable func emission(_ event: Int, in state: Int) -> Int? {
        guard state >= 0, state < stateCount, event >= 0, event < eventCount else { return nil }
        let index = emissionIndex[state * eventCount + event]
        return index < 0 ? nil : Int(index)
    }

    /// Where branch `branch` of emission `flat` leads from the frame `(keys, values)`, by the guards: its effects, then
    /// the first row that holds on them, then the frame that row pushes (or a reset's new root).
    @usableFromInline func deciding(flat: Int, state: Int, branch: Int, keys: UInt64, values: UInt64) -> Outcome {
        let (k, v) = emissionList[flat].applying(branch: branch, keys: keys, values: values, layout: layout)
        let r = decideRow(flat: flat, state: state, keys: k, values: v)
        guard r >= 0 else { return .refused }
        // The row is read where it lies: a copy (with its effects' lists) cost a 200-byte copy and a call per move.
        let position = rowStart[flat] + r
        let row = rowList.baseAddress.unsafelyUnwrapped + position
        var outcome = Outcome(nextKeys: 0, nextValues: 0, touched: rowTouched[position], to: row.pointee.to.rawValue,
                              fired: Int32(row.pointee.row), reset: row.pointee.reset, replace: row.pointee.replace)
        switch FlowModel.GuardedRow.outcome(of: row, keys: k, values: v, layout: layout) {
        case let .push(_, keys, values), let .replace(_, keys, values), let .reset(keys, values):
            outcome.nextKeys = keys
            outcome.nextValues = values
        case .illegal:
            break
        }
        return outcome
    }

    /// Whether the step of `state` offers its emission `index` in the frame and some branch of it has a row that fires.
    @inlinable func accepts(state: Int, emission index: Int, keys: UInt64, values: UInt64) -> Bool {
        guard let d = decisions(state: state, keys: keys, values: values) else { return decideAccepts(state: state, emission: index, keys: keys, values: values) }
        return decided.accepted[d] & (1 << UInt64(index)) != 0
    }

    /// The index of the decisions of the session's top frame `frame` (in state `state`), made now if this is its first
    /// question, and kept in the frame (and in the branch that pushed it): a walk's undo lands on a frame that knows
    /// where its decisions are, and a push by a branch that pushed the same frame before knows it too. `nil` when the
    /// state's decisions are not kept.
    @inlinable @inline(__always)
    func decisions(state: Int, frame: UnsafeMutablePointer<_SessionFrame>) -> Int? {
        if frame.pointee.decision >= 0 && frame.pointee.generation == decided.generation { return Int(frame.pointee.decision) }
        return place(state: state, frame: frame)
    }

    /// ``decisions(state:frame:)`` for a frame that does not know its place yet.
    @usableFromInline @inline(never)
    func place(state: Int, frame: UnsafeMutablePointer<_SessionFrame>) -> Int? {
        let from = frame.pointee.from, before = frame.pointee.generation
        if from >= 0 && before == decided.generation {
            let next = decided.outcomes[Int(from)].next
            if next >= 0 {
                frame.pointee.decision = next
                return Int(next)
            }
        }
        guard let d = decisions(state: state, keys: frame.pointee.keys, values: frame.pointee.values) else { return nil }
        // Deciding may have forgotten every frame (a new generation): the branch's index is then of no use.
        if from >= 0 && before == decided.generation { decided.outcomes[Int(from)].next = Int32(d) }
        frame.pointee.decision = Int32(d)
        frame.pointee.generation = decided.generation
        frame.pointee.from = -1
        return d
    }

    /// Whether the step offers its emission `index` in the frame whose decisions are at `d` (`nil`: not kept, by the guards).
    @inlinable @inline(__always)
    func offers(_ d: Int?, state: Int, emission index: Int, keys: UInt64, values: UInt64) -> Bool {
        guard let d else { return decideOffers(state: state, emission: index, keys: keys, values: values) }
        return decided.offered[d] & (1 << UInt64(index)) != 0
    }

    /// What branch `branch` of emission `index` does from the frame whose decisions are at `d` (`nil`: not kept, by the
    /// guards), and the branch's index among the decisions' outcomes (-1 when not kept).
    @inlinable @inline(__always)
    func outcome(_ d: Int?, state: Int, emission index: Int, branch: Int, keys: UInt64, values: UInt64) -> (Outcome, Int32) {
        let flat = emissionStart[state] + index
        guard let d else { return (deciding(flat: flat, state: state, branch: branch, keys: keys, values: values), -1) }
        let position = Int(decided.rowStart[d]) + branchOffset[flat] + branch
        return (decided.outcomes[position], Int32(position))
    }

    /// The index of the frame's decisions, made now if this is its first question; `nil` when the state's are not kept.
    @inlinable @inline(__always)
    func decisions(state: Int, keys: UInt64, values: UInt64) -> Int? {
        let last = decided.last
        if last.state == state && last.keys == keys && last.values == values { return Int(decided.lastIndex) }
        return lookUp(FrameDecisions.Key(state: state, keys: keys, values: values))
    }

    /// ``decisions(state:keys:values:)`` for a frame other than the last one asked about.
    @usableFromInline @inline(never)
    func lookUp(_ key: FrameDecisions.Key) -> Int? {
        guard key.state >= 0, key.state < stateCount, decisionSize[key.state] >= 0 else { return nil }
        let d = decided.find(key) ?? decide(key)
        decided.last = key
        decided.lastIndex = d
        return Int(d)
    }

    /// Decides the frame `key` by the guards: every emission of its step, every branch.
    @inline(never)
    func decide(_ key: FrameDecisions.Key) -> Int32 {
        if decided.offered.count >= decisionCapacity {
            let generation = decided.generation &+ 1
            decided = FrameDecisions()
            decided.generation = generation
        }
        let state = key.state
        let d = Int32(decided.offered.count)
        var offered: UInt64 = 0, accepted: UInt64 = 0
        decided.rowStart.append(Int32(decided.outcomes.count))
        for index in 0..<(emissionStart[state + 1] - emissionStart[state]) {
            let flat = emissionStart[state] + index
            let offers = decideOffers(state: state, emission: index, keys: key.keys, values: key.values)
            if offers { offered |= 1 << UInt64(index) }
            var any = false
            for branch in 0..<branchCount[flat] {
                let outcome = deciding(flat: flat, state: state, branch: branch, keys: key.keys, values: key.values)
                any = any || outcome.fires
                decided.outcomes.append(outcome)
            }
            if offers && any { accepted |= 1 << UInt64(index) }
        }
        decided.offered.append(offered)
        decided.accepted.append(accepted)
        decided.insert(key, at: d)
        return d
    }

    /// Whether the step of `state` offers its emission `index` in the frame, by its guard.
    @usableFromInline func decideOffers(state: Int, emission index: Int, keys: UInt64, values: UInt64) -> Bool {
        FlowModel.offers(in: UnsafeBufferPointer(emissionList), index: emissionStart[state] + index, state: state, keys: keys, values: values, layout: layout)
    }

    /// The position among emission `flat`'s rows of the first that holds on the data after its effects `(keys, values)`, or -1.
    func decideRow(flat: Int, state: Int, keys: UInt64, values: UInt64) -> Int {
        let rows = UnsafeBufferPointer(rebasing: rowList[rowStart[flat]..<rowStart[flat + 1]])
        return FlowModel.firstRow(in: rows, state: state, keys: keys, values: values, layout: layout) ?? -1
    }

    /// ``accepts(state:emission:keys:values:)`` by the guards.
    @usableFromInline func decideAccepts(state: Int, emission index: Int, keys: UInt64, values: UInt64) -> Bool {
        guard decideOffers(state: state, emission: index, keys: keys, values: values) else { return false }
        let flat = emissionStart[state] + index
        if alwaysTaken[flat] { return true }
        return (0..<branchCount[flat]).contains { branch in
            let (k, v) = emissionList[flat].applying(branch: branch, keys: keys, values: values, layout: layout)
            return decideRow(flat: flat, state: state, keys: k, values: v) >= 0
        }
    }
}
