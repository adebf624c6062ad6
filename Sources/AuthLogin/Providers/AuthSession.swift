import Foundation

/// A signed-in session: who the user is, the token that proves it, and how they signed in.
///
/// Its `description` never shows the token, so a session can be logged or printed in a report.
public struct AuthSession: Hashable, Sendable {
    /// The backend's identifier for the user.
    public var userID: String
    /// The bearer token; a secret.
    public var token: String
    /// How the user signed in.
    public var provider: ProviderKind
    /// When the token stops being valid, if the backend said.
    public var expiresAt: Date?

    /// Creates a session.
    /// - Parameters:
    ///   - userID: the backend's identifier for the user.
    ///   - token: the bearer token.
    ///   - provider: how the user signed in.
    ///   - expiresAt: when the token expires, if known.
    public init(userID: String, token: String, provider: ProviderKind, expiresAt: Date? = nil) {
        self.userID = userID
        self.token = token
        self.provider = provider
        self.expiresAt = expiresAt
    }
}

extension AuthSession: CustomStringConvertible, CustomDebugStringConvertible {
    /// The session with its token shown as `<redacted>`.
    public var description: String {
        "AuthSession(userID: \(userID), token: <redacted>, provider: \(provider.rawValue)"
            + (expiresAt.map { ", expiresAt: \($0)" } ?? "") + ")"
    }

    /// The same as ``description``: the token is never printed.
    public var debugDescription: String { description }
}

/// What a single sign-on provider vouches for, to be exchanged with the backend for a session.
///
/// The credential is whatever the provider hands back: an OpenID Connect ID token, an OAuth
/// authorisation code, or a SAML response. Some providers hand back more: Sign in with Apple gives
/// an identity token and a one-time authorisation code (the backend redeems the code for a refresh
/// token, which is how it later learns of a revocation), and the person's name and email only the
/// first time they authorise the app. Its `description` never shows the credential, the code or
/// the profile.
public struct SSOAssertion: Hashable, Sendable {
    /// The provider that issued the assertion.
    public var provider: ProviderKind
    /// The identity provider within it: the Okta organisation, the SAML IdP, the Slack workspace.
    public var identityProvider: String?
    /// The token, code or response; a secret.
    public var credential: String
    /// A one-time authorisation code the backend redeems with the provider, when the provider gives
    /// one beside the credential; a secret.
    public var authorizationCode: String?
    /// Who the person is, when the provider said: for Sign in with Apple only on the first
    /// authorisation, so the backend must keep it then.
    public var profile: SSOProfile?

    /// Creates an assertion.
    /// - Parameters:
    ///   - provider: the provider that issued it.
    ///   - identityProvider: the organisation or IdP within the provider, if any.
    ///   - credential: the token, code or response.
    ///   - authorizationCode: a one-time code beside the credential, if any.
    ///   - profile: the name and email the provider shared, if it shared them.
    public init(provider: ProviderKind, identityProvider: String? = nil, credential: String,
                authorizationCode: String? = nil, profile: SSOProfile? = nil) {
        self.provider = provider
        self.identityProvider = identityProvider
        self.credential = credential
        self.authorizationCode = authorizationCode
        self.profile = profile
    }
}

extension SSOAssertion: CustomStringConvertible, CustomDebugStringConvertible {
    /// The assertion with its credential, code and profile shown as `<redacted>`.
    public var description: String {
        "SSOAssertion(provider: \(provider.rawValue)"
            + (identityProvider.map { ", identityProvider: \($0)" } ?? "") + ", credential: <redacted>"
            + (authorizationCode == nil ? "" : ", authorizationCode: <redacted>")
            + (profile == nil ? "" : ", profile: <redacted>") + ")"
    }

    /// The same as ``description``: the credential is never printed.
    public var debugDescription: String { description }
}

/// What a single sign-on provider shared about the person: their name and email address.
///
/// Every part is optional: the person may decline to share it, and Sign in with Apple shares it
/// only on the first authorisation. The email may be a private relay address that forwards to the
/// person's real one (see ``isPrivateRelayEmail``).
public struct SSOProfile: Hashable, Sendable {
    /// The given (first) name, if shared.
    public var givenName: String?
    /// The family (last) name, if shared.
    public var familyName: String?
    /// The email address, if shared; possibly a relay address.
    public var email: String?

    /// Creates a profile.
    /// - Parameters:
    ///   - givenName: the given name, if shared.
    ///   - familyName: the family name, if shared.
    ///   - email: the email address, if shared.
    public init(givenName: String? = nil, familyName: String? = nil, email: String? = nil) {
        self.givenName = givenName
        self.familyName = familyName
        self.email = email
    }
}
