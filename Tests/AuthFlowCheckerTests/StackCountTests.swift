import AuthFlow
@testable import AuthFlowChecker
import Testing

/// Counts of section 4 checked against a brute-force enumeration that shares no code with the checker.
@Suite struct StackCountTests {
    struct Frame: Hashable { var state: String; var data: Set<String> }

    /// Every distinct stack of at most `depth` forward events, enumerated naively by name.
    static func bruteForceStacks(_ spec: FlowSpec, depth: Int) -> Int {
        let steps = Dictionary(uniqueKeysWithValues: spec.steps.map { ($0.state, $0) })
        var table: [String: String] = [:]
        for row in spec.transitions { table["\(row.from)\u{0}\(row.on)"] = row.to }
        var seen: Set<[Frame]> = []
        var frontier: [[Frame]] = [[Frame(state: spec.initial, data: [])]]
        seen.insert(frontier[0])
        for _ in 0..<depth {
            var next: [[Frame]] = []
            for stack in frontier {
                let top = stack.last!
                for emission in steps[top.state]?.emits ?? [] {
                    guard let target = table["\(top.state)\u{0}\(emission.event)"] else { continue }
                    let child = stack + [Frame(state: target, data: top.data.union(emission.adds))]
                    if seen.insert(child).inserted { next.append(child) }
                }
            }
            frontier = next
        }
        return seen.count
    }

    /// Reachable (state, data) pairs, enumerated naively by name.
    static func bruteForceConfigurations(_ spec: FlowSpec) -> (states: Int, configurations: Int) {
        let steps = Dictionary(uniqueKeysWithValues: spec.steps.map { ($0.state, $0) })
        var table: [String: String] = [:]
        for row in spec.transitions { table["\(row.from)\u{0}\(row.on)"] = row.to }
        var seen: Set<Frame> = [Frame(state: spec.initial, data: [])]
        var work = Array(seen)
        while let frame = work.popLast() {
            for emission in steps[frame.state]?.emits ?? [] {
                guard let target = table["\(frame.state)\u{0}\(emission.event)"] else { continue }
                let next = Frame(state: target, data: frame.data.union(emission.adds))
                if seen.insert(next).inserted { work.append(next) }
            }
        }
        return (Set(seen.map(\.state)).count, seen.count)
    }

    static let cases: [(String, Int)] = Files.specs.flatMap { path in [0, 1, 3, 6].map { (path, $0) } }
        + ["no-exit", "several-sites", "mfa-bypass"].map { (Files.broken($0), 5) }

    @Test(arguments: cases)
    func stacksMatchBruteForce(_ path: String, _ depth: Int) throws {
        let model = try SpecLoader.load(file: path)
        let expected = Self.bruteForceStacks(model.spec, depth: depth)
        #expect(RuntimeExplorer(model: model).countStacks(depth: depth) == expected)
        let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: depth)
        #expect(walk.stacks == expected)
        let report = FlowChecker.check(model, source: path, options: CheckOptions(limits: CheckLimits(depth: depth)))
        #expect(report.stats.stacks == expected)
    }

    @Test(arguments: Files.specs + Files.brokenNames.map(Files.broken))
    func configurationsMatchBruteForce(_ path: String) throws {
        let model = try SpecLoader.load(file: path)
        let expected = Self.bruteForceConfigurations(model.spec)
        let verification = ModelChecker.verify(model)
        #expect(verification.states == expected.states)
        #expect(verification.configurations == expected.configurations)
    }

    @Test func siblingsPushingTheSameFrameCountOnce() throws {
        let model = try SpecLoader.load(json: """
        { "format": "authflow/1", "initial": "a", "success": ["b"], "abort": [],
          "steps": { "a": { "emits": { "x": ["k"], "y": ["k"], "z": [] } }, "b": {} },
          "transitions": [ { "from": "a", "on": "x", "to": "b" }, { "from": "a", "on": "y", "to": "b" },
                           { "from": "a", "on": "z", "to": "b" } ] }
        """)
        // x and y push the same frame (b, {k}); z pushes (b, {}): three stacks in all.
        #expect(RuntimeExplorer(model: model).countStacks(depth: 3) == 3)
        #expect(RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 3).stacks == 3)
    }
}
