import Foundation

// One small provider per single sign-on service. Each builds an `SSORequest`, validates what it
// needs, then runs the same two backend calls: authorise with the provider, exchange the
// assertion for a session.

extension LoginProvider {
    /// Authorises with `request`, then exchanges the assertion; what every SSO provider does.
    func runSSO(_ request: SSORequest, validation: ValidationResult = .valid, backend: any IdentityBackend) async -> LoginResult {
        await attempt(validation: validation) { () async throws(LoginError) in
            let assertion = try await backend.authorizeSSO(request)
            return try await backend.exchange(assertion)
        }
    }
}

/// `nil` for text that is empty once trimmed; the trimmed text otherwise.
private func trimmedOrNil(_ text: String?) -> String? {
    guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
    return trimmed
}

/// A validator for an identifier that must be present and hold no whitespace.
private func identifierValidator(field: String) -> Validator<String> {
    Validator.nonEmpty(field: field).then(
        .require(.custom(field: field, message: "\(ValidationFailure.displayName(field)) must not contain spaces.")) {
            !$0.contains(where: \.isWhitespace)
        }
    )
}

/// Sign in with Google.
public struct GoogleLoginProvider: LoginProvider {
    /// An address to prefill in Google's account chooser.
    public var loginHint: String?
    /// A Google Workspace domain to restrict the accounts offered, such as `example.com`.
    public var hostedDomain: String?

    /// Creates the provider.
    /// - Parameters:
    ///   - loginHint: an address to prefill, if any.
    ///   - hostedDomain: a Workspace domain to restrict accounts to, if any.
    public init(loginHint: String? = nil, hostedDomain: String? = nil) {
        self.loginHint = trimmedOrNil(loginHint)
        self.hostedDomain = trimmedOrNil(hostedDomain)
    }

    /// Always ``ProviderKind/google``.
    public var kind: ProviderKind { .google }

    /// What is asked of Google: OpenID Connect with the email and profile scopes.
    public var request: SSORequest {
        SSORequest(provider: .google, identityProvider: hostedDomain, loginHint: loginHint,
                   scopes: ["openid", "email", "profile"])
    }

    /// Authorises with Google, then exchanges the ID token for a session.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        await runSSO(request, backend: backend)
    }
}

/// Facebook Login.
public struct FacebookLoginProvider: LoginProvider {
    /// The permissions asked for; the public profile and the email address by default.
    public var permissions: [String]

    /// Creates the provider.
    /// - Parameter permissions: the permissions asked for.
    public init(permissions: [String] = ["public_profile", "email"]) {
        self.permissions = permissions
    }

    /// Always ``ProviderKind/facebook``.
    public var kind: ProviderKind { .facebook }

    /// What is asked of Facebook: the permissions, as scopes.
    public var request: SSORequest {
        SSORequest(provider: .facebook, scopes: permissions)
    }

    /// Authorises with Facebook, then exchanges the access token for a session.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        await runSSO(request, backend: backend)
    }
}

/// Sign in with LinkedIn.
public struct LinkedInLoginProvider: LoginProvider {
    /// The scopes asked for; OpenID Connect with the profile and email by default.
    public var scopes: [String]

    /// Creates the provider.
    /// - Parameter scopes: the scopes asked for.
    public init(scopes: [String] = ["openid", "profile", "email"]) {
        self.scopes = scopes
    }

    /// Always ``ProviderKind/linkedIn``.
    public var kind: ProviderKind { .linkedIn }

    /// What is asked of LinkedIn.
    public var request: SSORequest {
        SSORequest(provider: .linkedIn, scopes: scopes)
    }

    /// Authorises with LinkedIn, then exchanges the code for a session.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        await runSSO(request, backend: backend)
    }
}

/// Sign in with Slack.
public struct SlackLoginProvider: LoginProvider {
    /// The Slack workspace (team) to sign in to, if the app targets one.
    public var workspace: String?

    /// Creates the provider.
    /// - Parameter workspace: the workspace or team identifier, if any.
    public init(workspace: String? = nil) {
        self.workspace = trimmedOrNil(workspace)
    }

    /// Always ``ProviderKind/slack``.
    public var kind: ProviderKind { .slack }

    /// What is asked of Slack: OpenID Connect with the email and profile scopes.
    public var request: SSORequest {
        SSORequest(provider: .slack, identityProvider: workspace, scopes: ["openid", "email", "profile"])
    }

    /// Authorises with Slack, then exchanges the code for a session.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        await runSSO(request, backend: backend)
    }
}

/// Sign in through an Okta organisation.
///
/// The organisation is required: without it there is no Okta to ask, and the result is
/// ``LoginError/invalidInput(_:)`` without a backend call.
public struct OktaLoginProvider: LoginProvider {
    /// The organisation's Okta domain, such as `example.okta.com`.
    public var organization: String
    /// A user name or address to prefill, if any.
    public var loginHint: String?

    /// Creates the provider.
    /// - Parameters:
    ///   - organization: the Okta domain; surrounding whitespace is removed.
    ///   - loginHint: a user name or address to prefill, if any.
    public init(organization: String, loginHint: String? = nil) {
        self.organization = organization.trimmingCharacters(in: .whitespacesAndNewlines)
        self.loginHint = trimmedOrNil(loginHint)
    }

    /// Always ``ProviderKind/okta``.
    public var kind: ProviderKind { .okta }

    /// What is asked of Okta.
    public var request: SSORequest {
        SSORequest(provider: .okta, identityProvider: organization, loginHint: loginHint, scopes: ["openid", "email", "profile"])
    }

    /// Checks the organisation, authorises with Okta, then exchanges the code for a session.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        let validation = identifierValidator(field: "organization").validate(organization)
        return await runSSO(request, validation: validation, backend: backend)
    }
}

/// Sign in through any SAML 2.0 identity provider, named by its identifier.
///
/// The identifier (the IdP's entity ID, or the connection name the backend knows it by) is
/// required; without it the result is ``LoginError/invalidInput(_:)`` without a backend call.
public struct SAMLLoginProvider: LoginProvider {
    /// The identity provider's identifier, such as `https://idp.example.com/saml`.
    public var identityProvider: String
    /// A user name or address to prefill, if any.
    public var loginHint: String?

    /// Creates the provider.
    /// - Parameters:
    ///   - identityProvider: the IdP identifier; surrounding whitespace is removed.
    ///   - loginHint: a user name or address to prefill, if any.
    public init(identityProvider: String, loginHint: String? = nil) {
        self.identityProvider = identityProvider.trimmingCharacters(in: .whitespacesAndNewlines)
        self.loginHint = trimmedOrNil(loginHint)
    }

    /// Always ``ProviderKind/saml``.
    public var kind: ProviderKind { .saml }

    /// What is asked of the identity provider; SAML has no scopes.
    public var request: SSORequest {
        SSORequest(provider: .saml, identityProvider: identityProvider, loginHint: loginHint)
    }

    /// Checks the identifier, authorises with the IdP, then exchanges the SAML response for a session.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        let validation = identifierValidator(field: "identityProvider").validate(identityProvider)
        return await runSSO(request, validation: validation, backend: backend)
    }
}
