import AuthFlow

/// The model's moves as flat integer arrays: what the walk's hot loop reads, with no reference counting per node.
struct MoveTable: Sendable {
    /// Moves of state `s` are `moveStart[s] ..< moveStart[s + 1]`, in declaration order.
    let moveStart: [Int]
    /// Per move: its event's raw id.
    let event: [Int32]
    /// Per move: its target's raw id, or -1 when the table has no transition (an illegal event).
    let target: [Int32]
    /// Per move: the keys it adds, as bits.
    let adds: [UInt64]
    /// The keys move `m` adds in declaration order are `addedKeys[keyStart[m] ..< keyStart[m + 1]]`.
    let keyStart: [Int]
    let addedKeys: [Int32]
    /// Move `m` pushes the same frame as an earlier sibling when some `duplicateMasks[dupStart[m] ..< dupStart[m + 1]]`
    /// has no bit outside the current keys.
    let dupStart: [Int]
    let duplicateMasks: [UInt64]
    /// Per state: whether the spec allows back from it (above the root).
    let backAllowed: [Bool]
    /// The most keys one move adds.
    let maximumAdds: Int

    /// The moves of `model`; with `probingEveryEvent`, each state also gets a move with no target
    /// for every event it does not emit (after its own, so the ordinals of legal moves are unchanged).
    init(model: FlowModel, duplicateMasks masks: [[[UInt64]]], probingEveryEvent: Bool = false) {
        var moveStart = [0]
        var event: [Int32] = [], target: [Int32] = [], adds: [UInt64] = []
        var keyStart = [0], addedKeys: [Int32] = []
        var dupStart = [0], duplicateMasks: [UInt64] = []
        for state in 0..<model.stateCount {
            for (j, move) in model.moves[state].enumerated() {
                event.append(move.event.rawValue)
                target.append(move.target?.rawValue ?? -1)
                adds.append(move.adds.bits)
                addedKeys += move.addedKeys.map(\.rawValue)
                keyStart.append(addedKeys.count)
                duplicateMasks += masks[state][j]
                dupStart.append(duplicateMasks.count)
            }
            if probingEveryEvent {
                let emitted = Set(model.moves[state].map(\.event.rawValue))
                for other in 0..<Int32(model.events.count) where !emitted.contains(other) {
                    event.append(other)
                    target.append(-1)
                    adds.append(0)
                    keyStart.append(addedKeys.count)
                    dupStart.append(duplicateMasks.count)
                }
            }
            moveStart.append(event.count)
        }
        self.moveStart = moveStart
        self.event = event
        self.target = target
        self.adds = adds
        self.keyStart = keyStart
        self.addedKeys = addedKeys
        self.dupStart = dupStart
        self.duplicateMasks = duplicateMasks
        self.backAllowed = (0..<model.stateCount).map { !model.isTerminal[$0] && model.canGoBack[$0] }
        self.maximumAdds = zip(keyStart, keyStart.dropFirst()).map { $1 - $0 }.max() ?? 0
    }

    /// The flat indices of the moves of `state`.
    @inline(__always) func moves(of state: Int) -> Range<Int> { moveStart[state]..<moveStart[state + 1] }

    /// Whether move `m`, from a frame holding `keys`, pushes the same frame as an earlier sibling.
    @inline(__always) func isDuplicate(_ m: Int, keys: UInt64) -> Bool {
        var i = dupStart[m]
        let end = dupStart[m + 1]
        while i < end {
            if duplicateMasks[i] & ~keys == 0 { return true }
            i += 1
        }
        return false
    }

    /// The index among its state's moves (declaration order) of flat move `m` from `state`.
    @inline(__always) func ordinal(_ m: Int, from state: Int) -> Int32 { Int32(m - moveStart[state]) }
}
