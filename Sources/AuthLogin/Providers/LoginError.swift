/// Why a sign-in attempt, or another call to the identity backend, did not succeed.
///
/// Every case maps to a flow event through ``LoginEventNames``, which event depending on the
/// ``LoginOperation`` that failed; ``code`` names the case without its
/// associated values, for analytics and for tables that must cover every case.
public enum LoginError: Error, Hashable, Sendable {
    /// The email and password, or the SSO credential, were not accepted.
    case invalidCredentials
    /// The device is offline or the backend could not be reached.
    case noConnection
    /// The backend answered with an error status.
    case serverError(status: Int)
    /// The person cancelled, for example by closing the provider's sign-in sheet.
    case userCancelled
    /// The account exists, but its email address is not verified yet.
    case emailNotVerified(email: String)
    /// The credentials were right, and a second factor is needed.
    case mfaRequired(challenge: MFAChallenge)
    /// What the person entered was refused before anything was sent.
    case invalidInput([ValidationFailure])
    /// The provider no longer vouches for the person: they stopped using Sign in with Apple with
    /// this app, or the app's authorisation was otherwise revoked. Sign them out and forget the
    /// provider's identifier for them; signing in again starts a new authorisation.
    case credentialRevoked
    /// The one-time code was wrong; `attemptsLeft` more may be tried, if the backend said.
    case incorrectCode(attemptsLeft: Int?)
    /// The one-time code, or the challenge it answers, is no longer valid: it timed out or was
    /// tried too often. A new code must be sent.
    case codeExpired
    /// Too many requests, such as codes resent or reset emails asked for; try again after
    /// `retryAfterSeconds`, if the backend said.
    case rateLimited(retryAfterSeconds: Int?)
    /// The password-reset link has expired or was already used; ask for a new one.
    case resetLinkInvalid
    /// The session can no longer be refreshed: its refresh token expired or the person signed out
    /// everywhere. Sign in again.
    case sessionExpired

    /// The cases of ``LoginError`` without their associated values.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        // In the order of the table in ``LoginEventNames``, which lists events in this order.
        case mfaRequired, invalidCredentials, userCancelled, emailNotVerified, noConnection, serverError, invalidInput
        case credentialRevoked, incorrectCode, codeExpired, rateLimited, resetLinkInvalid, sessionExpired
    }

    /// Which case this is.
    public var code: Code {
        switch self {
        case .invalidCredentials: return .invalidCredentials
        case .noConnection: return .noConnection
        case .serverError: return .serverError
        case .userCancelled: return .userCancelled
        case .emailNotVerified: return .emailNotVerified
        case .mfaRequired: return .mfaRequired
        case .invalidInput: return .invalidInput
        case .credentialRevoked: return .credentialRevoked
        case .incorrectCode: return .incorrectCode
        case .codeExpired: return .codeExpired
        case .rateLimited: return .rateLimited
        case .resetLinkInvalid: return .resetLinkInvalid
        case .sessionExpired: return .sessionExpired
        }
    }

    /// Whether trying again unchanged may succeed (a dropped connection, a server fault, or a
    /// rate limit once it has passed).
    public var isRetryable: Bool {
        switch self {
        case .noConnection, .rateLimited: return true
        case .serverError(let status): return status >= 500 || status == 429
        case .invalidCredentials, .userCancelled, .emailNotVerified, .mfaRequired, .invalidInput, .credentialRevoked,
             .incorrectCode, .codeExpired, .resetLinkInvalid, .sessionExpired:
            return false
        }
    }

    /// Whether the stored session is dead and must be forgotten: the credential was revoked or
    /// the session can no longer be refreshed.
    public var endsSession: Bool {
        switch self {
        case .credentialRevoked, .sessionExpired: return true
        case .invalidCredentials, .noConnection, .serverError, .userCancelled, .emailNotVerified, .mfaRequired,
             .invalidInput, .incorrectCode, .codeExpired, .rateLimited, .resetLinkInvalid:
            return false
        }
    }
}

extension LoginError: CustomStringConvertible {
    /// A message a person can act on.
    public var description: String {
        switch self {
        case .invalidCredentials:
            return "The email or password is incorrect. Check them and try again."
        case .noConnection:
            return "No connection. Check that you are online and try again."
        case .serverError(let status):
            return "The server could not sign you in (status \(status)). Try again in a moment."
        case .userCancelled:
            return "Sign-in was cancelled."
        case .emailNotVerified(let email):
            return "Verify \(email) first: open the link in the email we sent you."
        case .mfaRequired(let challenge):
            let destination = challenge.maskedDestination.map { " to \($0)" } ?? ""
            switch challenge.channel {
            case .email, .sms: return "Enter the code we sent\(destination)."
            case .authenticatorApp: return "Enter the code from your authenticator app."
            case .push: return "Approve the sign-in on \(challenge.maskedDestination ?? "your other device")."
            }
        case .invalidInput(let failures):
            return failures.map(\.description).joined(separator: " ")
        case .credentialRevoked:
            return "This sign-in is no longer allowed for this app. Sign in again."
        case .incorrectCode(let attemptsLeft):
            let left = attemptsLeft.map { $0 == 1 ? " 1 try left." : " \($0) tries left." } ?? ""
            return "That code is not right. Check it and try again." + left
        case .codeExpired:
            return "That code has expired. Ask for a new one."
        case .rateLimited(let seconds):
            return "Too many tries. Wait " + (seconds.map { $0 == 1 ? "1 second" : "\($0) seconds" } ?? "a moment")
                + " and try again."
        case .resetLinkInvalid:
            return "This reset link has expired or was already used. Ask for a new one."
        case .sessionExpired:
            return "You have been signed out. Sign in again."
        }
    }
}

/// The result of a sign-in attempt: a session, or why there is none.
public typealias LoginResult = Result<AuthSession, LoginError>

/// Every call to the identity backend a sign-in flow makes; the event an outcome becomes depends on it.
///
/// A sign-in is ``IdentityBackend/authenticate(email:password:)``, or
/// ``IdentityBackend/authorizeSSO(_:)`` then ``IdentityBackend/exchange(_:)``; each other case is
/// one call of its own.
public enum LoginOperation: String, Hashable, Sendable, CaseIterable {
    /// Signing in with a provider.
    case signIn
    /// Answering a second-factor challenge with its code.
    case verifyMFA
    /// Asking for a new code for a challenge.
    case resendMFA
    /// Asking for a password-reset email.
    case requestPasswordReset
    /// Setting a new password with the reset link's token.
    case confirmPasswordReset
    /// Renewing a stored session, such as at launch.
    case refreshSession
}
