import AuthFlow
import Foundation
import Testing

/// The runtime's public API under misuse: undo at the root, events from terminal states,
/// re-entrant calls from every callback a session makes, and what "one task at a time" means.
///
/// Concurrency: `FlowSession`, `StateMachine`, `DataStack`'s owners and `FlowTracker` are
/// single-task types and are deliberately not `Sendable` (none of `Sources/AuthFlow` uses
/// `@unchecked Sendable`, which `noUncheckedSendableInTheRuntime` below enforces). The compiler
/// therefore refuses to share one between tasks; for example
///
/// ```swift
/// let session = try FlowSession<String, String, String, FlowValue>(initial: "a", transitions: [], contracts: [:])
/// Task.detached { _ = try? session.back() }   // error: sending value of non-Sendable type
/// _ = try? session.back()                     //   '() async -> ()' risks causing data races
/// func needsSendable<T: Sendable>(_: T) {}
/// needsSendable(session)   // error: type 'FlowSession<…>' does not conform to the 'Sendable' protocol
/// ```
///
/// (Swift 6.3, language mode 6.) Handing a session over to one other task and never touching it
/// again is allowed, and safe. `HostileInputTests.runtimeTypesCannotBeSharedBetweenTasks` compiles
/// these lines against the built module and checks that the compiler still refuses them.
@Suite struct SessionMisuseTests {
    typealias Session = FlowSession<String, String, String, FlowValue>
    typealias Failure = FlowError<String, String, String>

    /// email --knownEmail--> password --accepted--> done (terminal); password --retry--> password.
    static func session(tracker: FlowTracker? = nil) throws -> Session {
        try Session(
            initial: "email",
            transitions: [
                Transition(from: "email", on: "knownEmail", to: "password"),
                Transition(from: "password", on: "retry", to: "password"),
                Transition(from: "password", on: "accepted", to: "done"),
            ],
            contracts: [
                "email": StepContract(emits: [.init("knownEmail", adds: ["email"]), .init("unrouted")]),
                "password": StepContract(requires: ["email"], emits: [.init("retry"), .init("accepted", adds: ["session"])]),
                "done": StepContract(requires: ["session"], emits: [.init("again")]),
            ],
            terminals: ["done"], tracker: tracker)
    }

    /// State, data and history together: what must not change when a request is refused.
    struct Snapshot: Equatable {
        var state: String
        var data: [String: FlowValue]
        var depth: Int
        var history: [String]
    }

    static func presented(_ result: Result<FlowStep<String, String, String, FlowValue>, Failure>) -> String {
        switch result {
        case let .success(step): step.state
        case let .failure(error): "failure: \(error)"
        }
    }

    // MARK: - Refusals change nothing

    @Test func undoAndBackAtTheRootAreRefusedAndChangeNothing() throws {
        let tracker = FlowTracker(sessionID: "s", clock: { Date(timeIntervalSince1970: 0) })
        let session = try Self.session(tracker: tracker)
        let before = Snapshot(session)
        #expect(throws: Failure.cannotGoBack(state: "email", reason: .atRoot)) { try session.back() }
        #expect(throws: Failure.cannotGoBack(state: "email", reason: .atRoot)) { try session.undo() }
        #expect(Snapshot(session) == before)
        #expect(tracker.events.map(\.kind) == [.rejection])
        // Many refusals in a row leave it the same, and it still works afterwards.
        for _ in 0..<1_000 { _ = try? session.undo() }
        #expect(Snapshot(session) == before)
        try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c")]))
        #expect(session.state == "password")
    }

    @Test func eventsFromATerminalStateAreRefusedUnlessTheTableHasThem() throws {
        let session = try Self.session()
        try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c")]))
        try session.handle(StepOutput("accepted", data: [("session", "t")]))
        let before = Snapshot(session)
        // In the contract but not in the table: the machine refuses.
        #expect(throws: Failure.transition(.noTransition(from: "done", on: "again"))) { try session.handle(StepOutput("again")) }
        #expect(throws: Failure.transition(.noTransition(from: "done", on: "again"))) { try session.send("again") { _ in .string("x") } }
        // Not in the contract at all.
        #expect(throws: Failure.eventNotInContract(state: "done", event: "knownEmail")) {
            try session.handle(StepOutput("knownEmail", data: [("email", "b")]))
        }
        #expect(throws: Failure.cannotGoBack(state: "done", reason: .terminal)) { try session.back() }
        #expect(Snapshot(session) == before)
    }

    @Test func malformedOutputsAreRefusedAndChangeNothing() throws {
        let session = try Self.session()
        let before = Snapshot(session)
        #expect(throws: Failure.outputMismatch(state: "email", event: "knownEmail", expected: ["email"], got: [])) {
            try session.handle(StepOutput("knownEmail"))
        }
        #expect(throws: Failure.outputMismatch(state: "email", event: "knownEmail", expected: ["email"], got: ["email", "email"])) {
            try session.handle(StepOutput("knownEmail", data: [("email", "a"), ("email", "b")]))
        }
        #expect(throws: Failure.transition(.noTransition(from: "email", on: "unrouted"))) { try session.handle(StepOutput("unrouted")) }
        #expect(Snapshot(session) == before)
    }

    // MARK: - Re-entrant calls

    @Test func aSendFromThePresenterIsRejectedAndTheOuterCallCompletes() throws {
        let session = try Self.session()
        var presented: [String] = []
        var inner: [Result<Transition<String, String>, Failure>] = []
        session.presenter = { result in
            presented.append(Self.presented(result))
            inner.append(Result { () throws(Failure) in try session.handle(StepOutput("retry")) })
            inner.append(Result { () throws(Failure) in try session.send("retry") { _ in .string("x") } })
            inner.append(Result { () throws(Failure) in _ = try session.back(); return Transition(from: "", on: "", to: "") })
            inner.append(Result { () throws(Failure) in _ = try session.undo(); return Transition(from: "", on: "", to: "") })
        }
        let transition = try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c")]))
        #expect(transition == Transition(from: "email", on: "knownEmail", to: "password"))
        #expect(presented == ["password"])
        let errors = inner.map { result -> Failure? in if case let .failure(error) = result { error } else { nil } }
        #expect(errors == [
            .transition(.reentrantCall(during: "handle(retry)")),
            .transition(.reentrantCall(during: "send(retry)")),
            .transition(.reentrantCall(during: "back()")),
            .transition(.reentrantCall(during: "undo()")),
        ])
        #expect(Snapshot(session) == Snapshot(state: "password", data: ["email": "a@b.c"], depth: 1, history: ["email", "password"]))
    }

    /// A presenter that moves on from every screen it is shown used to recurse without bound on
    /// a self-loop (and overflow the stack); now each inner send is refused.
    @Test func aPresenterThatAlwaysSendsCannotRecurse() throws {
        let session = try Self.session()
        try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c")]))
        var calls = 0
        session.presenter = { _ in
            calls += 1
            _ = try? session.handle(StepOutput("retry"))
        }
        for _ in 0..<100 { try session.handle(StepOutput("retry")) }
        #expect(calls == 100)
        #expect(session.machine.historyCount == 102)
    }

    @Test func aSendFromTheValueClosureOrAMachineObserverIsRejected() throws {
        let session = try Self.session()
        var inner: [Failure] = []
        session.machine.observe { _ in
            do throws(Failure) { try session.handle(StepOutput("retry")) } catch { inner.append(error) }
        }
        try session.send("knownEmail") { key in
            do throws(Failure) { try session.handle(StepOutput("retry")) } catch { inner.append(error) }
            return .string("\(key)-value")
        }
        #expect(inner == [.transition(.reentrantCall(during: "handle(retry)")), .transition(.reentrantCall(during: "handle(retry)"))])
        #expect(Snapshot(session) == Snapshot(state: "password", data: ["email": "email-value"], depth: 1, history: ["email", "password"]))
    }

    @Test func aResetFromThePresenterRunsWhenTheOuterCallHasFinished() throws {
        let tracker = FlowTracker(sessionID: "s1", clock: { Date(timeIntervalSince1970: 0) })
        let session = try Self.session(tracker: tracker)
        var presented: [String] = []
        session.presenter = { result in
            presented.append(Self.presented(result))
            if session.state == "password" { session.reset() }
        }
        let transition = try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c")]))
        #expect(transition.to == "password")
        #expect(presented == ["password", "email"])
        #expect(Snapshot(session) == Snapshot(state: "email", data: [:], depth: 0, history: ["email"]))
        #expect(tracker.events.map(\.kind) == [.transition, .reset])
    }

    /// A reset from a machine observer runs mid-`handle`, between the machine's move and the data
    /// push: run at once, it left the data one frame deeper than the history.
    @Test func aResetFromAMachineObserverCannotSplitStateFromData() throws {
        let session = try Self.session()
        session.machine.observe { event in
            if case .transitioned = event { session.reset() }
        }
        try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c")]))
        #expect(Snapshot(session) == Snapshot(state: "email", data: [:], depth: 0, history: ["email"]))
    }

    @Test func aPresenterThatAlwaysResetsOrLogsOutCannotLoop() throws {
        let tracker = FlowTracker(sessionID: "s1", clock: { Date(timeIntervalSince1970: 0) })
        let session = try Self.session(tracker: tracker)
        var calls = 0
        session.presenter = { _ in
            calls += 1
            session.reset()
        }
        try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c")]))
        #expect(calls == 2)   // password, then the root once
        #expect(Snapshot(session) == Snapshot(state: "email", data: [:], depth: 0, history: ["email"]))

        calls = 0
        var next = 2
        session.presenter = { _ in
            calls += 1
            session.logout(newSessionID: "s\(next)")
            next += 1
        }
        try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c")]))
        #expect(calls == 2)
        #expect(tracker.sessionID == "s3")   // the deferred logout's, then the one asked for during its reset
        #expect(tracker.events.map(\.kind) == [.transition, .reset, .transition, .reset])
        #expect(tracker.events.map(\.sessionID) == ["s1", "s1", "s1", "s1"])
        #expect(Snapshot(session) == Snapshot(state: "email", data: [:], depth: 0, history: ["email"]))
    }

    @Test func theMachineRejectsReentrantCallsFromItsObservers() throws {
        let machine = try StateMachine<String, String>(initial: "a", transitions: [Transition(from: "a", on: "go", to: "b")])
        var inner: [TransitionError<String, String>] = []
        machine.observe { _ in
            do throws(TransitionError<String, String>) { try machine.undo() } catch { inner.append(error) }
        }
        try machine.send("go")
        #expect(inner == [.reentrantCall(during: "undo()")])
        #expect(machine.history == ["a", "b"])
        #expect(throws: TransitionError<String, String>.nothingToUndo(at: "a")) {
            try machine.undo()
            try machine.undo()
        }
    }

    // MARK: - Concurrency

    /// Enforced rather than promised: an `@unchecked Sendable` in the runtime would switch off the
    /// compiler's checks that keep a session on one task.
    @Test func noUncheckedSendableInTheRuntime() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/AuthFlow")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("@unchecked Sendable"), "Sources/AuthFlow/\(file)")
            #expect(!text.contains("nonisolated(unsafe)"), "Sources/AuthFlow/\(file)")
        }
    }
}

extension SessionMisuseTests.Snapshot {
    init(_ session: SessionMisuseTests.Session) {
        self.init(state: session.state, data: session.data.current, depth: session.data.depth, history: session.machine.history)
    }
}

extension Result where Failure == FlowError<String, String, String> {
    /// The outcome of a typed-throwing body.
    init(_ body: () throws(Failure) -> Success) {
        do { self = .success(try body()) } catch { self = .failure(error) }
    }
}
