/// One frame of a replayed session: the spec's frame, and the data keys the records say the app held.
struct TraceFrame: Equatable {
    /// The state, or -1 for a name the spec does not have.
    var state: Int32
    /// Whether ``recorded`` is known (every record since the frame's data was last known carried its data).
    var known: Bool
    /// The spec's data (presence bits and packed values, see `DataLayout`), as the semantics computes it.
    var keys: UInt64
    var values: UInt64
    /// The data keys the records say the app held, from each transition's `added` and `cleared`.
    var recorded: UInt64
    /// Section 5: the move that made it updated the frame below in place (`"history": "replace"`); back takes both off.
    var replaces = false
}

/// One open session: its id, its stack of frames, and what the report needs about it.
struct TraceSession {
    /// The session id's bytes and their hash.
    var id: [UInt8]
    var hash: UInt64
    /// The undo stack, the current frame last.
    var frames: [TraceFrame]
    /// Whether `frames[0]` is the flow's root, so a back from it is at the start; false after the
    /// session was joined mid-flow or resynchronised.
    var rooted: Bool
    /// Whether the spec frame is known; false once a flow whose moves depend on the data lost track
    /// of it (after a record the spec does not explain), until a reset.
    var checked: Bool
    /// Candidate variants (bit per variant), for a flow with several; empty otherwise.
    var variants: [UInt64]
    /// The newest record: its timestamp, input and line.
    var lastTimestamp: Int64
    var lastFile: Int
    var lastLine: Int
    /// Fingerprints and lines of the last four records, for duplicates (the newest at `recentNext - 1`, cyclically).
    var recent: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var recentLines: (Int, Int, Int, Int) = (0, 0, 0, 0)
    var recentNext = 0
    /// The states entered: a bit per state, the first 64 inline and the rest in `visitedMore`.
    var visited: UInt64 = 0
    var visitedMore: [UInt64] = []
    /// Whether the session broke the spec, lacked data in a record, or had a branch assumed.
    var broken = false
    var lackedData = false
    var assumedValues = false
    /// The terminal state a run of resets left (a logout after success), or -1.
    var endedInTerminal: Int32 = -1
}

/// Open sessions by id: open addressing over the ids' bytes, slots reused once a session closes.
///
/// - Complexity: O(length of the id) per look-up, expected; memory O(open sessions).
struct TraceSessionTable {
    /// Slot indices by hash position, -1 for empty; kept at most half full.
    private var index: [Int32] = [Int32](repeating: -1, count: 1024)
    /// The sessions, by slot; a closed slot is on `free`.
    var slots: [TraceSession] = []
    var live: [Bool] = []
    private var free: [Int32] = []
    /// Open sessions.
    private(set) var count = 0

    /// The slot of the session with id `bytes` (hash `hash`), or nil.
    @inline(__always)
    func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        let mask = index.count - 1
        var position = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = index[position]
            if slot < 0 { return nil }
            if slots[Int(slot)].hash == hash, slots[Int(slot)].id.withUnsafeBufferPointer({ memcmpEqual($0, bytes) }) {
                return Int(slot)
            }
            position = (position + 1) & mask
        }
    }

    /// Opens a session with id `bytes` (not present) and returns its slot, its fields as `fresh`
    /// sets them; a reused slot keeps its arrays' storage.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, _ fresh: (inout TraceSession) -> Void) -> Int {
        if (count + 1) * 2 > index.count { grow() }
        let slot: Int
        if let reused = free.popLast() {
            slot = Int(reused)
            live[slot] = true
        } else {
            slot = slots.count
            slots.append(TraceSession(id: [], hash: 0, frames: [], rooted: true, checked: true, variants: [],
                                      lastTimestamp: 0, lastFile: 0, lastLine: 0))
            live.append(true)
        }
        slots[slot].id.removeAll(keepingCapacity: true)
        slots[slot].id.append(contentsOf: bytes)
        slots[slot].hash = hash
        slots[slot].frames.removeAll(keepingCapacity: true)
        fresh(&slots[slot])
        place(slot, hash: hash)
        count += 1
        return slot
    }

    /// Removes the session in `slot` (backward-shift deletion keeps probing correct without tombstones).
    mutating func remove(_ slot: Int) {
        let mask = index.count - 1
        var position = Int(truncatingIfNeeded: slots[slot].hash) & mask
        while index[position] != Int32(slot) { position = (position + 1) & mask }
        var hole = position
        var next = (hole + 1) & mask
        while index[next] >= 0 {
            let home = Int(truncatingIfNeeded: slots[Int(index[next])].hash) & mask
            // Move the entry back when its home is not in (hole, next], cyclically.
            let between = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !between {
                index[hole] = index[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        index[hole] = -1
        live[slot] = false
        // A tall session's stack is not kept for the next one in its slot: what every slot keeps stays small.
        if slots[slot].frames.capacity > 16 { slots[slot].frames = [] }
        free.append(Int32(slot))
        count -= 1
    }

    private mutating func place(_ slot: Int, hash: UInt64) {
        let mask = index.count - 1
        var position = Int(truncatingIfNeeded: hash) & mask
        while index[position] >= 0 { position = (position + 1) & mask }
        index[position] = Int32(slot)
    }

    private mutating func grow() {
        index = [Int32](repeating: -1, count: index.count * 2)
        for slot in slots.indices where live[slot] { place(slot, hash: slots[slot].hash) }
    }
}
