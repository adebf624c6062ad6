import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The walk over frames (`authflow/2`) split between threads: every worker drives a runtime, and the
/// results are the single-threaded walk's exactly, on the real runtime and on broken ones.
@Suite struct ParallelWalkTests {
    static func model() throws -> FlowModel { try Version2Tests.load(Version2Tests.fixture()) }

    /// Counts the runtimes the explorer asks for.
    final class Made: @unchecked Sendable {
        let lock = NSLock()
        var count = 0
        func add() { lock.withLock { count += 1 } }
    }

    @Test func everyWorkerDrivesARuntimeOfItsOwn() throws {
        let model = try Self.model()
        let made = Made()
        let walk = ParallelExplorer(model: model, workers: 2).explore(depth: 8) { () -> SessionDriver in
            made.add()
            return SessionDriver(model: model)
        }
        #expect(made.count == 2)
        #expect(walk.stacks == RuntimeExplorer(model: model).countStacks(depth: 8))
        #expect(walk.violations.isEmpty)
    }

    /// Signing out keeps the history, but only from deep in the flow: whether it is caught, and where,
    /// depends on the stack at which the walk drives each configuration's resets.
    final class DeepSignOutKeepsHistory: ForwardingDriver {
        var extra = 0
        override var height: Int { real.height + extra }
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            let deep = real.height >= 4
            let accepted = real.send(event, value: value)
            if accepted && deep && event == model.event(named: "signOut") { extra += 3 }
            return accepted
        }
        override func undo() -> Bool { real.undo() }
        override func reset() { extra = 0; real.reset() }
        override func start(variant: Int) -> Bool { extra = 0; return real.start(variant: variant) }
    }

    typealias Make = @Sendable (FlowModel) -> ForwardingDriver
    static let broken: [(String, Make)] = [
        ("ignores the backend's answer", { Version2WalkTests.AlwaysDone(model: $0) }),
        ("ignores clears", { Version2WalkTests.KeepsEmail(model: $0) }),
        ("sign-out keeps history", { Version2WalkTests.SignOutKeepsHistory(model: $0) }),
        ("deep sign-out keeps history", { DeepSignOutKeepsHistory(model: $0) }),
    ]

    @Test(arguments: 0..<broken.count)
    func sameCountAndCounterexamplesAsTheSingleThreadedWalk(_ index: Int) throws {
        let (label, make) = Self.broken[index]
        let model = try Self.model()
        let single = RuntimeExplorer(model: model).explore(make(model), depth: 7)
        #expect(!single.violations.isEmpty, "\(label): the fault must be caught at all")
        for (workers, perWorker) in [(2, 32), (2, 1), (3, 500)] {
            var explorer = ParallelExplorer(model: model, workers: workers)
            explorer.tasksPerWorker = perWorker
            let parallel = explorer.explore(depth: 7) { make(model) }
            #expect(parallel.stacks == single.stacks, "\(label), \(workers) workers × \(perWorker)")
            #expect(parallel.violations == single.violations, "\(label), \(workers) workers × \(perWorker)")
        }
    }

    @Test func everyStackOfEveryVariantBelongsToExactlyOneTask() throws {
        let model = try Self.model()
        for workers in [1, 2, 8] {
            let explorer = ParallelExplorer(model: model, workers: workers)
            for depth in [1, 3, 6] {
                let (prefix, tasks) = explorer.tasks(depth: depth, resets: ResetStacks(model: model, depth: depth))
                #expect((1...depth).contains(prefix))
                #expect(tasks.first?.path == [])
                #expect(tasks.dropFirst().allSatisfy { $0.path.count == prefix })
                let top = RuntimeExplorer(model: model).countStacks(depth: prefix - 1)
                #expect(tasks.count - 1 == RuntimeExplorer(model: model).countStacks(depth: prefix) - top)
                #expect(explorer.explore(depth: depth).stacks == RuntimeExplorer(model: model).countStacks(depth: depth))
            }
        }
    }

    @Test func resetsAreDrivenAtTheShortestStackThatReachesTheirConfiguration() throws {
        let model = try Self.model()
        let resets = ResetStacks(model: model, depth: 6)
        #expect(!resets.paths.isEmpty)
        // Each is the first in breadth-first order: no stack of the configuration graph is shorter.
        let graph = ConfigurationGraph(model: model, limits: CheckLimits(depth: 6, maxConfigurations: .max))
        for (configuration, found) in resets.paths {
            let index = try #require(graph.index[configuration])
            var length = 0, i = Int(index)
            while graph.parent[i] >= 0 { i = Int(graph.parent[i]); length += 1 }
            #expect(found.path.count == length, "\(configuration)")
        }
    }

    /// The heights at which the runtime was signed out (signOut is the fixture's only reset, and never a move the walk takes).
    final class ResetLog: @unchecked Sendable {
        let lock = NSLock()
        var heights: [Int] = []
        func add(_ height: Int) { lock.withLock { heights.append(height) } }
    }

    final class LogsResets: ForwardingDriver {
        let log: ResetLog
        init(model: FlowModel, log: ResetLog) {
            self.log = log
            super.init(model: model)
        }
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            let height = real.height
            let accepted = real.send(event, value: value)
            if accepted && event == model.event(named: "signOut") { log.add(height) }
            return accepted
        }
    }

    @Test(arguments: [1, 2, 3])
    func eachConfigurationsResetsAreDrivenOnceAtItsShortestStack(_ workers: Int) throws {
        let model = try Self.model()
        let log = ResetLog()
        var explorer = ParallelExplorer(model: model, workers: workers)
        explorer.tasksPerWorker = 1
        _ = explorer.explore(depth: 7) { LogsResets(model: model, log: log) }
        let expected = ResetStacks(model: model, depth: 7).paths.values.map { $0.path.count + 1 }.sorted()
        #expect(!expected.isEmpty)
        #expect(log.heights.sorted() == expected)
    }

    @Test func anExpiredTimeoutStopsEveryWorkerAsIncomplete() throws {
        let model = try Self.model()
        let walk = ParallelExplorer(model: model, workers: 2).explore(depth: 12, timeout: 0)
        #expect(walk.stoppedBy == .timeout(seconds: 0))
        #expect(walk.stacks < RuntimeExplorer(model: model).countStacks(depth: 12))
    }
}
