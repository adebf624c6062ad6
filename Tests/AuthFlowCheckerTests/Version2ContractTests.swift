import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The rules of `authflow/2` that the other suites left without a test that would fail if they broke.
///
/// Each test names the rule it pins; `Tests/AUTHFLOW-2-COVERAGE.md` maps every rule of the format to
/// the test that pins it. The flows are inline and small, their answers worked out by hand.
@Suite struct Version2ContractTests {
    typealias S = Version2SemanticsTests

    // MARK: /2 adds to /1 and changes none of it

    /// Every `authflow/1` spec of the repository (the flows in `Specs/` and the broken fixtures).
    static let version1Files: [String] = (Files.specs + Files.brokenNames.map(Files.broken)).filter { path in
        (try? String(contentsOfFile: path, encoding: .utf8))?.contains(#""format": "authflow/1""#) ?? false
    }

    @Test(arguments: version1Files)
    func aVersion1FlowWrittenAsVersion2MeansTheSame(_ path: String) throws {
        // Everything of the /1 format holds in /2 unless /2 changes it: the same file read as /2 has the same
        // configurations, sites, shortest paths, messages and lint.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let one = try SpecLoader.load(json: text)
        let two = try SpecLoader.load(json: text.replacingOccurrences(of: #""format": "authflow/1""#, with: #""format": "authflow/2""#))
        #expect(one.format == 1 && two.format == 2)
        let (first, second) = (ModelChecker.verify(one), ModelChecker.verify(two))
        let shown = { (verification: SpecVerification) in
            verification.violations.map { "\($0.site) \($0.path.map { $0.event ?? "(start)" }) \($0.message)" }
        }
        #expect(shown(second) == shown(first))
        #expect(second.lint == first.lint)
        #expect(second.configurations == first.configurations)
        #expect(FlowCoverage(graph: ConfigurationGraph(model: two), depth: 6).stacks == FlowCoverage(graph: ConfigurationGraph(model: one), depth: 6).stacks)
    }

    // MARK: Guards: every operand of a guard must match

    @Test func equalsNeedsEveryPairAndInEveryKeyAndACounterBoundEveryCounter() throws {
        // Four variants: (a, p), (a, q), (b, p), (b, q). Each event tests two keys at once.
        let model = try S.flow(
            config: #"{ "x": ["a", "b"], "y": ["p", "q"] }"#,
            data: #"{ "m": { "max": 1 }, "n": { "max": 1 } }"#,
            steps: #"""
            { "start": { "emits": {
                "both": { "when": { "equals": { "x": "a", "y": "q" } } },
                "among": { "when": { "in": { "x": ["b"], "y": ["p", "q"] } } },
                "least": { "when": { "atLeast": { "m": 1, "n": 0 } } },
                "under": { "when": { "below": { "m": 1, "n": 1 } } },
                "bump": { "increment": ["m"] } } },
              "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "both", "to": "done" }, { "from": "start", "on": "among", "to": "done" },
              { "from": "start", "on": "least", "to": "done" }, { "from": "start", "on": "under", "to": "done" },
              { "from": "start", "on": "bump", "to": "start" } ]
            """#)
        let offered = { (root: Int, events: [String]) in
            S.moves(model, try S.frame(model, root: root, after: events)).map { String($0.prefix { $0 != " " }) }
        }
        #expect(try offered(0, []) == ["under", "bump"])
        #expect(try offered(1, []) == ["both", "under", "bump"])
        #expect(try offered(2, []) == ["among", "under", "bump"])
        #expect(try offered(3, []) == ["among", "under", "bump"])
        // m = 1, n = 0: atLeast holds for both counters, below no longer holds for m.
        #expect(try offered(0, ["bump"]) == ["least", "bump"])
    }

    @Test func hasAndMissingReadAValuedKeyAsPresentWhateverItsValue() throws {
        let model = try S.flow(
            data: #"{ "v": { "values": ["a", "b"] } }"#,
            steps: #"""
            { "start": { "emits": { "ask": { "adds": ["v"], "by": "system" } } },
              "s": { "emits": { "some": { "when": { "has": "v" } }, "none": { "when": { "missing": "v" } } } },
              "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "ask", "to": "s" }, { "from": "s", "on": "some", "to": "done" },
              { "from": "s", "on": "none", "to": "done" } ]
            """#)
        #expect(S.moves(model, try S.frame(model, after: ["ask"])) == ["some → done {v=a}"])
    }

    // MARK: Effects

    @Test func clearingAValuedKeyMakesItAbsentAndAnEmissionWithoutByIsTheUsers() throws {
        let model = try S.flow(
            data: #"{ "v": { "values": ["a", "b"] } }"#,
            steps: #"""
            { "start": { "emits": { "pick": { "set": { "v": "b" } } } },
              "s": { "emits": { "forget": { "clears": ["v"] }, "leave": [] } },
              "t": { "emits": { "check": { "when": { "missing": "v" } } } },
              "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "pick", "to": "s" },
              { "from": "s", "on": "forget", "to": "t" }, { "from": "s", "on": "leave", "to": "t", "clears": ["v"] },
              { "from": "t", "on": "check", "to": "done" } ]
            """#)
        let s = try S.frame(model, after: ["pick"])
        #expect(S.moves(model, s) == ["forget → t {}", "leave → t {}"])
        // Both ways of clearing leave the key absent: `missing` holds, and the frame is the one with no data.
        #expect(S.moves(model, try S.frame(model, after: ["pick", "forget"])) == ["check → done {}"])
        #expect(try S.frame(model, after: ["pick", "forget"]) == S.frame(model, after: ["pick", "leave"]))
        #expect(model.emissions.allSatisfy { $0.allSatisfy { !$0.bySystem } })
    }

    @Test func anAnywhereEntrysEffectsAreAnEmissionsAndItsSenderIsTheUsersByDefault() throws {
        let model = try S.flow(
            data: #"{ "v": { "values": ["a", "b"] }, "w": { "values": ["x", "y"] } }"#,
            steps: #"""
            { "start": { "emits": { "go": [] } }, "s": { "emits": { "finish": [] } }, "help": { "emits": { "close": [] } }, "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "go", "to": "s" }, { "from": "s", "on": "finish", "to": "done" },
              { "from": "help", "on": "close", "to": "done" } ]
            """#,
            anywhere: #"[{ "on": "ask", "to": "help", "adds": ["v"], "set": { "w": "y" }, "except": ["help"] }]"#)
        // One branch per value of the added key, the set value in every branch, after the state's own emissions.
        #expect(S.moves(model, try S.frame(model, after: ["go"])) == ["finish → done {}", "ask → help {v=a, w=y}", "ask → help {v=b, w=y}"])
        #expect(model.emissions.allSatisfy { $0.allSatisfy { !$0.bySystem } })
    }

    // MARK: terminal-exit does not read guards

    @Test func aTerminalStatesEmissionIsAWayOutEvenWhenItsGuardNeverHolds() throws {
        let model = try S.flow(
            data: #"{ "k": {} }"#,
            steps: #"""
            { "start": { "emits": { "go": [] } }, "help": { "emits": { "close": [] } },
              "done": { "emits": { "help": { "when": { "has": "k" } } } } }
            """#,
            transitions: #"[{ "from": "start", "on": "go", "to": "done" }, { "from": "help", "on": "close", "to": "done" }]"#)
        let found = ModelChecker.verify(model).violations.filter { $0.property == .terminalExit }
        #expect(found.map(\.message) == ["done is terminal but emits help"])
        #expect(found.map(\.length) == [1])
    }

    // MARK: shadowed-row: only a row an earlier one takes from it

    @Test func aRowWhoseOwnGuardNeverHoldsIsDeadEvenBehindARowThatAlwaysFires() throws {
        // k is present at s whenever s is reached: `has k` always fires first. The `missing k` row never holds on its
        // own (removing the first row would not make it fire): dead, not shadowed. The unguarded row after them would
        // fire but for the first one: shadowed.
        let model = try S.flow(
            data: #"{ "k": {} }"#,
            steps: #"""
            { "start": { "emits": { "go": ["k"] } }, "s": { "emits": { "next": [] } },
              "A": { "emits": { "end": [] } }, "B": { "emits": { "end": [] } }, "C": { "emits": { "end": [] } }, "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "go", "to": "s" },
              { "from": "s", "on": "next", "to": "A", "when": { "has": "k" } },
              { "from": "s", "on": "next", "to": "B", "when": { "missing": "k" } },
              { "from": "s", "on": "next", "to": "C" },
              { "from": "A", "on": "end", "to": "done" }, { "from": "B", "on": "end", "to": "done" },
              { "from": "C", "on": "end", "to": "done" } ]
            """#)
        let lint = ModelChecker.verify(model).lint
        #expect(lint.shadowedRows == ["s.next→C"])
        #expect(lint.deadTransitions == ["s.next→B", "B.end", "C.end"])
        #expect(lint.unreachable == ["B", "C"])
    }

    @Test func aGuardedRowThatHoldsOnlyAfterTheEffectsIsShadowedByTheRowAbove() throws {
        // v is set by the event itself: the second row's guard holds on the data after the effects, where the first row
        // (unguarded) takes it. Shadowed, since it is the effects' data that counts, not the data before them.
        let model = try S.flow(
            data: #"{ "v": { "values": ["a", "b"] } }"#,
            steps: #"""
            { "start": { "emits": { "pick": { "set": { "v": "b" } } } }, "A": { "emits": { "end": [] } },
              "B": { "emits": { "end": [] } }, "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "pick", "to": "A" }, { "from": "start", "on": "pick", "to": "B", "when": { "equals": { "v": "b" } } },
              { "from": "A", "on": "end", "to": "done" }, { "from": "B", "on": "end", "to": "done" } ]
            """#)
        let lint = ModelChecker.verify(model).lint
        #expect(lint.shadowedRows == ["start.pick→B"])
        #expect(lint.deadTransitions == ["B.end"])
    }

    // MARK: --max-configurations: incomplete, never a guess

    /// start offers `bump` (a counter up to 200, every value a configuration of its own), `go` to done and `trap`
    /// to a screen that loops on itself forever.
    static func longFlow(trap: Bool) throws -> FlowModel {
        try S.flow(
            data: #"{ "n": { "max": 200 } }"#,
            steps: trap
                ? #"{ "start": { "emits": { "trap": [], "bump": { "increment": ["n"] }, "go": [] } }, "pit": { "emits": { "spin": [] } }, "done": {} }"#
                : #"{ "start": { "emits": { "bump": { "increment": ["n"] }, "go": [] } }, "done": {} }"#,
            transitions: trap
                ? #"""
                  [ { "from": "start", "on": "trap", "to": "pit" }, { "from": "start", "on": "bump", "to": "start" },
                    { "from": "start", "on": "go", "to": "done" }, { "from": "pit", "on": "spin", "to": "pit" } ]
                  """#
                : #"[{ "from": "start", "on": "bump", "to": "start" }, { "from": "start", "on": "go", "to": "done" }]"#)
    }

    @Test func aStoppedSearchClaimsNoNoExitItHasNotSeenTheEndOf() throws {
        // 402 configurations in all (start and done for n = 0…200); stopped at 5, most stored starts move to a start
        // the search never stored. Where those lead is unknown, so no-exit is not claimed: the check is incomplete.
        let model = try Self.longFlow(trap: false)
        #expect(ModelChecker.verify(model).configurations == 402)
        let stopped = ModelChecker.verify(model, limits: CheckLimits(maxConfigurations: 5))
        #expect(stopped.stoppedBy == .maxConfigurations(5))
        #expect(stopped.violations.isEmpty, "\(stopped.violations.map(\.message))")
        let report = FlowChecker.check(model, source: "long", options: CheckOptions(limits: CheckLimits(depth: 4, maxConfigurations: 5)))
        #expect(report.verdict == .incomplete, "\(report.violations.map(\.message))")
        #expect(report.exitCode == 3)
    }

    @Test func aStoppedSearchStillReportsANoExitWhoseWholeFutureItHasSeen() throws {
        // 0 start n=0 · 1 pit n=0 (trap) · 2 start n=1 (bump) · 3 done n=0 (go) · then the stop. pit only loops on itself:
        // everything it can reach was stored, and none of it is terminal.
        let model = try Self.longFlow(trap: true)
        let stopped = ModelChecker.verify(model, limits: CheckLimits(maxConfigurations: 4))
        #expect(stopped.stoppedBy == .maxConfigurations(4))
        #expect(stopped.violations.map { "\($0.site) \($0.length)" } == ["no-exit@pit 1"])
    }

    // MARK: The runtime: exact undo, refusals change nothing

    typealias Session = FlowSession<String, String, String, FlowValue>

    static let undoFlow = """
    { "format": "authflow/2", "initial": "start", "success": ["done"], "abort": [],
      "data": { "v": { "values": ["a", "b", "c"] }, "n": { "max": 1 }, "k": {} },
      "steps": {
        "start": { "emits": { "ask": { "adds": ["v", "k"], "by": "system" } } },
        "s": { "emits": { "change": { "set": { "v": "c" }, "increment": ["n"] }, "drop": { "clears": ["k"] } } },
        "t": { "emits": { "again": { "increment": ["n"] }, "finish": [] } },
        "done": {}
      },
      "transitions": [
        { "from": "start", "on": "ask", "to": "s", "when": { "in": { "v": ["a", "b"] } } },
        { "from": "s", "on": "change", "to": "t", "clears": ["k"] },
        { "from": "s", "on": "drop", "to": "t" },
        { "from": "t", "on": "again", "to": "t" },
        { "from": "t", "on": "finish", "to": "done" }
      ]
    }
    """

    static func snapshot(_ session: Session) -> String {
        "\(session.state) " + ["v", "n", "k"].map { "\($0)=\(session.value($0).map { "\($0)" } ?? "-")" }.joined(separator: " ")
    }

    @Test func backRestoresTheValueASetReplacedTheKeyARowClearedAndTheCountBeforeTheCap() throws {
        let session = try SpecLoader.load(json: Self.undoFlow).makeNamedSession()
        try session.handle(StepOutput("ask", data: [("v", .string("b")), ("k", .string("typed"))]))
        #expect(Self.snapshot(session) == "s v=b n=0 k=typed")
        try session.send("change") { _ in "" }
        #expect(Self.snapshot(session) == "t v=c n=1 k=-")
        try session.send("again") { _ in "" }
        // At the cap: one more stays at 1, and back must still return to the frame below, not undo the cap.
        #expect(Self.snapshot(session) == "t v=c n=1 k=-")
        try session.back()
        #expect(Self.snapshot(session) == "t v=c n=1 k=-")
        try session.back()
        #expect(Self.snapshot(session) == "s v=b n=0 k=typed")
        try session.back()
        #expect(Self.snapshot(session) == "start v=- n=0 k=-")
    }

    @Test func aBranchNoRowTakesIsRefusedAndChangesNothing() throws {
        let session = try SpecLoader.load(json: Self.undoFlow).makeNamedSession()
        // ask is offered, but with v = c no row holds: the table cannot take it.
        #expect(session.canHandle("ask"))
        #expect(throws: Session.Error.transition(.noTransition(from: "start", on: "ask"))) {
            try session.handle(StepOutput("ask", data: [("v", .string("c")), ("k", .string("typed"))]))
        }
        #expect(Self.snapshot(session) == "start v=- n=0 k=-")
        #expect(session.machine.historyCount == 1)
        try session.handle(StepOutput("ask", data: [("v", .string("a")), ("k", .string("typed"))]))
        #expect(Self.snapshot(session) == "s v=a n=0 k=typed")
    }

    @Test func aResetFromAScreenMidFlowKeepsOnlyTheVariantsConfig() throws {
        let model = try Version2SemanticsTests.resetFlow()
        let session = model.makeNamedSession(variant: 1)
        try session.send("go") { _ in "" }
        try session.send("restart") { _ in "" }
        #expect(session.state == "start")
        #expect(session.machine.historyCount == 1)
        #expect(session.backRefusal == .atRoot)
        #expect(session.configuration == ["v": .string("bad")])
        #expect(session.value("v") == .string("bad"))
    }

    // MARK: Reports name the variant of every violation, whoever found it

    @Test func theRandomTestersViolationNamesItsVariant() throws {
        let model = try Files.model(Files.version2("broken/passkey-variant"))
        let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 200, seed: 1))
        let failure = try #require(report.failure)
        #expect(failure.violation.variant == [FlowSpec.KeyValue("passkeys", "on")])
        let json = ReportRenderer.violationJSON(failure.violation, secrets: []).rendered(pretty: false)
        #expect(json.contains(#""variant":{"passkeys":"on"}"#), "\(json)")
    }

    @Test func aVersion2FlowWithPresenceKeysAloneStillGivesEveryPathStepItsValues() throws {
        // No config, no valued key, no counter: the JSON still has "variant" and "values", as every /2 report does.
        let model = try S.flow(
            steps: #"{ "start": { "emits": { "go": ["k"] } }, "done": { "requires": ["session"] } }"#,
            transitions: #"[{ "from": "start", "on": "go", "to": "done" }]"#)
        let violation = try #require(ModelChecker.verify(model).violations.first)
        #expect(violation.variant == [])
        #expect(violation.path.frames == [PathStep(event: nil, state: "start", data: [], values: [:]),
                                   PathStep(event: "go", state: "done", data: ["k"], values: [:])])
        #expect(ReportRenderer.violationJSON(violation, secrets: []).rendered(pretty: false)
                == #"{"property":"unmet-requirement","state":"done","event":null,"message":"done requires session, but the data is {k}","#
                + #""variant":{},"path":[{"event":null,"state":"start","data":[],"values":{}},{"event":"go","state":"done","data":["k"],"values":{}}]}"#)
    }

    @Test func theRuntimeWalksViolationNamesItsVariant() throws {
        let model = try Version2WalkTests.model()
        let walk = RuntimeExplorer(model: model).explore(Version2WalkTests.AlwaysDone(model: model), depth: 4)
        #expect(!walk.violations.isEmpty)
        for violation in walk.violations {
            #expect(violation.variant == [FlowSpec.KeyValue("recovery", "code")], "\(violation.message)")
        }
    }
}
