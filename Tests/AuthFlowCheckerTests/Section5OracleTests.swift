import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The configuration graph of flows with section 5's history keys against a second, naive reading of the semantics.
///
/// The oracle keeps whole histories: a breadth-first search over (history, server data), where a push
/// appends a frame, a replace rewrites the top one, a reset starts a history of one frame, and back
/// pops the top frame (and every frame that updated it in place) keeping the server data. Up to a
/// length bound it finds every configuration (top frame and server data) with its shortest length;
/// ``BackReach`` must find exactly those, at exactly those lengths. The flows are drawn at random
/// (seeded): server and client counters and presence keys, guarded first-match rows, in-place updates,
/// resets, screens without back.
@Suite struct Section5OracleTests {
    /// A small random `/2` flow using section 5's keys, as JSON.
    static func randomFlow(seed: UInt64) -> String {
        var rng = SplitMix(seed: seed)
        let states = ["s0", "s1", "s2", "s3", "done"]
        let events = ["e0", "e1", "e2"]
        var steps: [String] = []
        var rows: [String] = []
        let guards = ["{\"atLeast\": {\"a\": 2}}", "{\"has\": \"p\"}", "{\"below\": {\"b\": 1}}", "{\"missing\": \"q\"}"]
        let effects = ["\"increment\": [\"a\"]", "\"increment\": [\"b\"]", "\"adds\": [\"p\"]", "\"adds\": [\"q\"]", "\"increment\": [\"a\", \"b\"]"]
        for (i, state) in states.enumerated() where state != "done" {
            var emits: [String] = []
            for event in events where rng.next(3) > 0 {
                emits.append("\"\(event)\": {\(effects[rng.next(effects.count)]), \"by\": \"system\"}")
                let count = 1 + rng.next(2)
                for position in 0..<count {
                    let to = rng.next(4) == 0 ? "done" : states[rng.next(4)]
                    var row = "{\"from\": \"\(state)\", \"on\": \"\(event)\", \"to\": \"\(to)\""
                    // First match wins: every row but the last has a guard (two rows without one are non-deterministic).
                    if position < count - 1 || rng.next(2) == 0 { row += ", \"when\": \(guards[rng.next(guards.count)])" }
                    if to == state && rng.next(2) == 0 { row += ", \"history\": \"replace\"" }
                    if to == "s0" && state != "s0" && rng.next(3) == 0 { row += ", \"reset\": true" }
                    if rng.next(4) == 0 { row += ", \"clears\": [\"q\"]" }
                    rows.append(row + "}")
                }
            }
            let back = i > 0 && rng.next(4) == 0 ? ", \"back\": false" : ""
            steps.append("\"\(state)\": {\"emits\": {\(emits.joined(separator: ", "))}\(back)}")
        }
        steps.append("\"done\": {\"emits\": {}}")
        return """
        {"format": "authflow/2", "initial": "s0", "success": ["done"], "abort": [],
         "data": {"a": {"max": 2, "server": true}, "b": {"max": 2}, "p": {"server": true}, "q": {}},
         "steps": {\(steps.joined(separator: ", "))},
         "transitions": [\(rows.joined(separator: ", "))]}
        """
    }

    /// Every configuration within `bound` steps (pushes, replaces, resets and backs), with its shortest length, by whole histories.
    static func oracle(_ model: FlowModel, bound: Int) -> [Configuration: Int] {
        struct Frame: Hashable { var state: Int32; var keys: UInt64; var values: UInt64; var replaces: Bool }
        struct Node: Hashable { var history: [Frame]; var serverKeys: UInt64; var serverValues: UInt64 }
        let layout = model.layout
        func top(_ node: Node) -> Configuration {
            let frame = node.history[node.history.count - 1]
            return Configuration(state: frame.state, keys: frame.keys | node.serverKeys, values: frame.values | node.serverValues)
        }
        var found: [Configuration: Int] = [:]
        var seen = Set<Node>()
        var level: [Node] = model.roots.map {
            Node(history: [Frame(state: model.initial.rawValue, keys: $0.keys & ~layout.serverKeys, values: $0.values & ~layout.serverValues,
                                 replaces: false)], serverKeys: $0.keys & layout.serverKeys, serverValues: $0.values & layout.serverValues)
        }
        var successors: [FlowModel.Successor] = []
        for length in 0...bound {
            var next: [Node] = []
            for node in level where seen.insert(node).inserted {
                let configuration = top(node)
                if found[configuration] == nil { found[configuration] = length }
                guard length < bound else { continue }
                model.successors(state: Int(configuration.state), keys: configuration.keys, values: configuration.values, into: &successors)
                for successor in successors {
                    func split(_ state: StateID, _ keys: UInt64, _ values: UInt64, replaces: Bool) -> (Frame, UInt64, UInt64) {
                        (Frame(state: state.rawValue, keys: keys & ~layout.serverKeys, values: values & ~layout.serverValues, replaces: replaces),
                         keys & layout.serverKeys, values & layout.serverValues)
                    }
                    var child = node
                    switch successor.outcome {
                    case let .push(to, keys, values):
                        let (frame, sk, sv) = split(to, keys, values, replaces: false)
                        child.history.append(frame); child.serverKeys = sk; child.serverValues = sv
                    case let .replace(to, keys, values):
                        let (frame, sk, sv) = split(to, keys, values, replaces: true)
                        child.history.append(frame); child.serverKeys = sk; child.serverValues = sv
                    case let .reset(keys, values):
                        let (frame, sk, sv) = split(model.initial, keys, values, replaces: false)
                        child.history = [frame]; child.serverKeys = sk; child.serverValues = sv
                    case .illegal:
                        continue
                    }
                    next.append(child)
                }
                // The user's back: off come the top frame and every frame that updated it in place; server data stays.
                let state = Int(configuration.state)
                guard model.canGoBack[state] && !model.isTerminal[state] else { continue }
                var count = 1
                while count < node.history.count && node.history[node.history.count - count].replaces { count += 1 }
                guard count < node.history.count else { continue }
                var child = node
                child.history.removeLast(count)
                next.append(child)
            }
            level = next
        }
        return found
    }

    /// Specs/sign-in-next-step.json, whose counts the service keeps: every configuration within 12 steps.
    @Test func backReachAgreesWithWholeHistoriesOnTheSignInSpec() throws {
        let model = try SpecLoader.load(file: Fixture.url(Fixture.signInNextStep).path)
        let graph = ConfigurationGraph(model: model)
        let expected = Self.oracle(model, bound: 12)
        var actual: [Configuration: Int] = [:]
        for i in 0..<graph.count where graph.depth[i] <= 12 { actual[graph.configurations[i]] = Int(graph.depth[i]) }
        #expect(actual == expected, "\(actual.count) configurations within 12 steps, the oracle \(expected.count)")
    }

    @Test(arguments: 0..<40)
    func backReachAgreesWithWholeHistories(seed: Int) throws {
        let json = Self.randomFlow(seed: UInt64(seed))
        let model: FlowModel
        do { model = try SpecLoader.load(json: json) } catch {
            Issue.record("the random flow \(seed) does not load: \(error)\n\(json)")
            return
        }
        let bound = 9
        let graph = ConfigurationGraph(model: model)
        let expected = Self.oracle(model, bound: bound)
        var actual: [Configuration: Int] = [:]
        for i in 0..<graph.count where graph.depth[i] <= bound { actual[graph.configurations[i]] = Int(graph.depth[i]) }
        #expect(actual == expected, "seed \(seed): \(actual.count) configurations within \(bound) steps, the oracle \(expected.count)\n\(json)")
        // Each deadlock site with its shortest length, as the whole histories find them
        // (a deadlock: a configuration of a non-terminal state with no forward move, a back not counting).
        let verification = ModelChecker.verify(graph)
        var deadlocks: [String: Int] = [:]
        var successors: [FlowModel.Successor] = []
        for (configuration, length) in expected where !model.isTerminal[Int(configuration.state)] {
            model.successors(state: Int(configuration.state), keys: configuration.keys, values: configuration.values, into: &successors)
            guard !successors.contains(where: { if case .illegal = $0.outcome { false } else { true } }) else { continue }
            let state = model.states[Int(configuration.state)]
            deadlocks[state] = min(deadlocks[state] ?? .max, length)
        }
        var found: [String: Int] = [:]
        for violation in verification.violations where violation.property == .deadlock && violation.length <= bound {
            found[violation.state ?? ""] = violation.length
        }
        #expect(found == deadlocks, "seed \(seed): deadlock sites\n\(json)")
        // Each path the graph prints has the length it records and ends where it says.
        for i in 0..<graph.count where graph.depth[i] <= bound {
            let path = graph.path(to: Int32(i))
            #expect(path.count - 1 == Int(graph.depth[i]))
            #expect(path.last?.state == model.states[Int(graph.configurations[i].state)])
        }
    }
}

/// Section 5's `stacks` (distinct pairs of a history and server data within a number of forward moves) against a count
/// that keeps every history whole (``HistoryCount``): in all, per state and per row.
@Suite struct Section5StackOracleTests {
    static func compare(_ model: FlowModel, depths: ClosedRange<Int>, _ label: String) {
        let graph = ConfigurationGraph(model: model)
        for depth in depths {
            let counts = graph.countStacks(depth: depth)
            let oracle = HistoryCount.count(model, depth: depth)
            #expect(HistoryCount.Counts(total: counts.total, byState: counts.perState, byRow: counts.perRow) == oracle,
                    "\(label) at depth \(depth)")
            // A walk with no whole graph to read counts over one expanded only below its depth: the same counts.
            let bounded = ConfigurationGraph(model: model, expandingBelow: depth).countStacks(depth: depth)
            #expect(bounded.total == counts.total && bounded.perState == counts.perState && bounded.perRow == counts.perRow,
                    "\(label) at depth \(depth), counted on a graph expanded below it")
        }
    }

    @Test(arguments: 0..<40)
    func theCountAgreesWithWholeHistories(seed: Int) throws {
        let model = try SpecLoader.load(json: Section5OracleTests.randomFlow(seed: UInt64(seed)))
        Self.compare(model, depths: 0...7, "seed \(seed)")
    }

    /// The same flows without server-side keys: where they have in-place updates their stacks are histories, and the
    /// count reads the moves the graph's breadth-first search kept (``ForwardMoves``), not a search over backs.
    @Test(arguments: 0..<40)
    func theCountAgreesWithoutServerKeys(seed: Int) throws {
        let json = Section5OracleTests.randomFlow(seed: UInt64(seed))
            .replacingOccurrences(of: #", "server": true"#, with: "").replacingOccurrences(of: #""server": true"#, with: "")
        let model = try SpecLoader.load(json: json)
        #expect(!model.layout.hasServerKeys)
        Self.compare(model, depths: 0...7, "seed \(seed) without server-side keys")
    }

    @Test func theSignInSpecCountsItsHistories() throws {
        let model = try SpecLoader.load(file: Fixture.url(Fixture.signInNextStep).path)
        Self.compare(model, depths: 0...9, "sign-in-next-step")
    }

    /// A flow whose reset keeps a key and that has no other section-5 key: the landing's history is its own.
    @Test func aResetThatKeepsAKeyStartsHistoriesOfItsOwn() throws {
        let model = try SpecLoader.load(json: """
            {"format": "authflow/2", "initial": "start", "success": ["home"], "abort": [],
             "data": {"email": {}},
             "steps": {"start": {"emits": {"enter": {"adds": ["email"]}}}, "password": {"emits": {"ok": [], "signOut": []}},
                       "home": {"emits": {}}},
             "transitions": [{"from": "start", "on": "enter", "to": "password"}, {"from": "password", "on": "ok", "to": "home"},
                             {"from": "password", "on": "signOut", "to": "start", "reset": true, "keeps": ["email"]}]}
            """)
        Self.compare(model, depths: 0...6, "keeps")
        // [start], [start password], [start password home]; after enter, signOut: [start+email] (2 moves),
        // [start+email password] (3), [start+email password home] (4): 6 within 4 moves, 2 within 1.
        #expect(ConfigurationGraph(model: model).countStacks(depth: 4).total == 6)
        #expect(ConfigurationGraph(model: model).countStacks(depth: 1).total == 2)
    }
}

/// A small seeded generator (SplitMix64), so a failing seed is a flow anyone can rebuild.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

/// SPIN on the exports of section 5's history fixtures: the same verdicts as the complete checker, over backs.
@Suite struct Section5HistoryPromelaTests {
    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)),
          arguments: [("lockout", Section5HistoryTests.lockout), ("bruteForce", Section5HistoryTests.bruteForce),
                      ("bruteForce fixed", Section5HistoryTests.bruteForce.replacingOccurrences(of: "\"tries\": {\"max\": 3}",
                                                                                              with: "\"tries\": {\"max\": 3, \"server\": true}"))])
    func spinAgreesOnEachVerdict(_ fixture: (String, String)) throws {
        let model = try SpecLoader.load(json: fixture.1)
        let graph = ConfigurationGraph(model: model, edges: false)
        let violated = Set(ModelChecker.verify(graph).violations.map(\.property))
        let stated = PromelaExporter.properties(of: model)
        // Every configuration, those only a back reaches included: one stored state each.
        let run = try Spin.run(PromelaExporter.export(model, space: .configurations), stating: stated,
                               searchDepth: graph.count + 10, expectedStates: graph.count)
        for property in stated {
            #expect(run.violated.contains(property) == violated.contains(property), "\(fixture.0): \(property.id)\n\(run.output)")
        }
        #expect(run.stored == graph.count + 1, "\(fixture.0)")
        // The stack export, deep enough for the shortest counterexample, finds the spec's own rule broken or not alike.
        let stacks = try Spin.run(PromelaExporter.export(model, depth: 8), stating: stated, searchDepth: 40, expectedStates: 100_000)
        for property in stated where property.isUserDefined {
            #expect(stacks.violated.contains(property) == violated.contains(property), "\(fixture.0): \(property.id)\n\(stacks.output)")
        }
    }
}
