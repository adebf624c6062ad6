import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The parallel walk must give the single-threaded walk's results exactly: the count, and every site's shortest path.
@Suite struct ParallelExplorerTests {
    // MARK: Broken runtimes (each a deterministic function of the stack, as the resync requires)

    /// Forwards to a real session; subclasses break one thing.
    typealias Forwarding = ForwardingDriver

    /// Undo pops the state but not the data.
    final class UndoKeepsData: Forwarding {
        override func undo() -> Bool { (try? real.session.machine.undo()) != nil }
    }

    /// Undo from one state drops the history too far (two frames) when the stack is deep enough.
    final class UndoSkipsAFrame: Forwarding {
        let culprit: StateID
        init(model: FlowModel, culprit: String) {
            self.culprit = model.state(named: culprit)!
            super.init(model: model)
        }
        override func undo() -> Bool {
            if real.state == culprit, real.height > 2 { _ = real.undo() }
            return real.undo()
        }
    }

    /// Claims back is possible everywhere, and lets the user go back from terminals.
    final class BackEverywhere: Forwarding {
        override var canGoBack: Bool { real.height > 1 }
        override func back() -> Bool { real.undo() }
    }

    /// Rejects one event deep in the flow (only beyond a given height).
    final class RejectsDeep: Forwarding {
        let event: EventID
        let minimumHeight: Int
        init(model: FlowModel, event: String, minimumHeight: Int) {
            self.event = model.event(named: event)!
            self.minimumHeight = minimumHeight
            super.init(model: model)
        }
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            if event == self.event, real.height >= minimumHeight { return false }
            return real.send(event, value: value)
        }
    }

    typealias Make = @Sendable (FlowModel) -> Forwarding
    static let broken: [(String, String, Make)] = [
        ("undo keeps data", "email-first", { UndoKeepsData(model: $0) }),
        ("undo skips a frame", "email-first", { UndoSkipsAFrame(model: $0, culprit: "mfaCode") }),
        ("back everywhere", "session-restore", { BackEverywhere(model: $0) }),
        ("rejects deep", "email-first", { RejectsDeep(model: $0, event: "resend", minimumHeight: 5) }),
    ]

    static func spec(_ name: String) -> String {
        Files.specs.first { $0.hasSuffix("/\(name).json") }!
    }

    // MARK: Equality with the single-threaded walk

    @Test(arguments: Files.specs + Files.brokenNames.map(Files.broken))
    func sameCountAndViolationsAsTheSingleThreadedWalk(_ path: String) throws {
        let model = try Files.model(path)
        let single = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 9)
        for workers in [2, 3] {
            let parallel = ParallelExplorer(model: model, workers: workers).explore(depth: 9)
            #expect(parallel.stacks == single.stacks, "\(workers) workers")
            #expect(parallel.violations == single.violations)
            #expect(parallel.stoppedBy == nil)
        }
        #expect(single.stacks == RuntimeExplorer(model: model).countStacks(depth: 9))
    }

    @Test(arguments: 0..<broken.count)
    func sameShortestCounterexamplesOnABrokenRuntime(_ index: Int) throws {
        let (label, spec, make) = Self.broken[index]
        let model = try Files.model(Self.spec(spec))
        let single = RuntimeExplorer(model: model).explore(make(model), depth: 8)
        #expect(!single.violations.isEmpty, "\(label): the fault must be caught at all")
        for (workers, perWorker) in [(2, 32), (2, 1), (3, 500)] {
            var explorer = ParallelExplorer(model: model, workers: workers)
            explorer.tasksPerWorker = perWorker
            let parallel = explorer.explore(depth: 8) { make(model) }
            #expect(parallel.stacks == single.stacks, "\(label), \(workers) workers × \(perWorker)")
            #expect(parallel.violations == single.violations, "\(label), \(workers) workers × \(perWorker)")
        }
    }

    @Test func theCheckerUsesTheWorkersAndReportsTheSame() throws {
        for path in Files.specs + ["mfa-bypass", "several-sites"].map(Files.broken) {
            let model = try Files.model(path)
            func check(_ workers: Int) -> CheckReport {
                FlowChecker.check(model, source: path, options: CheckOptions(limits: CheckLimits(depth: 8), passcodeCases: 10,
                                                                             workers: workers))
            }
            let one = check(1), two = check(2)
            #expect(two.stats.stacks == one.stats.stacks)
            #expect(two.violations == one.violations)
            #expect(two.verdict == one.verdict)
        }
    }

    // MARK: The split

    @Test(arguments: [1, 2, 3, 8])
    func everyStackBelongsToExactlyOneTask(_ workers: Int) throws {
        let model = try Files.model(Self.spec("email-first"))
        let explorer = ParallelExplorer(model: model, workers: workers)
        for depth in [1, 2, 5, 10] {
            let (prefix, tasks) = explorer.tasks(depth: depth, resets: ResetStacks(model: model, depth: depth))
            #expect((1...depth).contains(prefix))
            #expect(tasks.first?.path == [])
            #expect(tasks.dropFirst().allSatisfy { $0.path.count == prefix })
            // The top task holds the stacks of fewer than `prefix` events; each other one a subtree.
            let top = RuntimeExplorer(model: model).countStacks(depth: prefix - 1)
            let frontier = RuntimeExplorer(model: model).countStacks(depth: prefix) - top
            #expect(tasks.count - 1 == frontier)
            #expect(explorer.explore(depth: depth).stacks == RuntimeExplorer(model: model).countStacks(depth: depth))
        }
    }

    @Test func aFiniteTreeShallowerThanTheDepthIsStillCountedOnce() throws {
        let model = try SpecLoader.load(json: """
        { "format": "authflow/1", "initial": "a", "success": ["c"], "abort": [],
          "steps": { "a": { "emits": { "x": [], "y": ["k"] } }, "b": { "emits": { "z": [] } }, "c": { "requires": [] } },
          "transitions": [ { "from": "a", "on": "x", "to": "b" }, { "from": "a", "on": "y", "to": "b" },
                           { "from": "b", "on": "z", "to": "c" } ] }
        """)
        // a; a b; a b'; a b c; a b' c — five stacks, whatever the depth beyond 2.
        for depth in 0...6 {
            let expected = RuntimeExplorer(model: model).countStacks(depth: depth)
            #expect(ParallelExplorer(model: model, workers: 2).explore(depth: depth).stacks == expected)
        }
        #expect(RuntimeExplorer(model: model).countStacks(depth: 6) == 5)
    }

    @Test func anExpiredTimeoutStopsEveryWorkerAsIncomplete() throws {
        let model = try Files.model(Self.spec("email-first"))
        let walk = ParallelExplorer(model: model, workers: 2).explore(depth: 22, timeout: 0)
        #expect(walk.stoppedBy == .timeout(seconds: 0))
        #expect(walk.stacks < RuntimeExplorer(model: model).countStacks(depth: 22))
    }
}

/// The runtime's flat tables for the model's dense ids must behave exactly like its hashed ones.
@Suite struct DenseIDRuntimeTests {
    @Test func aDenseTableAnswersLikeTheDictionaryForAnyIds() throws {
        let ids: [Int32] = [0, 1, 7, -3, 70_000, Int32.max, Int32.min]
        var rows: [Transition<StateID, EventID>] = []
        for (i, from) in ids.enumerated() {
            for (j, event) in ids.enumerated() where (i + j) % 3 != 0 {
                rows.append(Transition(from: StateID(from), on: EventID(event), to: StateID(ids[(i * j + 1) % ids.count])))
            }
        }
        let machine = try StateMachine(initial: StateID(0), transitions: rows)
        var expected: [Transition<StateID, EventID>.Key: StateID] = [:]
        for row in rows { expected[.init(row.from, row.event)] = row.to }
        for from in ids {
            for event in ids {
                #expect(machine.target(from: StateID(from), on: EventID(event)) == expected[.init(StateID(from), EventID(event))])
            }
        }
        // A conflicting row is still refused, an identical one still accepted.
        #expect(throws: TransitionError<StateID, EventID>.self) {
            try machine.add(Transition(from: rows[0].from, on: rows[0].event, to: StateID(99)))
        }
        try machine.add(rows[0])
        #expect(machine.transitions.count == rows.count)
    }

    @Test func aDataStackOfKeyIdsRestoresExactlyWhateverTheIds() throws {
        var data = DataStack<KeyID, FlowValue>()
        data.push([(KeyID(3), FlowValue.string("a")), (KeyID(0), FlowValue.int(1))])
        data.push([(KeyID(3), FlowValue.string("b"))])
        #expect(data.current == [KeyID(3): "b", KeyID(0): 1])
        #expect(data.count == 2)
        // An id too large for an array moves the values to a dictionary, with nothing lost.
        data.push([(KeyID(1_000_000), FlowValue.bool(true)), (KeyID(-1), FlowValue.string("neg"))])
        #expect(data.count == 4)
        #expect(data[KeyID(1_000_000)] == true)
        #expect(data.frame(at: 1).map(\.key) == [KeyID(3)])
        try data.pop()
        #expect(data.current == [KeyID(3): "b", KeyID(0): 1])
        try data.pop()
        #expect(data.current == [KeyID(3): "a", KeyID(0): 1])
        try data.pop()
        #expect(data.current.isEmpty)
        #expect(data.count == 0)
        #expect(throws: DataStackError.nothingToPop) { try data.pop() }
    }

    @Test func aSessionOverTheModelsIdsKeepsItsContractsAndBackPolicy() throws {
        let model = try Files.model(ParallelExplorerTests.spec("email-first"))
        let session = model.makeSession()
        let start = model.state(named: "start")!, email = model.state(named: "email")!
        #expect(session.contract == session.contracts[start])
        #expect(session.backRefusal == .atRoot)
        try session.send(model.event(named: "startAuth")!) { _ in "x" }
        #expect(session.state == email)
        #expect(session.canGoBack)
        #expect(throws: FlowError<StateID, EventID, KeyID>.eventNotInContract(state: email, event: model.event(named: "resend")!)) {
            try session.send(model.event(named: "resend")!) { _ in "x" }
        }
        try session.send(model.event(named: "cancel")!) { _ in "x" }
        #expect(session.backRefusal == .terminal)
        #expect(try session.undo() == email)
    }
}

extension Transition {
    /// A hashable key for the test's reference table.
    struct Key: Hashable {
        var from: State
        var event: Event
        init(_ from: State, _ event: Event) {
            self.from = from
            self.event = event
        }
    }
}
