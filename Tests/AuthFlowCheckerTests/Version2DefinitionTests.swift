import AuthFlow
import AuthFlowChecker
import Testing

/// The typed Swift API for `authflow/2`: the app's own enums, guards as Swift values, the same model as the JSON.
@Suite struct Version2DefinitionTests {
    enum S: String, FlowName { case start, signIn, confirmTotp, resetPassword, recoverCode, recoverLink, expired, signedIn, cancelled }
    enum E: String, FlowName {
        case begin, submitted, wrongPassword, forgot, useAnotherAccount, codeAccepted, done, cancel, restart, signOut, sessionExpired
    }
    enum K: String, FlowName { case email, nextStep, attempts, recovery }
    enum NextStep: String, FlowName, CaseIterable { case done, confirmTotp, resetPassword }
    enum Recovery: String, FlowName, CaseIterable { case code, link }

    /// The fixture `Fixtures/version2/sign-in.json`, declared in Swift.
    static var flow: FlowDefinition<S, E, K> {
        var flow = FlowDefinition<S, E, K>(name: "sign-in where the backend's answer decides the screen",
                                           initial: .start, success: [.signedIn], abort: [.cancelled])
        // Declared in the JSON's order, so the keys get the same ids.
        flow.data(.email)
        flow.data(.nextStep, values: NextStep.allCases)
        flow.counter(.attempts, max: 3)
        flow.config(.recovery, values: Recovery.allCases)
        flow.step(.start, emits: [.begin: [.email]], back: false)
        flow.step(.signIn, requires: [.email], emitting: [
            .emit(.submitted, adds: [.nextStep], by: .system),
            .emit(.wrongPassword, increment: [.attempts], when: .below(.attempts, 3), by: .system),
            .emit(.forgot, when: .atLeast(.attempts, 1)),
            .emit(.useAnotherAccount, clears: [.email, .attempts]),
        ])
        flow.step(.confirmTotp, emits: [.codeAccepted: []])
        flow.step(.resetPassword, emits: [.done: []])
        flow.step(.recoverCode, emits: [.cancel: []])
        flow.step(.recoverLink, emits: [.cancel: []])
        flow.step(.expired, emits: [.restart: []], back: false)
        flow.step(.signedIn, emits: [.signOut: []])
        flow.step(.cancelled)
        flow.transition(.start, on: .begin, to: .signIn)
        flow.transition(.signIn, on: .submitted, to: .signedIn, when: .equals(.nextStep, NextStep.done))
        flow.transition(.signIn, on: .submitted, to: .confirmTotp, when: .equals(.nextStep, NextStep.confirmTotp))
        flow.transition(.signIn, on: .submitted, to: .resetPassword)
        flow.transition(.signIn, on: .wrongPassword, to: .signIn)
        flow.transition(.signIn, on: .forgot, to: .recoverCode, when: .equals(.recovery, Recovery.code))
        flow.transition(.signIn, on: .forgot, to: .recoverLink)
        flow.transition(.signIn, on: .useAnotherAccount, to: .start)
        flow.transition(.confirmTotp, on: .codeAccepted, to: .signedIn)
        flow.transition(.resetPassword, on: .done, to: .signedIn)
        flow.transition(.recoverCode, on: .cancel, to: .cancelled)
        flow.transition(.recoverLink, on: .cancel, to: .cancelled)
        flow.transition(.expired, on: .restart, to: .start)
        flow.transition(.signedIn, on: .signOut, to: .start, reset: true)
        flow.anywhere(on: .sessionExpired, to: .expired, by: .system, except: [.start, .expired])
        return flow
    }

    @Test func theSwiftDeclarationBuildsTheSameModelAsTheJSON() throws {
        let json = try Version2Tests.load(Version2Tests.fixture())
        let swift = try Self.flow.model()
        // Same names, same compiled moves, same roots: the checker sees one flow.
        #expect(swift.states == json.states)
        #expect(swift.events == json.events)
        #expect(swift.keys == json.keys)
        #expect(swift.emissions == json.emissions)
        #expect(swift.rows == json.rows)
        #expect(swift.roots == json.roots)
        #expect(swift.variantNames == json.variantNames)
        let report = FlowChecker.check(Self.flow)
        #expect(report.verdict == .holds)
        #expect(report.stats.configurations == 154)
        #expect(report.stats.stacks == 22714)
    }

    @Test func aTypedSessionRunsOnTheAppsOwnEnums() throws {
        let session = try Self.flow.makeSession(variant: 1)
        try session.send(.begin) { _ in "a@b.c" }
        try session.send(.wrongPassword) { _ in "" }
        try session.send(.forgot) { _ in "" }
        #expect(session.state == .recoverLink)
        #expect(session.value(.attempts) == .int(1))
        #expect(session.configuration == [.recovery: .string("link")])
        try session.back()
        try session.back()
        try session.handle(StepOutput(.submitted, data: [(.nextStep, .string(NextStep.confirmTotp.rawValue))]))
        #expect(session.state == .confirmTotp)
    }

    @Test func guardsComposeWithOperators() {
        let guarded: FlowGuard<K> = .equals(.nextStep, NextStep.done) && !.has(.email) || .below(.attempts, 2)
        #expect(guarded.spec == .any([.all([.equals([FlowSpec.KeyValue("nextStep", "done")]), .not(.has("email"))]),
                                      .below([FlowSpec.CounterBound("attempts", 2)])]))
    }

    @Test func aMistakeIsReportedWhereItWasDeclared() {
        var flow = Self.flow
        flow.transition(.signIn, on: .submitted, to: .expired, when: .equals(.recovery, NextStep.done))
        do throws(InvalidSpecError) {
            _ = try flow.model()
            Issue.record("an unknown value in a guard was accepted")
        } catch {
            #expect(error.issues.contains { $0.path.hasPrefix("Version2DefinitionTests.swift:") && $0.message.contains("done") }, "\(error.issues)")
        }
        #expect(throws: FlowError<S, E, K>.self) { _ = try flow.makeSession() }
    }
}
