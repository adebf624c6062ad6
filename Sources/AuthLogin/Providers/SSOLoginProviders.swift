import Foundation

// One small provider per single sign-on service. Each says what it asks for (an `SSORequest`) and
// what it checks first; `SSOLoginProvider` runs the same two backend calls for all of them:
// authorise with the provider, exchange the assertion for a session.

/// A single sign-on provider: it names the request and the checks, and signs in with the shared two calls.
///
/// A conforming type gives ``request`` and, when something must be present before the sheet opens,
/// ``validation``, and when the provider's answer must hold something, ``check(_:)``; the default
/// ``logIn(with:)`` validates, asks the backend to authorise with the provider
/// (``IdentityBackend/authorizeSSO(_:)``), checks the assertion, then exchanges it for a session
/// (``IdentityBackend/exchange(_:)``). A failed authorisation or check is never exchanged.
public protocol SSOLoginProvider: LoginProvider {
    /// What is asked of the provider.
    var request: SSORequest { get }
    /// What is wrong with the provider's settings; ``ValidationResult/valid`` unless the provider
    /// needs something, such as an organisation, that may be missing.
    var validation: ValidationResult { get }
    /// Refuses an assertion the backend could not use; accepts every assertion unless the provider
    /// needs more than a credential.
    /// - Parameter assertion: what ``IdentityBackend/authorizeSSO(_:)`` returned.
    /// - Throws: the error to return instead of exchanging it.
    func check(_ assertion: SSOAssertion) throws(LoginError)
}

extension SSOLoginProvider {
    /// Nothing to check by default.
    public var validation: ValidationResult { .valid }

    /// Accepts every assertion by default.
    public func check(_ assertion: SSOAssertion) throws(LoginError) {}

    /// Validates, authorises with the provider, then exchanges the assertion for a session.
    /// - Parameter backend: the identity service to call.
    /// - Returns: the session, ``LoginError/invalidInput(_:)`` without a backend call when
    ///   ``validation`` fails, or the backend's error.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        let request = self.request
        return await attempt(validation: validation) { () async throws(LoginError) in
            let assertion = try await backend.authorizeSSO(request)
            try check(assertion)
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
public struct GoogleLoginProvider: SSOLoginProvider {
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
}

/// Facebook Login.
public struct FacebookLoginProvider: SSOLoginProvider {
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
}

/// Sign in with LinkedIn.
public struct LinkedInLoginProvider: SSOLoginProvider {
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
}

/// Sign in with Slack.
public struct SlackLoginProvider: SSOLoginProvider {
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
}

/// Sign in through an Okta organisation.
///
/// The organisation is required: without it there is no Okta to ask, and the result is
/// ``LoginError/invalidInput(_:)`` without a backend call.
public struct OktaLoginProvider: SSOLoginProvider {
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

    /// The organisation must be present and hold no whitespace.
    public var validation: ValidationResult {
        identifierValidator(field: "organization").validate(organization)
    }
}

/// Sign in through any SAML 2.0 identity provider, named by its identifier.
///
/// The identifier (the IdP's entity ID, or the connection name the backend knows it by) is
/// required; without it the result is ``LoginError/invalidInput(_:)`` without a backend call.
public struct SAMLLoginProvider: SSOLoginProvider {
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

    /// The identifier must be present and hold no whitespace.
    public var validation: ValidationResult {
        identifierValidator(field: "identityProvider").validate(identityProvider)
    }
}
