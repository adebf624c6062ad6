import AuthFlow
import Dispatch
import Foundation

/// The walk over frames (`authflow/2`) split between threads, as the static walk is: the same stacks, the same findings.
///
/// The stack trees of every variant are cut at one prefix depth `p`, chosen so that there are a few
/// dozen subtrees per worker. One task walks every variant's stacks of fewer than `p` events; every
/// stack of exactly `p` events (a variant and the move ordinals from its root, over the moves the
/// walk takes) roots one more, which starts its runtime in the variant, replays the stack's first
/// `p - 1` moves, pushes the last with every check, walks below it and undoes it. Each worker keeps
/// one ``FrameWalk`` (and so one ``FrameTable``) for all the subtrees it takes.
///
/// Every stack is visited by exactly one task with the single-threaded walk's checks; the resets of
/// a configuration are driven at one stack fixed by the model (``ResetStacks``), whoever walks it;
/// each task keeps its sites' first occurrences in breadth-first order and merging keeps the least.
extension ParallelExplorer {
    /// One unit of work over frames: every variant's stacks of fewer than `p` events (`path` empty), or the subtree below `path` in `variant`.
    struct FrameTask: Sendable {
        var variant: Int
        var path: [Int32]
    }

    /// The prefix depth and the tasks: the top of every variant's tree, then one subtree per stack of exactly `p` events.
    func frameTasks(depth: Int) -> (prefix: Int, tasks: [FrameTask]) {
        let model = explorer.model
        let target = workers * max(1, tasksPerWorker)
        var table = FrameTable(model: model, depth: depth, capacity: Int(Int32.max))
        struct Stub { var variant: Int; var config: Int32; var path: [Int32] }
        var frontier = model.roots.enumerated().map { variant, root in
            Stub(variant: variant, config: table.intern(Configuration(state: model.initial.rawValue, keys: root.keys, values: root.values)), path: [])
        }
        var prefix = 0
        while prefix < depth && (prefix == 0 || frontier.count < target) {
            var next: [Stub] = []
            for stub in frontier {
                table.expand(stub.config, of: model)
                let entry = table.entries[Int(stub.config)]
                for m in Int(entry.moveStart)..<Int(entry.moveEnd) where table.moves[m].walked {
                    next.append(Stub(variant: stub.variant, config: table.moves[m].target, path: stub.path + [Int32(m) - entry.moveStart]))
                }
            }
            prefix += 1
            frontier = next
            if frontier.isEmpty { break }
        }
        return (prefix, [FrameTask(variant: -1, path: [])] + frontier.map { FrameTask(variant: $0.variant, path: $0.path) })
    }

    /// Walks a flow whose moves depend on its data with `workers` threads, each driving the runtime `makeDriver()` returns.
    func runFrames<Driver: FlowDriver & SendableMetatype>(depth: Int, timeout: Double?,
                                                          makeDriver: @escaping @Sendable () -> Driver) -> RuntimeExploration {
        let depth = max(0, depth)
        let model = explorer.model
        let traits = explorer.traits
        if workers == 1 || depth == 0 {
            return explorer.explore(makeDriver(), depth: depth, timeout: timeout)
        }
        let (prefix, tasks) = frameTasks(depth: depth)
        let resets = ResetStacks(model: model, depth: depth)
        let shared = Shared(tasks: tasks.map { Task(path: $0.path.map(Int.init)) }, deadline: timeout.map { Date().addingTimeInterval($0) },
                            progress: CheckProgress.current)
        let frameTasks = tasks
        DispatchQueue.concurrentPerform(iterations: min(workers, tasks.count)) { _ in
            let driver = makeDriver()
            var subtrees: FrameWalk<Driver>?
            while let index = shared.takeIndex() {
                let task = frameTasks[index]
                if task.path.isEmpty {
                    var walk = FrameWalk(model: model, driver: driver, traits: traits, depth: prefix - 1, deadline: nil, timeout: timeout,
                                         resetStacks: resets, start: { driver.start(variant: $0) })
                    walk.monitor = { [unowned shared] count in shared.tick(count, depth: prefix - 1) }
                    walk.runAll()
                    shared.merge(walk)
                } else {
                    if subtrees == nil {
                        subtrees = FrameWalk(model: model, driver: driver, traits: traits, depth: depth, deadline: nil, timeout: timeout,
                                             resetStacks: resets, start: { driver.start(variant: $0) })
                        subtrees?.monitor = { [unowned shared] count in shared.tick(count, depth: depth) }
                    }
                    subtrees?.runSubtree(variant: task.variant, path: task.path)
                    if subtrees?.stoppedBy != nil { break }
                }
            }
            if let subtrees { shared.merge(subtrees) }
        }
        return RuntimeExploration(violations: Walk<Driver>.ordered(Array(shared.sites.values)), stacks: shared.stacks,
                                  depth: depth, stoppedBy: shared.stoppedBy ?? (shared.stop ? timeout.map { .timeout(seconds: $0) } : nil))
    }
}

extension ParallelExplorer.Shared {
    /// The index of the next task, or nil when none is left or the run is stopping.
    func takeIndex() -> Int? {
        lock.withLock {
            guard !stop, next < tasks.count else { return nil }
            next += 1
            return next - 1
        }
    }
}
