import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Section 5's history keys, worked by hand: server-side keys that back never undoes, and moves that
/// update the screen in place. Each on the loader, the runtime and the complete checker.
@Suite struct Section5HistoryTests {
    /// A password screen that shows a wrong password in place and locks after three; the lock lives on the server.
    ///
    /// The row that signs in forgets to ask whether the account is locked. Forward moves alone never reach
    /// `home` locked (the locked screen has no forward move), but back from it does: the server keeps the lock.
    static let lockout = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": ["home"],
      "abort": [],
      "data": {
        "email": {},
        "attempts": {"max": 3, "server": true},
        "locked": {"server": true}
      },
      "steps": {
        "start": {"emits": {"go": ["email"]}},
        "password": {
          "requires": ["email"],
          "emits": {"wrong": {"increment": ["attempts"], "by": "system"}, "ok": {"by": "system"}}
        },
        "locked": {"backOnly": true, "emits": {}},
        "home": {"emits": {}}
      },
      "transitions": [
        {"from": "start", "on": "go", "to": "password"},
        {"from": "password", "on": "wrong", "to": "locked", "when": {"atLeast": {"attempts": 3}}, "adds": ["locked"]},
        {"from": "password", "on": "wrong", "to": "password", "history": "replace"},
        {"from": "password", "on": "ok", "to": "home"}
      ],
      "properties": [{"id": "locked-stays-locked", "never": {"all": [{"at": ["home"]}, {"has": "locked"}]}}]
    }
    """

    /// Wrong passwords open an error screen; the lockout counts them on the client (`tries`), the server counts all (`total`).
    ///
    /// Back from the error screen restores the client's count, so a user who goes back after each wrong password is never
    /// locked: the brute force the rule forbids. Made server-side, the count survives back and the rule holds.
    static let bruteForce = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": ["home"],
      "abort": ["locked"],
      "data": {
        "tries": {"max": 3},
        "total": {"max": 7, "server": true}
      },
      "steps": {
        "start": {"emits": {"go": []}},
        "password": {"emits": {"wrong": {"increment": ["tries", "total"], "by": "system"}, "ok": {"by": "system"}}},
        "error": {"emits": {"retry": []}},
        "locked": {"emits": {}},
        "home": {"emits": {}}
      },
      "transitions": [
        {"from": "start", "on": "go", "to": "password"},
        {"from": "password", "on": "wrong", "to": "locked", "when": {"atLeast": {"tries": 3}}},
        {"from": "password", "on": "wrong", "to": "error"},
        {"from": "error", "on": "retry", "to": "password"},
        {"from": "password", "on": "ok", "to": "home"}
      ],
      "properties": [{"id": "no-brute-force", "never": {"atLeast": {"total": 4}}}]
    }
    """

    static func check(_ json: String, depth: Int = 10) throws -> CheckReport {
        FlowChecker.check(try SpecLoader.load(json: json), source: "section5", options: CheckOptions(limits: CheckLimits(depth: depth)))
    }

    @Test func theShortestCounterexampleGoesBackFromTheLockedScreen() throws {
        let report = try Self.check(Self.lockout)
        let violation = try #require(report.violations.first { $0.property.id == "locked-stays-locked" },
                                     "\(report.violations.map(\.message))")
        // Two wrong passwords shown in place, the third locks; back lands on the password screen, locked; ok signs in.
        #expect(violation.path.compactMap(\.event) == ["go", "wrong", "wrong", "wrong", "back", "ok"])
        #expect(violation.path.map(\.state) == ["start", "password", "password", "password", "locked", "password", "home"])
        #expect(violation.path.last?.data.contains("locked") == true)
    }

    @Test func withTheLockOnTheClientBackDropsItAndTheRuleHolds() throws {
        let json = Self.lockout.replacingOccurrences(of: "\"locked\": {\"server\": true}", with: "\"locked\": {}")
        let report = try Self.check(json)
        #expect(!report.violations.contains { $0.property.id == "locked-stays-locked" })
    }

    @Test func aClientSideCounterResetByBackIsABruteForce() throws {
        let report = try Self.check(Self.bruteForce, depth: 12)
        let violation = try #require(report.violations.first { $0.property.id == "no-brute-force" }, "\(report.violations.map(\.message))")
        // Four wrong passwords with a back after each of the first three: 8 steps; forward alone locks at three.
        #expect(violation.path.compactMap(\.event) == ["go", "wrong", "back", "wrong", "back", "wrong", "back", "wrong"])
        #expect(violation.path.count - 1 == 8)
    }

    @Test func theCounterOnTheServerLocksWhateverBackDoes() throws {
        let json = Self.bruteForce.replacingOccurrences(of: "\"tries\": {\"max\": 3}", with: "\"tries\": {\"max\": 3, \"server\": true}")
        let report = try Self.check(json, depth: 12)
        #expect(!report.violations.contains { $0.property.id == "no-brute-force" }, "\(report.violations.map(\.message))")
    }

    @Test func backReachesConfigurationsNoForwardMoveReaches() throws {
        let model = try SpecLoader.load(json: Self.bruteForce)
        let graph = ConfigurationGraph(model: model)
        // Forward only: total is at most 3 at the password screen; with backs it reaches every count up to 7.
        let totals = Set(graph.configurations.map { model.layout.field(try! #require(model.key(named: "total")).index, in: $0.values) })
        #expect(totals == Set(0...7))
        // Every configuration's recorded length is its path's.
        for i in 0..<graph.count { #expect(graph.path(to: Int32(i)).count - 1 == Int(graph.depth[i])) }
    }

    @Test func theRuntimeKeepsServerKeysOnBackAndBackSkipsInPlaceUpdates() throws {
        let model = try SpecLoader.load(json: Self.lockout)
        let session = model.makeSession()
        func key(_ name: String) throws -> KeyID { try #require(model.key(named: name)) }
        func event(_ name: String) throws -> EventID { try #require(model.event(named: name)) }
        _ = try session.send(try event("go")) { _ in .string("ann@example.com") }
        _ = try session.send(try event("wrong")) { _ in .string("") }
        _ = try session.send(try event("wrong")) { _ in .string("") }
        #expect(session.value(try key("attempts")) == .int(2))
        _ = try session.send(try event("wrong")) { _ in .string("") }
        #expect(model.states[session.state.index] == "locked")
        try session.back()
        // Back from locked goes to the password screen (the two in-place updates are that one screen), locked kept.
        #expect(model.states[session.state.index] == "password")
        #expect(session.value(try key("locked")) != nil)
        #expect(session.value(try key("attempts")) == .int(3))
        #expect(session.value(try key("email")) == .string("ann@example.com"))
        try session.back()
        #expect(model.states[session.state.index] == "start")
        #expect(session.value(try key("email")) == nil)
        #expect(session.value(try key("attempts")) == .int(3))
        #expect(throws: (any Error).self) { try session.back() }
    }

    @Test func undoStillRestoresEverythingExactly() throws {
        let model = try SpecLoader.load(json: Self.lockout)
        let session = model.makeSession()
        func key(_ name: String) throws -> KeyID { try #require(model.key(named: name)) }
        func event(_ name: String) throws -> EventID { try #require(model.event(named: name)) }
        _ = try session.send(try event("go")) { _ in .string("ann@example.com") }
        _ = try session.send(try event("wrong")) { _ in .string("") }
        try session.undo()
        #expect(model.states[session.state.index] == "password")
        let attempts = session.value(try key("attempts"))
        #expect(attempts == nil || attempts == .int(0))
    }

    @Test func theLockstepWalkAgreesWithTheRuntime() throws {
        for json in [Self.lockout, Self.bruteForce] {
            let report = try Self.check(json, depth: 8)
            #expect(!report.violations.contains { $0.property == .undoMismatch || $0.property == .divergence },
                    "\(report.violations.map { "\($0.property) \($0.message)" })")
        }
    }

    /// Each misuse of a history key: one edit of ``lockout``, the path and the start of the message.
    @Test(arguments: [
        ("\"to\": \"password\", \"history\": \"replace\"", "\"to\": \"home\", \"history\": \"replace\"",
         "$.transitions[2].history", "\"history\": \"replace\" updates the screen in place, so the row must go back to its own state"),
        ("\"history\": \"replace\"", "\"history\": \"push\"", "$.transitions[2].history", "history takes \"replace\""),
        ("{\"from\": \"password\", \"on\": \"ok\", \"to\": \"home\"}",
         "{\"from\": \"password\", \"on\": \"ok\", \"to\": \"start\", \"reset\": true, \"history\": \"replace\"}",
         "$.transitions[3].history", "a reset row starts a new history of one frame"),
        ("\"locked\": {\"server\": true}", "\"locked\": {\"server\": \"yes\"}", "$.data.locked.server", "server must be true or false"),
        ("\"properties\":", "\"anywhere\": [{\"on\": \"ping\", \"to\": \"start\", \"history\": \"replace\"}], \"properties\":",
         "$.anywhere[0].history", "\"history\": \"replace\" updates the screen in place, so an anywhere entry"),
        ("{\"from\": \"password\", \"on\": \"ok\", \"to\": \"home\"}",
         "{\"from\": \"password\", \"on\": \"ok\", \"to\": \"start\", \"reset\": true, \"keeps\": [\"attempts\"]}",
         "$.transitions[3].keeps[0]", "'attempts' is a server-side key: every reset keeps it"),
    ])
    func eachMisuseIsAnInvalidSpecAtItsPath(_ edit: (String, String, String, String)) throws {
        let (old, new, path, message) = edit
        #expect(Self.lockout.contains(old), "the edit's text is not in the spec")
        let json = Self.lockout.replacingOccurrences(of: old, with: new)
        do {
            _ = try SpecLoader.load(json: json)
            Issue.record("\(path) was accepted")
        } catch {
            let issue = try #require(error.issues.first { $0.path == path }, "no issue at \(path): \(error.issues.map(\.description))")
            #expect(issue.message.hasPrefix(message), "\(issue.message)")
            #expect(issue.location != nil, "no line:column")
        }
    }

    @Test func aResetKeepsServerKeysAndStillClearsWhatItClears() throws {
        let json = Self.lockout.replacingOccurrences(of: "{\"from\": \"password\", \"on\": \"ok\", \"to\": \"home\"}", with: """
        {"from": "password", "on": "ok", "to": "home"}, {"from": "home", "on": "signOut", "to": "start", "reset": true}
        """).replacingOccurrences(of: "\"home\": {\"emits\": {}}", with: "\"home\": {\"emits\": {\"signOut\": []}}")
        let model = try SpecLoader.load(json: json)
        let session = model.makeSession()
        func key(_ name: String) throws -> KeyID { try #require(model.key(named: name)) }
        func event(_ name: String) throws -> EventID { try #require(model.event(named: name)) }
        _ = try session.send(try event("go")) { _ in .string("ann@example.com") }
        _ = try session.send(try event("wrong")) { _ in .string("") }
        _ = try session.send(try event("ok")) { _ in .string("") }
        _ = try session.send(try event("signOut")) { _ in .string("") }
        #expect(session.state == model.initial)
        #expect(session.value(try key("attempts")) == .int(1))
        #expect(session.value(try key("email")) == nil)
    }

    @Test(arguments: [("lockout", "locked-stays-locked"), ("bruteForce", "no-brute-force")])
    func theRandomTesterFindsEachAndShrinksItToTheShortestPlusOne(_ fixture: (String, String)) throws {
        let json = fixture.0 == "lockout" ? Self.lockout : Self.bruteForce
        let model = try SpecLoader.load(json: json)
        let shortest = try #require(try Self.check(json, depth: 12).violations.first { $0.property.id == fixture.1 }).path.count - 1
        let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 2_000, seed: 1))
        let failure = try #require(report.failure, "the random tester missed \(fixture.1)")
        #expect(failure.violation.property.id == fixture.1)
        #expect(failure.shrunk.contains(.back))
        #expect(failure.shrunk.count <= shortest + 1, "\(failure.shrunk)")
    }

    @Test func aRecordedSessionThatGoesBackAfterInPlaceUpdatesReplaysClean() throws {
        let model = try SpecLoader.load(json: Self.lockout)
        // A clock a second on per record: two wrong passwords in a row are two records, not a duplicate delivery.
        let tick = SteppingClock()
        let tracker = FlowTracker(sessionID: "s1", clock: { tick.next() })
        let session = model.makeNamedSession(tracker: tracker)
        try session.send("go") { _ in .string("ann@example.com") }
        for _ in 0..<3 { try session.send("wrong") { _ in .string("") } }
        try session.back()
        // Back again leaves the password screen for the start: its in-place updates go with it.
        try session.back()
        #expect(session.state == "start")
        try session.send("go") { _ in .string("ann@example.com") }
        try session.send("ok") { _ in .string("") }
        #expect(session.state == "home")
        var replay = TraceReplay(model: model, spec: "lockout.json", options: TraceReplay.Options())
        try replay.read(.text(tracker.jsonLines(), name: "log"))
        let report = replay.finish()
        // The back lands on the password screen (the in-place updates are that screen), as the app's back did.
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.problems.isEmpty, "\(report.problems)")
    }
}

/// Specs/sign-in-next-step.json uses section 5's keys: the service counts refusals, wrong codes and resends, shows a
/// wrong or resent code in place, and remembers the username on sign-out.
@Suite struct Section5SignInNextStepTests {
    static func json() throws -> String {
        try String(contentsOf: Fixture.url(Fixture.signInNextStep), encoding: .utf8)
    }

    @Test func itHoldsAndItsWalkAgrees() throws {
        let report = FlowChecker.check(try SpecLoader.load(json: try Self.json()), source: "server",
                                       options: CheckOptions(limits: CheckLimits(depth: 8), passcodeCases: 10))
        #expect(report.verdict == .holds, "\(report.violations.map(\.message))")
        #expect(report.stats.configurations == 714)
    }

    /// Found by writing the spec: back returns to a code screen opened before the lock, and a code accepted there signs
    /// a locked account in. Forward moves alone never reach it; the service must refuse a code for a locked account.
    @Test func aCodeScreenFromBeforeTheLockSignsInALockedAccount() throws {
        let guarded = #""codeAccepted": { "adds": ["session", "codeVerified"], "by": "system", "when": { "below": { "failedPasswords": 3 } } }"#
        let json = try Self.json()
        #expect(json.contains(guarded))
        let broken = json.replacingOccurrences(of: guarded, with: #""codeAccepted": { "adds": ["session", "codeVerified"], "by": "system" }"#)
        let report = FlowChecker.check(try SpecLoader.load(json: broken), source: "server", options: CheckOptions(limits: CheckLimits(depth: 8)))
        let violation = try #require(report.violations.first { $0.property.id == "no-sign-in-while-locked" })
        #expect(violation.path.count - 1 == 14)
        #expect(violation.path.contains { $0.event == "back" })
        #expect(violation.path.last?.state == "signedIn")
        // The replay line sends the reader to the complete check, which goes back; the exhaustive walk does not.
        #expect(ReportRenderer.replayCommand(for: violation, in: report).contains(" check "))
    }

    /// The random tester with its default budget finds it too: every fourth run aims at a configuration no run has
    /// entered (``FuzzAims``), by the graph's shortest path, backs included; the shrunk path is the shortest.
    @Test(arguments: [1, 4] as [UInt64])
    func theRandomTesterFindsTheCodeScreenFromBeforeTheLock(seed: UInt64) throws {
        let guarded = #""codeAccepted": { "adds": ["session", "codeVerified"], "by": "system", "when": { "below": { "failedPasswords": 3 } } }"#
        let broken = try Self.json().replacingOccurrences(of: guarded, with: #""codeAccepted": { "adds": ["session", "codeVerified"], "by": "system" }"#)
        let report = FlowFuzzer(model: try SpecLoader.load(json: broken)).run(FuzzOptions(seed: seed))
        let failure = try #require(report.failure)
        #expect(failure.site.property.id == "no-sign-in-while-locked")
        #expect(failure.shrunk.contains(.back))
        let shortest = try #require(failure.shortestKnown)
        #expect(shortest == 14)
        #expect(failure.shrunk.count <= shortest + 1)
    }

    /// A reset here keeps data (the username, the server's counts): each covering path still replays from a fresh session.
    @Test func everyCoveringPathReplaysFromItsRoot() throws {
        let model = try SpecLoader.load(json: try Self.json())
        let cover = CoveringPaths(graph: ConfigurationGraph(model: model), target: .transitions)
        #expect(cover.covered == cover.reachable)
        for path in cover.paths { _ = try Version2PathsTests.rowsTaken(path, model: model) }
    }
}

/// A clock that moves one second on at each reading.
final class SteppingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 0.0
    func next() -> Date {
        lock.lock()
        defer { lock.unlock() }
        seconds += 1
        return Date(timeIntervalSince1970: 1_800_000_000 + seconds)
    }
}

/// The lockstep walk goes on from a reset that keeps data: what the runtime does only after such a reset is checked too.
@Suite struct Section5ResetLandingWalkTests {
    static let json = """
        {"format": "authflow/2", "initial": "start", "success": ["home"], "abort": [],
         "data": {"email": {}},
         "steps": {"start": {"emits": {"enter": {"adds": ["email"]}, "skip": []}}, "password": {"emits": {"ok": [], "signOut": []}},
                   "home": {"emits": {}}},
         "transitions": [{"from": "start", "on": "enter", "to": "password"}, {"from": "start", "on": "skip", "to": "password"},
                         {"from": "password", "on": "ok", "to": "home"},
                         {"from": "password", "on": "signOut", "to": "start", "reset": true, "keeps": ["email"]}]}
        """

    /// A runtime that refuses `enter` when it remembers an email: only a history that starts after the sign-out has one there.
    final class EnterRefusedAfterSignOut: ForwardingDriver {
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            if model.events[event.index] == "enter", real.state == model.initial, real.height == 1,
               let email = model.key(named: "email"), real.value(of: email) != nil { return false }
            return real.send(event, value: value)
        }
    }

    @Test func aFaultAboveTheLandingIsFoundAndItsPathShowsTheReset() throws {
        let model = try SpecLoader.load(json: Self.json)
        let walk = RuntimeExplorer(model: model).explore(EnterRefusedAfterSignOut(model: model), depth: 4)
        let violation = try #require(walk.violations.first { $0.event == "enter" })
        #expect(violation.path.compactMap(\.event) == ["enter", "signOut", "enter"])
        // The correct runtime holds, and the walk drives the histories above the landing as the count counts them.
        let clean = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 4)
        #expect(clean.violations.isEmpty)
        #expect(clean.stacks == RuntimeExplorer(model: model).countStacks(depth: 4))
    }
}

/// The runtime's public data (`session.data.current`, what an app built on `FlowSession` reads) after a back that keeps a
/// server-side count and a reset that keeps a key: both were missing from it, though the session's own frames had them.
@Suite struct Section5SessionDataTests {
    @Test func backKeepsTheCountAndSignOutKeepsTheUsernameInTheSessionsData() throws {
        let model = try SpecLoader.load(file: Fixture.url(Fixture.signInNextStep).path)
        let session = model.makeSession()
        func data() -> [String: String] {
            var shown: [String: String] = [:]
            for (key, value) in session.data.current { shown[model.keys[key.index]] = "\(value)" }
            return shown
        }
        func send(_ event: String) -> Bool {
            session.trySend(try! #require(model.event(named: event))) { ["username": .string("ana"), "password": .string("pw")][model.keys[$0.index]] ?? .string("x") }
        }
        #expect(send("signInTapped") && send("submit") && send("wrongPassword"))
        #expect(data() == ["username": "ana", "failedPasswords": "1"])
        _ = try session.back()
        #expect(data() == ["username": "ana", "password": "pw", "failedPasswords": "1"])
        #expect(send("signedIn") && send("signOut"))
        #expect(model.states[session.state.index] == "start")
        #expect(data() == ["username": "ana", "failedPasswords": "1"])
    }
}
