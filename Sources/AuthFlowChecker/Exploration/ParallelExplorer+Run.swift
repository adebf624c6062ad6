import AuthFlow
import Dispatch
import Foundation

/// The tasks of a parallel walk and the workers that take them.
extension ParallelExplorer {
    /// One unit of work (its ``Kind``).
    struct Task: Sendable {
        enum Kind: Sendable {
            /// Every variant's stacks of fewer than `p` events.
            case top
            /// The subtree below `path` in `variant`.
            case subtree
            /// The count of a flow whose stacks are histories (``FlowModel/stacksAreHistories``), on the model alone: one
            /// task among the walk's, so it runs beside them.
            case count
        }
        var kind: Kind
        var variant: Int
        var path: [Int32]

        static let top = Task(kind: .top, variant: -1, path: [])
        static let count = Task(kind: .count, variant: -1, path: [])
    }

    /// The prefix depth and the tasks: the top of every variant's tree, then one subtree per stack of exactly `p` events.
    ///
    /// A stack may go through a reset landing the walk walks on from (``ResetStacks``): the path then holds the reset's
    /// ordinal, from the one stack where the reset is driven, as the walk's node for the landing does.
    func tasks(depth: Int, resets: ResetStacks) -> (prefix: Int, tasks: [Task]) {
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
                table.expand(stub.config)
                let entry = table.entries[Int(stub.config)]
                let drivesResets = !resets.landings.isEmpty && entry.facts.contains(.resets)
                    && resets.drivesResets(entry.configuration, variant: stub.variant, path: stub.path)
                for m in Int(entry.moveStart)..<Int(entry.moveEnd) {
                    let move = table.moves[m], ordinal = Int32(m) - entry.moveStart
                    if move.walked {
                        next.append(Stub(variant: stub.variant, config: move.target, path: stub.path + [ordinal]))
                    } else if drivesResets && move.target == FrameTable.reset && move.landing >= 0
                                && resets.walksOn(from: entry.configuration, ordinal: ordinal, landing: table.entries[Int(move.landing)].configuration,
                                                  variant: stub.variant) {
                        next.append(Stub(variant: stub.variant, config: move.landing, path: stub.path + [ordinal]))
                    }
                }
            }
            prefix += 1
            frontier = next
            if frontier.isEmpty { break }
        }
        return (prefix, [Task.top] + frontier.map { Task(kind: .subtree, variant: $0.variant, path: $0.path) })
    }

    /// Walks the flow with `workers` threads, each driving the runtime `makeDriver()` returns.
    func run<Driver: FlowDriver & SendableMetatype>(depth: Int, timeout: Double?,
                                                          makeDriver: @escaping @Sendable () -> Driver) -> RuntimeExploration {
        let depth = max(0, depth)
        let model = explorer.model
        let traits = explorer.traits
        guard workers > 1 && depth > 0 else { return explorer.explore(makeDriver(), depth: depth, timeout: timeout) }
        let resets = ResetStacks(model: model, depth: depth, workers: workers)
        let (prefix, walks) = self.tasks(depth: depth, resets: resets)
        let counts = model.stacksAreHistories
        let tasks = counts ? [Task.count] + walks : walks
        let histories = Counted(), started = Date()
        let shared = Shared(taskCount: tasks.count, deadline: timeout.map { Date().addingTimeInterval($0) },
                            progress: CheckProgress.current)
        DispatchQueue.concurrentPerform(iterations: min(workers, tasks.count)) { _ in
            let driver = makeDriver()
            var subtrees: Walk<Driver>?
            taking: while let index = shared.take() {
                let task = tasks[index]
                switch task.kind {
                case .count:
                    histories.value = explorer.countHistories(depth: depth, timeout: timeout, start: started)
                case .top:
                    var walk = Walk(model: model, driver: driver, traits: traits, depth: prefix - 1, deadline: nil, timeout: timeout,
                                         resetStacks: resets, start: { driver.start(variant: $0) })
                    walk.monitor = { [unowned shared] count in shared.tick(count, depth: prefix - 1) }
                    walk.runAll()
                    shared.merge(walk)
                case .subtree:
                    if subtrees == nil {
                        subtrees = Walk(model: model, driver: driver, traits: traits, depth: depth, deadline: nil, timeout: timeout,
                                             resetStacks: resets, start: { driver.start(variant: $0) })
                        subtrees?.monitor = { [unowned shared] count in shared.tick(count, depth: depth) }
                    }
                    subtrees?.runSubtree(variant: task.variant, path: task.path)
                    if subtrees?.stoppedBy != nil { break taking }
                }
            }
            if let subtrees { shared.merge(subtrees) }
        }
        return explorer.counted(RuntimeExploration(violations: Walk<Driver>.ordered(Array(shared.sites.values)), stacks: shared.stacks,
                                  depth: depth, stoppedBy: shared.stoppedBy ?? (shared.stop ? timeout.map { .timeout(seconds: $0) } : nil)),
                                histories: histories.value)
    }

    /// The count the count task leaves, read after every worker is done.
    final class Counted: @unchecked Sendable {
        var value: Int?
    }
}
