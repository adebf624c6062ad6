import AuthFlow

/// Finishes a sign-in that asked for a second factor: it answers the challenge with the person's code.
///
/// The code is normalised with the challenge's ``MFAChallenge/passcodePolicy`` (full-width digits,
/// spaces, dashes and lowercase are what people type); a code with nothing left is
/// ``LoginError/invalidInput(_:)`` without a backend call. Run it with ``LoginService`` like any
/// provider: the session is stored and the result maps to ``LoginEventNames/codeAccepted``,
/// ``LoginEventNames/wrongCode`` or ``LoginEventNames/codeExpired``.
public struct MFACodeProvider: LoginProvider {
    /// The challenge being answered.
    public var challenge: MFAChallenge
    /// The code, normalised.
    public var code: String
    /// The provider the person started signing in with.
    public var kind: ProviderKind

    /// Creates the provider.
    /// - Parameters:
    ///   - code: the code as typed.
    ///   - challenge: the challenge from ``LoginError/mfaRequired(challenge:)`` or its latest resend.
    ///   - provider: the provider whose sign-in asked for the code.
    public init(code: String, for challenge: MFAChallenge, after provider: ProviderKind) {
        self.challenge = challenge
        self.code = PasscodeNormaliser(policy: challenge.passcodePolicy).normalise(code)
        self.kind = provider
    }

    /// Always ``LoginOperation/verifyMFA``.
    public var operation: LoginOperation { .verifyMFA }

    /// Checks that a code is left, then asks the backend to verify it.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        let (challenge, code) = (self.challenge, self.code)
        return await attempt(validation: Validator<String>.nonEmpty(field: "code").validate(code)) { () async throws(LoginError) in
            try await backend.verifyMFA(challenge, code: code)
        }
    }
}

/// Renews a stored session, as a launch screen does before it skips sign-in.
///
/// Run it with ``LoginService``: a renewed session replaces the stored one and maps to
/// ``LoginEventNames/refreshed``; every failure maps to ``LoginEventNames/refreshFailed``, and one
/// that ends the session (``LoginError/sessionExpired``, ``LoginError/credentialRevoked``) clears
/// the store, while a dropped connection leaves it for the next launch.
public struct SessionRefreshProvider: LoginProvider {
    /// The session to renew.
    public var session: AuthSession

    /// Creates the provider.
    /// - Parameter session: the stored session.
    public init(session: AuthSession) {
        self.session = session
    }

    /// The provider the session was signed in with.
    public var kind: ProviderKind { session.provider }

    /// Always ``LoginOperation/refreshSession``.
    public var operation: LoginOperation { .refreshSession }

    /// Asks the backend to renew the session.
    public func logIn(with backend: any IdentityBackend) async -> LoginResult {
        let session = self.session
        return await attempt(validation: .valid) { () async throws(LoginError) in
            try await backend.refreshSession(session)
        }
    }
}
