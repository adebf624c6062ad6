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
