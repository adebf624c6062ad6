import AuthFlow
import AuthFlowChecker
import Foundation
import Testing

/// The gate fails on what is almost always a bug, where `check` only notes it (#29 item 3): a step no path reaches and a
/// row that never fires, unless the test accepts that finding by name; an unused data key stays a note.
@Suite struct FlowGateLintTests {
    /// The tutorial's first flow with a `guest` screen nothing leads to: a row swapped away, as the issue's user found it.
    static let guestUnreachable = #"""
    {
      "format": "authflow/1",
      "initial": "email",
      "success": ["home"],
      "abort": ["cancelled"],
      "steps": {
        "email":     { "back": false, "emits": { "continue": ["email"], "cancel": [] } },
        "password":  { "requires": ["email"], "emits": { "signIn": ["session"] } },
        "guest":     { "emits": { "signIn": ["session"] } },
        "home":      { "requires": ["session"] },
        "cancelled": {}
      },
      "transitions": [
        { "from": "email",    "on": "continue", "to": "password" },
        { "from": "email",    "on": "cancel",   "to": "cancelled" },
        { "from": "password", "on": "signIn",   "to": "home" },
        { "from": "guest",    "on": "signIn",   "to": "home" }
      ]
    }
    """#

    /// An `authflow/2` flow whose second row for `continue` never fires: the unguarded first row always takes the event.
    static let rowNeverFires = #"""
    {
      "format": "authflow/2",
      "initial": "email",
      "success": ["home"],
      "abort": ["cancelled"],
      "data": { "email": {} },
      "steps": {
        "email":     { "back": false, "emits": { "continue": { "adds": ["email"] }, "cancel": {} } },
        "password":  { "requires": ["email"], "emits": { "signIn": {} } },
        "home":      {},
        "cancelled": {}
      },
      "transitions": [
        { "from": "email",    "on": "continue", "to": "password" },
        { "from": "email",    "on": "continue", "to": "home", "when": { "has": "email" } },
        { "from": "email",    "on": "cancel",   "to": "cancelled" },
        { "from": "password", "on": "signIn",   "to": "home" }
      ]
    }
    """#

    static func write(_ json: String, _ name: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gate-lint-\(name)-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        return file.path
    }

    @Test func anUnreachableStepFailsTheGateAtItsLineAndSaysHowToAcceptIt() throws {
        let path = try Self.write(Self.guestUnreachable, "guest")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // check says holds (the contract makes lint a note, exit 0),
        #expect(FlowChecker.check(file: path).verdict == .holds)
        // but the gate fails on the step, and only on it: the row out of guest is dead because guest is.
        let failure = #expect(throws: FlowCheckFailure.self) { try FlowGate.assertHolds(file: path) }
        #expect(failure?.report.verdict == .holds, "the properties hold; the gate fails on the finding")
        #expect(failure?.unaccepted == [.unreachable("guest")])
        let text = failure?.description ?? ""
        #expect(text.contains("fails the gate — 1 finding that is almost always a bug"), "\(text)")
        #expect(text.contains("unreachable: guest (line 9)"), "\(text)")
        #expect(text.contains(#"accepting: [.unreachable("guest")]"#), "\(text)")
        #expect(text.contains("lint: unreachable states: guest"), "the report follows: \(text)")
    }

    @Test func anAcceptedUnreachableStepPassesWithTheRowsOutOfIt() throws {
        let path = try Self.write(Self.guestUnreachable, "guest-accepted")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try FlowGate.assertHolds(file: path, accepting: [.unreachable("guest")])
        #expect(report.lint.unreachable == ["guest"])
        #expect(report.lint.deadTransitions == ["guest.signIn"])
    }

    @Test func aRowThatNeverFiresFailsTheGate() throws {
        let path = try Self.write(Self.rowNeverFires, "row")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FlowChecker.check(file: path).verdict == .holds)
        let failure = #expect(throws: FlowCheckFailure.self) { try FlowGate.assertHolds(file: path) }
        #expect(failure?.unaccepted == [.shadowedRow("email.continue→home")])
        #expect(failure?.description.contains("shadowed row: email.continue→home (line 15)") == true, "\(failure?.description ?? "")")
        try FlowGate.assertHolds(file: path, accepting: [.shadowedRow("email.continue→home")])
    }

    @Test func aDeadTransitionFailsTheGate() throws {
        // The guest step reached, but its row on an event it never emits: the row is dead.
        let json = Self.guestUnreachable.replacingOccurrences(of: #""cancel": [] } },"#, with: #""cancel": [], "guest": [] } },"#)
            .replacingOccurrences(of: #"{ "from": "guest",    "on": "signIn",   "to": "home" }"#,
                                  with: #"{ "from": "email", "on": "guest", "to": "guest" }, { "from": "guest", "on": "leave", "to": "home" }, { "from": "guest", "on": "signIn", "to": "home" }"#)
        let path = try Self.write(json, "dead")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let failure = #expect(throws: FlowCheckFailure.self) { try FlowGate.assertHolds(file: path) }
        #expect(failure?.unaccepted == [.deadTransition("guest.leave")], "\(failure?.description ?? "")")
    }

    @Test func anAcceptanceThatMatchesNothingFailsSoItCannotOutliveItsFinding() throws {
        let spec = try #require(Files.specs.first { $0.hasSuffix("/email-first.json") })
        let failure = #expect(throws: FlowCheckFailure.self) { try FlowGate.assertHolds(file: spec, accepting: [.unreachable("guest")]) }
        #expect(failure?.unaccepted == [])
        #expect(failure?.stale == [.unreachable("guest")])
        #expect(failure?.description.contains("accepted, but not found: unreachable: guest") == true, "\(failure?.description ?? "")")
    }

    @Test func unusedDataStaysANoteUnlessStrict() throws {
        let spec = try #require(Files.specs.first { $0.hasSuffix("/signup-details-last.json") })
        #expect(try FlowGate.assertHolds(file: spec).lint.unusedData == ["userDetails"])
        let failure = #expect(throws: FlowCheckFailure.self) { try FlowGate.assertHolds(file: spec, options: CheckOptions(strict: true)) }
        #expect(failure?.report.lint.unusedData == ["userDetails"])
        try FlowGate.assertHolds(file: spec, options: CheckOptions(strict: true), accepting: [.unusedData("userDetails")])
    }

    @Test func aFlowDeclaredInSwiftWithAnUnreachableStepFailsTheGate() throws {
        enum S: String, FlowName { case email, password, guest, home, cancelled }
        enum E: String, FlowName { case next, cancel, signIn }
        enum K: String, FlowName { case email, session }
        var flow = FlowDefinition<S, E, K>(name: "guest nothing leads to", initial: .email, success: [.home], abort: [.cancelled])
        flow.step(.email, emits: [.next: [.email], .cancel: []], back: false)
        flow.step(.password, requires: [.email], emits: [.signIn: [.session]])
        flow.step(.guest, emits: [.signIn: [.session]])
        flow.step(.home, requires: [.session])
        flow.step(.cancelled)
        flow.transition(.email, on: .next, to: .password)
        flow.transition(.email, on: .cancel, to: .cancelled)
        flow.transition(.password, on: .signIn, to: .home)
        flow.transition(.guest, on: .signIn, to: .home)
        let failure = #expect(throws: FlowCheckFailure.self) { try FlowGate.assertHolds(flow) }
        #expect(failure?.unaccepted == [.unreachable("guest")])
        try FlowGate.assertHolds(flow, accepting: [.unreachable("guest")])
    }

    @Test func theGateChecksOnlyTheVariantsItIsGivenAndJudgesLintOverTheWholeFlow() throws {
        let path = Files.version2("promela-variant-unmet")
        // Every variant: where mfa is optional, skip reaches signedIn without a session.
        let every = #expect(throws: FlowCheckFailure.self) { try FlowGate.assertHolds(file: path) }
        #expect(every?.report.violations.map(\.property) == [.unmetRequirement])
        // mfa=required alone holds (the gate checked every variant whatever it was given); skip is never offered
        // there, so its row never fires, but it fires in the flow: no finding of the flow.
        let required = try FlowGate.assertHolds(file: path, options: CheckOptions(variants: ["mfa": ["required"]]))
        #expect(required.lint.deadTransitions == ["mfaCode.skip"])
        // A value the config does not have is said, not ignored.
        let wrong = #expect(throws: FlowCheckFailure.self) {
            try FlowGate.assertHolds(file: path, options: CheckOptions(variants: ["mfa": ["sometimes"]]))
        }
        #expect(wrong?.report.verdict == .invalid)
        #expect(wrong?.description.contains("variants mfa=sometimes") == true, "\(wrong?.description ?? "")")
    }

    @Test func everyFindingNamesItselfAsTheFailureWritesIt() {
        #expect(GateFinding.unreachable("guest").description == "unreachable: guest")
        #expect(GateFinding.deadTransition("email.skip").description == "dead transition: email.skip")
        #expect(GateFinding.shadowedRow("a.b→c").swiftLiteral == #".shadowedRow("a.b→c")"#)
        #expect(GateFinding.unusedData(#"a"b\c"#).swiftLiteral == #".unusedData("a\"b\\c")"#)
        #expect(GateFinding.unreachable("guest").failsByDefault)
        #expect(!GateFinding.unusedData("k").failsByDefault)
    }
}
