import AuthCheckTestSupport
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

    /// Every distinct stack of at most `depth` forward events from every root of a flow whose moves
    /// depend on its data (`authflow/2`), by the one successor function: the enumeration shares the
    /// semantics with the checker, not its counting (a reset lands on a root, counted already).
    static func bruteForceStacks(_ model: FlowModel, depth: Int) -> Int {
        struct Frame: Hashable { var state: Int; var keys: UInt64; var values: UInt64 }
        var frontier = model.roots.map { [Frame(state: model.initial.index, keys: $0.keys, values: $0.values)] }
        var seen = Set(frontier)
        var successors: [FlowModel.Successor] = []
        for _ in 0..<depth {
            var next: [[Frame]] = []
            for stack in frontier {
                let top = stack.last!
                model.successors(state: top.state, keys: top.keys, values: top.values, into: &successors)
                for successor in successors {
                    guard case let .push(target, keys, values) = successor.outcome else { continue }
                    let child = stack + [Frame(state: target.index, keys: keys, values: values)]
                    if seen.insert(child).inserted { next.append(child) }
                }
            }
            frontier = next
        }
        return seen.count
    }

    /// Reachable (state, data) pairs of every variant of an `authflow/2` flow, by the one successor function.
    static func bruteForceConfigurations(_ model: FlowModel) -> (states: Int, configurations: Int) {
        struct Frame: Hashable { var state: Int; var keys: UInt64; var values: UInt64 }
        var seen = Set(model.roots.map { Frame(state: model.initial.index, keys: $0.keys, values: $0.values) })
        var work = Array(seen)
        var successors: [FlowModel.Successor] = []
        while let frame = work.popLast() {
            model.successors(state: frame.state, keys: frame.keys, values: frame.values, into: &successors)
            for successor in successors {
                let next: Frame
                switch successor.outcome {
                case let .push(target, keys, values), let .replace(target, keys, values):
                    next = Frame(state: target.index, keys: keys, values: values)
                case let .reset(keys, values):
                    next = Frame(state: model.initial.index, keys: keys, values: values)
                case .illegal:
                    continue
                }
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
        // A /1 flow is enumerated by name, sharing nothing with the checker; a /2 flow by the successor function.
        // Section 5: forward paths can build the same (history, server data); whole histories are kept (HistoryCount).
        let expected = model.isStatic ? Self.bruteForceStacks(model.spec, depth: depth)
            : model.stacksAreHistories ? HistoryCount.count(model, depth: depth).total : Self.bruteForceStacks(model, depth: depth)
        #expect(RuntimeExplorer(model: model).countStacks(depth: depth) == expected)
        let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: depth)
        #expect(walk.stacks == expected)
        let report = FlowChecker.check(model, source: path, options: CheckOptions(limits: CheckLimits(depth: depth)))
        #expect(report.stats.stacks == expected)
    }

    @Test(arguments: Files.specs + Files.brokenNames.map(Files.broken))
    func configurationsMatchBruteForce(_ path: String) throws {
        let model = try SpecLoader.load(file: path)
        let expected = model.isStatic ? Self.bruteForceConfigurations(model.spec) : Self.bruteForceConfigurations(model)
        let verification = ModelChecker.verify(model)
        #expect(verification.states == expected.states)
        // Server-side keys (section 5): back reaches configurations forward moves do not; those are pinned against whole
        // histories by Section5OracleTests.
        if model.layout.hasServerKeys {
            #expect(verification.configurations > expected.configurations)
        } else {
            #expect(verification.configurations == expected.configurations)
        }
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
