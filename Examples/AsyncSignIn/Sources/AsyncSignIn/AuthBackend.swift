/// The second factor the backend asks for.
public enum MFAMethod: String, Hashable, Sendable {
    case sms, totp
}

/// The backend's answer to an email lookup.
public enum LookupAnswer: Hashable, Sendable {
    case found(accountId: String)
    case notFound
}

/// The backend's answer to a password: it decides whether a second factor is needed, and counts wrong passwords itself.
public enum SignInAnswer: Hashable, Sendable {
    case signedIn(token: String)
    case mfaRequired(MFAMethod)
    case wrongPassword
    /// Too many wrong passwords: the server refuses every password until the account is reset.
    case accountLocked
}

/// The backend's answer to a one-time code.
public enum CodeAnswer: Hashable, Sendable {
    case accepted(token: String)
    case wrongCode
}

/// The identity service, injected into ``SignInModel``: the app's real one talks HTTP, its tests' fake is played by a checker.
///
/// Every call may throw (no network, the task was cancelled); the model then stays where it is.
public protocol AuthBackend: Sendable {
    func lookUp(email: String) async throws -> LookupAnswer
    func signIn(email: String, password: String) async throws -> SignInAnswer
    func verify(code: String, accountId: String) async throws -> CodeAnswer
    /// Sends a new code by SMS; nothing is awaited from it but that it was asked.
    func resendCode(accountId: String) async throws
    /// Emails a password-reset link, which also ends a lockout.
    func requestPasswordReset(email: String) async throws
}
