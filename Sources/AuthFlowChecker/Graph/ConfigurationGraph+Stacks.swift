import AuthFlow
import Foundation

extension ConfigurationGraph {
    /// The undo stacks of at most `depth` forward events, counted over the graph (section 4's `stacks`).
    struct StackCounts {
        /// Distinct stacks, the root included.
        var total: Int
        /// Per state: the stacks whose top frame is in it.
        var perState: [Int]
        /// Per row of ``FlowModel/rows``: the stacks whose top frame that row pushed.
        var perRow: [Int]
        /// Whether some count reached `Int.max` and stopped growing.
        var saturated: Bool
        /// The timeout, when it stopped the count before `depth`.
        var stoppedBy: StopReason?
    }

    /// Counts the stacks of at most `depth` events level by level, without enumerating them.
    ///
    /// A flow whose forward paths can build the same history twice (section 5: ``FlowModel/stacksAreHistories``)
    /// counts its histories instead (``countHistories(depth:timeout:start:progress:)``).
    ///
    /// A stack is a path from the root along the deduplicated edges, so `ways[c]`, the number of
    /// stacks of the current height ending at configuration `c`, gives the next level's by one
    /// pass over the edges. Counts that would overflow saturate at `Int.max`.
    /// - Parameters:
    ///   - depth: the most forward events in a stack.
    ///   - timeout: seconds after `start` at which counting stops (the counts are then lower bounds).
    ///   - progress: called after each level with the height reached.
    /// - Complexity: O(depth · E) time and O(C) memory for E edges and C configurations.
    func countStacks(depth: Int, timeout: Double? = nil, start: Date = Date(),
                     progress: ((_ height: Int) -> Void)? = nil) -> StackCounts {
        if model.stacksAreHistories { return countHistories(depth: depth, timeout: timeout, start: start, progress: progress) }
        precondition(countedThrough.map { depth <= $0 } ?? true, "a graph expanded below \(countedThrough ?? 0) moves counts no deeper")
        var counts = StackCounts(total: 0, perState: [Int](repeating: 0, count: model.stateCount),
                                 perRow: [Int](repeating: 0, count: model.rows.count), saturated: false)
        var saturated = false
        func add(_ a: inout Int, _ b: Int) {
            let (sum, overflow) = a.addingReportingOverflow(b)
            if overflow { saturated = true; a = Int.max } else { a = sum }
        }
        var ways = [Int](repeating: 0, count: configurations.count)
        var next = [Int](repeating: 0, count: configurations.count)
        // Every variant's root is a stack of its own.
        var level: [Int32] = []
        for root in configurations.indices where parent[root] < 0 {
            level.append(Int32(root))
            ways[root] = 1
            counts.perState[Int(configurations[root].state)] += 1
        }
        counts.total = level.count
        var height = 0
        while height < depth, !level.isEmpty {
            if let timeout, Date().timeIntervalSince(start) > timeout {
                counts.stoppedBy = .timeout(seconds: timeout)
                break
            }
            height += 1
            var nextLevel: [Int32] = []
            for parent in level {
                let count = ways[Int(parent)]
                for edge in edges(of: Int(parent)) {
                    let child = Int(edgeTarget[edge])
                    if next[child] == 0 { nextLevel.append(Int32(child)) }
                    add(&next[child], count)
                    // An `anywhere` row the model expanded has no entry in the declared table: it counts for its state only.
                    let row = Int(edgeRow[edge])
                    if counts.perRow.indices.contains(row) { add(&counts.perRow[row], count) }
                    add(&counts.perState[Int(configurations[child].state)], count)
                    add(&counts.total, count)
                }
            }
            for parent in level { ways[Int(parent)] = 0 }
            swap(&ways, &next)
            level = nextLevel
            progress?(height)
        }
        counts.saturated = saturated
        return counts
    }
}
