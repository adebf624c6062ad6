/// The flow events a sign-in result becomes, one name per outcome; the defaults match the spec examples.
///
/// The mapping is total: every ``LoginResult``, and every case of ``LoginError``, has an event, and
/// the `switch` behind it has no `default`, so a new error case does not compile until it is
/// given one. A flow spec must have a transition for each event a sign-in step emits; rename the
/// events here to match a spec that names them differently.
///
/// | result | event (default) |
/// |---|---|
/// | success, email and password | `passwordAccepted` |
/// | success, single sign-on | `ssoAccepted` |
/// | ``LoginError/mfaRequired(challenge:)`` | `mfaChallenged` |
/// | ``LoginError/invalidCredentials``, ``LoginError/credentialRevoked`` | `wrongPassword` |
/// | ``LoginError/userCancelled`` | `cancel` |
/// | ``LoginError/emailNotVerified(email:)`` | `verifyEmail` |
/// | ``LoginError/noConnection``, ``LoginError/serverError(status:)`` | `loginFailed` |
/// | ``LoginError/invalidInput(_:)`` | `invalidInput` |
public struct LoginEventNames: Hashable, Sendable {
    /// A session from the email and password provider.
    public var passwordAccepted: String
    /// A session from a single sign-on provider.
    public var ssoAccepted: String
    /// A second factor is needed.
    public var mfaChallenged: String
    /// The credentials were refused, or the provider revoked them.
    public var wrongPassword: String
    /// The person cancelled.
    public var cancel: String
    /// The email address must be verified first.
    public var verifyEmail: String
    /// No connection, or a server error.
    public var loginFailed: String
    /// The input was refused before anything was sent.
    public var invalidInput: String

    /// Creates a set of names; each defaults to the name the spec examples use.
    public init(
        passwordAccepted: String = "passwordAccepted",
        ssoAccepted: String = "ssoAccepted",
        mfaChallenged: String = "mfaChallenged",
        wrongPassword: String = "wrongPassword",
        cancel: String = "cancel",
        verifyEmail: String = "verifyEmail",
        loginFailed: String = "loginFailed",
        invalidInput: String = "invalidInput"
    ) {
        self.passwordAccepted = passwordAccepted
        self.ssoAccepted = ssoAccepted
        self.mfaChallenged = mfaChallenged
        self.wrongPassword = wrongPassword
        self.cancel = cancel
        self.verifyEmail = verifyEmail
        self.loginFailed = loginFailed
        self.invalidInput = invalidInput
    }

    /// The default names: `passwordAccepted`, `ssoAccepted`, `mfaChallenged`, `wrongPassword`,
    /// `cancel`, `verifyEmail`, `loginFailed`, `invalidInput`.
    public static let `default` = LoginEventNames()

    /// The event a sign-in result becomes.
    /// - Parameters:
    ///   - result: the provider's result.
    ///   - provider: which provider produced it; a success is ``passwordAccepted`` for email and
    ///     password and ``ssoAccepted`` for every single sign-on provider.
    /// - Returns: the event name.
    public func event(for result: LoginResult, from provider: ProviderKind) -> String {
        switch result {
        case .success:
            return provider.isSSO ? ssoAccepted : passwordAccepted
        case .failure(let error):
            return event(for: error)
        }
    }

    /// The event a sign-in error becomes.
    /// - Parameter error: the error.
    /// - Returns: the event name.
    public func event(for error: LoginError) -> String {
        switch error {
        case .mfaRequired: return mfaChallenged
        case .invalidCredentials, .credentialRevoked: return wrongPassword
        case .userCancelled: return cancel
        case .emailNotVerified: return verifyEmail
        case .noConnection, .serverError: return loginFailed
        case .invalidInput: return invalidInput
        }
    }

    /// Every distinct event a sign-in step with this provider can emit, in the order of the table above.
    ///
    /// Check a spec with it: the step that signs in must have a transition for each.
    /// - Parameter provider: the provider the step uses.
    public func events(from provider: ProviderKind) -> [String] {
        var seen: Set<String> = []
        let all = [provider.isSSO ? ssoAccepted : passwordAccepted, mfaChallenged, wrongPassword, cancel,
                   verifyEmail, loginFailed, invalidInput]
        return all.filter { seen.insert($0).inserted }
    }
}
