import AuthFlow
import Testing

/// The runtime on `authflow/2`: ``FlowSession`` decides each move by the model's semantics on the real values a step sends.
@Suite struct Version2SessionTests {
    typealias Session = FlowSession<String, String, String, FlowValue>

    static func session(variant: Int = 0) throws -> Session {
        try Version2Tests.load(Version2Tests.fixture()).makeNamedSession(variant: variant)
    }

    static func snapshot(_ session: Session) -> String {
        let keys = ["email", "nextStep", "attempts", "recovery"]
        return session.state + " " + keys.map { "\($0)=\(session.value($0).map { "\($0)" } ?? "-")" }.joined(separator: " ")
    }

    @Test func theVariantsConfigIsHeldAndCountersStartAtZero() throws {
        let code = try Self.session(variant: 0)
        #expect(Self.snapshot(code) == "start email=- nextStep=- attempts=0 recovery=code")
        #expect(code.configuration == ["recovery": .string("code")])
        let link = try Self.session(variant: 1)
        #expect(link.configuration == ["recovery": .string("link")])
        #expect(try Version2Tests.load(Version2Tests.fixture()).variantNames == ["recovery=code", "recovery=link"])
    }

    @Test func guardsDecideWhatTheStepOffersAndCountersCount() throws {
        let session = try Self.session()
        try session.send("begin") { _ in "a@b.c" }
        #expect(session.enabledEvents == ["submitted", "wrongPassword", "useAnotherAccount", "sessionExpired"])
        #expect(!session.canHandle("forgot"))
        #expect(throws: Session.Error.eventNotOffered(state: "signIn", event: "forgot")) { try session.send("forgot") { _ in "x" } }
        #expect(Self.snapshot(session) == "signIn email=a@b.c nextStep=- attempts=0 recovery=code")
        try session.send("wrongPassword") { _ in "unused" }
        try session.send("wrongPassword") { _ in "unused" }
        #expect(Self.snapshot(session) == "signIn email=a@b.c nextStep=- attempts=2 recovery=code")
        #expect(session.canHandle("forgot"))
        try session.send("wrongPassword") { _ in "unused" }
        // At the counter's max the step stops offering it.
        #expect(!session.canHandle("wrongPassword"))
        #expect(throws: Session.Error.eventNotOffered(state: "signIn", event: "wrongPassword")) { try session.send("wrongPassword") { _ in "" } }
        // The config decides the row: recovery by code.
        try session.send("forgot") { _ in "" }
        #expect(session.state == "recoverCode")
        try session.back()
        try session.back()
        #expect(Self.snapshot(session) == "signIn email=a@b.c nextStep=- attempts=2 recovery=code")

        let link = try Self.session(variant: 1)
        try link.send("begin") { _ in "a@b.c" }
        try link.send("wrongPassword") { _ in "" }
        try link.send("forgot") { _ in "" }
        #expect(link.state == "recoverLink")
    }

    @Test func theValueTheBackendSendsPicksTheFirstRowThatHolds() throws {
        for (answer, target) in [("done", "signedIn"), ("confirmTotp", "confirmTotp"), ("resetPassword", "resetPassword")] {
            let session = try Self.session()
            try session.handle(StepOutput("begin", data: [("email", "a@b.c")]))
            try session.handle(StepOutput("submitted", data: [("nextStep", .string(answer))]))
            #expect(session.state == target)
            #expect(session.value("nextStep") == .string(answer))
        }
        let session = try Self.session()
        try session.handle(StepOutput("begin", data: [("email", "a@b.c")]))
        let before = Self.snapshot(session)
        #expect(throws: Session.Error.valueNotInDomain(state: "signIn", event: "submitted", key: "nextStep")) {
            try session.handle(StepOutput("submitted", data: [("nextStep", .string("sms"))]))
        }
        #expect(throws: Session.Error.outputMismatch(state: "signIn", event: "submitted", expected: ["nextStep"], got: [])) {
            try session.handle(StepOutput("submitted", data: []))
        }
        #expect(Self.snapshot(session) == before)
        #expect(session.machine.historyCount == 2)
    }

    /// A value is found in its key's domain by `==`, whatever its bytes: a text in another normalisation (here a Kelvin
    /// sign for a K, longer in UTF-8) takes the branch of the domain text it equals, by the send the checker uses too.
    @Test func aTextEqualToADomainValueInOtherBytesTakesItsBranch() throws {
        let json = try Version2Tests.fixture()
            .replacingOccurrences(of: #"["done", "confirmTotp""#, with: #"["Kdone", "confirmTotp""#)
            .replacingOccurrences(of: #"{ "nextStep": "done" }"#, with: #"{ "nextStep": "Kdone" }"#)
        let kelvin = "\u{212A}done"
        #expect(kelvin == "Kdone" && kelvin.utf8.count != "Kdone".utf8.count)
        for checkerPath in [false, true] {
            let session: Session = try Version2Tests.load(json).makeNamedSession(variant: 0)
            try session.send("begin") { _ in "a@b.c" }
            if checkerPath {
                #expect(session.trySend("submitted") { _ in .string(kelvin) })
            } else {
                try session.handle(StepOutput("submitted", data: [("nextStep", .string(kelvin))]))
            }
            #expect(session.state == "signedIn")
            #expect(session.value("nextStep") == .string("Kdone"))
        }
    }

    @Test func clearsRemoveDataAndBackRestoresItExactly() throws {
        let session = try Self.session()
        try session.send("begin") { _ in "a@b.c" }
        try session.send("wrongPassword") { _ in "" }
        try session.send("useAnotherAccount") { _ in "" }
        #expect(Self.snapshot(session) == "start email=- nextStep=- attempts=0 recovery=code")
        #expect(session.data.count == 0)
        #expect(session.backRefusal == .disabled)   // start says back: false; the checker's undo still restores
        try session.undo()
        #expect(Self.snapshot(session) == "signIn email=a@b.c nextStep=- attempts=1 recovery=code")
    }

    @Test func aResetRowStartsAgainWithNothingToUndoButTheConfig() throws {
        let session = try Self.session(variant: 1)
        try session.send("begin") { _ in "a@b.c" }
        try session.handle(StepOutput("submitted", data: [("nextStep", .string("done"))]))
        #expect(session.state == "signedIn")
        let transition = try session.send("signOut") { _ in "" }
        #expect(transition == Transition(from: "signedIn", on: "signOut", to: "start"))
        #expect(Self.snapshot(session) == "start email=- nextStep=- attempts=0 recovery=link")
        #expect(session.machine.historyCount == 1)
        #expect(session.backRefusal == .atRoot)
        try session.send("begin") { _ in "x@y.z" }
        #expect(session.state == "signIn")
    }

    @Test func anAnywhereRowReachesEveryScreenButTheExceptedOnes() throws {
        let session = try Self.session()
        #expect(throws: Session.Error.eventNotInContract(state: "start", event: "sessionExpired")) { try session.send("sessionExpired") { _ in "" } }
        try session.send("begin") { _ in "a@b.c" }
        try session.send("sessionExpired") { _ in "" }
        #expect(session.state == "expired")
        #expect(throws: Session.Error.eventNotInContract(state: "expired", event: "sessionExpired")) { try session.send("sessionExpired") { _ in "" } }
    }

    @Test func theTrackerRecordsAResetRowAsAReset() throws {
        let tracker = FlowTracker(sessionID: "s1")
        let session = try Version2Tests.load(Version2Tests.fixture()).makeNamedSession(tracker: tracker)
        try session.send("begin") { _ in "a@b.c" }
        try session.handle(StepOutput("submitted", data: [("nextStep", .string("done"))]))
        try session.send("signOut") { _ in "" }
        #expect(tracker.events.map(\.kind) == [.transition, .transition, .reset])
        #expect(tracker.events.last?.event == "signOut")
    }
}
