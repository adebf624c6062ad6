import AuthFlow
import Testing

@Suite struct FlowSessionTests {
    typealias Session = FlowSession<String, String, String, FlowValue>

    func makeSession(tracker: FlowTracker? = nil) throws -> Session {
        try Session(
            initial: "email",
            transitions: [
                Transition(from: "email", on: "knownEmail", to: "password"),
                Transition(from: "password", on: "wrongPassword", to: "password"),
                Transition(from: "password", on: "mfaChallenged", to: "mfaCode"),
                Transition(from: "mfaCode", on: "resend", to: "mfaCode"),
                Transition(from: "mfaCode", on: "codeAccepted", to: "done"),
            ],
            contracts: [
                "email": StepContract(emits: [.init("knownEmail", adds: ["email", "account"]), .init("cancel")]),
                "password": StepContract(requires: ["email", "account"],
                                         emits: [.init("wrongPassword"), .init("mfaChallenged", adds: ["mfaChallenge"])]),
                "mfaCode": StepContract(requires: ["mfaChallenge"], emits: [.init("resend", adds: ["mfaChallenge"]), .init("codeAccepted", adds: ["session"])], canGoBack: true),
                "done": StepContract(requires: ["session"]),
            ],
            terminals: ["done"], tracker: tracker)
    }

    @Test func rejectedOutputLeavesStateAndDataUntouched() throws {
        let session = try makeSession()
        try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c"), ("account", 1)]))
        let before = (session.state, session.data.current, session.machine.history)
        // Listed in no contract:
        #expect(throws: FlowError<String, String, String>.eventNotInContract(state: "password", event: "cancel")) {
            try session.handle(StepOutput("cancel"))
        }
        // In the contract, but with other data keys:
        #expect(throws: FlowError<String, String, String>.outputMismatch(state: "password", event: "mfaChallenged", expected: ["mfaChallenge"], got: ["session"])) {
            try session.handle(StepOutput("mfaChallenged", data: [("session", "s")]))
        }
        #expect(session.state == before.0)
        #expect(session.data.current == before.1)
        #expect(session.machine.history == before.2)
    }

    @Test func eventInTheContractButNotInTheTableIsRejectedBeforeAnyDataIsPushed() throws {
        let session = try makeSession()
        #expect(throws: FlowError<String, String, String>.transition(.noTransition(from: "email", on: "cancel"))) {
            try session.handle(StepOutput("cancel"))
        }
        #expect(session.data.depth == 0)
        #expect(session.data.current.isEmpty)
    }

    @Test func undoAfterASelfLoopRestoresTheExactPreviousDataValues() throws {
        let session = try makeSession()
        try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c"), ("account", 1)]))
        try session.handle(StepOutput("mfaChallenged", data: [("mfaChallenge", "challenge-1")]))
        try session.handle(StepOutput("resend", data: [("mfaChallenge", "challenge-2")]))
        #expect(session.data["mfaChallenge"] == "challenge-2")
        #expect(try session.back() == "mfaCode")
        #expect(session.data.current == ["email": "a@b.c", "account": 1, "mfaChallenge": "challenge-1"])
        #expect(session.machine.history == ["email", "password", "mfaCode"])
    }

    @Test func backIsRefusedAtTheRootAtTerminalsAndWhereDisabled() throws {
        let session = try makeSession()
        #expect(throws: FlowError<String, String, String>.cannotGoBack(state: "email", reason: .atRoot)) { try session.back() }
        try session.handle(StepOutput("knownEmail", data: [("email", "a"), ("account", 1)]))
        try session.handle(StepOutput("mfaChallenged", data: [("mfaChallenge", "c")]))
        try session.handle(StepOutput("codeAccepted", data: [("session", "s")]))
        #expect(throws: FlowError<String, String, String>.cannotGoBack(state: "done", reason: .terminal)) { try session.back() }
        #expect(session.state == "done")
        // The tool's undo still backtracks from a terminal.
        #expect(try session.undo() == "mfaCode")
        #expect(session.data["session"] == nil)
    }

    @Test func stepIsCreatedWithExactlyTheDataItsContractRequires() throws {
        let session = try makeSession()
        var presented: [Result<FlowStep<String, String, String, FlowValue>, FlowError<String, String, String>>] = []
        session.presenter = { presented.append($0) }
        try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c"), ("account", 1)]))
        try session.handle(StepOutput("mfaChallenged", data: [("mfaChallenge", "c")]))
        let step = try session.currentStep()
        #expect(step.state == "mfaCode")
        #expect(step.input == ["mfaChallenge": "c"])
        #expect(presented.count == 2)
        #expect(try presented[0].get().input == ["email": "a@b.c", "account": 1])
    }

    @Test func stepWithMissingInputCannotBeCreated() throws {
        let session = try Session(initial: "a", transitions: [Transition(from: "a", on: "go", to: "b")],
                                  contracts: ["a": StepContract(emits: [.init("go")]), "b": StepContract(requires: ["token"])])
        try session.handle(StepOutput("go"))
        #expect(throws: FlowError<String, String, String>.missingInput(state: "b", missing: ["token"])) { try session.currentStep() }
    }

    @Test func resetAndLogoutReturnToTheRootWithEmptyDataAndHistory() throws {
        let tracker = FlowTracker(sessionID: "s1", clock: { Date(timeIntervalSince1970: 0) })
        let session = try makeSession(tracker: tracker)
        try session.handle(StepOutput("knownEmail", data: [("email", "a"), ("account", 1)]))
        session.logout(newSessionID: "s2")
        #expect(session.state == "email")
        #expect(session.machine.history == ["email"])
        #expect(session.data.current.isEmpty)
        #expect(session.data.depth == 0)
        #expect(tracker.sessionID == "s2")
    }

    @Test func trackerRecordsEveryTransitionRejectionUndoAndReset() throws {
        let tracker = FlowTracker(sessionID: "s1", clock: { Date(timeIntervalSince1970: 0) })
        let session = try makeSession(tracker: tracker)
        try session.handle(StepOutput("knownEmail", data: [("email", "a"), ("account", 1)]))
        _ = try? session.handle(StepOutput("nope"))
        try session.back()
        session.reset()
        #expect(tracker.events.map(\.kind) == [.transition, .rejection, .undo, .reset])
        #expect(tracker.events[0] == TrackedEvent(kind: .transition, sessionID: "s1", timestamp: Date(timeIntervalSince1970: 0),
                                                  from: "email", event: "knownEmail", to: "password", reason: nil,
                                                  added: ["email", "account"]))
        #expect(tracker.events[2].from == "password" && tracker.events[2].to == "email")
    }

    @Test func enabledEventsAreTheContractsEventsTheTableAccepts() throws {
        let session = try makeSession()
        #expect(session.enabledEvents == ["knownEmail"])   // cancel is in the contract but has no transition
        #expect(session.canHandle("knownEmail"))
        #expect(!session.canHandle("cancel"))
    }
}

import Foundation
