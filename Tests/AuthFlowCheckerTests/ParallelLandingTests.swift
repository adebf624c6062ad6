import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The parallel walk of flows whose resets land on a configuration that is not the variant's root (section 5: the
/// server keeps its data, or the row keeps keys): the stacks above such a landing are split between tasks like any
/// others, and the results are the single-threaded walk's.
@Suite struct ParallelLandingTests {
    /// Refuses `e1` once a reset has happened and the runtime is above its landing: a fault only the stacks above a
    /// landing show.
    final class RefusesAfterReset: ForwardingDriver {
        var reset = false
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            if reset && real.height >= 2 && model.events[event.index] == "e1" { return false }
            let before = real.height
            let accepted = real.send(event, value: value)
            if accepted && real.height == 1 && before >= 2 && real.state == model.initial { reset = true }
            return accepted
        }
        override func start(variant: Int) -> Bool {
            reset = false
            return real.start(variant: variant)
        }
    }

    /// Random section-5 flows (``Section5OracleTests/randomFlow(seed:)``) with landings of their own.
    static let seeds: [UInt64] = (0..<60).map(UInt64.init).filter { seed in
        guard let model = try? SpecLoader.load(json: Section5OracleTests.randomFlow(seed: seed)) else { return false }
        return !ResetStacks(model: model, depth: 6).landings.isEmpty
    }

    @Test func someRandomFlowsHaveLandings() {
        #expect(Self.seeds.count >= 5, "\(Self.seeds)")
    }

    @Test(arguments: seeds.prefix(12))
    func sameStacksAndCounterexamplesAsTheSingleThreadedWalk(seed: UInt64) throws {
        let model = try SpecLoader.load(json: Section5OracleTests.randomFlow(seed: seed))
        for depth in [4, 6] {
            let single = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: depth)
            let broken = RuntimeExplorer(model: model).explore(RefusesAfterReset(model: model), depth: depth)
            for (workers, perWorker) in [(2, 32), (2, 1), (3, 200)] {
                var explorer = ParallelExplorer(model: model, workers: workers)
                explorer.tasksPerWorker = perWorker
                let label = "seed \(seed), depth \(depth), \(workers) workers × \(perWorker)"
                let parallel = explorer.explore(depth: depth)
                #expect(parallel.stacks == single.stacks, "\(label)")
                #expect(parallel.violations == single.violations, "\(label)")
                let parallelBroken = explorer.explore(depth: depth) { RefusesAfterReset(model: model) }
                #expect(parallelBroken.violations == broken.violations, "\(label): \(parallelBroken.violations.map(\.message))")
            }
        }
    }

    /// The tasks go through landings: a path holds the reset's ordinal where the walk's node for the landing does.
    @Test func theTasksFollowTheResetsTheWalkWalksOnFrom() throws {
        var found = false
        for seed in Self.seeds {
            let model = try SpecLoader.load(json: Section5OracleTests.randomFlow(seed: seed))
            let resets = ResetStacks(model: model, depth: 6)
            var explorer = ParallelExplorer(model: model, workers: 2)
            explorer.tasksPerWorker = 500
            let (_, tasks) = explorer.tasks(depth: 6, resets: resets)
            var table = FrameTable(model: model, depth: 6)
            for task in tasks.dropFirst() {
                var config = table.intern(Configuration(state: model.initial.rawValue, keys: model.roots[task.variant].keys,
                                                        values: model.roots[task.variant].values))
                for via in task.path {
                    table.expand(config)
                    let move = table.moves[Int(table.entries[Int(config)].moveStart + via)]
                    if move.target == FrameTable.reset {
                        found = true
                        config = move.landing
                    } else {
                        config = move.target
                    }
                }
            }
        }
        #expect(found)
    }

    /// A fault above a landing is caught by the parallel walk too (it was walked by one worker before).
    @Test func aFaultAboveALandingIsCaught() throws {
        for seed in Self.seeds.prefix(12) {
            let model = try SpecLoader.load(json: Section5OracleTests.randomFlow(seed: seed))
            let broken = RuntimeExplorer(model: model).explore(RefusesAfterReset(model: model), depth: 6)
            guard !broken.violations.isEmpty else { continue }
            let parallel = ParallelExplorer(model: model, workers: 2).explore(depth: 6) { RefusesAfterReset(model: model) }
            #expect(!parallel.violations.isEmpty, "seed \(seed)")
        }
    }
}
