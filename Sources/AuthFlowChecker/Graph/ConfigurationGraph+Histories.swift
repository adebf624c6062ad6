import AuthFlow
import Foundation

extension FlowModel {
    /// Whether two forward paths can build the same history, so `stacks` counts histories, not paths (section 5).
    ///
    /// With server-side keys, a history of frames with the same server data can be built by paths whose server data
    /// differed on the way; an in-place update rewrites the top frame, so a replace and a push can leave the same
    /// history; a reset that keeps keys starts a one-frame history that is not a root. Without them every path of
    /// configurations from a root is a history of its own, and ``ConfigurationGraph/countStacks(depth:timeout:start:progress:)``
    /// counts paths.
    package var stacksAreHistories: Bool {
        layout.hasServerKeys || emissions.joined().contains { $0.rows.contains { $0.replace || ($0.reset && $0.keepKeys != 0) } }
    }
}

extension ConfigurationGraph {
    /// The stacks of at most `depth` forward moves as section 5 counts them: distinct pairs (history of frames, server
    /// data) that pushes, in-place updates and resets reach, a frame being a state and its client-side data.
    ///
    /// A history's frames form a tree (a trie of histories); the pairs at one node of it share their frames below the
    /// top and differ in the top frame or the server data. A group of siblings holds each configuration (top frame and
    /// server data) with the fewest forward moves that reach it, closed under the in-place updates among them; the
    /// pushes out of one frame's configurations make the group above that frame. The roots' group also holds each
    /// reset's landing, at the fewest forward moves to its source plus one. Each pair counts for its state and for the
    /// row of its last move on its shortest path (the lowest row among equals); a root for none.
    ///
    /// The group above a frame depends only on that frame's configurations and their moves (its *key*), so the count
    /// goes up the tree one level at a time and makes each distinct key's group once, counted as many times as the
    /// level has nodes with that key. Counts that would overflow saturate at `Int.max`.
    ///
    /// - Complexity: O(K · m) time for K distinct keys over all levels and m moves per configuration (at most one per
    ///   pair counted); O(C · m + K') memory for the widest level's K' keys.
    func countHistories(depth: Int, timeout: Double? = nil, start: Date = Date(),
                        progress: ((_ height: Int) -> Void)? = nil) -> StackCounts {
        precondition(countedThrough.map { depth <= $0 } ?? true, "a graph expanded below \(countedThrough ?? 0) moves counts no deeper")
        var count = HistoryCount(graph: self, depth: depth)
        count.run(timeout: timeout, start: start, progress: progress)
        return count.counts
    }
}

/// The state of one ``ConfigurationGraph/countHistories(depth:timeout:start:progress:)``: dense arrays only, read and
/// written by mutating methods (local functions over captured variables would be checked for exclusive access at every
/// read, which cost more than the count itself).
private struct HistoryCount {
    var counts: ConfigurationGraph.StackCounts
    /// Each configuration's forward moves by kind, in the semantics' order.
    let moves: ForwardMoves
    /// Each configuration's frame (its state and client-side data, an id) and state.
    let frame: [Int32]
    let state: [Int32]
    let frameTotal: Int
    /// The roots, and the fewest forward moves to each configuration (-1: none reaches it without a back).
    let roots: [Int32]
    var forward: [Int32]
    let bound: Int32
    /// One group at a time: `best` holds each candidate's (moves, row + 1) packed, `touched` the candidates, and
    /// `pending` per number of moves those whose in-place updates are still to follow (levels `lowest...highest`).
    var best: [Int64]
    var touched: [Int32] = []
    var touchedCount = 0
    var pending: [[Int32]]
    var lowest = Int.max, highest = -1
    /// The group being counted, and its distinct frames with room above them, each with its members chained. Both keep
    /// their length apart, so nothing is freed or allocated per group.
    var members: [HistoryMember] = []
    var memberCount = 0
    var frames: [(frame: Int32, first: Int32)] = []
    var frameCount = 0
    /// Where each frame was last listed in `frames` (an entry of the group being listed only if it still says so).
    var listedAt: [Int32]
    /// The keys of the level being counted and of the level above it, and the key being made.
    var level = HistoryKeys(), above = HistoryKeys()
    var key: [UInt64] = []
    static let unset = Int64.max

    init(graph: ConfigurationGraph, depth: Int) {
        let model = graph.model
        let n = graph.configurations.count
        let layout = model.layout
        counts = .init(total: 0, perState: [Int](repeating: 0, count: model.stateCount),
                       perRow: [Int](repeating: 0, count: model.rows.count), saturated: false)
        moves = graph.forwardMoves ?? ForwardMoves(graph: graph)
        // Numbered by an index, not a `Dictionary` (11 MB of an authenticator's 121,824 configurations).
        var frameIndex = ConfigurationIndex()
        frame = graph.configurations.map { c in
            let key = Configuration(state: c.state, keys: c.keys & ~layout.serverKeys, values: c.values & ~layout.serverValues)
            return frameIndex[key] ?? frameIndex.append(key)
        }
        frameTotal = frameIndex.count
        state = graph.configurations.map(\.state)
        roots = (0..<n).filter { graph.parent[$0] < 0 }.map(Int32.init)
        var forward = [Int32](repeating: -1, count: n)
        var queue = roots
        for root in roots { forward[Int(root)] = 0 }
        var head = 0
        while head < queue.count {
            let i = Int(queue[head])
            head += 1
            for m in moves.range(i) where forward[Int(moves.target[m])] < 0 {
                forward[Int(moves.target[m])] = forward[i] + 1
                queue.append(moves.target[m])
            }
        }
        self.forward = forward
        bound = Int32(depth)
        best = [Int64](repeating: Self.unset, count: n)
        pending = Array(repeating: [], count: depth + 2)
        listedAt = [Int32](repeating: -1, count: frameTotal)
    }

    /// Proposes configuration `c` for the group being made, at `moves` forward moves, by `row`.
    @inline(__always)
    mutating func propose(_ c: Int32, _ moves: Int32, _ row: Int32) {
        guard moves <= bound else { return }
        let packed = Int64(moves) << 32 | Int64(row + 1)
        let old = best[Int(c)]
        if old == Self.unset {
            if touchedCount < touched.count { touched[touchedCount] = c } else { touched.append(c) }
            touchedCount += 1
        }
        guard packed < old else { return }
        if (old == Self.unset || old >> 32 != Int64(moves)) && moves < bound && !self.moves.range(Int(c), .replace).isEmpty {
            pending[Int(moves)].append(c)
            lowest = min(lowest, Int(moves))
            highest = max(highest, Int(moves))
        }
        best[Int(c)] = packed
    }

    /// Closes the candidates under in-place updates, shortest first, and makes them the group's members.
    mutating func settle() {
        var moves = lowest
        while moves <= highest {
            var k = 0
            while k < pending[moves].count {
                let c = pending[moves][k]
                k += 1
                guard best[Int(c)] >> 32 == Int64(moves) else { continue }
                for m in self.moves.range(Int(c), .replace) { propose(self.moves.target[m], Int32(moves) + 1, self.moves.row[m]) }
            }
            if !pending[moves].isEmpty { pending[moves].removeAll(keepingCapacity: true) }
            moves += 1
        }
        (lowest, highest) = (Int.max, -1)
        memberCount = 0
        for t in 0..<touchedCount {
            let c = touched[t]
            let packed = best[Int(c)]
            let member = HistoryMember(c: c, moves: Int32(packed >> 32), row: Int32(packed & 0xFFFF_FFFF) - 1, next: -1)
            if memberCount < members.count { members[memberCount] = member } else { members.append(member) }
            memberCount += 1
            best[Int(c)] = Self.unset
        }
        touchedCount = 0
    }

    /// Adds `times` to `count`, saturating at `Int.max`; true when it saturated.
    @inline(__always)
    static func add(_ count: inout Int, _ times: Int) -> Bool {
        let (sum, overflow) = count.addingReportingOverflow(times)
        count = overflow ? Int.max : sum
        return overflow
    }

    /// Counts the group just settled `times` (the nodes of the tree it stands for) and adds to the level above the key
    /// of each of its frames with room and pushes above them, `times` each.
    mutating func enter(times: Int) {
        frameCount = 0
        for i in 0..<memberCount {
            let member = members[i]
            var saturated = Self.add(&counts.total, times)
            saturated = Self.add(&counts.perState[Int(state[Int(member.c)])], times) || saturated
            if member.row >= 0 && Int(member.row) < counts.perRow.count { saturated = Self.add(&counts.perRow[Int(member.row)], times) || saturated }
            if saturated { counts.saturated = true }
            guard member.moves < bound && !moves.range(Int(member.c), .push).isEmpty else { continue }
            let f = frame[Int(member.c)]
            let at = Int(listedAt[Int(f)])
            if at >= 0 && at < frameCount && frames[at].frame == f {
                members[i].next = frames[at].first
                frames[at].first = Int32(i)
            } else {
                listedAt[Int(f)] = Int32(frameCount)
                if frameCount < frames.count { frames[frameCount] = (f, Int32(i)) } else { frames.append((f, Int32(i))) }
                frameCount += 1
            }
        }
        for j in 0..<frameCount {
            // The key: the frame's members (configuration, moves) in the order of their ids.
            key.removeAll(keepingCapacity: true)
            var i = Int(frames[j].first)
            while i >= 0 {
                let member = members[i]
                var at = key.count
                let packed = UInt64(UInt32(bitPattern: member.c)) << 32 | UInt64(UInt32(bitPattern: member.moves))
                key.append(packed)
                while at > 0 && key[at - 1] > packed {
                    key.swapAt(at - 1, at)
                    at -= 1
                }
                i = Int(member.next)
            }
            if above.add(key, times: times) { counts.saturated = true }
        }
    }

    /// Counts every group, up the tree of histories one level at a time from the roots' group, until `timeout` seconds
    /// after `start`; `progress` hears each level's height.
    mutating func run(timeout: Double?, start: Date, progress: ((_ height: Int) -> Void)?) {
        // The roots' group: the roots, and each reset's landing that is not one.
        for root in roots { propose(root, 0, -1) }
        for i in forward.indices where forward[i] >= 0 && forward[i] < bound {
            for m in moves.range(i, .reset) { propose(moves.target[m], forward[i] + 1, moves.row[m]) }
        }
        settle()
        enter(times: 1)
        var height = 0, groupsCounted = 0
        while above.count > 0 {
            swap(&level, &above)
            above.removeAll()
            height += 1
            for e in 0..<level.count {
                let times = level.times[e]
                for w in level.range(e) {
                    let packed = level.words[w]
                    let c = Int(packed >> 32), taken = Int32(truncatingIfNeeded: packed)
                    for m in moves.range(c, .push) { propose(moves.target[m], taken + 1, moves.row[m]) }
                }
                settle()
                enter(times: times)
                groupsCounted += 1
                if groupsCounted & 1023 == 0, let timeout, Date().timeIntervalSince(start) > timeout {
                    counts.stoppedBy = .timeout(seconds: timeout)
                    return
                }
            }
            if height < Int(bound) { progress?(height) }
        }
        progress?(Int(bound))
    }
}

/// The distinct keys of one level of ``ConfigurationGraph/countHistories(depth:timeout:start:progress:)``, each with
/// how many nodes of the tree of histories have it: the keys' words one after another, found by open addressing.
private struct HistoryKeys {
    var words: [UInt64] = []
    var starts: [Int32] = [0]
    var times: [Int] = []
    var hashes: [UInt64] = []
    /// Per slot: an entry + 1, or 0 for none (a power of two, at most half full).
    var slots = [Int32](repeating: 0, count: 1024)

    var count: Int { times.count }
    @inline(__always) func range(_ e: Int) -> Range<Int> { Int(starts[e])..<Int(starts[e + 1]) }

    /// Adds `times` to `key`'s count, a new entry if it has none; true when the count saturated.
    mutating func add(_ key: [UInt64], times: Int) -> Bool {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
        for word in key { hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9; hash ^= hash >> 31 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let e = Int(slots[slot]) - 1
            if hashes[e] == hash && range(e).count == key.count && words[range(e)].elementsEqual(key) {
                let (sum, overflow) = self.times[e].addingReportingOverflow(times)
                self.times[e] = overflow ? Int.max : sum
                return overflow
            }
            slot = (slot + 1) & mask
        }
        words.append(contentsOf: key)
        starts.append(Int32(words.count))
        self.times.append(times)
        hashes.append(hash)
        slots[slot] = Int32(self.times.count)
        if self.times.count * 2 > slots.count { grow() }
        return false
    }

    mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for e in 0..<times.count {
            var slot = Int(truncatingIfNeeded: hashes[e]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(e + 1)
        }
    }

    /// Empties the level, keeping its buffers.
    mutating func removeAll() {
        words.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
        times.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        for s in slots.indices { slots[s] = 0 }
    }
}

/// A pair counted in a group: its configuration, the fewest moves that reach it, the row of its last move, and the next
/// member of its group with the same frame (-1: none).
private struct HistoryMember {
    var c: Int32
    var moves: Int32
    var row: Int32
    var next: Int32
}
