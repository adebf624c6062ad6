import AuthFlow
import FlowGenerators
import Foundation
@testable import AuthFlowChecker
import Testing

/// A static flow's moves found once per state (``FrameMoves/sharedPerState(_:)``) say what expanding every
/// configuration says, and cost no more than the per-state check `/1` flows had before both formats shared one path.
@Suite struct StaticFrameMovesTests {
    /// A static `/2` table (`backOnly` is a `/2` key) with every site the moves decide: an illegal event, a deadlock, a trap (`no-exit`), a back-only
    /// screen, an unreachable state, a dead row; keys added on the way make several configurations per state.
    static let sites = """
        { "format": "authflow/2", "initial": "start", "success": ["done"], "abort": [],
          "steps": { "start": { "emits": { "go": ["a"], "other": ["b"], "oops": [] } },
                     "mid": { "emits": { "next": ["c"], "trap": [], "info": [], "halt": [] } },
                     "stuck": { "emits": { "nothing": [] } },
                     "loop": { "emits": { "spin": ["d"] } },
                     "help": { "back": true, "backOnly": true },
                     "island": { "emits": { "x": [] } },
                     "done": {} },
          "transitions": [ { "from": "start", "on": "go", "to": "mid" }, { "from": "start", "on": "other", "to": "mid" },
                           { "from": "mid", "on": "next", "to": "done" }, { "from": "mid", "on": "trap", "to": "loop" },
                           { "from": "loop", "on": "spin", "to": "loop" }, { "from": "mid", "on": "info", "to": "help" },
                           { "from": "mid", "on": "halt", "to": "stuck" }, { "from": "island", "on": "x", "to": "done" },
                           { "from": "start", "on": "skip", "to": "done" } ] }
        """

    static func models() throws -> [FlowModel] {
        var models = [try SpecLoader.load(json: sites)]
        for (states, keys, seed) in [(40, 6, 1 as UInt64), (300, 16, 2), (1_000, 16, 3)] {
            models.append(try FlowModel(spec: SyntheticFlow.make(states: states, keys: keys, seed: seed)))
        }
        return models
    }

    /// Every answer per state equals the answer per configuration: moves, exits, first illegal events, lint facts.
    @Test func movesFoundOncePerStateEqualThoseOfEveryConfiguration() throws {
        for model in try Self.models() {
            #expect(model.isStatic)
            let graph = FlowAnalysis(model: model, limits: CheckLimits()).graph(within: .none)
            #expect(graph.stoppedBy == nil)
            let shared = FrameMoves(graph: graph)
            let expanded = FrameMoves(graph: graph, perState: false)
            #expect(shared.expanded == expanded.expanded)
            // The configurations where the two differ, the first few (the whole arrays would fill the log).
            func differ<T: Equatable>(_ a: [T], _ b: [T]) -> [Int] { Array(a.indices.filter { !b.indices.contains($0) || a[$0] != b[$0] }.prefix(5)) }
            #expect(shared.canMove.count == expanded.canMove.count && differ(shared.canMove, expanded.canMove).isEmpty)
            #expect(shared.canExit.count == expanded.canExit.count && differ(shared.canExit, expanded.canExit).isEmpty)
            func illegal(_ moves: FrameMoves) -> [String] {
                moves.firstIllegal.map { "\($0.key) \($0.value.position) \($0.value.keys) \($0.value.values)" }.sorted()
            }
            #expect(illegal(shared) == illegal(expanded))
            #expect(shared.facts.firedRows == expanded.facts.firedRows)
            #expect(shared.facts.offeredPairs(model).map { [$0.state, $0.event] } == expanded.facts.offeredPairs(model).map { [$0.state, $0.event] })
            #expect(shared.facts.userMoves == expanded.facts.userMoves)
            #expect(shared.facts.systemMoves == expanded.facts.systemMoves)
            #expect(differ((0..<graph.count).map(shared.stuck), (0..<graph.count).map(expanded.stuck)).isEmpty)
        }
    }

    /// The sites-table flow has its sites, so the comparison above compares something.
    @Test func theSitesFlowHasEverySiteTheMovesDecide() throws {
        let verification = ModelChecker.verify(try SpecLoader.load(json: Self.sites))
        let properties = Set(verification.violations.map(\.property))
        #expect(properties.isSuperset(of: [.illegalTransition, .deadlock, .noExit]))
        #expect(verification.lint.unreachable == ["island"])
        #expect(verification.lint.deadTransitions == ["island.x", "start.skip"])
    }

    /// A static flow's complete check, its search done, is decided per state as before `/1` and `/2` shared one
    /// path: a deadline that has passed by then cuts nothing (expanding 1,024 configurations at a time, it did).
    @Test func aStaticFlowSearchedInFullIsNotCutByTheMovesDeadline() throws {
        let model = try FlowModel(spec: SyntheticFlow.make(states: 1_000, keys: 16, seed: 3))
        let graph = FlowAnalysis(model: model, limits: CheckLimits()).graph(within: .none)
        #expect(graph.count > 1_024)
        let passed = Deadline(start: Date(timeIntervalSinceNow: -10), timeout: 1)
        let verification = ModelChecker.verify(graph, deadline: passed)
        #expect(verification.stoppedBy == nil)
        #expect(verification.violations.isEmpty)
    }
}
