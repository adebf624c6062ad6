import Testing
@testable import AuthLogin

/// Sign in with Apple: what Apple hands back the first time and later, a closed sheet, a revoked
/// credential, relay addresses, and the App Store rule that brings Apple in.
@Suite struct AppleLoginProviderTests {
    static let profile = SSOProfile(givenName: "Ann", familyName: "Lee", email: "x7k2@privaterelay.appleid.com")
    static let request = SSORequest(provider: .apple, scopes: ["name", "email"])

    @Test func theFirstAuthorisationCarriesNameAndEmailAndLaterOnesDoNot() async {
        let backend = FakeIdentityBackend(appleProfile: Self.profile)
        let store = InMemorySessionStore()
        let service = LoginService(backend: backend, sessionStore: store)
        let first = await service.logIn(with: AppleLoginProvider())
        let later = await service.logIn(with: AppleLoginProvider())
        let session = FakeIdentityBackend.session(.apple)
        #expect(first == LoginOutcome(provider: .apple, result: .success(session), event: "ssoAccepted"))
        #expect(later == first)
        #expect(await backend.calls == [
            .authorizeSSO(Self.request), .exchange(FakeIdentityBackend.assertion(Self.request, profile: Self.profile)),
            .authorizeSSO(Self.request), .exchange(FakeIdentityBackend.assertion(Self.request, profile: nil)),
        ])
        #expect(await store.history == [.saved(session), .saved(session)])
    }

    @Test func nameAndEmailNeedNotBeAskedFor() {
        #expect(AppleLoginProvider().request == Self.request)
        #expect(AppleLoginProvider(requestsNameAndEmail: false).request == SSORequest(provider: .apple))
    }

    @Test func closingTheSheetIsACancelAndNothingIsExchanged() async {
        let backend = FakeIdentityBackend(authorizeError: .userCancelled)
        let store = InMemorySessionStore()
        let outcome = await LoginService(backend: backend, sessionStore: store).logIn(with: AppleLoginProvider())
        #expect(outcome == LoginOutcome(provider: .apple, result: .failure(.userCancelled), event: "cancel"))
        #expect(await backend.calls == [.authorizeSSO(Self.request)])
        #expect(await store.history == [])
    }

    @Test func aRevokedCredentialIsRefusedAndTheStoredSessionForgotten() async {
        let backend = FakeIdentityBackend(exchangeError: .credentialRevoked)
        let store = InMemorySessionStore(session: FakeIdentityBackend.session(.apple))
        let outcome = await LoginService(backend: backend, sessionStore: store).logIn(with: AppleLoginProvider())
        #expect(outcome == LoginOutcome(provider: .apple, result: .failure(.credentialRevoked), event: "wrongPassword"))
        #expect(await store.history == [.cleared])
    }

    @Test func aCredentialRevokedSinceTheLastLaunchFailsTheRefreshAndSignsOut() async {
        let session = FakeIdentityBackend.session(.apple)
        let backend = FakeIdentityBackend(errors: [.refreshSession: .credentialRevoked])
        let store = InMemorySessionStore(session: session)
        let outcome = await LoginService(backend: backend, sessionStore: store).logIn(with: SessionRefreshProvider(session: session))
        #expect(outcome == LoginOutcome(provider: .apple, result: .failure(.credentialRevoked), event: "refreshFailed",
                                        operation: .refreshSession))
        #expect(await backend.calls == [.refreshSession(session)])
        #expect(await store.session == nil)
    }

    @Test(arguments: [
        SSOAssertion(provider: .apple, credential: "token"),
        SSOAssertion(provider: .apple, credential: "token", authorizationCode: ""),
        SSOAssertion(provider: .apple, credential: "", authorizationCode: "code"),
    ])
    func anAssertionWithoutTokenOrCodeIsNotExchanged(_ assertion: SSOAssertion) async {
        let backend = FakeIdentityBackend(assertionOverride: assertion)
        #expect(await AppleLoginProvider().logIn(with: backend) == .failure(.invalidCredentials))
        #expect(await backend.calls == [.authorizeSSO(Self.request)])
    }

    @Test(arguments: [
        ("x7k2@privaterelay.appleid.com", true), ("X7K2@PrivateRelay.AppleID.com", true),
        ("ann@example.com", false), ("privaterelay.appleid.com@example.com", false),
        ("ann@sub.privaterelay.appleid.com", false), ("no-at-sign", false),
    ])
    func privateRelayAddressesAreRecognised(_ email: String, _ isRelay: Bool) {
        #expect(SSOProfile(email: email).isPrivateRelayEmail == isRelay)
    }

    @Test func noEmailIsNoRelay() {
        #expect(!SSOProfile(givenName: "Ann").isPrivateRelayEmail)
    }

    @Test(arguments: [
        ([ProviderKind.google, .emailPassword], true), ([.facebook], true), ([.linkedIn, .okta], true),
        ([.google, .facebook, .apple], false), ([.apple, .google], false), ([.emailPassword], false),
        ([.okta, .saml, .slack, .emailPassword], false), ([], false),
    ] as [([ProviderKind], Bool)])
    func socialSignInOnIOSNeedsSignInWithApple(_ offered: [ProviderKind], _ lacksApple: Bool) {
        #expect(ProviderKind.lacksSignInWithApple(offered) == lacksApple)
    }
}
