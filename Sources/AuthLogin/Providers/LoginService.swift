/// The one place that runs a login provider and does what follows a sign-in, whichever provider it was.
///
/// ``logIn(with:)`` runs the provider against the injected backend, saves the session in the
/// injected ``SessionStore`` on success (and only then), and maps the result to a flow event with
/// ``LoginEventNames``. Providers never store sessions themselves, so post-login work is written
/// and tested once.
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
        if case .success(let session) = result {
            await sessionStore.save(session)
        }
        return LoginOutcome(provider: provider.kind, result: result, event: events.event(for: result, from: provider.kind))
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

    /// Creates an outcome.
    /// - Parameters:
    ///   - provider: the provider that ran.
    ///   - result: its result.
    ///   - event: the flow event the result maps to.
    public init(provider: ProviderKind, result: LoginResult, event: String) {
        self.provider = provider
        self.result = result
        self.event = event
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
