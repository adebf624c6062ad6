/// The identity service every login provider talks to: the app's backend and the SSO providers' SDKs.
///
/// Providers never reach the network themselves; they call this protocol, so an app injects its
/// real client and a test injects a fake that scripts answers and counts calls. Each method throws
/// only ``LoginError``, already translated from transport and SDK errors (a closed sign-in sheet is
/// ``LoginError/userCancelled``, an unreachable host ``LoginError/noConnection``).
public protocol IdentityBackend: Sendable {
    /// Checks an email and password and returns a session.
    /// - Parameters:
    ///   - email: the address, already validated and trimmed.
    ///   - password: the password, exactly as typed.
    /// - Returns: the new session.
    /// - Throws: ``LoginError/invalidCredentials``, ``LoginError/mfaRequired(challenge:)``,
    ///   ``LoginError/emailNotVerified(email:)``, or a connection or server error.
    func authenticate(email: String, password: String) async throws(LoginError) -> AuthSession

    /// Runs a single sign-on provider's authorisation (its sheet or browser hand-off).
    /// - Parameter request: which provider, which organisation or IdP, and what to ask for.
    /// - Returns: what the provider vouches for, to pass to ``exchange(_:)``.
    /// - Throws: ``LoginError/userCancelled`` when the person closes the sheet, or another error.
    func authorizeSSO(_ request: SSORequest) async throws(LoginError) -> SSOAssertion

    /// Exchanges a provider's assertion for a session with the app's backend.
    /// - Parameter assertion: what ``authorizeSSO(_:)`` returned.
    /// - Returns: the new session.
    /// - Throws: ``LoginError/mfaRequired(challenge:)``, ``LoginError/invalidCredentials`` for an
    ///   assertion the backend refuses, or a connection or server error.
    func exchange(_ assertion: SSOAssertion) async throws(LoginError) -> AuthSession

    /// Answers a second-factor challenge with the code the person entered, and returns the session.
    /// - Parameters:
    ///   - challenge: the challenge from ``LoginError/mfaRequired(challenge:)``, or its latest resend.
    ///   - code: the code, already normalised to the challenge's ``MFAChallenge/passcodePolicy``.
    /// - Returns: the new session.
    /// - Throws: ``LoginError/incorrectCode(attemptsLeft:)``, ``LoginError/codeExpired`` when the
    ///   code or challenge timed out or was tried too often, or a connection or server error.
    func verifyMFA(_ challenge: MFAChallenge, code: String) async throws(LoginError) -> AuthSession

    /// Sends a new code for a second-factor challenge.
    /// - Parameter challenge: the challenge whose code did not arrive or expired.
    /// - Returns: the challenge to answer now; its ``MFAChallenge/id`` may differ.
    /// - Throws: ``LoginError/rateLimited(retryAfterSeconds:)`` when codes were resent too often,
    ///   ``LoginError/codeExpired`` when the sign-in it belongs to is over, or a connection or server error.
    func resendMFA(_ challenge: MFAChallenge) async throws(LoginError) -> MFAChallenge

    /// Sends a password-reset link to an address, if it has an account.
    ///
    /// It succeeds whether or not the address has an account, so that nobody can learn which
    /// addresses do.
    /// - Parameter email: the address, already validated and trimmed.
    /// - Throws: ``LoginError/rateLimited(retryAfterSeconds:)``, or a connection or server error.
    func requestPasswordReset(email: String) async throws(LoginError)

    /// Sets a new password with the token from a reset link.
    /// - Parameters:
    ///   - token: the token the link carried.
    ///   - newPassword: the new password, already checked against the password policy.
    /// - Returns: the account's email address, to prefill the sign-in that follows.
    /// - Throws: ``LoginError/resetLinkInvalid`` for an expired or used link, or a connection or server error.
    func confirmPasswordReset(token: String, newPassword: String) async throws(LoginError) -> String

    /// Renews a stored session, such as at launch, and returns the renewed one.
    /// - Parameter session: the session kept in the ``SessionStore``.
    /// - Returns: the session with a new token, for the same user and provider.
    /// - Throws: ``LoginError/sessionExpired`` when it can no longer be renewed,
    ///   ``LoginError/credentialRevoked`` when the provider revoked the person's credential (for
    ///   Sign in with Apple, found when the backend checks its Apple refresh token), or a
    ///   connection or server error.
    func refreshSession(_ session: AuthSession) async throws(LoginError) -> AuthSession
}

/// What a single sign-on provider is asked for: the provider, the organisation or IdP, a hint, the scopes.
public struct SSORequest: Hashable, Sendable {
    /// The provider to authorise with.
    public var provider: ProviderKind
    /// The identity provider within it: the Okta organisation domain, the SAML IdP identifier, the
    /// Slack workspace, or the Google hosted domain; `nil` when the provider needs none.
    public var identityProvider: String?
    /// An address or user name to prefill in the provider's sheet.
    public var loginHint: String?
    /// The scopes or permissions asked for, in order.
    public var scopes: [String]

    /// Creates a request.
    /// - Parameters:
    ///   - provider: the provider to authorise with.
    ///   - identityProvider: the organisation or IdP within it, if any.
    ///   - loginHint: an address or user name to prefill, if any.
    ///   - scopes: the scopes or permissions asked for.
    public init(provider: ProviderKind, identityProvider: String? = nil, loginHint: String? = nil, scopes: [String] = []) {
        self.provider = provider
        self.identityProvider = identityProvider
        self.loginHint = loginHint
        self.scopes = scopes
    }
}
