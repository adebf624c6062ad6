import AuthCheckTestSupport
import AuthFlow
import Foundation
@testable import AuthFlowChecker
import Testing

/// What the configuration graph and the moves keep, and what they no longer keep twice: the configurations once (in the
/// index), no edges for a flow whose stacks are histories, no source per move for the backward search.
@Suite struct GraphStorageTests {
    /// A flow with an in-place update (`"history": "replace"`): its stacks are histories, counted from every move.
    static let replacing = """
        { "format": "authflow/2", "initial": "start", "success": ["home"], "abort": [],
          "data": { "email": {}, "attempts": { "max": 3 } },
          "steps": { "start": { "emits": { "go": ["email"] } },
                     "password": { "requires": ["email"], "emits": { "wrong": { "increment": ["attempts"], "by": "system" }, "ok": { "by": "system" } } },
                     "home": { "emits": {} } },
          "transitions": [ { "from": "start", "on": "go", "to": "password" },
                           { "from": "password", "on": "wrong", "to": "password", "history": "replace" },
                           { "from": "password", "on": "ok", "to": "home" } ] }
        """

    /// The same flow with a push instead: its stacks are paths over the deduplicated edges.
    static let pushing = replacing.replacingOccurrences(of: #", "history": "replace""#, with: "")

    /// A flow whose stacks are histories keeps no edges, even when asked to: its count reads every move instead,
    /// and gives the same figure. A flow whose stacks are paths keeps them.
    @Test func edgesAreKeptOnlyWhereStacksArePaths() throws {
        let histories = try SpecLoader.load(json: Self.replacing)
        #expect(histories.stacksAreHistories)
        let graph = ConfigurationGraph(model: histories, edges: true)
        #expect(graph.edgeStart.isEmpty && graph.edgeTarget.isEmpty && graph.edgeRow.isEmpty)
        #expect((0..<graph.count).allSatisfy { graph.edges(of: $0).isEmpty })
        for depth in [0, 1, 3, 6] {
            #expect(graph.countStacks(depth: depth).total == HistoryCount.count(histories, depth: depth).total)
        }

        let paths = try SpecLoader.load(json: Self.pushing)
        #expect(!paths.stacksAreHistories)
        let pathGraph = ConfigurationGraph(model: paths, edges: true)
        #expect(pathGraph.edgeStart.count == pathGraph.count + 1 && !pathGraph.edgeTarget.isEmpty)
        #expect(ConfigurationGraph(model: paths, edges: false).edgeStart.isEmpty)
    }

    /// A flow whose stacks are histories keeps each configuration's forward moves instead, as the search found them:
    /// the same moves the count would ask the semantics for again, in the same order. Not kept when not asked for, when
    /// a limit stopped the search (its last configurations were not expanded), or for a flow whose stacks are paths.
    @Test func forwardMovesAreKeptFromTheSearch() throws {
        let histories = try SpecLoader.load(json: Self.replacing)
        let graph = ConfigurationGraph(model: histories, edges: true)
        let kept = try #require(graph.forwardMoves)
        #expect(kept == ForwardMoves(graph: graph))
        // The replace moves are there: `wrong` from the password screen, twice before attempts reaches its maximum.
        #expect((0..<graph.count).reduce(0) { $0 + kept.range($1, .replace).count } >= 2)
        #expect(ConfigurationGraph(model: histories, edges: false).forwardMoves == nil)
        #expect(ConfigurationGraph(model: histories, limits: CheckLimits(maxConfigurations: 2), edges: true).forwardMoves == nil)
        #expect(ConfigurationGraph(model: try SpecLoader.load(json: Self.pushing), edges: true).forwardMoves == nil)
    }

    /// The graph's configurations are its index's: each one's id is its position, and the list is held once.
    @Test func configurationsAreTheIndexs() throws {
        for json in [Self.replacing, Self.pushing] {
            let graph = ConfigurationGraph(model: try SpecLoader.load(json: json))
            #expect(graph.configurations == graph.index.configurations)
            #expect(graph.configurations.indices.allSatisfy { graph.index[graph.configurations[$0]] == Int32($0) })
        }
    }

    /// The index numbers configurations in the order met, finds them again past many growths, and starts again from 0
    /// once emptied.
    @Test func indexNumbersInOrderAndForgets() {
        var index = ConfigurationIndex()
        let configurations: [Configuration] = (0..<5_000).map { (i: Int) -> Configuration in
            let values = UInt64(i % 3) << 40
            return Configuration(state: Int32(i % 7), keys: UInt64(i / 7), values: values)
        }
        for (i, configuration) in configurations.enumerated() { #expect(index.append(configuration) == Int32(i)) }
        #expect(index.count == configurations.count)
        #expect(configurations.indices.allSatisfy { index[configurations[$0]] == Int32($0) })
        #expect(index[Configuration(state: 0, keys: 1 << 60)] == nil)
        index.removeAll()
        #expect(index.count == 0 && index[configurations[0]] == nil)
        #expect(index.append(configurations[9]) == 0 && index[configurations[9]] == 0)
    }

    /// The backward search reads each node's moves as a range of one list of targets: who reaches the seeds.
    @Test func backwardSearchOverRangesOfTargets() {
        // 0 → 1 → 2, 3 → 3, 4 → 0 and 4 → 3; 2 is the seed.
        var targets: [Int32] = [1, 2, 3, 0, 3]
        let edgeStart = [0, 1, 2, 2, 3, 5]
        let reaches = FrameMoves.reachBackward(count: 5, edgeStart: edgeStart, targets: &targets, from: [2])
        #expect(reaches == [true, true, true, false, true])
        #expect(targets.isEmpty)
    }
}
