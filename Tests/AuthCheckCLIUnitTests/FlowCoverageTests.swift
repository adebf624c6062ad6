import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Testing

/// The coverage counts agree with the checker's counts, and with a brute-force walk over every stack.
@Suite struct FlowCoverageTests {
    static let specs = Fixture.realSpecs + ["illegal-transition", "unmet-requirement", "deadlock", "no-exit", "terminal-exit",
                                            "secrets", "legacy", "odd-names", "siblings"].map(Fixture.spec)

    static func load(_ path: String) throws -> FlowModel {
        try SpecLoader.load(file: Fixture.url(path).path)
    }

    @Test(arguments: specs)
    func countsAddUpAndAgreeWithTheChecker(_ path: String) throws {
        let model = try Self.load(path)
        let verification = ModelChecker.verify(model)
        for depth in [0, 1, 2, 3, 7, 12] {
            let coverage = FlowCoverage.compute(model, depth: depth)
            // Given the per-state and per-transition counts, then they partition the totals.
            #expect(coverage.states.map(\.stacks).reduce(0, +) == coverage.stacks, "depth \(depth)")
            // Every stack but a root (one per variant) is pushed by one transition.
            #expect(coverage.transitions.map(\.stacks).reduce(0, +) == coverage.stacks - model.roots.count, "depth \(depth)")
            #expect(coverage.states.map(\.configurations).reduce(0, +) == coverage.configurations)
            // And the totals are the checker's: the stacks its runtime walk drives, the configurations it finds.
            #expect(coverage.stacks == RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: depth).stacks,
                    "depth \(depth)")
            #expect(coverage.configurations == verification.configurations)
            #expect(coverage.states.filter(\.reachable).count == verification.states)
            #expect(coverage.states.filter { !$0.reachable }.map(\.name) == verification.lint.unreachable)
            #expect(coverage.transitions.filter { !$0.fired }.map(\.id) == verification.lint.deadTransitions)
            #expect(coverage.stoppedBy == nil && !coverage.saturated)
        }
    }

    @Test(arguments: specs)
    func perStateAndPerTransitionCountsMatchABruteForceWalk(_ path: String) throws {
        let model = try Self.load(path)
        for depth in [0, 1, 4, 12] {
            let coverage = FlowCoverage.compute(model, depth: depth)
            let brute = BruteForce.walk(model, depth: depth)
            #expect(coverage.states.map(\.stacks) == brute.byState, "depth \(depth)")
            #expect(coverage.transitions.map(\.stacks) == brute.byRow, "depth \(depth)")
            #expect(coverage.stacks == brute.total, "depth \(depth)")
        }
    }

    @Test func theStackTotalIsTheOneCheckReports() throws {
        for path in Fixture.realSpecs {
            let model = try Self.load(path)
            let report = FlowChecker.check(model, source: path)
            #expect(FlowCoverage.compute(model, depth: report.stats.depth).stacks == report.stats.stacks, "\(path)")
        }
    }

    @Test func countsSaturateInsteadOfOverflowing() throws {
        // Two screens that each lead to both: 3^64 stacks at depth 64, far past Int.max.
        let model = try SpecLoader.load(json: """
            { "format": "authflow/1", "initial": "a", "success": ["done"], "abort": [],
              "steps": { "a": { "emits": { "toA": [], "toB": [], "finish": [] } },
                         "b": { "emits": { "toA": [], "toB": [], "finish": [] } }, "done": {} },
              "transitions": [ { "from": "a", "on": "toA", "to": "a" }, { "from": "a", "on": "toB", "to": "b" },
                               { "from": "a", "on": "finish", "to": "done" }, { "from": "b", "on": "toA", "to": "a" },
                               { "from": "b", "on": "toB", "to": "b" }, { "from": "b", "on": "finish", "to": "done" } ] }
            """)
        let coverage = FlowCoverage.compute(model, depth: 64)
        #expect(coverage.saturated)
        #expect(coverage.stacks == Int.max)
        #expect(FlowCoverage.compute(model, depth: 10).saturated == false)
    }

    @Test func aConfigurationLimitStopsTheCount() throws {
        let model = try Self.load(Fixture.emailFirst)
        let coverage = FlowCoverage.compute(model, depth: 12, limits: CheckLimits(maxConfigurations: 5))
        #expect(coverage.stoppedBy == .maxConfigurations(5))
        #expect(coverage.configurations == 5)
        #expect(coverage.states.map(\.stacks).reduce(0, +) == coverage.stacks)
    }
}

/// Enumerates every stack one by one, deduplicating siblings that push the same frame as the runtime walk does.
enum BruteForce {
    struct Frame: Hashable {
        var state: Int
        var keys: UInt64
        var values: UInt64 = 0
    }

    /// Every stack of at most `depth` events from every root, walked one by one; a `/1` flow by its
    /// table, an `authflow/2` flow by the successor function (a reset lands on a root: no new stack).
    static func walk(_ model: FlowModel, depth: Int) -> (byState: [Int], byRow: [Int], total: Int) {
        // Section 5: two paths can build the same history; the whole histories are kept and counted once each.
        if model.stacksAreHistories {
            let counts = HistoryCount.count(model, depth: depth)
            return (counts.byState, counts.byRow, counts.total)
        }
        var byState = [Int](repeating: 0, count: model.stateCount)
        var byRow = [Int](repeating: 0, count: model.rows.count)
        var total = 0
        var successors: [FlowModel.Successor] = []
        func visit(_ frame: Frame, _ remaining: Int) {
            total += 1
            byState[frame.state] += 1
            guard remaining > 0 else { return }
            var children: [(frame: Frame, row: Int)] = []
            if model.isStatic {
                for move in model.moves[frame.state] {
                    guard let target = move.target else { continue }
                    let row = model.rows.firstIndex { $0.from.index == frame.state && $0.event == move.event }!
                    children.append((Frame(state: target.index, keys: frame.keys | move.adds.bits), row))
                }
            } else {
                model.successors(state: frame.state, keys: frame.keys, values: frame.values, into: &successors)
                for successor in successors {
                    guard case let .push(target, keys, values) = successor.outcome else { continue }
                    children.append((Frame(state: target.index, keys: keys, values: values), successor.row))
                }
            }
            var pushed: [Frame] = []
            for (child, row) in children {
                if pushed.contains(child) { continue }
                pushed.append(child)
                byRow[row] += 1
                visit(child, remaining - 1)
            }
        }
        for root in model.roots { visit(Frame(state: model.initial.index, keys: root.keys, values: root.values), depth) }
        return (byState, byRow, total)
    }
}
