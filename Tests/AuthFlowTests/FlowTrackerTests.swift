import Foundation
import Testing
@testable import AuthFlow

/// A clock that starts at a fixed instant and advances by a fixed step on every reading.
private final class SteppingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var next: Date
    private let step: TimeInterval

    init(start: Date, step: TimeInterval) {
        self.next = start
        self.step = step
    }

    func read() -> Date {
        lock.lock()
        defer { lock.unlock() }
        let now = next
        next += step
        return now
    }
}

@Suite struct FlowTrackerTests {
    /// 2024-05-01T12:00:00.000Z.
    static let t0 = Date(timeIntervalSince1970: 1_714_564_800)

    private func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    private func makeTracker(sessionID: String = "s1") -> FlowTracker {
        let clock = SteppingClock(start: Self.t0, step: 0.25)
        return FlowTracker(sessionID: sessionID, clock: { clock.read() })
    }

    @Test func recordsEventsWithSessionAndClock() {
        // Given a tracker on a stepping clock
        let tracker = makeTracker()
        // When a flow moves, is rejected, undoes, and logs out into a new session
        tracker.record(.transition, from: "start", event: "startAuth", to: "email")
        tracker.record(.rejection, from: "email", event: "codeAccepted", reason: "no transition")
        tracker.record(.undo, from: "email", to: "start")
        tracker.record(.reset, from: "start", to: "start")
        tracker.sessionID = "s2"
        tracker.record(.transition, from: "start", event: "startAuth", to: "email")
        // Then every event is recorded whole, in order
        #expect(tracker.events == [
            TrackedEvent(kind: .transition, sessionID: "s1", timestamp: Self.t0, from: "start", event: "startAuth", to: "email"),
            TrackedEvent(kind: .rejection, sessionID: "s1", timestamp: Self.t0 + 0.25, from: "email", event: "codeAccepted",
                         reason: "no transition"),
            TrackedEvent(kind: .undo, sessionID: "s1", timestamp: Self.t0 + 0.5, from: "email", to: "start"),
            TrackedEvent(kind: .reset, sessionID: "s1", timestamp: Self.t0 + 0.75, from: "start", to: "start"),
            TrackedEvent(kind: .transition, sessionID: "s2", timestamp: Self.t0 + 1, from: "start", event: "startAuth", to: "email"),
        ])
    }

    @Test func defaultSessionIDIsAFreshUUID() {
        let a = FlowTracker(), b = FlowTracker()
        #expect(UUID(uuidString: a.sessionID) != nil)
        #expect(a.sessionID != b.sessionID)
        #expect(a.events.isEmpty)
        #expect(a.jsonLines() == "")
    }

    @Test func jsonLinesHaveFixedKeysAndMillisecondUTCTimestamps() {
        let tracker = makeTracker()
        tracker.record(.transition, from: "start", event: "startAuth", to: "email")
        tracker.record(.rejection, from: "email", event: "bad\"event", reason: "line\nbreak é")
        #expect(tracker.jsonLines() == #"""
            {"kind":"transition","sessionID":"s1","timestamp":"2024-05-01T12:00:00.000Z","from":"start","event":"startAuth","to":"email","reason":null}
            {"kind":"rejection","sessionID":"s1","timestamp":"2024-05-01T12:00:00.250Z","from":"email","event":"bad\"event","to":null,"reason":"line\nbreak é"}

            """#)
    }

    @Test func jsonLinesRoundTrip() throws {
        let tracker = makeTracker()
        for kind in TrackedKind.allCases {
            tracker.record(kind, from: "from \(kind)", event: kind == .undo ? nil : "e", to: kind == .rejection ? nil : "to",
                           reason: kind == .rejection ? "why" : nil)
        }
        tracker.sessionID = "ü-2"
        tracker.record(.transition, from: "a", event: "b", to: "c")
        #expect(try FlowTracker.events(fromJSONLines: tracker.jsonLines()) == tracker.events)
    }

    @Test func transitionsCarryTheNamesOfTheKeysTheyAddedAndClearedAndNonSecretValues() throws {
        let tracker = makeTracker()
        tracker.record(.transition, from: "email", event: "knownEmail", to: "password", added: ["email", "account"])
        tracker.record(.transition, from: "signIn", event: "submitted", to: "signedIn", added: ["nextStep"], cleared: ["password"],
                       values: ["nextStep": "done", "a\"b": "é"])
        #expect(tracker.jsonLines() == #"""
            {"kind":"transition","sessionID":"s1","timestamp":"2024-05-01T12:00:00.000Z","from":"email","event":"knownEmail","to":"password","reason":null,"added":["email","account"]}
            {"kind":"transition","sessionID":"s1","timestamp":"2024-05-01T12:00:00.250Z","from":"signIn","event":"submitted","to":"signedIn","reason":null,"added":["nextStep"],"cleared":["password"],"values":{"a\"b":"é","nextStep":"done"}}

            """#)
        #expect(try FlowTracker.events(fromJSONLines: tracker.jsonLines()) == tracker.events)
        #expect(tracker.events.map(\.carriesData) == [true, true])
    }

    @Test func theDirectWriterWritesWhatTheJSONValueRenders() {
        let events = Self.handMadeLog() + [
            TrackedEvent(kind: .transition, sessionID: "x\u{1}\n", timestamp: Self.t0 + 0.0004, from: "a", event: "e", to: "b",
                         added: [], cleared: ["k"], values: [:]),
            TrackedEvent(kind: .rejection, sessionID: "ü", timestamp: Date(timeIntervalSince1970: -1e13), from: "a", reason: "r\t"),
        ]
        for event in events {
            var bytes: [UInt8] = []
            event.writeJSONLine(into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == event.json.rendered(pretty: false) + "\n")
        }
    }

    @Test(arguments: [
        (#"{"kind":"transition","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a","added":"email"}"#, 2, 92,
         #""added" must be an array of key names or null, found string"#),
        (#"{"kind":"transition","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a","cleared":[1]}"#, 2, 95,
         #""cleared" must list key names as strings, found number"#),
        (#"{"kind":"transition","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a","values":{"k":2}}"#, 2, 98,
         #""values" must map key names to strings, found number for "k""#),
        (#"{"kind":"transition","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a","values":[]}"#, 2, 93,
         #""values" must be an object of key names and values, or null, found array"#),
    ])
    func dataFieldsOfTheWrongTypeAreLocated(badLine: String, line: Int, column: Int, message: String) {
        let text = Self.good + "\n" + badLine + "\n"
        #expect(throws: JSONLinesError(line: line, column: column, message: message)) {
            try FlowTracker.events(fromJSONLines: text)
        }
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_714_564_800_123, "2024-05-01T12:00:00.123Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
    ])
    func timestampsAreISO8601WithMilliseconds(ms: Int64, text: String) {
        #expect(_Timestamp.format(date(ms)) == text)
        #expect(_Timestamp.parse(text) == date(ms))
    }

    @Test func timestampsRoundToTheMillisecondAndClampToFourDigitYears() {
        #expect(_Timestamp.format(Date(timeIntervalSince1970: 0.0126)) == "1970-01-01T00:00:00.013Z")
        #expect(_Timestamp.format(Date(timeIntervalSince1970: 1e15)) == "9999-12-31T23:59:59.999Z")
        #expect(_Timestamp.format(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000Z")
    }

    @Test(arguments: [
        ("2024-05-01T12:00:00Z", Int64(1_714_564_800_000)),
        ("2024-05-01T12:00:00.1Z", 1_714_564_800_100),
        ("2024-05-01T12:00:00.123456Z", 1_714_564_800_123),
        ("2024-05-01t12:00:00.123z", 1_714_564_800_123),
        ("2024-05-01T14:00:00.000+02:00", 1_714_564_800_000),
        ("2024-05-01T07:30:00.000-04:30", 1_714_564_800_000),
    ])
    func timestampsAcceptOtherISO8601Forms(text: String, ms: Int64) {
        #expect(_Timestamp.parse(text) == date(ms))
    }

    @Test(arguments: [
        "", "2024-05-01", "2024-05-01T12:00:00", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
        "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:00:60Z", "2024-05-01T12:00:00.Z",
        "2024-05-01 12:00:00Z", "2024-05-01T12:00:00+0200", "2024-05-01T12:00:00Zjunk", "+2024-05-01T12:00:00Z",
        // The tracker's own 24-byte form, read at fixed offsets, refuses the same mistakes.
        "2024-13-01T00:00:00.000Z", "2023-02-29T00:00:00.000Z", "2024-05-01T24:00:00.000Z", "2024-05-01T12:60:00.000Z",
        "2024-05-01T12:00:60.000Z", "2024-05-01T12:00:00.0a0Z", "2024-05-01T12:00:00.000z0", "2024-05-01t12:00:00.000+",
        "-024-05-01T12:00:00.000Z", "2024-00-01T00:00:00.000Z", "2024-05-00T00:00:00.000Z",
    ])
    func malformedTimestampsAreRefused(text: String) {
        #expect(_Timestamp.parse(text) == nil)
    }

    @Test func readingSkipsBlankLinesAndCRAndIgnoresExtensionKeys() throws {
        let text = "\n"
            + #"{"x-app": "1.2", "kind":"undo","sessionID":"s","timestamp":"2024-05-01T12:00:00.000Z","from":"b","to":"a"}"#
            + "\r\n   \n"
            + #"{"kind":"reset","sessionID":"s","timestamp":"2024-05-01T12:00:01Z","from":"a","event":null,"to":"a","reason":null}"#
        #expect(try FlowTracker.events(fromJSONLines: text) == [
            TrackedEvent(kind: .undo, sessionID: "s", timestamp: date(1_714_564_800_000), from: "b", to: "a"),
            TrackedEvent(kind: .reset, sessionID: "s", timestamp: date(1_714_564_801_000), from: "a", to: "a"),
        ])
    }

    static let good = #"{"kind":"transition","sessionID":"s","timestamp":"2024-05-01T12:00:00.000Z","from":"a","event":"e","to":"b"}"#

    @Test(arguments: [
        (#"{"kind":"transition""#, 2, 21, "expected ',' or '}' after object member, found end of input"),
        ("[1]", 2, 1, "expected a JSON object, found array"),
        (#"{"sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a"}"#, 2, 1, #"missing key "kind""#),
        (#"{"kind":"jump","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a"}"#, 2, 9,
         #""kind" must be one of transition, rejection, undo, reset, found "jump""#),
        (#"{"kind":"undo","sessionID":7,"timestamp":"2024-05-01T12:00:00Z","from":"a"}"#, 2, 28,
         #""sessionID" must be a string, found number"#),
        (#"{"kind":"undo","sessionID":"s","timestamp":"yesterday","from":"a"}"#, 2, 44,
         #""timestamp" must be an ISO 8601 date and time such as 2024-05-01T12:00:00.000Z, found "yesterday""#),
        (#"{"kind":"undo","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a","to":false}"#, 2, 83,
         #""to" must be a string or null, found boolean"#),
        (#"{"kind":"undo","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a","evnt":"e"}"#, 2, 78,
         #"unknown key "evnt"; expected one of kind, sessionID, timestamp, from, event, to, reason, added, cleared, values"#),
        (#"{"kind":"undo","kind":"undo"}"#, 2, 16, #"duplicate key "kind" (first at 1:2)"#),
    ])
    func readingErrorsNameTheLineAndColumn(badLine: String, line: Int, column: Int, message: String) {
        let text = Self.good + "\n" + badLine + "\n" + Self.good + "\n"
        #expect(throws: JSONLinesError(line: line, column: column, message: message)) {
            try FlowTracker.events(fromJSONLines: text)
        }
    }

    @Test func readingErrorDescription() {
        #expect(JSONLinesError(line: 3, column: 14, message: "m").description == "line 3, column 14: m")
        #expect(JSONLinesError(line: 3, column: nil, message: "m").description == "line 3: m")
    }

    /// A hand-made log of five sessions, interleaved and partly out of order.
    static func handMadeLog() -> [TrackedEvent] {
        func at(_ second: Double) -> Date { t0 + second }
        func e(_ kind: TrackedKind, _ session: String, _ second: Double, _ from: String, _ event: String? = nil,
               _ to: String? = nil) -> TrackedEvent {
            TrackedEvent(kind: kind, sessionID: session, timestamp: at(second), from: from, event: event, to: to)
        }
        return [
            // A: straight to success.
            e(.transition, "A", 0, "start", "startAuth", "email"),
            e(.transition, "A", 1, "email", "knownEmail", "password"),
            // B: wrong password twice, then cancels.
            e(.transition, "B", 0, "start", "startAuth", "email"),
            e(.transition, "A", 2, "password", "passwordAccepted", "authenticated"),
            e(.transition, "B", 1, "email", "knownEmail", "password"),
            e(.transition, "B", 2, "password", "wrongPassword", "password"),
            e(.rejection, "B", 3, "password", "codeAccepted"),
            e(.transition, "B", 4, "password", "wrongPassword", "password"),
            e(.transition, "B", 5, "password", "cancel", "cancelled"),
            // C: goes to signup, backs out to email, and leaves there. Its events arrive out of order.
            e(.undo, "C", 3, "signup", nil, "email"),
            e(.transition, "C", 1, "start", "startAuth", "email"),
            e(.transition, "C", 2, "email", "newEmail", "signup"),
            // D: reaches MFA, resets to start, and stops there.
            e(.transition, "D", 0, "start", "startAuth", "email"),
            e(.transition, "D", 1, "email", "knownEmail", "password"),
            e(.transition, "D", 2, "password", "mfaChallenged", "mfaCode"),
            e(.reset, "D", 3, "mfaCode", nil, "start"),
            // E: succeeds through MFA, then logs out (a reset recorded in the old session).
            e(.transition, "E", 0, "start", "startAuth", "email"),
            e(.transition, "E", 1, "email", "knownEmail", "password"),
            e(.transition, "E", 2, "password", "mfaChallenged", "mfaCode"),
            e(.transition, "E", 3, "mfaCode", "codeAccepted", "authenticated"),
            e(.reset, "E", 4, "authenticated", nil, "start"),
            // F: only a rejection on the first screen.
            e(.rejection, "F", 0, "start", "cancel"),
        ]
    }

    @Test func funnelOfAHandMadeMultiSessionLog() {
        let funnel = FlowTracker.funnel(of: Self.handMadeLog(), success: ["authenticated"], abort: ["cancelled"])
        #expect(funnel == Funnel(
            sessions: 6,
            entries: ["start": 6, "email": 5, "password": 6, "authenticated": 2, "cancelled": 1, "signup": 1, "mfaCode": 2],
            dropOff: ["email": 1, "start": 2],
            completedToSuccess: 2, completedToAbort: 1))
        #expect(funnel.successRate == 2.0 / 6.0)
        #expect(funnel.abortRate == 1.0 / 6.0)
    }

    @Test func funnelSurvivesAJSONLinesRoundTrip() throws {
        let log = Self.handMadeLog()
        let text = FlowTracker.jsonLines(log)
        let read = try FlowTracker.events(fromJSONLines: text)
        #expect(read == log)
        #expect(FlowTracker.funnel(of: read, success: ["authenticated"], abort: ["cancelled"])
            == FlowTracker.funnel(of: log, success: ["authenticated"], abort: ["cancelled"]))
    }

    @Test func funnelOfATrackerUsesItsOwnEvents() {
        let tracker = makeTracker()
        tracker.record(.transition, from: "start", event: "startAuth", to: "email")
        tracker.record(.transition, from: "email", event: "cancel", to: "cancelled")
        tracker.record(.reset, from: "cancelled", to: "start")
        tracker.record(.transition, from: "start", event: "startAuth", to: "email")
        // A retry after cancelling: the session ends where the retry stopped, not at the abort.
        #expect(tracker.funnel(success: ["authenticated"], abort: ["cancelled"]) == Funnel(
            sessions: 1, entries: ["start": 1, "email": 2, "cancelled": 1], dropOff: ["email": 1],
            completedToSuccess: 0, completedToAbort: 0))
    }

    @Test func funnelOfNothingIsAllZero() {
        let funnel = FlowTracker.funnel(of: [], success: ["ok"], abort: [])
        #expect(funnel == Funnel(sessions: 0, entries: [:], dropOff: [:], completedToSuccess: 0, completedToAbort: 0))
        #expect(funnel.successRate == 0 && funnel.abortRate == 0)
    }

    @Test func funnelAsJSONHasSortedCounts() {
        let funnel = Funnel(sessions: 4, entries: ["b": 2, "a": 4], dropOff: ["b": 1], completedToSuccess: 2, completedToAbort: 1)
        #expect(funnel.json.rendered(pretty: false) == #"""
            {"sessions":4,"entries":{"a":4,"b":2},"dropOff":{"b":1},"completedToSuccess":2,"completedToAbort":1,"successRate":0.5,"abortRate":0.25}
            """#)
    }
}
