import AuthFlow
@testable import AuthFlowChecker
import Testing

/// Section 5 declared with the typed Swift API builds the model the JSON builds.
@Suite struct Section5DefinitionTests {
    enum S: String, FlowName { case start, password, mfa, done }
    enum E: String, FlowName { case go, wrong, submit, pass, signOut, ping }
    enum K: String, FlowName { case email, seen, attempts, visits, answer, mode }
    enum Answer: String, FlowName, CaseIterable { case ok, mfa, locked }
    enum Mode: String, FlowName, CaseIterable { case a, b }

    /// ``Section5EffectsTests/spec`` in Swift, in the JSON's order.
    static var flow: FlowDefinition<S, E, K> {
        var flow = FlowDefinition<S, E, K>(initial: .start, success: [.done], abort: [])
        flow.data(.email)
        flow.data(.seen)
        flow.counter(.attempts, max: 3)
        flow.counter(.visits, max: 5)
        flow.data(.answer, values: Answer.allCases)
        flow.data(.mode, values: Mode.allCases)
        flow.step(.start, emits: [.go: [.email]])
        flow.step(.password, requires: [.email], emitting: [
            .emit(.wrong, set: [.mode: Mode.a], increment: [.attempts], by: .system),
            .emit(.submit, adds: [.answer], answers: [.answer: [Answer.mfa, Answer.ok]], by: .system),
        ], entry: FlowEffects(adds: [.seen], increment: [.visits]))
        flow.step(.mfa, emits: [.pass: []])
        flow.step(.done, emits: [.signOut: []])
        flow.transition(.start, on: .go, to: .password)
        flow.transition(.password, on: .wrong, to: .password, clears: [.attempts], set: [.mode: Mode.b])
        flow.transition(.password, on: .submit, to: .mfa, when: .equals(.answer, Answer.mfa))
        flow.transition(.password, on: .submit, to: .done)
        flow.transition(.mfa, on: .pass, to: .done, adds: [.seen])
        flow.transition(.done, on: .signOut, to: .start, reset: true, keeps: [.email])
        flow.anywhereStaying(on: .ping, by: .system, except: [.start])
        return flow
    }

    @Test func theSwiftDeclarationBuildsTheSameModelAsTheJSON() throws {
        let json = try SpecLoader.load(json: Section5EffectsTests.spec)
        let swift = try Self.flow.model()
        #expect(swift.states == json.states)
        #expect(swift.events == json.events)
        #expect(swift.keys == json.keys)
        #expect(swift.emissions == json.emissions)
        #expect(swift.rows == json.rows)
        #expect(swift.roots == json.roots)
    }

    @Test func aTypedSessionKeepsTheEmailAcrossSignOut() throws {
        let session = try Self.flow.makeSession()
        try session.send(.go) { _ in "a@b.c" }
        try session.send(.submit) { _ in "ok" }
        try session.send(.signOut) { _ in "" }
        #expect(session.state == .start)
        #expect(session.value(.email) == .string("a@b.c"))
        #expect(session.value(.seen) == nil)
    }
}
