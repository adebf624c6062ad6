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
/// authorisation code, or a SAML response. Its `description` never shows the credential.
public struct SSOAssertion: Hashable, Sendable {
    /// The provider that issued the assertion.
    public var provider: ProviderKind
    /// The identity provider within it: the Okta organisation, the SAML IdP, the Slack workspace.
    public var identityProvider: String?
    /// The token, code or response; a secret.
    public var credential: String

    /// Creates an assertion.
    /// - Parameters:
    ///   - provider: the provider that issued it.
    ///   - identityProvider: the organisation or IdP within the provider, if any.
    ///   - credential: the token, code or response.
    public init(provider: ProviderKind, identityProvider: String? = nil, credential: String) {
        self.provider = provider
        self.identityProvider = identityProvider
        self.credential = credential
    }
}

extension SSOAssertion: CustomStringConvertible, CustomDebugStringConvertible {
    /// The assertion with its credential shown as `<redacted>`.
    public var description: String {
        "SSOAssertion(provider: \(provider.rawValue)"
            + (identityProvider.map { ", identityProvider: \($0)" } ?? "") + ", credential: <redacted>)"
    }

    /// The same as ``description``: the credential is never printed.
    public var debugDescription: String { description }
}
