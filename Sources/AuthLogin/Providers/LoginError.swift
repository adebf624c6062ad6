/// Why a sign-in attempt did not produce a session.
///
/// Every case maps to a flow event through ``LoginEventNames``; ``code`` names the case without its
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

    /// The cases of ``LoginError`` without their associated values.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        case invalidCredentials, noConnection, serverError, userCancelled, emailNotVerified, mfaRequired, invalidInput
        case credentialRevoked
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
        }
    }

    /// Whether trying again unchanged may succeed (a dropped connection or a server fault).
    public var isRetryable: Bool {
        switch self {
        case .noConnection: return true
        case .serverError(let status): return status >= 500 || status == 429
        case .invalidCredentials, .userCancelled, .emailNotVerified, .mfaRequired, .invalidInput, .credentialRevoked:
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
        }
    }
}

/// The result of a sign-in attempt: a session, or why there is none.
public typealias LoginResult = Result<AuthSession, LoginError>
