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
        var counts = StackCounts(total: 0, perState: [Int](repeating: 0, count: model.stateCount),
                                 perRow: [Int](repeating: 0, count: model.rows.count), saturated: false)
        let n = configurations.count
        let layout = model.layout
        // Each configuration's forward moves, in the semantics' order: kind (push, replace, reset), target, row.
        var moveStart = [Int](repeating: 0, count: n + 1)
        var moveTarget: [Int32] = [], moveKind: [UInt8] = [], moveRow: [Int32] = []
        var successors: [FlowModel.Successor] = []
        for i in 0..<n {
            moveStart[i] = moveTarget.count
            let c = configurations[i]
            model.successors(state: Int(c.state), keys: c.keys, values: c.values, into: &successors)
            for successor in successors {
                let kind: UInt8, target: Configuration
                switch successor.outcome {
                case let .push(to, keys, values): (kind, target) = (0, Configuration(state: to.rawValue, keys: keys, values: values))
                case let .replace(to, keys, values): (kind, target) = (1, Configuration(state: to.rawValue, keys: keys, values: values))
                case let .reset(keys, values): (kind, target) = (2, Configuration(state: model.initial.rawValue, keys: keys, values: values))
                case .illegal: continue
                }
                guard let position = index[target] else { continue }   // beyond a limit that stopped the search
                moveTarget.append(position)
                moveKind.append(kind)
                moveRow.append(Int32(successor.row))
            }
        }
        moveStart[n] = moveTarget.count
        // Each configuration's frame: its state and client-side data.
        var frameIndex: [Configuration: Int32] = [:]
        let frame: [Int32] = configurations.map { c in
            let key = Configuration(state: c.state, keys: c.keys & ~layout.serverKeys, values: c.values & ~layout.serverValues)
            if let known = frameIndex[key] { return known }
            let id = Int32(frameIndex.count)
            frameIndex[key] = id
            return id
        }
        // The fewest forward moves to each configuration (-1: none reaches it without a back).
        var forward = [Int32](repeating: -1, count: n)
        var queue: [Int] = []
        for i in 0..<n where parent[i] < 0 {
            forward[i] = 0
            queue.append(i)
        }
        var head = 0
        while head < queue.count {
            let i = queue[head]
            head += 1
            for m in moveStart[i]..<moveStart[i + 1] where forward[Int(moveTarget[m])] < 0 {
                forward[Int(moveTarget[m])] = forward[i] + 1
                queue.append(Int(moveTarget[m]))
            }
        }

        // One group at a time: `best` holds each candidate's (moves, row + 1) packed, `touched` the candidates.
        let unset = Int64.max
        var best = [Int64](repeating: unset, count: n)
        var touched: [Int32] = []
        var pending: [[Int32]] = Array(repeating: [], count: depth + 2)
        let bound = Int32(depth)
        func pack(_ moves: Int32, _ row: Int32) -> Int64 { Int64(moves) << 32 | Int64(row + 1) }
        func propose(_ c: Int32, _ moves: Int32, _ row: Int32) {
            guard moves <= bound else { return }
            let packed = pack(moves, row)
            let old = best[Int(c)]
            if old == unset { touched.append(c) }
            if packed < old {
                if old == unset || old >> 32 != Int64(moves) { pending[Int(moves)].append(c) }
                best[Int(c)] = packed
            }
        }
        // The groups on the way down the tree of histories, one after another in one buffer (a group is a range of it),
        // and the distinct frames of each: no array is made per group.
        var groups: [(c: Int32, moves: Int32, row: Int32)] = []
        var frameStack: [Int32] = []
        /// Closes the candidates under in-place updates, shortest first, and appends the group to `groups`: its range there.
        func settle() -> Range<Int> {
            for moves in 0...depth where !pending[moves].isEmpty {
                var k = 0
                while k < pending[moves].count {
                    let c = pending[moves][k]
                    k += 1
                    guard best[Int(c)] >> 32 == Int64(moves), moves < depth else { continue }
                    for m in moveStart[Int(c)]..<moveStart[Int(c) + 1] where moveKind[m] == 1 {
                        propose(moveTarget[m], Int32(moves) + 1, moveRow[m])
                    }
                }
                pending[moves].removeAll(keepingCapacity: true)
            }
            let start = groups.count
            for c in touched {
                groups.append((c: c, moves: Int32(best[Int(c)] >> 32), row: Int32(best[Int(c)] & 0xFFFF_FFFF) - 1))
                best[Int(c)] = unset
            }
            touched.removeAll(keepingCapacity: true)
            return start..<groups.count
        }

        var stopped = false
        var groupsCounted = 0
        func count(_ group: Range<Int>) {
            groupsCounted += 1
            if groupsCounted & 1023 == 0, let timeout, Date().timeIntervalSince(start) > timeout {
                stopped = true
            }
            if stopped { return }
            let framesStart = frameStack.count
            for i in group {
                let entry = groups[i]
                counts.total += 1
                counts.perState[Int(configurations[Int(entry.c)].state)] += 1
                if counts.perRow.indices.contains(Int(entry.row)) { counts.perRow[Int(entry.row)] += 1 }
                if entry.moves < bound, !frameStack[framesStart...].contains(frame[Int(entry.c)]) { frameStack.append(frame[Int(entry.c)]) }
            }
            // The group above each frame: the pushes out of its configurations here.
            for position in framesStart..<frameStack.count {
                let f = frameStack[position]
                for i in group {
                    let entry = groups[i]
                    guard frame[Int(entry.c)] == f && entry.moves < bound else { continue }
                    for m in moveStart[Int(entry.c)]..<moveStart[Int(entry.c) + 1] where moveKind[m] == 0 {
                        propose(moveTarget[m], entry.moves + 1, moveRow[m])
                    }
                }
                let above = settle()
                if !above.isEmpty { count(above) }
                groups.removeLast(groups.count - above.lowerBound)
            }
            frameStack.removeLast(frameStack.count - framesStart)
        }

        // The roots' group: the roots, and each reset's landing that is not one.
        for i in 0..<n where parent[i] < 0 { propose(Int32(i), 0, -1) }
        for i in 0..<n where forward[i] >= 0 && forward[i] < bound {
            for m in moveStart[i]..<moveStart[i + 1] where moveKind[m] == 2 { propose(moveTarget[m], forward[i] + 1, moveRow[m]) }
        }
        count(settle())
        if stopped, let timeout { counts.stoppedBy = .timeout(seconds: timeout) }
        progress?(depth)
        return counts
    }
}
