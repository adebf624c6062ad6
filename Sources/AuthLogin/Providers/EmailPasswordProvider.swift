import Foundation

/// An email address and a password, as a person typed them.
///
/// Its `description` never shows the password.
public struct Credentials: Hashable, Sendable {
    /// The email address.
    public var email: String
    /// The password; a secret.
    public var password: String

    /// Creates credentials.
    /// - Parameters:
    ///   - email: the email address.
    ///   - password: the password.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

extension Credentials: CustomStringConvertible, CustomDebugStringConvertible {
    /// The credentials with the password shown as `<redacted>`.
    public var description: String { "Credentials(email: \(email), password: <redacted>)" }
    /// The same as ``description``: the password is never printed.
    public var debugDescription: String { description }
}

extension Validator where Value == Credentials {
    /// A validator for an email and a password: the email's syntax and the password's policy.
    ///
    /// - Parameter passwordPolicy: the password rules; ``PasswordPolicy/signIn`` (not empty, at most
    ///   1024 characters) unless given. Pass ``PasswordPolicy/default`` or stricter for sign-up.
    /// - Returns: a validator listing the email's failures, then the password's.
    public static func credentials(passwordPolicy: PasswordPolicy = .signIn) -> Validator {
        Validator<String>.email().pullback { $0.email }
            && Validator<String>.password(passwordPolicy).pullback { $0.password }
    }
}

/// Signs in with an email address and a password, checked by the app's own backend.
///
/// The email is trimmed of surrounding whitespace (a common paste accident); the password is used
/// exactly as typed. Both are validated before the backend is called; when validation fails the
/// result is ``LoginError/invalidInput(_:)`` with every failure, and the backend is never called.
///
/// ```swift
/// let provider = EmailPasswordProvider(email: " ann@example.com ", password: "correct horse")
/// let result = await provider.logIn(with: backend)
/// ```
public struct EmailPasswordProvider: LoginProvider {
    /// The credentials sent to the backend, with the email trimmed.
    public var credentials: Credentials
    /// The rules checked before anything is sent.
    public var validator: Validator<Credentials>

    /// Creates the provider.
    /// - Parameters:
    ///   - email: the email as typed; surrounding whitespace is removed.
    ///   - password: the password as typed.
    ///   - validator: the rules checked first; ``Validator/credentials(passwordPolicy:)`` with the
    ///     sign-in password policy unless given.
    public init(email: String, password: String, validator: Validator<Credentials> = .credentials()) {
        self.credentials = Credentials(email: email.trimmingCharacters(in: .whitespacesAndNewlines), password: password)
        self.validator = validator
    }

    /// Always ``ProviderKind/emailPassword``.
    public var kind: ProviderKind { .emailPassword }

    /// Validates the credentials, then asks the backend to authenticate them.
    /// - Parameter backend: the identity service to call.
    /// - Returns: the session, ``LoginError/invalidInput(_:)`` without a backend call when
    ///   validation fails, or the backend's error.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        let credentials = self.credentials
        return await attempt(validation: validator.validate(credentials)) { () async throws(LoginError) in
            try await backend.authenticate(email: credentials.email, password: credentials.password)
        }
    }
}
