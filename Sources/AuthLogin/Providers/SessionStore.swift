/// Where a signed-in session is kept: the keychain in an app, memory in a test.
///
/// ``LoginService`` saves the session here after every successful sign-in, whichever provider was
/// used, and clears it on logout. A store deals with its own failures (a keychain store that
/// cannot write might keep the session in memory and log); sign-in does not fail because of it.
public protocol SessionStore: Sendable {
    /// Keeps `session`, replacing any previous one.
    func save(_ session: AuthSession) async
    /// Forgets the session.
    func clear() async
}

/// A session store that keeps the session in memory and records every save and clear.
///
/// Useful in tests, previews and the checker; an app would use a keychain-backed store.
public actor InMemorySessionStore: SessionStore {
    /// One thing done to the store.
    public enum Operation: Hashable, Sendable {
        /// A session was saved.
        case saved(AuthSession)
        /// The session was cleared.
        case cleared
    }

    /// The current session, if any.
    public private(set) var session: AuthSession?
    /// Every save and clear, oldest first.
    public private(set) var history: [Operation] = []

    /// Creates a store.
    /// - Parameter session: a session already kept, if any.
    public init(session: AuthSession? = nil) {
        self.session = session
    }

    /// Keeps `session` and records the save.
    public func save(_ session: AuthSession) {
        self.session = session
        history.append(.saved(session))
    }

    /// Forgets the session and records the clear.
    public func clear() {
        session = nil
        history.append(.cleared)
    }
}
