/// Every way a person can sign in: with an email and password, or through a single sign-on provider.
///
/// The raw values are stable identifiers, fit for analytics and for naming steps in a spec.
public enum ProviderKind: String, Hashable, Sendable, CaseIterable {
    /// An email address and a password, checked by the app's own backend.
    case emailPassword
    /// Sign in with Google.
    case google
    /// Facebook Login.
    case facebook
    /// Sign in with LinkedIn.
    case linkedIn
    /// Sign in with Slack.
    case slack
    /// An Okta organisation.
    case okta
    /// Any SAML 2.0 identity provider, named by its identifier.
    case saml

    /// Whether the provider is a single sign-on provider (every kind but ``emailPassword``).
    public var isSSO: Bool {
        switch self {
        case .emailPassword: return false
        case .google, .facebook, .linkedIn, .slack, .okta, .saml: return true
        }
    }

    /// The provider's name as a person reads it, as in "Continue with Google".
    public var displayName: String {
        switch self {
        case .emailPassword: return "Email"
        case .google: return "Google"
        case .facebook: return "Facebook"
        case .linkedIn: return "LinkedIn"
        case .slack: return "Slack"
        case .okta: return "Okta"
        case .saml: return "SAML"
        }
    }
}
