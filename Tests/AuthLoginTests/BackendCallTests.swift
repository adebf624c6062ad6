import AuthFlow
import Testing
@testable import AuthLogin

/// The backend calls after the first sign-in step: an MFA code, a resend, a password reset, a session refresh.
@Suite struct BackendCallTests {
    static let challenge = MFAChallenge(id: "challenge-1", channel: .sms, maskedDestination: "•••42")

    // MARK: MFA verify

    @Test func anAcceptedCodeStoresTheSession() async {
        let backend = FakeIdentityBackend()
        let store = InMemorySessionStore()
        let outcome = await LoginService(backend: backend, sessionStore: store)
            .logIn(with: MFACodeProvider(code: " 12 34-5６ ", for: Self.challenge, after: .emailPassword))
        let session = FakeIdentityBackend.session(.emailPassword)
        #expect(outcome == LoginOutcome(provider: .emailPassword, result: .success(session), event: "codeAccepted",
                                        operation: .verifyMFA))
        #expect(await backend.calls == [.verifyMFA(challengeID: "challenge-1", code: "123456")])
        #expect(await store.history == [.saved(session)])
    }

    @Test(arguments: [
        (LoginError.incorrectCode(attemptsLeft: 2), "wrongCode"),
        (.codeExpired, "codeExpired"),
        (.rateLimited(retryAfterSeconds: 60), "rateLimited"),
        (.noConnection, "loginFailed"),
    ] as [(LoginError, String)])
    func aRefusedCodeStoresNothing(_ error: LoginError, _ event: String) async {
        let backend = FakeIdentityBackend(errors: [.verifyMFA: error])
        let store = InMemorySessionStore()
        let outcome = await LoginService(backend: backend, sessionStore: store)
            .logIn(with: MFACodeProvider(code: "123456", for: Self.challenge, after: .google))
        #expect(outcome == LoginOutcome(provider: .google, result: .failure(error), event: event, operation: .verifyMFA))
        #expect(await store.history == [])
    }

    @Test func aCodeWithNothingLeftNeverReachesTheBackend() async {
        let backend = FakeIdentityBackend()
        let outcome = await LoginService(backend: backend, sessionStore: InMemorySessionStore())
            .logIn(with: MFACodeProvider(code: " -- ", for: Self.challenge, after: .emailPassword))
        #expect(outcome.result == .failure(.invalidInput([.empty(field: "code")])))
        #expect(outcome.event == "invalidInput")
        #expect(await backend.calls == [])
    }

    // MARK: MFA resend

    @Test func aResendGivesTheChallengeToAnswerNow() async {
        let backend = FakeIdentityBackend()
        let outcome = await LoginService(backend: backend, sessionStore: InMemorySessionStore()).resendCode(for: Self.challenge)
        #expect(outcome == LoginCallOutcome(operation: .resendMFA, result: .success(FakeIdentityBackend.resent(Self.challenge)),
                                            event: "resend"))
        #expect(outcome.value?.id == "challenge-1-resent")
        #expect(await backend.calls == [.resendMFA(challengeID: "challenge-1")])
    }

    @Test(arguments: [
        (LoginError.rateLimited(retryAfterSeconds: 30), "rateLimited"),
        (.codeExpired, "codeExpired"),
        (.sessionExpired, "codeExpired"),
        (.serverError(status: 500), "loginFailed"),
    ] as [(LoginError, String)])
    func aRefusedResendSaysWhy(_ error: LoginError, _ event: String) async {
        let backend = FakeIdentityBackend(errors: [.resendMFA: error])
        let outcome = await LoginService(backend: backend, sessionStore: InMemorySessionStore()).resendCode(for: Self.challenge)
        #expect(outcome == LoginCallOutcome(operation: .resendMFA, result: .failure(error), event: event))
        #expect(outcome.value == nil)
        #expect(outcome.error == error)
    }

    // MARK: Password reset

    @Test func aResetEmailIsAskedForWithTheTrimmedAddress() async {
        let backend = FakeIdentityBackend()
        let outcome = await LoginService(backend: backend, sessionStore: InMemorySessionStore())
            .requestPasswordReset(email: " ann@example.com\n")
        #expect(outcome == LoginCallOutcome(operation: .requestPasswordReset, result: .success("ann@example.com"),
                                            event: "resetEmailSent"))
        #expect(await backend.calls == [.requestPasswordReset(email: "ann@example.com")])
    }

    @Test func anInvalidAddressNeverReachesTheBackend() async {
        let backend = FakeIdentityBackend()
        let outcome = await LoginService(backend: backend, sessionStore: InMemorySessionStore()).requestPasswordReset(email: "ann")
        #expect(outcome.error == .invalidInput([.invalidEmail(field: "email", reason: .missingAtSign)]))
        #expect(outcome.event == "invalidInput")
        #expect(await backend.calls == [])
    }

    @Test func tooManyResetEmailsAreRateLimited() async {
        let backend = FakeIdentityBackend(errors: [.requestPasswordReset: .rateLimited(retryAfterSeconds: 300)])
        let outcome = await LoginService(backend: backend, sessionStore: InMemorySessionStore())
            .requestPasswordReset(email: "ann@example.com")
        #expect(outcome == LoginCallOutcome(operation: .requestPasswordReset,
                                            result: .failure(.rateLimited(retryAfterSeconds: 300)), event: "rateLimited"))
    }

    @Test func aNewPasswordIsSetWithTheLinksToken() async {
        let backend = FakeIdentityBackend()
        let store = InMemorySessionStore()
        let outcome = await LoginService(backend: backend, sessionStore: store)
            .confirmPasswordReset(token: "reset-token", newPassword: "correct horse 9")
        #expect(outcome == LoginCallOutcome(operation: .confirmPasswordReset, result: .success("ann@example.com"),
                                            event: "passwordReset"))
        #expect(await backend.calls == [.confirmPasswordReset(token: "reset-token", newPassword: "correct horse 9")])
        #expect(await store.history == [])
    }

    @Test(arguments: [LoginError.resetLinkInvalid, .codeExpired])
    func anExpiredOrUsedLinkIsRefused(_ error: LoginError) async {
        let backend = FakeIdentityBackend(errors: [.confirmPasswordReset: error])
        let outcome = await LoginService(backend: backend, sessionStore: InMemorySessionStore())
            .confirmPasswordReset(token: "reset-token", newPassword: "correct horse 9")
        #expect(outcome == LoginCallOutcome(operation: .confirmPasswordReset, result: .failure(error), event: "resetLinkInvalid"))
    }

    @Test func aWeakPasswordOrMissingTokenNeverReachesTheBackend() async {
        let backend = FakeIdentityBackend()
        let outcome = await LoginService(backend: backend, sessionStore: InMemorySessionStore())
            .confirmPasswordReset(token: " ", newPassword: "short")
        #expect(outcome.error == .invalidInput([
            .empty(field: "token"), .tooShort(field: "password", minimum: 8), .missingCharacterClass(field: "password", .digit),
        ]))
        #expect(await backend.calls == [])
    }

    // MARK: Session refresh

    @Test func aRefreshedSessionReplacesTheStoredOne() async {
        let session = FakeIdentityBackend.session(.google)
        let store = InMemorySessionStore(session: session)
        let outcome = await LoginService(backend: FakeIdentityBackend(), sessionStore: store)
            .logIn(with: SessionRefreshProvider(session: session))
        let renewed = FakeIdentityBackend.refreshed(session)
        #expect(outcome == LoginOutcome(provider: .google, result: .success(renewed), event: "refreshed", operation: .refreshSession))
        #expect(await store.history == [.saved(renewed)])
    }

    @Test(arguments: [
        (LoginError.sessionExpired, true), (.credentialRevoked, true), (.noConnection, false), (.serverError(status: 503), false),
    ] as [(LoginError, Bool)])
    func aFailedRefreshForgetsTheSessionOnlyWhenItIsDead(_ error: LoginError, _ forgotten: Bool) async {
        let session = FakeIdentityBackend.session(.emailPassword)
        let store = InMemorySessionStore(session: session)
        let backend = FakeIdentityBackend(errors: [.refreshSession: error])
        let outcome = await LoginService(backend: backend, sessionStore: store).logIn(with: SessionRefreshProvider(session: session))
        #expect(outcome == LoginOutcome(provider: .emailPassword, result: .failure(error), event: "refreshFailed",
                                        operation: .refreshSession))
        #expect(await store.history == (forgotten ? [.cleared] : []))
        #expect(await store.session == (forgotten ? nil : session))
    }
}
