import AuthFlow
@testable import AuthFlowChecker
import Testing

/// Covering paths take every transition the complete checker says fires, and enter every reachable state.
@Suite struct CoveringPathsTests {
    /// The rows a path takes, replaying its events on the spec's semantics from the start.
    static func rowsTaken(_ path: CoveringPaths.Path, model: FlowModel) throws -> [Int] {
        var frame = (state: model.initial.index, keys: model.roots[0].keys, values: model.roots[0].values)
        var rows: [Int] = []
        var successors: [FlowModel.Successor] = []
        for (i, name) in path.events.enumerated() {
            model.successors(state: frame.state, keys: frame.keys, values: frame.values, into: &successors)
            let move = try #require(successors.first { model.events[$0.event.index] == name && $0.row >= 0 }, "\(name) is not a move")
            guard case let .push(target, keys, values) = move.outcome else { Issue.record("\(name) does not push"); break }
            #expect(model.states[target.index] == path.states[i])
            rows.append(move.row)
            frame = (target.index, keys, values)
        }
        return rows
    }

    // The static specs: a tour of an authflow/2 flow crosses variants and resets, which `rowsTaken` does not replay;
    // Version2PathsTests replays those, with each step's chosen values.
    @Test(arguments: Files.staticSpecs + ["sso-detour", "mfa-bypass", "no-exit", "deep"].map(Files.broken))
    func theTourTakesEveryFiredTransition(_ spec: String) throws {
        let model = try Files.model(spec)
        let cover = CoveringPaths(model: model, target: .transitions)
        var taken = Set<Int>()
        for path in cover.paths { taken.formUnion(try Self.rowsTaken(path, model: model)) }
        let coverage = FlowCoverage.compute(model, depth: 0)
        let fired = Set(coverage.transitions.enumerated().filter(\.element.fired).map(\.offset))
        #expect(taken == fired, "\(spec): missed \(fired.subtracting(taken).map { coverage.transitions[$0].id })")
        #expect(cover.reachable == fired.count)
        #expect(cover.length >= cover.lowerBound)
    }

    @Test(arguments: Files.staticSpecs)
    func theStateTourEntersEveryReachableState(_ spec: String) throws {
        let model = try Files.model(spec)
        let cover = CoveringPaths(model: model, target: .states)
        let entered = Set(cover.paths.flatMap(\.states)).union([model.states[model.initial.index]])
        let reachable = Set(FlowCoverage.compute(model, depth: 0).states.filter(\.reachable).map(\.name))
        #expect(entered == reachable)
        #expect(cover.length >= cover.lowerBound && cover.lowerBound == reachable.count - 1)
    }

    @Test func theFiguresOfTheSpecs() throws {
        // Written down in docs/paths.md: paths, total steps against the lower bound.
        for spec in Files.staticSpecs {
            let cover = CoveringPaths(model: try Files.model(spec), target: .transitions)
            print("\(spec.split(separator: "/").last!): \(cover.paths.count) paths, \(cover.length) steps, lower bound \(cover.lowerBound)")
            #expect(cover.length <= 3 * cover.lowerBound, "the greedy tour should stay within 3x the bound on real flows")
        }
    }
}
