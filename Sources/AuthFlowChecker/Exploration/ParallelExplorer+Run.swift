import AuthFlow
import Dispatch
import Foundation

/// The tasks of a parallel walk and the workers that take them.
extension ParallelExplorer {
    /// One unit of work: every variant's stacks of fewer than `p` events (`path` empty), or the subtree below `path` in `variant`.
    struct Task: Sendable {
        var variant: Int
        var path: [Int32]
    }

    /// The prefix depth and the tasks: the top of every variant's tree, then one subtree per stack of exactly `p` events.
    func tasks(depth: Int) -> (prefix: Int, tasks: [Task]) {
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
        return (prefix, [Task(variant: -1, path: [])] + frontier.map { Task(variant: $0.variant, path: $0.path) })
    }

    /// Walks the flow with `workers` threads, each driving the runtime `makeDriver()` returns.
    func run<Driver: FlowDriver & SendableMetatype>(depth: Int, timeout: Double?,
                                                          makeDriver: @escaping @Sendable () -> Driver) -> RuntimeExploration {
        let depth = max(0, depth)
        let model = explorer.model
        let traits = explorer.traits
        let resets = workers == 1 || depth == 0 ? nil : ResetStacks(model: model, depth: depth)
        // A reset landing the walk walks on from is walked within the whole depth by whoever drives its reset; the prefix's
        // walk has a bound of its own, so such a flow is walked by one worker (section 5's resets that keep data).
        guard let resets, resets.landings.isEmpty else {
            return explorer.explore(makeDriver(), depth: depth, timeout: timeout)
        }
        let (prefix, tasks) = self.tasks(depth: depth)
        let shared = Shared(taskCount: tasks.count, deadline: timeout.map { Date().addingTimeInterval($0) },
                            progress: CheckProgress.current)
        DispatchQueue.concurrentPerform(iterations: min(workers, tasks.count)) { _ in
            let driver = makeDriver()
            var subtrees: Walk<Driver>?
            while let index = shared.take() {
                let task = tasks[index]
                if task.path.isEmpty {
                    var walk = Walk(model: model, driver: driver, traits: traits, depth: prefix - 1, deadline: nil, timeout: timeout,
                                         resetStacks: resets, start: { driver.start(variant: $0) })
                    walk.monitor = { [unowned shared] count in shared.tick(count, depth: prefix - 1) }
                    walk.runAll()
                    shared.merge(walk)
                } else {
                    if subtrees == nil {
                        subtrees = Walk(model: model, driver: driver, traits: traits, depth: depth, deadline: nil, timeout: timeout,
                                             resetStacks: resets, start: { driver.start(variant: $0) })
                        subtrees?.monitor = { [unowned shared] count in shared.tick(count, depth: depth) }
                    }
                    subtrees?.runSubtree(variant: task.variant, path: task.path)
                    if subtrees?.stoppedBy != nil { break }
                }
            }
            if let subtrees { shared.merge(subtrees) }
        }
        return explorer.counted(RuntimeExploration(violations: Walk<Driver>.ordered(Array(shared.sites.values)), stacks: shared.stacks,
                                  depth: depth, stoppedBy: shared.stoppedBy ?? (shared.stop ? timeout.map { .timeout(seconds: $0) } : nil)))
    }
}
