import Foundation

/// The one place that runs a login provider and does what follows a sign-in, whichever provider it was.
///
/// ``logIn(with:)`` runs the provider against the injected backend, saves the session in the
/// injected ``SessionStore`` on success (and only then), clears it when the error ends the session
/// (``LoginError/endsSession``), and maps the result to a flow event with ``LoginEventNames``.
/// Providers never store sessions themselves, so post-login work is written and tested once. The
/// same holds for a code that finishes a sign-in (``MFACodeProvider``) and for renewing a stored
/// session (``SessionRefreshProvider``); the calls that give no session, resending a code and
/// resetting a password, have methods of their own.
///
/// ```swift
/// let service = LoginService(backend: client, sessionStore: keychain)
/// let outcome = await service.logIn(with: GoogleLoginProvider())
/// // outcome.event is "ssoAccepted", "cancel", "mfaChallenged", …: send it to the flow.
/// ```
public struct LoginService: Sendable {
    /// The identity service every provider calls.
    public var backend: any IdentityBackend
    /// Where sessions are saved after a successful sign-in.
    public var sessionStore: any SessionStore
    /// The event names results map to.
    public var events: LoginEventNames

    /// Creates a service.
    /// - Parameters:
    ///   - backend: the identity service.
    ///   - sessionStore: where sessions are saved.
    ///   - events: the event names; ``LoginEventNames/default`` unless given.
    public init(backend: any IdentityBackend, sessionStore: any SessionStore, events: LoginEventNames = .default) {
        self.backend = backend
        self.sessionStore = sessionStore
        self.events = events
    }

    /// Signs in with a provider, saves the session if there is one, and names the flow event.
    /// - Parameter provider: any login provider.
    /// - Returns: the provider, its result and the event it maps to.
    public func logIn(with provider: any LoginProvider) async -> LoginOutcome {
        let result = await provider.logIn(with: backend)
        switch result {
        case .success(let session): await sessionStore.save(session)
        case .failure(let error) where error.endsSession: await sessionStore.clear()
        case .failure: break
        }
        return LoginOutcome(provider: provider.kind, result: result,
                            event: events.event(for: result, of: provider.operation, from: provider.kind),
                            operation: provider.operation)
    }

    /// Asks for a new code for a second-factor challenge.
    /// - Parameter challenge: the challenge whose code did not arrive or expired.
    /// - Returns: the challenge to answer now, and ``LoginEventNames/resend``; or the error, such
    ///   as ``LoginError/rateLimited(retryAfterSeconds:)``, and its event.
    public func resendCode(for challenge: MFAChallenge) async -> LoginCallOutcome<MFAChallenge> {
        await call(.resendMFA, validation: .valid) { () async throws(LoginError) in
            try await backend.resendMFA(challenge)
        }
    }

    /// Asks for a password-reset email.
    /// - Parameter email: the address as typed; surrounding whitespace is removed, then it is
    ///   validated, and an invalid one never reaches the backend.
    /// - Returns: the trimmed address and ``LoginEventNames/resetEmailSent``, whether or not the
    ///   address has an account; or the error and its event.
    public func requestPasswordReset(email: String) async -> LoginCallOutcome<String> {
        let email = email.trimmingCharacters(in: .whitespacesAndNewlines)
        return await call(.requestPasswordReset, validation: Validator<String>.email().validate(email)) { () async throws(LoginError) in
            try await backend.requestPasswordReset(email: email)
            return email
        }
    }

    /// Sets a new password with the token from a reset link.
    /// - Parameters:
    ///   - token: the link's token; it must not be empty.
    ///   - newPassword: the new password, exactly as typed.
    ///   - policy: the rules the new password must meet; ``PasswordPolicy/default`` unless given.
    /// - Returns: the account's email address and ``LoginEventNames/passwordReset``; or the error,
    ///   such as ``LoginError/resetLinkInvalid``, and its event. Nothing is stored: the person
    ///   signs in with the new password next.
    public func confirmPasswordReset(token: String, newPassword: String,
                                     policy: PasswordPolicy = .default) async -> LoginCallOutcome<String> {
        let validation = Validator<String>.nonEmpty(field: "token").validate(token).failures
            + Validator<String>.password(policy).validate(newPassword).failures
        return await call(.confirmPasswordReset, validation: ValidationResult(failures: validation)) { () async throws(LoginError) in
            try await backend.confirmPasswordReset(token: token, newPassword: newPassword)
        }
    }

    /// Runs one backend call that gives no session and names its event.
    private func call<Value>(_ operation: LoginOperation, validation: ValidationResult,
                             _ body: () async throws(LoginError) -> Value) async -> LoginCallOutcome<Value> {
        let result = await attempt(validation: validation, body)
        // No provider is involved; only a sign-in's success event depends on one.
        return LoginCallOutcome(operation: operation, result: result,
                                event: events.event(for: result, of: operation, from: .emailPassword))
    }

    /// Signs out: forgets the stored session.
    public func logOut() async {
        await sessionStore.clear()
    }
}

/// What a sign-in attempt came to: the provider, its result, and the flow event it maps to.
public struct LoginOutcome: Hashable, Sendable {
    /// The provider that ran.
    public var provider: ProviderKind
    /// The session, or why there is none.
    public var result: LoginResult
    /// The flow event to send.
    public var event: String
    /// The backend call the provider ended with: a sign-in, a code, or a refresh.
    public var operation: LoginOperation

    /// Creates an outcome.
    /// - Parameters:
    ///   - provider: the provider that ran.
    ///   - result: its result.
    ///   - event: the flow event the result maps to.
    ///   - operation: the backend call; ``LoginOperation/signIn`` unless given.
    public init(provider: ProviderKind, result: LoginResult, event: String, operation: LoginOperation = .signIn) {
        self.provider = provider
        self.result = result
        self.event = event
        self.operation = operation
    }

    /// The session, when the sign-in succeeded.
    public var session: AuthSession? {
        if case .success(let session) = result { return session }
        return nil
    }

    /// The error, when it did not.
    public var error: LoginError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// What a backend call that gives no session came to: the call, its value or error, and the flow event.
public struct LoginCallOutcome<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The call that ran.
    public var operation: LoginOperation
    /// The call's value, or why there is none.
    public var result: Result<Value, LoginError>
    /// The flow event to send.
    public var event: String

    /// Creates an outcome.
    /// - Parameters:
    ///   - operation: the call that ran.
    ///   - result: its value or error.
    ///   - event: the flow event the result maps to.
    public init(operation: LoginOperation, result: Result<Value, LoginError>, event: String) {
        self.operation = operation
        self.result = result
        self.event = event
    }

    /// The value, when the call succeeded.
    public var value: Value? { try? result.get() }

    /// The error, when it did not.
    public var error: LoginError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
