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
    /// Sign in with Apple.
    case apple
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
        case .google, .facebook, .apple, .linkedIn, .slack, .okta, .saml: return true
        }
    }

    /// The provider's name as a person reads it, as in "Continue with Google".
    public var displayName: String {
        switch self {
        case .emailPassword: return "Email"
        case .google: return "Google"
        case .facebook: return "Facebook"
        case .apple: return "Apple"
        case .linkedIn: return "LinkedIn"
        case .slack: return "Slack"
        case .okta: return "Okta"
        case .saml: return "SAML"
        }
    }

    /// Whether an iOS app that offers this provider must also offer Sign in with Apple.
    ///
    /// App Store Review Guideline 4.8: an app that signs people in with a third-party or social
    /// login service must also offer an equivalent privacy-focused login, which Sign in with Apple
    /// is. Google, Facebook and LinkedIn are such services. The app's own accounts and the
    /// enterprise sign-ins (an Okta organisation, a SAML IdP, a Slack workspace), which sign people
    /// in with an account their organisation gave them, are exempt; so is Apple itself.
    public var requiresSignInWithApple: Bool {
        switch self {
        case .google, .facebook, .linkedIn: return true
        case .emailPassword, .apple, .slack, .okta, .saml: return false
        }
    }

    /// Whether a set of providers, offered together in an iOS app, breaks the App Store's rule.
    ///
    /// True when some provider ``requiresSignInWithApple`` and ``apple`` is not offered.
    /// - Parameter offered: the providers the sign-in screen shows.
    public static func lacksSignInWithApple(_ offered: some Sequence<ProviderKind>) -> Bool {
        var needsApple = false
        for kind in offered {
            if kind == .apple { return false }
            needsApple = needsApple || kind.requiresSignInWithApple
        }
        return needsApple
    }
}
