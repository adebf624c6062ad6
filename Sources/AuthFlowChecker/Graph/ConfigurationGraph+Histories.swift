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
    /// top and differ in the top frame or the server data. The count goes through that tree one group of siblings at
    /// a time: a group holds each configuration (top frame and server data) with the fewest forward moves that reach
    /// it, closed under the in-place updates among them; the pushes out of one frame's configurations make the group
    /// above that frame. The roots' group also holds each reset's landing, at the fewest forward moves to its
    /// source plus one. Each pair counts for its state and for the row of its last move on its shortest path (the
    /// lowest row among equals); a root for none.
    ///
    /// - Complexity: O(P · m) time for P pairs counted and m moves per configuration; O(C · m + depth · C) memory.
    func countHistories(depth: Int, timeout: Double? = nil, start: Date = Date(),
                        progress: ((_ height: Int) -> Void)? = nil) -> StackCounts {
        var count = HistoryCount(graph: self, depth: depth)
        count.run(timeout: timeout, start: start)
        progress?(depth)
        return count.counts
    }
}

/// The state of one ``ConfigurationGraph/countHistories(depth:timeout:start:progress:)``: dense arrays only, read and
/// written by mutating methods (local functions over captured variables would be checked for exclusive access at every
/// read, which cost more than the count itself).
private struct HistoryCount {
    var counts: ConfigurationGraph.StackCounts
    /// Each configuration's forward moves by kind, in the semantics' order.
    var pushes: HistoryMoves, replaces: HistoryMoves, resets: HistoryMoves
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
    /// The groups on the way down the tree of histories, one after another in one buffer (a group is its tail), and the
    /// distinct frames of each with room above them. Both keep their length apart, so nothing is freed or allocated per group.
    var members: [HistoryMember] = []
    var memberCount = 0
    var frames: [(frame: Int32, first: Int32)] = []
    var frameCount = 0
    /// Where each frame was last listed in `frames` (an entry of the group being listed only if it still says so).
    var listedAt: [Int32]
    /// Per group on the way down: where its members and its frames start, the next frame to go above, and its frames' end.
    var levels: [(members: Int, frames: Int, next: Int, end: Int)] = []
    static let unset = Int64.max

    init(graph: ConfigurationGraph, depth: Int) {
        let model = graph.model
        let n = graph.configurations.count
        let layout = model.layout
        counts = .init(total: 0, perState: [Int](repeating: 0, count: model.stateCount),
                       perRow: [Int](repeating: 0, count: model.rows.count), saturated: false)
        var pushes = HistoryMoves(count: n), replaces = HistoryMoves(count: n), resets = HistoryMoves(count: n)
        var successors: [FlowModel.Successor] = []
        for i in 0..<n {
            pushes.open(i)
            replaces.open(i)
            resets.open(i)
            let c = graph.configurations[i]
            model.successors(state: Int(c.state), keys: c.keys, values: c.values, into: &successors)
            for successor in successors {
                let row = Int32(successor.row)
                // A target beyond a limit that stopped the search is left out.
                switch successor.outcome {
                case let .push(to, keys, values):
                    if let target = graph.index[Configuration(state: to.rawValue, keys: keys, values: values)] { pushes.add(target, row) }
                case let .replace(to, keys, values):
                    if let target = graph.index[Configuration(state: to.rawValue, keys: keys, values: values)] { replaces.add(target, row) }
                case let .reset(keys, values):
                    if let target = graph.index[Configuration(state: model.initial.rawValue, keys: keys, values: values)] { resets.add(target, row) }
                case .illegal: continue
                }
            }
        }
        pushes.close(n)
        replaces.close(n)
        resets.close(n)
        (self.pushes, self.replaces, self.resets) = (pushes, replaces, resets)
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
            for kind in 0..<3 {
                let moves = kind == 0 ? pushes : kind == 1 ? replaces : resets
                for m in moves.range(i) where forward[Int(moves.target[m])] < 0 {
                    forward[Int(moves.target[m])] = forward[i] + 1
                    queue.append(moves.target[m])
                }
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
        if (old == Self.unset || old >> 32 != Int64(moves)) && moves < bound && !replaces.range(Int(c)).isEmpty {
            pending[Int(moves)].append(c)
            lowest = min(lowest, Int(moves))
            highest = max(highest, Int(moves))
        }
        best[Int(c)] = packed
    }

    /// Closes the candidates under in-place updates, shortest first, and appends them to `members` as one group.
    mutating func settle() {
        var moves = lowest
        while moves <= highest {
            var k = 0
            while k < pending[moves].count {
                let c = pending[moves][k]
                k += 1
                guard best[Int(c)] >> 32 == Int64(moves) else { continue }
                for m in replaces.range(Int(c)) { propose(replaces.target[m], Int32(moves) + 1, replaces.row[m]) }
            }
            if !pending[moves].isEmpty { pending[moves].removeAll(keepingCapacity: true) }
            moves += 1
        }
        (lowest, highest) = (Int.max, -1)
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

    /// Counts the group `from..<memberCount` and lists its frames with room and pushes above them, each with its members chained.
    mutating func enter(_ from: Int) {
        let framesStart = frameCount
        for i in from..<memberCount {
            let member = members[i]
            counts.total += 1
            counts.perState[Int(state[Int(member.c)])] += 1
            if member.row >= 0 && Int(member.row) < counts.perRow.count { counts.perRow[Int(member.row)] += 1 }
            guard member.moves < bound && !pushes.range(Int(member.c)).isEmpty else { continue }
            let f = frame[Int(member.c)]
            let at = Int(listedAt[Int(f)])
            if at >= framesStart && at < frameCount && frames[at].frame == f {
                members[i].next = frames[at].first
                frames[at].first = Int32(i)
            } else {
                listedAt[Int(f)] = Int32(frameCount)
                if frameCount < frames.count { frames[frameCount] = (f, Int32(i)) } else { frames.append((f, Int32(i))) }
                frameCount += 1
            }
        }
        levels.append((members: from, frames: framesStart, next: framesStart, end: frameCount))
    }

    /// Counts every group, down the tree of histories from the roots' group, until `timeout` seconds after `start`.
    mutating func run(timeout: Double?, start: Date) {
        // The roots' group: the roots, and each reset's landing that is not one.
        for root in roots { propose(root, 0, -1) }
        for i in forward.indices where forward[i] >= 0 && forward[i] < bound {
            for m in resets.range(i) { propose(resets.target[m], forward[i] + 1, resets.row[m]) }
        }
        settle()
        enter(0)
        var groupsCounted = 0
        while let level = levels.last {
            guard level.next < level.end else {
                // Every frame of the group is done: it and its frames go.
                levels.removeLast()
                (memberCount, frameCount) = (level.members, level.frames)
                continue
            }
            levels[levels.count - 1].next += 1
            // The group above this frame: the pushes out of the group's members that have it.
            var i = Int(frames[level.next].first)
            while i >= 0 {
                let member = members[i]
                for m in pushes.range(Int(member.c)) { propose(pushes.target[m], member.moves + 1, pushes.row[m]) }
                i = Int(member.next)
            }
            let above = memberCount
            settle()
            guard memberCount > above else { continue }
            groupsCounted += 1
            if groupsCounted & 1023 == 0, let timeout, Date().timeIntervalSince(start) > timeout {
                counts.stoppedBy = .timeout(seconds: timeout)
                return
            }
            enter(above)
        }
    }
}

/// One configuration's forward moves of one kind for ``ConfigurationGraph/countHistories(depth:timeout:start:progress:)``,
/// every configuration's one after another: a target and a row each.
private struct HistoryMoves {
    var start: [Int32]
    var target: [Int32] = []
    var row: [Int32] = []

    init(count: Int) { start = [Int32](repeating: 0, count: count + 1) }

    mutating func open(_ i: Int) { start[i] = Int32(target.count) }
    mutating func close(_ count: Int) { start[count] = Int32(target.count) }
    mutating func add(_ to: Int32, _ row: Int32) {
        target.append(to)
        self.row.append(row)
    }

    @inline(__always) func range(_ i: Int) -> Range<Int> { Int(start[i])..<Int(start[i + 1]) }
}

/// A pair counted in a group: its configuration, the fewest moves that reach it, the row of its last move, and the next
/// member of its group with the same frame (-1: none).
private struct HistoryMember {
    var c: Int32
    var moves: Int32
    var row: Int32
    var next: Int32
}
