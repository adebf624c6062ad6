/// The flow events the outcomes of the identity backend's calls become, one name per outcome; the defaults match the specs.
///
/// The mapping is total: every ``LoginOperation``'s success, and every case of ``LoginError`` in
/// every operation, has an event, and the `switch`es behind it have no `default`, so a new error
/// case or operation does not compile until it is given one. A flow spec must have a transition
/// for each event a step emits; rename the events here to match a spec that names them differently.
///
/// | outcome | event (default) |
/// |---|---|
/// | sign-in succeeded, email and password | `passwordAccepted` |
/// | sign-in succeeded, single sign-on | `ssoAccepted` |
/// | MFA code accepted | `codeAccepted` |
/// | new MFA code sent | `resend` |
/// | password-reset email sent | `resetEmailSent` |
/// | new password set | `passwordReset` |
/// | session refreshed | `refreshed` |
/// | ``LoginError/mfaRequired(challenge:)`` | `mfaChallenged` |
/// | ``LoginError/invalidCredentials``, ``LoginError/credentialRevoked`` in a sign-in | `wrongPassword` |
/// | ``LoginError/incorrectCode(attemptsLeft:)``, or ``LoginError/invalidCredentials`` when verifying a code | `wrongCode` |
/// | ``LoginError/codeExpired``, or ``LoginError/sessionExpired`` when verifying or resending a code | `codeExpired` |
/// | ``LoginError/rateLimited(retryAfterSeconds:)`` in any call but a sign-in | `rateLimited` |
/// | ``LoginError/resetLinkInvalid``, or ``LoginError/codeExpired`` when setting a new password | `resetLinkInvalid` |
/// | ``LoginError/userCancelled`` | `cancel` |
/// | ``LoginError/emailNotVerified(email:)`` in a sign-in | `verifyEmail` |
/// | ``LoginError/invalidInput(_:)`` | `invalidInput` |
/// | any other error, such as ``LoginError/noConnection`` or ``LoginError/serverError(status:)`` | `loginFailed` |
/// | any error when refreshing a session | `refreshFailed` |
///
/// A refresh has only two ends because a launch screen has only two ways on: the renewed session,
/// or signing in again; the outcome keeps the error for the message.
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
    /// No connection, a server error, or another failure the person cannot fix on this screen.
    public var loginFailed: String
    /// The input was refused before anything was sent.
    public var invalidInput: String
    /// The MFA code was accepted: a session.
    public var codeAccepted: String
    /// The MFA code was wrong.
    public var wrongCode: String
    /// The MFA code or its challenge expired.
    public var codeExpired: String
    /// A new MFA code was sent.
    public var resend: String
    /// Too many requests; wait.
    public var rateLimited: String
    /// A password-reset email was sent (or, for an unknown address, seemed to be).
    public var resetEmailSent: String
    /// A new password was set.
    public var passwordReset: String
    /// The reset link expired or was used.
    public var resetLinkInvalid: String
    /// The stored session was renewed.
    public var refreshed: String
    /// The stored session could not be renewed.
    public var refreshFailed: String

    /// Creates a set of names; each defaults to the name the specs use.
    public init(
        passwordAccepted: String = "passwordAccepted",
        ssoAccepted: String = "ssoAccepted",
        mfaChallenged: String = "mfaChallenged",
        wrongPassword: String = "wrongPassword",
        cancel: String = "cancel",
        verifyEmail: String = "verifyEmail",
        loginFailed: String = "loginFailed",
        invalidInput: String = "invalidInput",
        codeAccepted: String = "codeAccepted",
        wrongCode: String = "wrongCode",
        codeExpired: String = "codeExpired",
        resend: String = "resend",
        rateLimited: String = "rateLimited",
        resetEmailSent: String = "resetEmailSent",
        passwordReset: String = "passwordReset",
        resetLinkInvalid: String = "resetLinkInvalid",
        refreshed: String = "refreshed",
        refreshFailed: String = "refreshFailed"
    ) {
        self.passwordAccepted = passwordAccepted
        self.ssoAccepted = ssoAccepted
        self.mfaChallenged = mfaChallenged
        self.wrongPassword = wrongPassword
        self.cancel = cancel
        self.verifyEmail = verifyEmail
        self.loginFailed = loginFailed
        self.invalidInput = invalidInput
        self.codeAccepted = codeAccepted
        self.wrongCode = wrongCode
        self.codeExpired = codeExpired
        self.resend = resend
        self.rateLimited = rateLimited
        self.resetEmailSent = resetEmailSent
        self.passwordReset = passwordReset
        self.resetLinkInvalid = resetLinkInvalid
        self.refreshed = refreshed
        self.refreshFailed = refreshFailed
    }

    /// The default names, each the name of its property.
    public static let `default` = LoginEventNames()

    /// The event a sign-in result becomes.
    /// - Parameters:
    ///   - result: the provider's result.
    ///   - provider: which provider produced it; a success is ``passwordAccepted`` for email and
    ///     password and ``ssoAccepted`` for every single sign-on provider.
    /// - Returns: the event name.
    public func event(for result: LoginResult, from provider: ProviderKind) -> String {
        event(for: result, of: .signIn, from: provider)
    }

    /// The event the result of any backend call becomes.
    /// - Parameters:
    ///   - result: the call's value, or its error.
    ///   - operation: which call it was.
    ///   - provider: the provider the person signs in with; it matters only for a sign-in's success.
    /// - Returns: the event name.
    public func event<Value>(for result: Result<Value, LoginError>, of operation: LoginOperation,
                             from provider: ProviderKind) -> String {
        switch result {
        case .success: return success(of: operation, from: provider)
        case .failure(let error): return event(for: error.code, in: operation)
        }
    }

    /// The event a sign-in error becomes.
    /// - Parameter error: the error.
    /// - Returns: the event name.
    public func event(for error: LoginError) -> String {
        event(for: error.code, in: .signIn)
    }

    /// The event a call's success becomes.
    /// - Parameters:
    ///   - operation: the call.
    ///   - provider: the provider signed in with; a sign-in's success depends on it.
    /// - Returns: the event name.
    public func success(of operation: LoginOperation, from provider: ProviderKind) -> String {
        switch operation {
        case .signIn: return provider.isSSO ? ssoAccepted : passwordAccepted
        case .verifyMFA: return codeAccepted
        case .resendMFA: return resend
        case .requestPasswordReset: return resetEmailSent
        case .confirmPasswordReset: return passwordReset
        case .refreshSession: return refreshed
        }
    }

    /// The event an error becomes in a call, by its ``LoginError/Code``.
    ///
    /// Each call names the errors it can meet; an error the backend's contract does not let the
    /// call throw still has an event, ``loginFailed``, so that the mapping stays total.
    /// - Parameters:
    ///   - code: the error's case.
    ///   - operation: the call that failed.
    /// - Returns: the event name.
    public func event(for code: LoginError.Code, in operation: LoginOperation) -> String {
        switch (operation, code) {
        case (.refreshSession, _): return refreshFailed
        case (_, .userCancelled): return cancel
        case (_, .invalidInput): return invalidInput
        case (.signIn, .mfaRequired), (.verifyMFA, .mfaRequired): return mfaChallenged
        case (.signIn, .invalidCredentials), (.signIn, .credentialRevoked): return wrongPassword
        case (.signIn, .emailNotVerified): return verifyEmail
        case (.verifyMFA, .invalidCredentials), (.verifyMFA, .incorrectCode): return wrongCode
        case (.verifyMFA, .codeExpired), (.verifyMFA, .sessionExpired),
             (.resendMFA, .codeExpired), (.resendMFA, .sessionExpired):
            return codeExpired
        case (.verifyMFA, .rateLimited), (.resendMFA, .rateLimited),
             (.requestPasswordReset, .rateLimited), (.confirmPasswordReset, .rateLimited):
            return rateLimited
        case (.confirmPasswordReset, .resetLinkInvalid), (.confirmPasswordReset, .codeExpired): return resetLinkInvalid
        case (.signIn, .noConnection), (.signIn, .serverError), (.signIn, .incorrectCode), (.signIn, .codeExpired),
             (.signIn, .rateLimited), (.signIn, .resetLinkInvalid), (.signIn, .sessionExpired),
             (.verifyMFA, .emailNotVerified), (.verifyMFA, .credentialRevoked), (.verifyMFA, .noConnection),
             (.verifyMFA, .serverError), (.verifyMFA, .resetLinkInvalid),
             (.resendMFA, .mfaRequired), (.resendMFA, .invalidCredentials), (.resendMFA, .emailNotVerified),
             (.resendMFA, .credentialRevoked), (.resendMFA, .noConnection), (.resendMFA, .serverError),
             (.resendMFA, .incorrectCode), (.resendMFA, .resetLinkInvalid),
             (.requestPasswordReset, _),
             (.confirmPasswordReset, .mfaRequired), (.confirmPasswordReset, .invalidCredentials),
             (.confirmPasswordReset, .emailNotVerified), (.confirmPasswordReset, .credentialRevoked),
             (.confirmPasswordReset, .noConnection), (.confirmPasswordReset, .serverError),
             (.confirmPasswordReset, .incorrectCode), (.confirmPasswordReset, .sessionExpired):
            return loginFailed
        }
    }

    /// Every distinct event a sign-in step with this provider can emit, in the order of the table above.
    ///
    /// Check a spec with it: the step that signs in must have a transition for each.
    /// - Parameter provider: the provider the step uses.
    public func events(from provider: ProviderKind) -> [String] {
        events(of: .signIn, from: provider)
    }

    /// Every distinct event a call can become: its success first, then its errors in the order of
    /// ``LoginError/Code``.
    /// - Parameters:
    ///   - operation: the call.
    ///   - provider: the provider signed in with.
    public func events(of operation: LoginOperation, from provider: ProviderKind) -> [String] {
        var seen: Set<String> = []
        let all = [success(of: operation, from: provider)] + LoginError.Code.allCases.map { event(for: $0, in: operation) }
        return all.filter { seen.insert($0).inserted }
    }
}
