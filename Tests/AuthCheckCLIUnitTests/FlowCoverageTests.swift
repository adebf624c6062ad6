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
            #expect(coverage.transitions.map(\.stacks).reduce(0, +) == coverage.stacks - 1, "depth \(depth)")
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
    }

    static func walk(_ model: FlowModel, depth: Int) -> (byState: [Int], byRow: [Int], total: Int) {
        var byState = [Int](repeating: 0, count: model.stateCount)
        var byRow = [Int](repeating: 0, count: model.rows.count)
        var total = 0
        func visit(_ frame: Frame, _ remaining: Int) {
            total += 1
            byState[frame.state] += 1
            guard remaining > 0 else { return }
            var children: [Frame] = []
            for move in model.moves[frame.state] {
                guard let target = move.target else { continue }
                let child = Frame(state: target.index, keys: frame.keys | move.adds.bits)
                if children.contains(child) { continue }
                children.append(child)
                let row = model.rows.firstIndex { $0.from.index == frame.state && $0.event == move.event }!
                byRow[row] += 1
                visit(child, remaining - 1)
            }
        }
        visit(Frame(state: model.initial.index, keys: 0), depth)
        return (byState, byRow, total)
    }
}
