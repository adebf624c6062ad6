import AuthFlow
import Dispatch
import Foundation

/// Splits the runtime walk between threads, each driving its own runtime, with the single-threaded walk's exact results.
///
/// The stack trees of every variant are cut at one prefix depth `p`, chosen from the model so that
/// there are a few dozen subtrees per worker. One task walks every variant's stacks of fewer than `p`
/// events exactly as ``RuntimeExplorer/explore(_:depth:timeout:)`` would with depth `p - 1`; every
/// stack of exactly `p` events (a variant and the move ordinals from its root, over the moves the
/// walk takes) roots one more task, which starts its runtime in the variant, replays the stack's
/// first `p - 1` moves (as the walk's resynchronisation does), pushes the last one with every check,
/// walks the subtree below it to the full depth and undoes it. Workers take tasks from a shared
/// queue, each with a runtime and one ``Walk`` (so one ``FrameTable``) of its own.
///
/// Every stack is visited by exactly one task, with the same checks in the same order as in the
/// single-threaded walk, so the `stacks` count is the same, and so is every site's violation:
/// the resets of a configuration are driven at one stack fixed by the model (``ResetStacks``),
/// whoever walks it; each task keeps its sites' first occurrences in breadth-first order (path
/// length, then variant, then moves in the semantics' order), and merging keeps the least, which
/// is the one the single-threaded walk keeps. This needs a runtime whose behaviour depends on its
/// current stack only (not on what it did before it was reset), as the resynchronisation of the
/// single-threaded walk already does.
///
/// ```swift
/// let walk = ParallelExplorer(model: model, workers: 2).explore(depth: 24)
/// walk.stacks == RuntimeExplorer(model: model).countStacks(depth: 24)   // true
/// ```
///
/// - Complexity: O(S · m / workers) time for S stacks, plus the replays (O(p) per task);
///   O(depth) memory per worker plus the task list.
package struct ParallelExplorer: Sendable {
    /// The single-threaded explorer whose results this one reproduces.
    package let explorer: RuntimeExplorer
    /// How many threads walk at once.
    package let workers: Int
    /// How many tasks to aim for per worker (more balances better; each costs a replay).
    package var tasksPerWorker = 32

    /// An explorer of `model` with `workers` threads (at least one).
    package init(model: FlowModel, workers: Int, analysis: FlowAnalysis? = nil) {
        self.explorer = RuntimeExplorer(model: model, analysis: analysis)
        self.workers = max(1, workers)
    }

    /// Walks every stack of at most `depth` events, each worker driving a fresh ``FlowSession`` built from the model.
    package func explore(depth: Int, timeout: Double? = nil) -> RuntimeExploration {
        let model = explorer.model
        return explore(depth: depth, timeout: timeout) { SessionDriver(model: model) }
    }

    /// Walks every stack of at most `depth` events, each worker driving the runtime `makeDriver()` returns.
    ///
    /// - Parameters:
    ///   - depth: the bound on forward events.
    ///   - timeout: wall-clock seconds after which every worker stops (verdict incomplete).
    ///   - makeDriver: called once per worker, on that worker's thread; each runtime must be at its root.
    /// - Returns: the same stacks count and violations as the single-threaded walk.
    package func explore<Driver: FlowDriver & SendableMetatype>(depth: Int, timeout: Double? = nil,
                                                               makeDriver: @escaping @Sendable () -> Driver) -> RuntimeExploration {
        if Driver.self == SessionDriver.self {
            // Specialise the walk for the real runtime, whatever type the caller knew it by.
            return run(depth: depth, timeout: timeout) { makeDriver() as! SessionDriver }
        }
        return run(depth: depth, timeout: timeout, makeDriver: makeDriver)
    }

    /// What the workers share: the task queue, the merged results, and the limits.
    final class Shared: @unchecked Sendable {
        let lock = NSLock()
        let taskCount: Int
        var next = 0
        var stacks = 0
        var sites: [Site: FoundViolation] = [:]
        var stoppedBy: StopReason?
        var counted = 0
        var stop = false
        let deadline: Date?
        let progress: CheckProgress?

        init(taskCount: Int, deadline: Date?, progress: CheckProgress?) {
            self.taskCount = taskCount
            self.deadline = deadline
            self.progress = progress
        }

        /// The index of the next task, or nil when none is left or the run is stopping.
        func take() -> Int? {
            lock.withLock {
                guard !stop, next < taskCount else { return nil }
                next += 1
                return next - 1
            }
        }

        /// Adds `count` stacks to the progress; returns whether every worker should stop.
        func tick(_ count: Int, depth: Int) -> Bool {
            let total: Int
            let stopping: Bool
            (total, stopping) = lock.withLock {
                counted += count
                if !stop, let deadline, Date() > deadline { stop = true }
                return (counted, stop)
            }
            progress?.update(.stacks, count: total, depth: depth)
            return stopping
        }

        /// Merges one finished walk: its stacks, why it stopped, and each site's first occurrence.
        func merge<Driver>(_ walk: Walk<Driver>) {
            lock.withLock {
                stacks += walk.stacks
                if let reason = walk.stoppedBy {
                    stoppedBy = stoppedBy ?? reason
                    stop = true
                }
                for (site, found) in walk.sites {
                    if let existing = sites[site], !found.order.lexicographicallyPrecedes(existing.order) { continue }
                    sites[site] = found
                }
            }
        }
    }
}
