import AuthFlow
import Dispatch
import Foundation

/// Splits the runtime walk between threads, each driving its own runtime, with the single-threaded walk's exact results.
///
/// The stack tree is cut at a small prefix depth `p`, chosen from the model so that there are a
/// few dozen subtrees per worker. One task walks every stack of fewer than `p` events exactly as
/// ``RuntimeExplorer/explore(_:depth:timeout:)`` would with depth `p - 1`; every stack of exactly
/// `p` events roots one more task, which resets its runtime, replays the stack's first `p - 1`
/// events (as the walk's resynchronisation does), pushes the last one with every check, walks the
/// subtree below it to the full depth and undoes it. Workers take tasks from a shared queue, each
/// with a runtime of its own.
///
/// Every stack is visited by exactly one task, with the same checks in the same order as in the
/// single-threaded walk, so the `stacks` count is the same, and so is every site's violation:
/// each task keeps its sites' first occurrences in breadth-first order (path length, then moves in
/// declaration order), and merging keeps the least, which is the one the single-threaded walk keeps.
/// This needs a runtime whose behaviour depends on its current stack only (not on what it did
/// before it was reset), as the resynchronisation of the single-threaded walk already does.
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
    package init(model: FlowModel, workers: Int) {
        self.explorer = RuntimeExplorer(model: model)
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
        // A flow whose moves depend on the data (authflow/2) is split over its variants' frames (``runFrames``).
        guard explorer.model.isStatic else {
            if Driver.self == SessionDriver.self {
                return runFrames(depth: depth, timeout: timeout) { makeDriver() as! SessionDriver }
            }
            return runFrames(depth: depth, timeout: timeout, makeDriver: makeDriver)
        }
        if Driver.self == SessionDriver.self {
            // Specialise the walk for the real runtime, whatever type the caller knew it by.
            return run(depth: depth, timeout: timeout) { makeDriver() as! SessionDriver }
        }
        return run(depth: depth, timeout: timeout, makeDriver: makeDriver)
    }

    /// One unit of work: the stacks of fewer than `p` events (`path` empty), or the subtree below `path`.
    struct Task: Sendable {
        var path: [Int]
    }

    /// The prefix depth and the tasks: the top of the tree, then one subtree per stack of exactly `p` events.
    func tasks(depth: Int) -> (prefix: Int, tasks: [Task]) {
        let table = explorer.table
        let target = workers * max(1, tasksPerWorker)
        struct Stub { var state: Int32; var keys: UInt64; var path: [Int] }
        var frontier = [Stub(state: explorer.model.initial.rawValue, keys: 0, path: [])]
        var prefix = 0
        while prefix < depth && (prefix == 0 || frontier.count < target) {
            var next: [Stub] = []
            for stub in frontier {
                for m in table.moves(of: Int(stub.state)) where table.target[m] >= 0 && !table.isDuplicate(m, keys: stub.keys) {
                    next.append(Stub(state: table.target[m], keys: stub.keys | table.adds[m], path: stub.path + [m]))
                }
            }
            prefix += 1
            frontier = next
            if frontier.isEmpty { break }
        }
        return (prefix, [Task(path: [])] + frontier.map { Task(path: $0.path) })
    }

    /// What the workers share: the task queue, the merged results, and the limits.
    final class Shared: @unchecked Sendable {
        let lock = NSLock()
        let tasks: [Task]
        var next = 0
        var stacks = 0
        var sites: [Site: FoundViolation] = [:]
        var stoppedBy: StopReason?
        var counted = 0
        var stop = false
        let deadline: Date?
        let progress: CheckProgress?

        init(tasks: [Task], deadline: Date?, progress: CheckProgress?) {
            self.tasks = tasks
            self.deadline = deadline
            self.progress = progress
        }

        /// The next task, or nil when none is left or the run is stopping.
        func take() -> Task? {
            lock.withLock {
                guard !stop, next < tasks.count else { return nil }
                next += 1
                return tasks[next - 1]
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

        /// Merges one finished walk, static or over frames: its stacks, why it stopped, and each site's first occurrence.
        func merge(_ walk: some WalkFindings) {
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

    func run<Driver: FlowDriver & SendableMetatype>(depth: Int, timeout: Double?,
                                                    makeDriver: @escaping @Sendable () -> Driver) -> RuntimeExploration {
        let depth = max(0, depth)
        if workers == 1 || depth == 0 {
            return explorer.explore(makeDriver(), depth: depth, timeout: timeout)
        }
        let (prefix, tasks) = self.tasks(depth: depth)
        let shared = Shared(tasks: tasks, deadline: timeout.map { Date().addingTimeInterval($0) },
                            progress: CheckProgress.current)
        let explorer = self.explorer
        DispatchQueue.concurrentPerform(iterations: min(workers, tasks.count)) { _ in
            let driver = makeDriver()
            while let task = shared.take() {
                var walk = Walk(explorer: explorer, driver: driver, depth: task.path.isEmpty ? prefix - 1 : depth,
                                deadline: nil, timeout: timeout)
                walk.monitor = { [unowned shared] count in shared.tick(count, depth: task.path.count) }
                if task.path.isEmpty {
                    walk.runAll()
                } else {
                    walk.runSubtree(path: task.path)
                }
                shared.merge(walk)
            }
        }
        return RuntimeExploration(violations: Walk<Driver>.ordered(Array(shared.sites.values)), stacks: shared.stacks,
                                  depth: depth, stoppedBy: shared.stoppedBy ?? (shared.stop ? timeout.map { .timeout(seconds: $0) } : nil))
    }
}
