import AuthFlow
import Foundation
import Testing
@testable import AuthLogin

/// The mapping from every outcome of every backend call to a flow event: total, and in the specs' words.
@Suite struct EventMappingTests {
    /// The expected event of every error in every call, written out: a new error case or call
    /// without a row fails ``everyErrorOfEveryCallHasARow()``.
    static let errorEvents: [LoginOperation: [LoginError.Code: String]] = [
        .signIn: [
            .mfaRequired: "mfaChallenged", .invalidCredentials: "wrongPassword", .userCancelled: "cancel",
            .emailNotVerified: "verifyEmail", .noConnection: "loginFailed", .serverError: "loginFailed",
            .invalidInput: "invalidInput", .credentialRevoked: "wrongPassword", .incorrectCode: "loginFailed",
            .codeExpired: "loginFailed", .rateLimited: "loginFailed", .resetLinkInvalid: "loginFailed",
            .sessionExpired: "loginFailed",
        ],
        .verifyMFA: [
            .mfaRequired: "mfaChallenged", .invalidCredentials: "wrongCode", .userCancelled: "cancel",
            .emailNotVerified: "loginFailed", .noConnection: "loginFailed", .serverError: "loginFailed",
            .invalidInput: "invalidInput", .credentialRevoked: "loginFailed", .incorrectCode: "wrongCode",
            .codeExpired: "codeExpired", .rateLimited: "rateLimited", .resetLinkInvalid: "loginFailed",
            .sessionExpired: "codeExpired",
        ],
        .resendMFA: [
            .mfaRequired: "loginFailed", .invalidCredentials: "loginFailed", .userCancelled: "cancel",
            .emailNotVerified: "loginFailed", .noConnection: "loginFailed", .serverError: "loginFailed",
            .invalidInput: "invalidInput", .credentialRevoked: "loginFailed", .incorrectCode: "loginFailed",
            .codeExpired: "codeExpired", .rateLimited: "rateLimited", .resetLinkInvalid: "loginFailed",
            .sessionExpired: "codeExpired",
        ],
        .requestPasswordReset: [
            .mfaRequired: "loginFailed", .invalidCredentials: "loginFailed", .userCancelled: "cancel",
            .emailNotVerified: "loginFailed", .noConnection: "loginFailed", .serverError: "loginFailed",
            .invalidInput: "invalidInput", .credentialRevoked: "loginFailed", .incorrectCode: "loginFailed",
            .codeExpired: "loginFailed", .rateLimited: "rateLimited", .resetLinkInvalid: "loginFailed",
            .sessionExpired: "loginFailed",
        ],
        .confirmPasswordReset: [
            .mfaRequired: "loginFailed", .invalidCredentials: "loginFailed", .userCancelled: "cancel",
            .emailNotVerified: "loginFailed", .noConnection: "loginFailed", .serverError: "loginFailed",
            .invalidInput: "invalidInput", .credentialRevoked: "loginFailed", .incorrectCode: "loginFailed",
            .codeExpired: "resetLinkInvalid", .rateLimited: "rateLimited", .resetLinkInvalid: "resetLinkInvalid",
            .sessionExpired: "loginFailed",
        ],
        .refreshSession: Dictionary(uniqueKeysWithValues: LoginError.Code.allCases.map { ($0, "refreshFailed") }),
    ]

    static let successEvents: [LoginOperation: String] = [
        .verifyMFA: "codeAccepted", .resendMFA: "resend", .requestPasswordReset: "resetEmailSent",
        .confirmPasswordReset: "passwordReset", .refreshSession: "refreshed",
    ]

    @Test func everyErrorOfEveryCallHasARow() {
        #expect(Set(Self.errorEvents.keys) == Set(LoginOperation.allCases))
        for operation in LoginOperation.allCases {
            #expect(Set(Self.errorEvents[operation]?.keys ?? [:].keys) == Set(LoginError.Code.allCases), "\(operation)")
        }
        #expect(Set(Self.successEvents.keys).union([.signIn]) == Set(LoginOperation.allCases))
    }

    @Test(arguments: LoginOperation.allCases, ProviderKind.allCases)
    func everyOutcomeMapsToItsEventAndOneOfTheCallsEvents(_ operation: LoginOperation, _ provider: ProviderKind) {
        let names = LoginEventNames.default
        let listed = names.events(of: operation, from: provider)
        #expect(Set(listed).count == listed.count, "each event listed once")
        let success = Self.successEvents[operation] ?? (provider.isSSO ? "ssoAccepted" : "passwordAccepted")
        #expect(names.success(of: operation, from: provider) == success)
        #expect(names.event(for: LoginResult.success(FakeIdentityBackend.session(provider)), of: operation, from: provider) == success)
        var mapped = [success]
        for code in LoginError.Code.allCases {
            let event = names.event(for: code, in: operation)
            #expect(event == Self.errorEvents[operation]?[code], "\(operation) \(code)")
            mapped.append(event)
        }
        #expect(Set(mapped) == Set(listed), "the listed events are exactly the mapped ones")
    }

    @Test func renamingAnEventRenamesItWherever() {
        let names = LoginEventNames(loginFailed: "oops", codeExpired: "expired", refreshFailed: "signInAgain")
        #expect(names.event(for: .codeExpired, in: .verifyMFA) == "expired")
        #expect(names.event(for: .noConnection, in: .resendMFA) == "oops")
        #expect(names.events(of: .refreshSession, from: .apple) == ["refreshed", "signInAgain"])
    }

    // MARK: The specs

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The events a step of a spec in `Specs/` declares.
    static func declared(_ spec: String, step: String) throws -> Set<String> {
        let model = try SpecLoader.load(file: root.appendingPathComponent("Specs/\(spec)").path)
        let state = try #require(model.state(named: step))
        return Set(model.moves[state.index].map { model.name(of: $0.event) })
    }

    @Test func aRefreshEmitsExactlyTheEventsOfSessionRestoresRefreshStep() throws {
        let declared = try Self.declared("session-restore.json", step: "refresh")
        for provider in ProviderKind.allCases {
            #expect(Set(LoginEventNames.default.events(of: .refreshSession, from: provider)) == declared)
        }
    }

    @Test func theCodeScreenOfEmailFirstDeclaresTheVerifyAndResendEventsThatMoveOn() throws {
        let declared = try Self.declared("email-first.json", step: "mfaCode")
        let names = LoginEventNames.default
        #expect(declared.isSuperset(of: [names.success(of: .verifyMFA, from: .emailPassword),
                                         names.success(of: .resendMFA, from: .emailPassword),
                                         names.event(for: .userCancelled, in: .verifyMFA)]))
        // The rest keep the person on the code screen with a message; email-first has no
        // transition for them. Listed so that a spec or mapping change is seen here.
        let stays = Set(names.events(of: .verifyMFA, from: .emailPassword) + names.events(of: .resendMFA, from: .emailPassword))
            .subtracting(declared)
        #expect(stays == ["mfaChallenged", "wrongCode", "codeExpired", "rateLimited", "loginFailed", "invalidInput"])
    }

    @Test func thePasswordResetOfEmailFirstDeclaresTheRequestAndConfirmEvents() throws {
        let names = LoginEventNames.default
        #expect(try Self.declared("email-first.json", step: "forgotPassword")
            .isSuperset(of: [names.success(of: .requestPasswordReset, from: .emailPassword), names.cancel]))
        #expect(try Self.declared("email-first.json", step: "checkInbox")
            .isSuperset(of: [names.success(of: .confirmPasswordReset, from: .emailPassword), names.cancel]))
    }

    @Test func theSignInStepsOfEverySpecDeclareTheirSuccess() throws {
        let names = LoginEventNames.default
        for spec in ["email-first.json", "session-restore.json", "signup-details-last.json"] {
            #expect(try Self.declared(spec, step: "password").contains(names.success(of: .signIn, from: .emailPassword)))
        }
        #expect(try Self.declared("email-first.json", step: "sso").contains(names.success(of: .signIn, from: .apple)))
    }
}
