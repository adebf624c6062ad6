import Foundation

/// Sign in with Apple.
///
/// Apple's sheet hands back an identity token (the assertion's ``SSOAssertion/credential``) and a
/// one-time ``SSOAssertion/authorizationCode``. The provider refuses an assertion that lacks
/// either as ``LoginError/invalidCredentials``, without an exchange: the backend needs the token
/// to know who signed in, and the code to get the refresh token through which it later learns that
/// the person revoked the app.
///
/// Apple shares the person's name and email only on the first authorisation; later sign-ins carry
/// no ``SSOAssertion/profile``, and the backend knows the person by the token's subject. The
/// exchange carries the profile, so the backend must keep it then: if that first exchange fails,
/// Apple sends the name again only after the person stops using Sign in with Apple with the app.
/// The email may be a private relay address (``SSOProfile/isPrivateRelayEmail``).
///
/// Closing Apple's sheet is ``LoginError/userCancelled``. A credential the person has revoked is
/// ``LoginError/credentialRevoked``, from the exchange or, later, from the backend's other calls.
/// The provider talks only to the injected ``IdentityBackend``, whose ``IdentityBackend/authorizeSSO(_:)``
/// runs Apple's sheet in an app, so the kit builds without Apple's frameworks.
public struct AppleLoginProvider: SSOLoginProvider {
    /// Whether to ask for the person's name and email; Apple answers only on the first authorisation.
    public var requestsNameAndEmail: Bool

    /// Creates the provider.
    /// - Parameter requestsNameAndEmail: whether to ask for the name and email; `true` unless given.
    public init(requestsNameAndEmail: Bool = true) {
        self.requestsNameAndEmail = requestsNameAndEmail
    }

    /// Always ``ProviderKind/apple``.
    public var kind: ProviderKind { .apple }

    /// What is asked of Apple: the `name` and `email` scopes, or none.
    public var request: SSORequest {
        SSORequest(provider: .apple, scopes: requestsNameAndEmail ? ["name", "email"] : [])
    }

    /// Refuses an assertion without an identity token or an authorisation code.
    /// - Parameter assertion: what Apple's sheet returned.
    /// - Throws: ``LoginError/invalidCredentials`` when either is missing or empty.
    public func check(_ assertion: SSOAssertion) throws(LoginError) {
        guard !assertion.credential.isEmpty, !(assertion.authorizationCode ?? "").isEmpty else {
            throw .invalidCredentials
        }
    }
}

extension SSOProfile {
    /// The domain of the addresses Apple's Hide My Email relays to the person's real address.
    public static let applePrivateRelayDomain = "privaterelay.appleid.com"

    /// Whether the email is an Apple private relay address, which forwards to the person's real one.
    ///
    /// Such an address is unique to the app and works for sending mail, but it matches no account
    /// created with the person's real address: do not link accounts by it, and do not ask the
    /// person to verify it.
    public var isPrivateRelayEmail: Bool {
        guard let email, let at = email.lastIndex(of: "@") else { return false }
        return email[email.index(after: at)...].lowercased() == Self.applePrivateRelayDomain
    }
}
