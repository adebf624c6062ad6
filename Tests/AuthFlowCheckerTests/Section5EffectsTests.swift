import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Section 5's effects, worked by hand: a row's own effects, an emission's answers, a step's entry,
/// an `anywhere` entry that stays, a reset that keeps keys; each on the one semantics, the runtime and the checker.
@Suite struct Section5EffectsTests {
    /// A sign-in whose password screen counts visits on entry, answers from part of a domain, and keeps the email on sign-out.
    static let spec = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": ["done"],
      "abort": [],
      "data": {
        "email": {},
        "seen": {},
        "attempts": {"max": 3},
        "visits": {"max": 5},
        "answer": {"values": ["ok", "mfa", "locked"]},
        "mode": {"values": ["a", "b"]}
      },
      "steps": {
        "start": {"emits": {"go": ["email"]}},
        "password": {
          "requires": ["email"],
          "entry": {"increment": ["visits"], "adds": ["seen"]},
          "emits": {
            "wrong": {"increment": ["attempts"], "set": {"mode": "a"}, "by": "system"},
            "submit": {"adds": [{"answer": ["mfa", "ok"]}], "by": "system"}
          }
        },
        "mfa": {"emits": {"pass": []}},
        "done": {"emits": {"signOut": []}}
      },
      "transitions": [
        {"from": "start", "on": "go", "to": "password"},
        {"from": "password", "on": "wrong", "to": "password", "clears": ["attempts"], "set": {"mode": "b"}},
        {"from": "password", "on": "submit", "to": "mfa", "when": {"equals": {"answer": "mfa"}}},
        {"from": "password", "on": "submit", "to": "done"},
        {"from": "mfa", "on": "pass", "to": "done", "adds": ["seen"]},
        {"from": "done", "on": "signOut", "to": "start", "reset": true, "keeps": ["email"]}
      ],
      "anywhere": [{"on": "ping", "stay": true, "by": "system", "except": ["start"]}]
    }
    """

    static func model(_ json: String = spec) throws -> FlowModel { try SpecLoader.load(json: json) }

    /// The frame after `events` (the first move of each name), by the model's one move function.
    static func frame(_ model: FlowModel, after events: [String]) throws -> (state: Int, keys: UInt64, values: UInt64) {
        var frame = (state: model.initial.index, keys: model.roots[0].keys, values: model.roots[0].values)
        var successors: [FlowModel.Successor] = []
        for name in events {
            model.successors(state: frame.state, keys: frame.keys, values: frame.values, into: &successors)
            let move = try #require(successors.first { model.events[$0.event.index] == name }, "\(name) is not a move")
            let landing = try #require(move.outcome.landing(initial: model.initial), "\(name) is illegal")
            frame = (landing.state.index, landing.keys, landing.values)
        }
        return frame
    }

    static func shown(_ model: FlowModel, _ frame: (state: Int, keys: UInt64, values: UInt64)) -> String {
        model.states[frame.state] + " " + model.dataText(keys: frame.keys, values: frame.values)
    }

    @Test func emissionThenRowThenEntryInThatOrder() throws {
        let model = try Self.model()
        // wrong: the emission counts attempts to 1 and sets mode=a; the row clears attempts and sets mode=b;
        // the entry of password (a self-loop) counts visits again and adds seen.
        #expect(Self.shown(model, try Self.frame(model, after: ["go"])) == "password {email, seen, attempts=0, visits=1}")
        #expect(Self.shown(model, try Self.frame(model, after: ["go", "wrong"])) == "password {email, seen, attempts=0, visits=2, mode=b}")
        #expect(Self.shown(model, try Self.frame(model, after: ["go", "wrong", "wrong"])) == "password {email, seen, attempts=0, visits=3, mode=b}")
    }

    @Test func answersBranchOnlyOnTheListedValuesInTheirOrder() throws {
        let model = try Self.model()
        let password = try Self.frame(model, after: ["go"])
        var successors: [FlowModel.Successor] = []
        model.successors(state: password.state, keys: password.keys, values: password.values, into: &successors)
        let submits = successors.filter { model.events[$0.event.index] == "submit" }
        // mfa first (as listed), then ok; never locked.
        let answers = submits.map { model.layout.shown(try! #require(model.key(named: "answer")).index, keys: $0.effectKeys, values: $0.effectValues) }
        #expect(answers == ["mfa", "ok"])
        #expect(submits.map { $0.outcome.landing(initial: model.initial).map { model.states[$0.state.index] } } == ["mfa", "done"])
    }

    @Test func anywhereStayGoesBackToTheSameStateAndEntersItAgain() throws {
        let model = try Self.model()
        #expect(Self.shown(model, try Self.frame(model, after: ["go", "ping"])) == "password {email, seen, attempts=0, visits=2}")
        #expect(model.states[try Self.frame(model, after: ["go", "submit", "ping"]).state] == "mfa")
        // start is excepted: it gets no ping.
        #expect(!model.emissions[model.initial.index].contains { model.events[$0.event.index] == "ping" })
    }

    @Test func aResetKeepsTheKeysItNamesAndNothingElse() throws {
        let model = try Self.model()
        let again = try Self.frame(model, after: ["go", "submit", "pass", "signOut"])
        // submit took mfa (its first answer); the reset keeps email, drops seen, answer, visits.
        #expect(Self.shown(model, again) == "start {email, attempts=0, visits=0}")
    }

    @Test func theRuntimeAppliesEntryOnForwardMovesOnlyAndKeepsOnReset() throws {
        let model = try Self.model()
        let session = model.makeSession()
        func key(_ name: String) throws -> KeyID { try #require(model.key(named: name)) }
        func event(_ name: String) throws -> EventID { try #require(model.event(named: name)) }
        _ = try session.send(try event("go")) { _ in .string("ann@example.com") }
        _ = try session.send(try event("wrong")) { _ in .string("") }
        #expect(session.value(try key("visits")) == .int(2))
        // back restores the frame below exactly: no entry runs.
        try session.back()
        #expect(session.value(try key("visits")) == .int(1))
        #expect(session.value(try key("mode")) == nil)
        // Only listed answers are taken: locked is refused without change.
        #expect(throws: (any Error).self) { _ = try session.send(try event("submit")) { _ in .string("locked") } }
        _ = try session.send(try event("submit")) { _ in .string("ok") }
        _ = try session.send(try event("signOut")) { _ in .string("") }
        #expect(session.state == model.initial)
        #expect(session.value(try key("email")) == .string("ann@example.com"))
        #expect(session.value(try key("seen")) == nil)
        #expect(session.data.depth == 0)
    }

    @Test func theCheckerFindsWhatOnlyAKeepingResetReaches() throws {
        // Back at start with an email only a reset that keeps it can make.
        let json = Self.spec.replacingOccurrences(of: "\"anywhere\":", with: """
        "properties": [{"id": "fresh-start", "never": {"all": [{"at": ["start"]}, {"has": "email"}]}}],
          "anywhere":
        """)
        let model = try Self.model(json)
        let report = FlowChecker.check(model, source: "section5", options: CheckOptions(limits: CheckLimits(depth: 8)))
        let violation = try #require(report.violations.first { $0.property.id == "fresh-start" })
        // Shortest: go, submit (ok: straight to done), signOut.
        #expect(violation.path.compactMap(\.event) == ["go", "submit", "signOut"])
        #expect(violation.path.last?.state == "start")
        #expect(!report.violations.contains { $0.property == .undoMismatch || $0.property == .divergence })
    }

    @Test func withoutKeepsAResetStillLandsOnTheRoot() throws {
        let json = Self.spec.replacingOccurrences(of: ", \"keeps\": [\"email\"]", with: "")
        let model = try Self.model(json)
        let again = try Self.frame(model, after: ["go", "submit", "pass", "signOut"])
        #expect(again.keys == model.roots[0].keys && again.values == model.roots[0].values)
    }

    @Test func theLockstepWalkAndTheCheckAgreeOnTheFixture() throws {
        let model = try Self.model()
        let report = FlowChecker.check(model, source: "section5", options: CheckOptions(limits: CheckLimits(depth: 6)))
        #expect(!report.violations.contains { $0.property == .undoMismatch || $0.property == .divergence || $0.property == .unmetRequirement },
                "\(report.violations.map { "\($0.property) \($0.message)" })")
    }

    /// Each misuse of a section-5 key: one edit of ``spec``, the path and the start of the message.
    @Test(arguments: [
        ("\"clears\": [\"attempts\"], \"set\": {\"mode\": \"b\"}", "\"clears\": [\"attempts\"], \"increment\": [\"attempts\"]",
         "$.transitions[1].increment[0]", "'attempts' is named twice in this row's effects"),
        ("\"to\": \"done\", \"adds\": [\"seen\"]", "\"to\": \"done\", \"adds\": [\"answer\"]",
         "$.transitions[4].adds[0]", "'answer' is a valued key, and this row's effects never branch"),
        ("\"reset\": true, \"keeps\": [\"email\"]", "\"reset\": true, \"adds\": [\"seen\"]",
         "$.transitions[5].adds", "a reset row starts the flow again"),
        ("{\"from\": \"start\", \"on\": \"go\", \"to\": \"password\"}", "{\"from\": \"start\", \"on\": \"go\", \"to\": \"password\", \"keeps\": [\"email\"]}",
         "$.transitions[0].keeps", "keeps names what a reset row carries"),
        ("\"keeps\": [\"email\"]", "\"keeps\": [\"attempts\"]", "$.transitions[5].keeps[0]", "'attempts' is a counter: a new run starts it at 0"),
        ("\"start\": {\"emits\"", "\"start\": {\"entry\": {\"adds\": [\"seen\"]}, \"emits\"", "$.steps.start.entry", "the initial step takes no entry"),
        ("{\"answer\": [\"mfa\", \"ok\"]}", "{\"answer\": [\"mfa\", \"maybe\"]}", "$.steps.password.emits.submit.adds[0].answer[1]",
         "'maybe' is not a value of 'answer'"),
        ("{\"answer\": [\"mfa\", \"ok\"]}", "{\"answer\": [\"mfa\", \"mfa\"]}", "$.steps.password.emits.submit.adds[0].answer[1]",
         "the answer 'mfa' is listed twice"),
        ("{\"answer\": [\"mfa\", \"ok\"]}", "{\"answer\": []}", "$.steps.password.emits.submit.adds[0].answer", "'answer' lists no answer"),
        ("{\"answer\": [\"mfa\", \"ok\"]}", "{\"seen\": [\"x\"]}", "$.steps.password.emits.submit.adds[0].seen", "'seen' is a presence key"),
        ("\"stay\": true,", "\"stay\": true, \"to\": \"done\",", "$.anywhere[0].to", "an anywhere entry with \"stay\": true"),
        ("\"entry\": {\"increment\": [\"visits\"], \"adds\": [\"seen\"]}", "\"entry\": {\"increment\": [\"visits\"], \"clears\": [\"visits\"]}",
         "$.steps.password.entry.increment[0]", "'visits' is named twice in this entry"),
    ])
    func eachMisuseIsAnInvalidSpecAtItsPath(_ edit: (String, String, String, String)) throws {
        let (old, new, path, message) = edit
        #expect(Self.spec.contains(old), "the edit's text is not in the spec")
        let json = Self.spec.replacingOccurrences(of: old, with: new)
        do {
            _ = try SpecLoader.load(json: json)
            Issue.record("\(path) was accepted")
        } catch {
            let issue = try #require(error.issues.first { $0.path == path }, "no issue at \(path): \(error.issues.map(\.description))")
            #expect(issue.message.hasPrefix(message), "\(issue.message)")
            #expect(issue.location != nil, "no line:column")
        }
    }
}

/// SPIN on the export of a flow whose reset keeps a key: the same verdicts, one stored state per configuration.
@Suite struct Section5PromelaTests {
    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)))
    func spinAgreesOnAFlowWhoseResetKeepsAKey() throws {
        let json = Section5EffectsTests.spec.replacingOccurrences(of: "\"anywhere\":", with: """
        "properties": [{"id": "fresh-start", "never": {"all": [{"at": ["start"]}, {"has": "email"}]}}],
          "anywhere":
        """)
        let model = try SpecLoader.load(json: json)
        let graph = ConfigurationGraph(model: model, edges: false)
        let violated = Set(ModelChecker.verify(graph).violations.map(\.property))
        #expect(violated.map(\.id) == ["fresh-start"])
        let stated = PromelaExporter.properties(of: model)
        let run = try Spin.run(PromelaExporter.export(model, space: .configurations), stating: stated,
                               searchDepth: graph.count + 10, expectedStates: graph.count)
        for property in stated { #expect(run.violated.contains(property) == violated.contains(property), "\(property.id)\n\(run.output)") }
        #expect(run.stored == graph.count + 1)
        // On the stack export, SPIN still finds the rule broken after the reset.
        let stacks = try Spin.run(PromelaExporter.export(model, depth: 4), stating: stated, searchDepth: 14, expectedStates: 1_000)
        #expect(stacks.violated.map(\.id).contains("fresh-start"), "\(stacks.output)")
    }

    /// The tracker records what a move did to the data: a row's own effects and its target's entry too, not only the emission's.
    @Test func theTrackerRecordsWhatTheRowAndTheEntryDid() throws {
        let tracker = FlowTracker(sessionID: "s1")
        let session = try Section5EffectsTests.model().makeNamedSession(tracker: tracker)
        try session.send("go") { _ in "ann@example.com" }
        try session.send("wrong") { _ in "" }
        try session.send("submit") { _ in "mfa" }
        try session.send("pass") { _ in "" }
        let moves = tracker.events.filter { $0.kind == .transition }
        #expect(moves.map(\.event) == ["go", "wrong", "submit", "pass"])
        // go: the emission adds email; password's entry adds seen (visits is a counter: counted, not added).
        #expect(moves[0].added == ["email", "seen"])
        // wrong: the emission sets mode=a, the row clears attempts and sets mode=b, the entry adds seen again.
        #expect(moves[1].added == ["seen", "mode"])
        #expect(moves[1].cleared == ["attempts"])
        #expect(moves[1].values == ["mode": "b"])
        // pass: no key of the emission's; the row adds seen.
        #expect(moves[3].added == ["seen"])
    }
}
