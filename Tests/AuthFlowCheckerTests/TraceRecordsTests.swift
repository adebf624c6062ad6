import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// A hand-written log, one record per call, a second apart: the line of each record is known.
struct TraceLog {
    var lines: [String] = []
    var ms: Int64 = 1_714_564_800_000

    /// The line number the next record gets.
    var next: Int { lines.count + 1 }

    @discardableResult
    mutating func record(_ kind: TrackedKind, _ session: String, _ from: String, _ event: String? = nil, _ to: String? = nil,
                         added: [String]? = [], cleared: [String]? = nil, values: [String: String]? = nil, at time: Int64? = nil) -> Int {
        if let time { ms = time } else { ms += 1000 }
        var bytes: [UInt8] = []
        TrackedEvent(kind: kind, sessionID: session, timestamp: Date(timeIntervalSince1970: Double(ms) / 1000), from: from,
                     event: event, to: to, reason: kind == .rejection ? "refused" : nil,
                     added: kind == .transition ? added : nil, cleared: kind == .transition ? cleared : nil, values: values)
            .writeJSONLine(into: &bytes)
        lines.append(String(decoding: bytes.dropLast(), as: UTF8.self))
        return lines.count
    }

    @discardableResult
    mutating func go(_ session: String, _ from: String, _ event: String, _ to: String, added: [String]? = [],
                     values: [String: String]? = nil, at time: Int64? = nil) -> Int {
        record(.transition, session, from, event, to, added: added, values: values, at: time)
    }

    @discardableResult
    mutating func back(_ session: String, _ from: String, _ to: String) -> Int { record(.undo, session, from, nil, to) }

    @discardableResult
    mutating func raw(_ text: String) -> Int {
        lines.append(text)
        return lines.count
    }

    var text: String { lines.joined(separator: "\n") + "\n" }
}

/// Hand-written records: each finding and each problem, located; the funnel's counts; the tracker's own records.
@Suite struct TraceRecordsTests {
    static func emailFirst() throws -> FlowModel { try TraceReplayTests.model(Fixture.emailFirst) }

    /// A session from start to authenticated by password: its lines.
    static func signIn(_ log: inout TraceLog, _ id: String) {
        log.go(id, "start", "startAuth", "email")
        log.go(id, "email", "knownEmail", "password", added: ["email", "account"])
        log.go(id, "password", "passwordAccepted", "authenticated", added: ["session"])
    }

    @Test func aCleanLogHasNoFindingsAndItsFunnelCountsEveryMove() throws {
        var log = TraceLog()
        Self.signIn(&log, "a")
        log.go("b", "start", "startAuth", "email")
        log.go("b", "email", "knownEmail", "password", added: ["email", "account"])
        log.record(.rejection, "b", "password", "codeAccepted")
        log.go("b", "password", "wrongPassword", "password")
        log.back("b", "password", "password")
        log.back("b", "password", "email")
        log.go("c", "start", "startAuth", "email")
        log.go("c", "email", "cancel", "cancelled")
        log.go("d", "start", "startAuth", "email")
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text)
        #expect(report.findings.isEmpty && report.problems.isEmpty)
        #expect(report.records == 12 && report.lines == 12)
        #expect(report.sessions == TraceReport.Sessions(total: 4, succeeded: 1, aborted: 1, abandoned: 2, broken: 0, peakOpen: 4))
        func state(_ name: String) throws -> TraceReport.StateFunnel { try #require(report.states.first { $0.name == name }) }
        let email = try state("email"), password = try state("password"), start = try state("start")
        #expect((start.sessions, start.entries, start.exits, start.dropped) == (4, 4, 4, 0))
        #expect((email.sessions, email.entries, email.exits, email.backs, email.dropped) == (4, 4, 3, 0, 2))
        #expect((password.sessions, password.entries, password.exits, password.backs, password.rejections) == (2, 3, 2, 2, 1))
        #expect(try state("authenticated").completed == 1 && (try state("cancelled")).completed == 1)
        func taken(_ id: String) -> Int? { report.transitions.first { $0.id == id }?.taken }
        #expect(taken("start.startAuth") == 4 && taken("email.knownEmail") == 2 && taken("password.wrongPassword") == 1
                && taken("email.cancel") == 1 && taken("mfaCode.resend") == 0)
        #expect(report.neverTaken.contains { $0.id == "mfaCode.resend" } && !report.neverTaken.contains { $0.id == "email.cancel" })
        #expect(email.dropRate == 0.5)
    }

    // MARK: Findings, each located

    @Test func anIllegalTransitionIsFlaggedWithItsSessionLineAndReason() throws {
        var log = TraceLog()
        log.go("s1", "start", "startAuth", "email")
        let notEmitted = log.go("s1", "email", "passwordAccepted", "authenticated", added: ["session"])
        log.go("s2", "start", "startAuth", "email")
        let wrongTarget = log.go("s2", "email", "cancel", "password")
        log.go("s3", "start", "startAuth", "email")
        let unknownEvent = log.go("s3", "email", "skip", "password")
        log.go("s4", "start", "startAuth", "email")
        let unknownState = log.go("s4", "email", "knownEmail", "vault", added: ["email", "account"])
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text)
        #expect(report.findings.map { [$0.session, String($0.line), $0.property.rawValue, $0.state, $0.event ?? "-", $0.message] } == [
            ["s1", "\(notEmitted)", "illegal-transition", "email", "passwordAccepted", "email does not emit passwordAccepted"],
            ["s2", "\(wrongTarget)", "illegal-transition", "email", "cancel", "cancel from email goes to cancelled, not password"],
            ["s3", "\(unknownEvent)", "illegal-transition", "email", "skip", "'skip' is not an event of the spec"],
            ["s4", "\(unknownState)", "illegal-transition", "email", "knownEmail", "'vault' is not a state of the spec"],
        ])
        #expect(report.sessions.broken == 4 && report.findingCounts == [.illegalTransition: 4])
        #expect(report.offSpec.map { "\($0.from) \($0.event) \($0.to) \($0.count)" }.sorted()
                == ["email cancel password 1", "email knownEmail vault 1", "email passwordAccepted authenticated 1", "email skip password 1"])
    }

    @Test func aBackWhereTheSpecForbidsItIsFlagged() throws {
        var log = TraceLog()
        let atRoot = log.back("s1", "start", "start")
        log.go("s2", "start", "startAuth", "email")
        log.go("s2", "email", "cancel", "cancelled")
        let terminal = log.back("s2", "cancelled", "email")
        let model = try SpecLoader.load(file: Fixture.url(Fixture.sessionRestore).path)
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text)
        #expect(report.findings.map { "\($0.session):\($0.line) \($0.property.rawValue) \($0.state): \($0.message)" } == [
            "s1:\(atRoot) forbidden-back start: back at start, the start of the flow: there is nothing to go back to",
            "s2:\(terminal) forbidden-back cancelled: back from cancelled, a terminal state: the flow had ended",
        ])
        // welcomeBack says back: false.
        var restore = TraceLog()
        restore.go("r", "launch", "cachedSessionFound", "welcomeBack", added: ["cachedToken", "email", "account"])
        let noBack = restore.back("r", "welcomeBack", "launch")
        let restored = try TraceReplayTests.replay(model, restore.text)
        #expect(restored.findings.map { "\($0.session):\($0.line) \($0.property.rawValue): \($0.message)" }
                == ["r:\(noBack) forbidden-back: back from welcomeBack, whose step says back: false"])
        // Refused backs are rejections: the runtime did its job, nothing to flag.
        var refused = TraceLog()
        refused.record(.rejection, "q", "start")
        #expect(try TraceReplayTests.replay(try Self.emailFirst(), refused.text).findings.isEmpty)
    }

    @Test func aBackThatLandsElsewhereIsAnUndoMismatch() throws {
        var log = TraceLog()
        log.go("s", "start", "startAuth", "email")
        log.go("s", "email", "knownEmail", "password", added: ["email", "account"])
        let line = log.back("s", "password", "start")
        log.go("s", "start", "startAuth", "email")
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text)
        #expect(report.findings.map { "\($0.line) \($0.property.rawValue): \($0.message)" }
                == ["\(line) undo-mismatch: back from password landed on start, but the screen before was email"])
        #expect(report.problems.isEmpty, "the session follows the record: it is at start")
    }

    @Test func aScreenEnteredWithoutItsDataIsFlaggedByKeyNamesOnly() throws {
        var log = TraceLog()
        log.go("s", "start", "startAuth", "email")
        let line = log.go("s", "email", "knownEmail", "password", added: ["email"])
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text)
        #expect(report.findings.map { "\($0.session):\($0.line) \($0.property.rawValue) \($0.state): \($0.message)" }
                == ["s:\(line) unmet-requirement password: entered password without account, which it requires; the data was {email}"])
        // A back restores the data the frame before held: re-entering without the key is flagged again.
        var again = TraceLog()
        again.go("t", "start", "startAuth", "email")
        again.go("t", "email", "knownEmail", "password", added: ["email", "account"])
        again.go("t", "password", "mfaChallenged", "mfaCode", added: ["mfaChallenge"])
        again.back("t", "mfaCode", "password")
        let second = again.go("t", "password", "mfaChallenged", "mfaCode", added: [])
        #expect(try TraceReplayTests.replay(try Self.emailFirst(), again.text).findings.map(\.line) == [second])
    }

    @Test func recordsWithoutDataStillReadAndTheReportSaysWhichChecksWereSkipped() throws {
        var log = TraceLog()
        log.go("old", "start", "startAuth", "email", added: nil)
        log.go("old", "email", "knownEmail", "password", added: nil)
        log.go("old", "password", "cancel", "cancelled", added: nil)
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text)
        #expect(report.findings.isEmpty && report.problems.isEmpty && report.sessions.aborted == 1)
        #expect(report.skipped == ["requirements not checked where 1 session had records without the keys added and cleared "
                                   + "(written by a tracker before they were recorded)"])
        // Transitions are still checked.
        var bad = TraceLog()
        bad.go("old", "start", "startAuth", "email", added: nil)
        bad.go("old", "email", "wrongPassword", "password", added: nil)
        #expect(try TraceReplayTests.replay(try Self.emailFirst(), bad.text).findings.map(\.property) == [.illegalTransition])
    }

    // MARK: Problems with the records themselves, each located, the rest of the file read

    @Test func malformedTruncatedAndOverlongLinesAreLocatedAndTheRestIsRead() throws {
        var log = TraceLog()
        log.go("a", "start", "startAuth", "email")
        let malformed = log.raw(#"{"kind":"transition","sessionID":"a","timestamp":"2024-05-01T12:00:09Z","from":"email","evnt":"cancel"}"#)
        let notJSON = log.raw("GET /healthz 200")
        let wrongType = log.raw(#"{"kind":"undo","sessionID":7,"timestamp":"2024-05-01T12:00:09Z","from":"email"}"#)
        let brokenOff = log.raw(#"{"kind":"transition","sessionID":"a","timestamp":"2024-05-"#)
        log.raw("")
        log.go("a", "email", "cancel", "cancelled")
        let cutOff = #"{"kind":"transition","sessionID":"b","times"#
        let text = log.text + String(repeating: "x", count: TraceInput.maxLineBytes + 10) + "\n" + cutOff
        let report = try TraceReplayTests.replay(try Self.emailFirst(), text)
        #expect(report.problems.map { "\($0.line) \($0.kind.rawValue): \($0.message)" } == [
            "\(malformed) malformed: column 88: unknown key \"evnt\"; expected one of kind, sessionID, timestamp, from, event, to, reason, added, cleared, values",
            "\(notJSON) malformed: column 1: expected a JSON value, found 'GET'",
            "\(wrongType) malformed: column 28: \"sessionID\" must be a string, found number",
            "\(brokenOff) truncated: the record breaks off before its end (column 50: unterminated string: the input ends before its closing '\"')",
            "\(log.lines.count + 1) malformed: a line of \(TraceInput.maxLineBytes + 10) bytes, longer than the \(TraceInput.maxLineBytes) bytes a record may have; skipped",
            "\(log.lines.count + 2) truncated: the input ends inside this record (column 38: unterminated string: the input ends before its closing '\"')",
        ])
        // Nothing after a bad line is lost: session a reached cancelled.
        #expect(report.sessions.total == 1 && report.sessions.aborted == 1 && report.findings.isEmpty)
        #expect(report.lines == log.lines.count + 2 && report.records == 2)
    }

    @Test func outOfOrderAndDuplicatedRecordsAreLocatedAndSkipped() throws {
        var log = TraceLog()
        log.go("a", "start", "startAuth", "email")
        let first = log.go("a", "email", "knownEmail", "password", added: ["email", "account"])
        let again = log.raw(log.lines[first - 1])
        let late = log.go("a", "email", "ssoEmail", "sso", added: ["email", "ssoProvider"], at: log.ms - 1500)
        log.go("a", "password", "passwordAccepted", "authenticated", added: ["session"], at: log.ms + 5000)
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text)
        #expect(report.problems.map { "\($0.line) \($0.kind.rawValue) \($0.session ?? "-"): \($0.message)" } == [
            "\(again) duplicate a: the same record as line \(first) of session a; skipped",
            "\(late) out-of-order a: 2024-05-01T12:00:00.500Z is earlier than the record before it in session a (line \(first), 2024-05-01T12:00:02.000Z); skipped",
        ])
        #expect(report.findings.isEmpty && report.sessions.succeeded == 1)
    }

    @Test func recordsRunTogetherOrInterleavedOnOneLineAreLocatedAndWhatCanBeReadIsRead() throws {
        var log = TraceLog()
        var parts = TraceLog()
        let one = parts.go("a", "start", "startAuth", "email")
        parts.go("a", "email", "knownEmail", "password", added: ["email", "account"])
        parts.go("b", "start", "startAuth", "email")
        let together = log.raw(parts.lines[one - 1] + parts.lines[1])
        // Two writers: a record cut by another whole one.
        let first = parts.lines[2]
        let cut = first.index(first.startIndex, offsetBy: 30)
        let interleaved = log.raw(String(first[..<cut]) + parts.lines[0].replacingOccurrences(of: "\"a\"", with: "\"c\"")
                                  + String(first[cut...]))
        log.ms = parts.ms
        log.go("a", "password", "cancel", "cancelled")
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text)
        #expect(report.problems.map { "\($0.line) \($0.kind.rawValue): \($0.message)" } == [
            "\(together) interleaved: 2 records on one line (a line break is missing); each was read",
            "\(interleaved) interleaved: parts of several records on one line (two writers on one file?); 1 of 3 could be read",
        ])
        // Both records of the first line were applied, and the whole record inside the second.
        #expect(report.findings.isEmpty && report.sessions.aborted == 1 && report.sessions.total == 2)
    }

    @Test func recordsThatDoNotContinueTheirSessionOrBeginMidFlowAreLocated() throws {
        var log = TraceLog()
        log.go("a", "start", "startAuth", "email")
        let gap = log.go("a", "password", "passwordAccepted", "authenticated", added: ["session"])
        let mid = log.go("b", "mfaCode", "codeAccepted", "authenticated", added: ["session"])
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text)
        #expect(report.problems.map { "\($0.line) \($0.kind.rawValue): \($0.message)" } == [
            "\(gap) out-of-sequence: starts at password, but session a is at email (line \(gap - 1)): records are missing or out of order, or two runs share the id",
            "\(mid) mid-flow: session b begins at mfaCode, not at the start (start): its earlier records are not in the input",
        ])
        #expect(report.findings.isEmpty && report.sessions.succeeded == 2)
    }

    @Test func anIdleSessionIsClosedSoMemoryFollowsTheSessionsOpenAtOnce() throws {
        var options = TraceReplay.Options()
        options.sessionTimeout = 60
        var log = TraceLog()
        for i in 0..<200 {
            // Each session starts 100 s after the previous one and leaves at email: at most two are open at once.
            log.go("s\(i)", "start", "startAuth", "email", at: 1_714_564_800_000 + Int64(i) * 100_000)
        }
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text, options: options)
        #expect(report.sessions.total == 200 && report.sessions.abandoned == 200 && report.sessions.peakOpen <= 2)
        // Without a timeout every session stays open to the end.
        options.sessionTimeout = nil
        #expect(try TraceReplayTests.replay(try Self.emailFirst(), log.text, options: options).sessions.peakOpen == 200)
    }

    @Test func sessionsSpanInputsReadInOrder() throws {
        var first = TraceLog(), second = TraceLog()
        first.go("a", "start", "startAuth", "email")
        second.ms = first.ms
        second.go("a", "email", "cancel", "cancelled")
        var replay = TraceReplay(model: try Self.emailFirst(), spec: "spec.json")
        try replay.read(.text(first.text, name: "day1.jsonl"))
        try replay.read(.text(second.text, name: "day2.jsonl"))
        let report = replay.finish()
        #expect(report.files == ["day1.jsonl", "day2.jsonl"] && report.sessions.aborted == 1 && report.problems.isEmpty)
    }

    @Test func theListsStopAtTheLimitButTheCountsDoNot() throws {
        var options = TraceReplay.Options()
        options.maxListed = 3
        var log = TraceLog()
        for i in 0..<10 { log.back("s\(i)", "start", "start") }
        for _ in 0..<5 { log.raw("nope") }
        let report = try TraceReplayTests.replay(try Self.emailFirst(), log.text, options: options)
        #expect(report.findings.count == 3 && report.findingTotal == 10 && report.sessions.broken == 10)
        #expect(report.problems.count == 3 && report.problemTotal == 5)
    }

    // MARK: The runtime's own records

    @Test func theRuntimesTrackerWritesRecordsTheReplayReadsClean() throws {
        let model = try Self.emailFirst()
        var ms: Int64 = 1_714_564_800_000
        let tracker = FlowTracker(sessionID: "app-1", clock: { Date(timeIntervalSince1970: 1_714_564_800) })
        let session = model.makeNamedSession(tracker: tracker)
        try session.handle(StepOutput("startAuth"))
        try session.handle(StepOutput("knownEmail", data: [("email", "ada@example.com"), ("account", "42")]))
        _ = try? session.handle(StepOutput("codeAccepted", data: [("session", "t")]))
        try session.handle(StepOutput("mfaChallenged", data: [("mfaChallenge", "c")]))
        try session.back()
        try session.handle(StepOutput("passwordAccepted", data: [("session", "t")]))
        _ = try? session.back()
        session.logout(newSessionID: "app-2")
        try session.handle(StepOutput("startAuth"))
        // Every record a millisecond apart (the clock is fixed; the replay needs no order but the log's).
        let events = tracker.events.map { event -> TrackedEvent in
            var event = event
            ms += 1
            event.timestamp = Date(timeIntervalSince1970: Double(ms) / 1000)
            return event
        }
        #expect(events[1].added == ["email", "account"] && events[0].added == [])
        let report = try TraceReplayTests.replay(model, FlowTracker.jsonLines(events))
        #expect(report.findings.isEmpty && report.problems.isEmpty && report.skipped.isEmpty)
        #expect(report.sessions.total == 2 && report.sessions.succeeded == 1 && report.sessions.abandoned == 1)
        #expect(report.states.first { $0.name == "password" }?.rejections == 1)
    }

    @Test func theRuntimesRecordsOfAVersion2FlowCarryValuesAndReplayClean() throws {
        let model = try TraceReplayTests.version2()
        let tracker = FlowTracker(sessionID: "v2", clock: { Date(timeIntervalSince1970: 1_714_564_800) })
        let session = model.makeNamedSession(variant: 1)
        session.tracker = tracker
        try session.handle(StepOutput("begin", data: [("email", "a@b.c")]))
        try session.send("wrongPassword") { _ in "" }
        try session.handle(StepOutput("submitted", data: [("nextStep", .string("resetPassword"))]))
        try session.back()
        try session.send("forgot") { _ in "" }
        try session.back()
        try session.handle(StepOutput("submitted", data: [("nextStep", .string("done"))]))
        try session.send("signOut") { _ in "" }
        try session.handle(StepOutput("begin", data: [("email", "b@c.d")]))
        try session.send("useAnotherAccount") { _ in "" }
        let submitted = try #require(tracker.events.first { $0.event == "submitted" })
        #expect(submitted.added == ["nextStep"] && submitted.values == ["nextStep": "resetPassword"])
        #expect(tracker.events.last?.cleared == ["email", "attempts"])
        // Every record a millisecond apart (the clock is fixed).
        let events = tracker.events.enumerated().map { i, event -> TrackedEvent in
            var event = event
            event.timestamp = Date(timeIntervalSince1970: 1_714_564_800 + Double(i) / 1000)
            return event
        }
        let report = try TraceReplayTests.replay(model, FlowTracker.jsonLines(events))
        #expect(report.findings.isEmpty && report.problems.isEmpty && report.skipped.isEmpty,
                "\(report.findings) \(report.problems) \(report.skipped)")
        #expect(report.transitions.first { $0.id == "signIn.forgot" && $0.to == "recoverLink" }?.taken == 1)
        // The sign-out row, recorded as a reset naming its event, is taken and ends the run signed in.
        #expect(tracker.events.contains { $0.kind == .reset && $0.event == "signOut" })
        #expect(report.transitions.first { $0.id == "signedIn.signOut" }?.taken == 1)
    }

    // MARK: authflow/2: values pick the branch, variants narrow

    @Test func version2ValuesPickTheBranchAndVariantsNarrowToTheRecords() throws {
        let model = try TraceReplayTests.version2()
        var log = TraceLog()
        log.go("v", "start", "begin", "signIn", added: ["email"])
        log.go("v", "signIn", "submitted", "confirmTotp", added: ["nextStep"], values: ["nextStep": "confirmTotp"])
        log.go("w", "start", "begin", "signIn", added: ["email"])
        let wrongValue = log.go("w", "signIn", "submitted", "signedIn", added: ["nextStep"], values: ["nextStep": "resetPassword"])
        // x runs in the link variant (its record says so): forgot must go to recoverLink.
        log.go("x", "start", "begin", "signIn", added: ["email"], values: ["recovery": "link"])
        log.go("x", "signIn", "wrongPassword", "signIn")
        let wrongVariant = log.go("x", "signIn", "forgot", "recoverCode")
        // y says nothing of its variant: recoverCode is explained by the code variant.
        log.go("y", "start", "begin", "signIn", added: ["email"])
        log.go("y", "signIn", "wrongPassword", "signIn")
        log.go("y", "signIn", "forgot", "recoverCode")
        log.go("y", "recoverCode", "cancel", "cancelled")
        // z: a guard that does not hold (forgot before any wrong password).
        log.go("z", "start", "begin", "signIn", added: ["email"])
        let guarded = log.go("z", "signIn", "forgot", "recoverLink")
        let report = try TraceReplayTests.replay(model, log.text)
        #expect(report.findings.map { "\($0.session):\($0.line) \($0.message)" } == [
            "w:\(wrongValue) submitted from signIn to signedIn: no branch of the spec gives nextStep=resetPassword",
            "x:\(wrongVariant) forgot from signIn goes to recoverLink here, not recoverCode",
            "z:\(guarded) signIn does not offer forgot here: its condition does not hold on the session's data",
        ])
        #expect(report.problems.isEmpty)
        // With the variants restricted (--variant recovery=link), y is explained by none.
        let link = try model.selectingVariants(["recovery": ["link"]])
        #expect(try TraceReplayTests.replay(link, log.text).findings.map(\.session) == ["w", "x", "y", "z"])
    }
}
