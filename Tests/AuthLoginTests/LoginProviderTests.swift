import AuthFlow
import Testing
@testable import AuthLogin

/// A scripted identity backend that records every call.
actor FakeIdentityBackend: IdentityBackend {
    enum Call: Hashable, Sendable {
        case authenticate(email: String, password: String)
        case authorizeSSO(SSORequest)
        case exchange(SSOAssertion)
        case verifyMFA(challengeID: String, code: String)
        case resendMFA(challengeID: String)
        case requestPasswordReset(email: String)
        case confirmPasswordReset(token: String, newPassword: String)
        case refreshSession(AuthSession)
    }

    private(set) var calls: [Call] = []
    var authenticateError: LoginError?
    var authorizeError: LoginError?
    var exchangeError: LoginError?
    /// What Apple shares on the first authorisation only; every later one returns no profile.
    var appleProfile: SSOProfile?
    /// An assertion to return instead of the usual one, such as one without its code.
    var assertionOverride: SSOAssertion?
    /// The error each of the other calls throws, if any, by operation.
    var errors: [LoginOperation: LoginError]

    init(authenticateError: LoginError? = nil, authorizeError: LoginError? = nil, exchangeError: LoginError? = nil,
         appleProfile: SSOProfile? = nil, assertionOverride: SSOAssertion? = nil, errors: [LoginOperation: LoginError] = [:]) {
        self.errors = errors
        self.authenticateError = authenticateError
        self.authorizeError = authorizeError
        self.exchangeError = exchangeError
        self.appleProfile = appleProfile
        self.assertionOverride = assertionOverride
    }

    /// The session the fake returns for a provider.
    static func session(_ kind: ProviderKind) -> AuthSession {
        AuthSession(userID: "user-1", token: "token-\(kind.rawValue)", provider: kind)
    }

    /// The assertion the fake returns for a request: Apple's also has an authorisation code.
    static func assertion(_ request: SSORequest, profile: SSOProfile? = nil) -> SSOAssertion {
        SSOAssertion(provider: request.provider, identityProvider: request.identityProvider,
                     credential: "credential-\(request.provider.rawValue)",
                     authorizationCode: request.provider == .apple ? "code-apple" : nil, profile: profile)
    }

    func authenticate(email: String, password: String) throws(LoginError) -> AuthSession {
        calls.append(.authenticate(email: email, password: password))
        if let authenticateError { throw authenticateError }
        return Self.session(.emailPassword)
    }

    func authorizeSSO(_ request: SSORequest) throws(LoginError) -> SSOAssertion {
        calls.append(.authorizeSSO(request))
        if let authorizeError { throw authorizeError }
        if let assertionOverride { return assertionOverride }
        guard request.provider == .apple else { return Self.assertion(request) }
        defer { appleProfile = nil }
        return Self.assertion(request, profile: appleProfile)
    }

    func exchange(_ assertion: SSOAssertion) throws(LoginError) -> AuthSession {
        calls.append(.exchange(assertion))
        if let exchangeError { throw exchangeError }
        return Self.session(assertion.provider)
    }

    /// The challenge a resend returns: a new id, the rest kept.
    static func resent(_ challenge: MFAChallenge) -> MFAChallenge {
        var next = challenge
        next.id += "-resent"
        return next
    }

    /// The session a refresh returns: a new token.
    static func refreshed(_ session: AuthSession) -> AuthSession {
        var next = session
        next.token += "-refreshed"
        return next
    }

    func verifyMFA(_ challenge: MFAChallenge, code: String) throws(LoginError) -> AuthSession {
        calls.append(.verifyMFA(challengeID: challenge.id, code: code))
        if let error = errors[.verifyMFA] { throw error }
        return Self.session(.emailPassword)
    }

    func resendMFA(_ challenge: MFAChallenge) throws(LoginError) -> MFAChallenge {
        calls.append(.resendMFA(challengeID: challenge.id))
        if let error = errors[.resendMFA] { throw error }
        return Self.resent(challenge)
    }

    func requestPasswordReset(email: String) throws(LoginError) {
        calls.append(.requestPasswordReset(email: email))
        if let error = errors[.requestPasswordReset] { throw error }
    }

    func confirmPasswordReset(token: String, newPassword: String) throws(LoginError) -> String {
        calls.append(.confirmPasswordReset(token: token, newPassword: newPassword))
        if let error = errors[.confirmPasswordReset] { throw error }
        return "ann@example.com"
    }

    func refreshSession(_ session: AuthSession) throws(LoginError) -> AuthSession {
        calls.append(.refreshSession(session))
        if let error = errors[.refreshSession] { throw error }
        return Self.refreshed(session)
    }
}

/// One error of each ``LoginError`` case, with the event it must map to by default.
struct ErrorRow: CustomTestStringConvertible, Sendable {
    var error: LoginError
    var event: String
    var testDescription: String { error.code.rawValue }
}

@Suite struct LoginProviderTests {
    static let challenge = MFAChallenge(id: "challenge-1", channel: .email, maskedDestination: "a•••@example.com")

    static let errorTable: [ErrorRow] = [
        .init(error: .invalidCredentials, event: "wrongPassword"),
        .init(error: .noConnection, event: "loginFailed"),
        .init(error: .serverError(status: 503), event: "loginFailed"),
        .init(error: .userCancelled, event: "cancel"),
        .init(error: .emailNotVerified(email: "ann@example.com"), event: "verifyEmail"),
        .init(error: .mfaRequired(challenge: challenge), event: "mfaChallenged"),
        .init(error: .invalidInput([.empty(field: "email")]), event: "invalidInput"),
        .init(error: .credentialRevoked, event: "wrongPassword"),
        // The errors of the other backend calls: a sign-in that meets one has simply failed.
        .init(error: .incorrectCode(attemptsLeft: 2), event: "loginFailed"),
        .init(error: .codeExpired, event: "loginFailed"),
        .init(error: .rateLimited(retryAfterSeconds: 30), event: "loginFailed"),
        .init(error: .resetLinkInvalid, event: "loginFailed"),
        .init(error: .sessionExpired, event: "loginFailed"),
    ]

    /// A provider of each kind, configured as an app would.
    static func provider(_ kind: ProviderKind) -> any LoginProvider {
        switch kind {
        case .emailPassword: return EmailPasswordProvider(email: "ann@example.com", password: "correct horse")
        case .google: return GoogleLoginProvider(loginHint: "ann@example.com")
        case .facebook: return FacebookLoginProvider()
        case .apple: return AppleLoginProvider()
        case .linkedIn: return LinkedInLoginProvider()
        case .slack: return SlackLoginProvider(workspace: "T0123")
        case .okta: return OktaLoginProvider(organization: "example.okta.com")
        case .saml: return SAMLLoginProvider(identityProvider: "https://idp.example.com/saml")
        }
    }

    /// The request each SSO provider above must send.
    static func expectedRequest(_ kind: ProviderKind) -> SSORequest? {
        switch kind {
        case .emailPassword: return nil
        case .google: return SSORequest(provider: .google, loginHint: "ann@example.com", scopes: ["openid", "email", "profile"])
        case .facebook: return SSORequest(provider: .facebook, scopes: ["public_profile", "email"])
        case .apple: return SSORequest(provider: .apple, scopes: ["name", "email"])
        case .linkedIn: return SSORequest(provider: .linkedIn, scopes: ["openid", "profile", "email"])
        case .slack: return SSORequest(provider: .slack, identityProvider: "T0123", scopes: ["openid", "email", "profile"])
        case .okta: return SSORequest(provider: .okta, identityProvider: "example.okta.com", scopes: ["openid", "email", "profile"])
        case .saml: return SSORequest(provider: .saml, identityProvider: "https://idp.example.com/saml")
        }
    }

    /// The backend calls a successful sign-in with each provider above makes.
    static func expectedCalls(_ kind: ProviderKind) -> [FakeIdentityBackend.Call] {
        guard let request = expectedRequest(kind) else {
            return [.authenticate(email: "ann@example.com", password: "correct horse")]
        }
        return [.authorizeSSO(request), .exchange(FakeIdentityBackend.assertion(request))]
    }

    // MARK: Every provider

    @Test(arguments: ProviderKind.allCases)
    func eachProviderSignsInThroughTheBackend(_ kind: ProviderKind) async {
        let backend = FakeIdentityBackend()
        let provider = Self.provider(kind)
        #expect(provider.kind == kind)
        let result = await provider.logIn(with: backend)
        #expect(result == .success(FakeIdentityBackend.session(kind)))
        #expect(await backend.calls == Self.expectedCalls(kind))
    }

    @Test(arguments: ProviderKind.allCases, errorTable)
    func eachProviderPassesBackendErrorsThrough(_ kind: ProviderKind, _ row: ErrorRow) async {
        let backend = kind.isSSO ? FakeIdentityBackend(exchangeError: row.error) : FakeIdentityBackend(authenticateError: row.error)
        let result = await Self.provider(kind).logIn(with: backend)
        #expect(result == .failure(row.error))
        #expect(await backend.calls == Self.expectedCalls(kind))
    }

    @Test(arguments: ProviderKind.allCases)
    func aCancelledTaskNeverReachesTheBackend(_ kind: ProviderKind) async {
        let backend = FakeIdentityBackend()
        let provider = Self.provider(kind)
        let result = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await provider.logIn(with: backend)
        }.value
        #expect(result == .failure(.userCancelled))
        #expect(await backend.calls == [])
    }

    // MARK: Email and password

    @Test func emailIsTrimmedAndPasswordKeptAsTyped() async {
        let backend = FakeIdentityBackend()
        let provider = EmailPasswordProvider(email: "  ann@example.com\n", password: " secret ")
        #expect(provider.credentials == Credentials(email: "ann@example.com", password: " secret "))
        let result = await provider.logIn(with: backend)
        #expect(result == .success(FakeIdentityBackend.session(.emailPassword)))
        #expect(await backend.calls == [.authenticate(email: "ann@example.com", password: " secret ")])
    }

    static let invalidCredentials: [(String, String, [ValidationFailure])] = [
        ("", "", [.empty(field: "email"), .empty(field: "password")]),
        ("   ", "pw", [.empty(field: "email")]),
        ("ann@example", "pw", [.invalidEmail(field: "email", reason: .domainWithoutDot)]),
        ("ann example.com", "", [
            .invalidEmail(field: "email", reason: .containsWhitespace),
            .invalidEmail(field: "email", reason: .missingAtSign),
            .empty(field: "password"),
        ]),
        ("ann@example.com", "", [.empty(field: "password")]),
        ("ann@example.com", String(repeating: "x", count: 1025), [.tooLong(field: "password", maximum: 1024)]),
    ]

    @Test(arguments: invalidCredentials)
    func invalidInputNeverReachesTheBackend(_ email: String, _ password: String, _ failures: [ValidationFailure]) async {
        let backend = FakeIdentityBackend()
        let result = await EmailPasswordProvider(email: email, password: password).logIn(with: backend)
        #expect(result == .failure(.invalidInput(failures)))
        #expect(await backend.calls == [])
    }

    @Test func aStricterValidatorCanBeInjected() async {
        let backend = FakeIdentityBackend()
        let provider = EmailPasswordProvider(email: "ann@example.com", password: "short",
                                             validator: .credentials(passwordPolicy: .default))
        let result = await provider.logIn(with: backend)
        #expect(result == .failure(.invalidInput([
            .tooShort(field: "password", minimum: 8), .missingCharacterClass(field: "password", .digit),
        ])))
        #expect(await backend.calls == [])
    }

    // MARK: Single sign-on

    @Test(arguments: ProviderKind.allCases.filter(\.isSSO), errorTable)
    func aFailedAuthorisationIsNotExchanged(_ kind: ProviderKind, _ row: ErrorRow) async {
        let backend = FakeIdentityBackend(authorizeError: row.error)
        let result = await Self.provider(kind).logIn(with: backend)
        #expect(result == .failure(row.error))
        #expect(await backend.calls == [.authorizeSSO(Self.expectedRequest(kind)!)])
    }

    @Test(arguments: [
        (OktaLoginProvider(organization: "  ") as any LoginProvider, [ValidationFailure.empty(field: "organization")]),
        (OktaLoginProvider(organization: "example okta.com"),
         [.custom(field: "organization", message: "Organization must not contain spaces.")]),
        (SAMLLoginProvider(identityProvider: ""), [.empty(field: "identityProvider")]),
        (SAMLLoginProvider(identityProvider: "https://idp.example.com/ saml"),
         [.custom(field: "identityProvider", message: "Identity provider must not contain spaces.")]),
    ] as [(any LoginProvider, [ValidationFailure])])
    func aMissingIdentityProviderNeverReachesTheBackend(_ provider: any LoginProvider, _ failures: [ValidationFailure]) async {
        let backend = FakeIdentityBackend()
        #expect(await provider.logIn(with: backend) == .failure(.invalidInput(failures)))
        #expect(await backend.calls == [])
    }

    @Test func ssoOptionsAreTrimmedAndBlankOnesDropped() {
        #expect(GoogleLoginProvider(loginHint: " ", hostedDomain: " example.com ").request
            == SSORequest(provider: .google, identityProvider: "example.com", scopes: ["openid", "email", "profile"]))
        #expect(SlackLoginProvider(workspace: "").request == SSORequest(provider: .slack, scopes: ["openid", "email", "profile"]))
        #expect(OktaLoginProvider(organization: " example.okta.com\n", loginHint: " ann ").request
            == SSORequest(provider: .okta, identityProvider: "example.okta.com", loginHint: "ann", scopes: ["openid", "email", "profile"]))
        #expect(FacebookLoginProvider(permissions: ["email"]).request == SSORequest(provider: .facebook, scopes: ["email"]))
        #expect(LinkedInLoginProvider(scopes: []).request == SSORequest(provider: .linkedIn))
    }

    // MARK: The login service

    @Test(arguments: ProviderKind.allCases)
    func theServiceStoresTheSessionOnSuccess(_ kind: ProviderKind) async {
        let store = InMemorySessionStore()
        let service = LoginService(backend: FakeIdentityBackend(), sessionStore: store)
        let outcome = await service.logIn(with: Self.provider(kind))
        let session = FakeIdentityBackend.session(kind)
        #expect(outcome == LoginOutcome(provider: kind, result: .success(session),
                                        event: kind == .emailPassword ? "passwordAccepted" : "ssoAccepted"))
        #expect(outcome.session == session)
        #expect(outcome.error == nil)
        #expect(await store.history == [.saved(session)])
        #expect(await store.session == session)
    }

    @Test(arguments: ProviderKind.allCases, errorTable)
    func theServiceStoresNothingOnFailure(_ kind: ProviderKind, _ row: ErrorRow) async {
        let store = InMemorySessionStore()
        let backend = kind.isSSO ? FakeIdentityBackend(exchangeError: row.error) : FakeIdentityBackend(authenticateError: row.error)
        let outcome = await LoginService(backend: backend, sessionStore: store).logIn(with: Self.provider(kind))
        #expect(outcome == LoginOutcome(provider: kind, result: .failure(row.error), event: row.event))
        #expect(outcome.session == nil)
        #expect(outcome.error == row.error)
        #expect(await store.history == (row.error.endsSession ? [.cleared] : []))
    }

    @Test func theServiceStoresNothingForRefusedInput() async {
        let store = InMemorySessionStore()
        let backend = FakeIdentityBackend()
        let outcome = await LoginService(backend: backend, sessionStore: store)
            .logIn(with: EmailPasswordProvider(email: "nope", password: "pw"))
        #expect(outcome == LoginOutcome(provider: .emailPassword,
                                        result: .failure(.invalidInput([.invalidEmail(field: "email", reason: .missingAtSign)])),
                                        event: "invalidInput"))
        #expect(await store.history == [])
        #expect(await backend.calls == [])
    }

    @Test func logOutClearsTheStore() async {
        let session = FakeIdentityBackend.session(.google)
        let store = InMemorySessionStore(session: session)
        await LoginService(backend: FakeIdentityBackend(), sessionStore: store).logOut()
        #expect(await store.session == nil)
        #expect(await store.history == [.cleared])
    }

    @Test func theServiceUsesItsEventNames() async {
        let names = LoginEventNames(passwordAccepted: "signedIn", ssoAccepted: "signedIn", cancel: "back")
        let service = LoginService(backend: FakeIdentityBackend(authorizeError: .userCancelled),
                                   sessionStore: InMemorySessionStore(), events: names)
        #expect(await service.logIn(with: GoogleLoginProvider()).event == "back")
        #expect(await service.logIn(with: Self.provider(.emailPassword)).event == "signedIn")
    }

    // MARK: The event mapping

    @Test func theErrorTableCoversEveryCase() {
        #expect(Set(Self.errorTable.map(\.error.code)) == Set(LoginError.Code.allCases))
        #expect(Self.errorTable.count == LoginError.Code.allCases.count)
    }

    @Test(arguments: errorTable)
    func everyErrorMapsToItsEvent(_ row: ErrorRow) {
        #expect(LoginEventNames.default.event(for: row.error) == row.event)
        for kind in ProviderKind.allCases {
            #expect(LoginEventNames.default.event(for: .failure(row.error), from: kind) == row.event)
        }
    }

    @Test(arguments: ProviderKind.allCases)
    func successMapsByProvider(_ kind: ProviderKind) {
        let event = LoginEventNames.default.event(for: .success(FakeIdentityBackend.session(kind)), from: kind)
        #expect(event == (kind == .emailPassword ? "passwordAccepted" : "ssoAccepted"))
    }

    @Test func renamedEventsAreUsedForEveryCase() {
        let names = LoginEventNames(
            passwordAccepted: "p", ssoAccepted: "s", mfaChallenged: "m", wrongPassword: "w",
            cancel: "c", verifyEmail: "v", loginFailed: "f", invalidInput: "i")
        #expect(Self.errorTable.map { names.event(for: $0.error) } == ["w", "f", "f", "c", "v", "m", "i", "w", "f", "f", "f", "f", "f"])
        #expect(names.events(from: .emailPassword) == ["p", "m", "w", "c", "v", "f", "i"])
        #expect(names.events(from: .saml) == ["s", "m", "w", "c", "v", "f", "i"])
    }

    @Test func eventsFromAProviderAreDistinct() {
        #expect(LoginEventNames.default.events(from: .emailPassword)
            == ["passwordAccepted", "mfaChallenged", "wrongPassword", "cancel", "verifyEmail", "loginFailed", "invalidInput"])
        let merged = LoginEventNames(wrongPassword: "loginFailed")
        #expect(merged.events(from: .okta) == ["ssoAccepted", "mfaChallenged", "loginFailed", "cancel", "verifyEmail", "invalidInput"])
    }

    // MARK: Values

    @Test func secretsAreNeverPrinted() {
        let session = AuthSession(userID: "user-1", token: "s3cr3t-token", provider: .okta)
        #expect(session.description == "AuthSession(userID: user-1, token: <redacted>, provider: okta)")
        #expect(String(reflecting: session) == session.description)
        let assertion = SSOAssertion(provider: .saml, identityProvider: "idp", credential: "s3cr3t-response")
        #expect(assertion.description == "SSOAssertion(provider: saml, identityProvider: idp, credential: <redacted>)")
        let apple = SSOAssertion(provider: .apple, credential: "s3cr3t-token", authorizationCode: "s3cr3t-code",
                                 profile: SSOProfile(givenName: "Ann", email: "ann@example.com"))
        #expect(String(reflecting: apple)
            == "SSOAssertion(provider: apple, credential: <redacted>, authorizationCode: <redacted>, profile: <redacted>)")
        let credentials = Credentials(email: "ann@example.com", password: "s3cr3t-password")
        #expect("\(credentials)" == "Credentials(email: ann@example.com, password: <redacted>)")
        #expect(!String(reflecting: credentials).contains("s3cr3t"))
    }

    @Test(arguments: [
        (LoginError.noConnection, true), (.serverError(status: 500), true), (.serverError(status: 429), true),
        (.serverError(status: 404), false), (.invalidCredentials, false), (.userCancelled, false),
        (.emailNotVerified(email: "a@b.co"), false), (.mfaRequired(challenge: challenge), false), (.invalidInput([]), false),
        (.credentialRevoked, false), (.incorrectCode(attemptsLeft: 1), false), (.codeExpired, false),
        (.rateLimited(retryAfterSeconds: nil), true), (.resetLinkInvalid, false), (.sessionExpired, false),
    ] as [(LoginError, Bool)])
    func retryableErrors(_ error: LoginError, _ retryable: Bool) {
        #expect(error.isRetryable == retryable)
    }

    @Test(arguments: [
        (LoginError.invalidCredentials, "The email or password is incorrect. Check them and try again."),
        (.noConnection, "No connection. Check that you are online and try again."),
        (.serverError(status: 502), "The server could not sign you in (status 502). Try again in a moment."),
        (.userCancelled, "Sign-in was cancelled."),
        (.emailNotVerified(email: "ann@example.com"), "Verify ann@example.com first: open the link in the email we sent you."),
        (.mfaRequired(challenge: challenge), "Enter the code we sent to a•••@example.com."),
        (.mfaRequired(challenge: MFAChallenge(id: "c", channel: .authenticatorApp)), "Enter the code from your authenticator app."),
        (.mfaRequired(challenge: MFAChallenge(id: "c", channel: .push)), "Approve the sign-in on your other device."),
        (.invalidInput([.empty(field: "email"), .empty(field: "password")]), "Email is required. Password is required."),
        (.credentialRevoked, "This sign-in is no longer allowed for this app. Sign in again."),
        (.incorrectCode(attemptsLeft: nil), "That code is not right. Check it and try again."),
        (.incorrectCode(attemptsLeft: 1), "That code is not right. Check it and try again. 1 try left."),
        (.incorrectCode(attemptsLeft: 3), "That code is not right. Check it and try again. 3 tries left."),
        (.codeExpired, "That code has expired. Ask for a new one."),
        (.rateLimited(retryAfterSeconds: 30), "Too many tries. Wait 30 seconds and try again."),
        (.rateLimited(retryAfterSeconds: nil), "Too many tries. Wait a moment and try again."),
        (.resetLinkInvalid, "This reset link has expired or was already used. Ask for a new one."),
        (.sessionExpired, "You have been signed out. Sign in again."),
    ] as [(LoginError, String)])
    func errorMessages(_ error: LoginError, _ message: String) {
        #expect(error.description == message)
    }

    @Test func providerKinds() {
        #expect(ProviderKind.allCases.map(\.rawValue) == ["emailPassword", "google", "facebook", "apple", "linkedIn", "slack", "okta", "saml"])
        #expect(ProviderKind.allCases.filter { !$0.isSSO } == [.emailPassword])
        #expect(ProviderKind.allCases.map(\.displayName) == ["Email", "Google", "Facebook", "Apple", "LinkedIn", "Slack", "Okta", "SAML"])
    }

    @Test func aChallengeCarriesItsPasscodePolicy() {
        let policy = PasscodePolicy(maxLength: 8, alphabet: "0123456789")
        let challenge = MFAChallenge(id: "c", channel: .sms, maskedDestination: "•••42", passcodePolicy: policy)
        #expect(PasscodeNormaliser(policy: challenge.passcodePolicy).normalise("１２ ３４-５６７８９") == "12345678")
        #expect(MFAChallenge(id: "c", channel: .sms).passcodePolicy == .default)
    }
}
