import AuthFlowChecker
#if canImport(AsyncSignInExample)
import AsyncSignInExample   // the example built inside authcheck's own package
#else
import AsyncSignIn
#endif

/// The backend the checker plays: every call waits for the answer the checks deliver, one the spec allows there.
///
/// A call whose task is cancelled (the user left the waiting screen) is let go at once, as a real request is.
struct PlayedAuthBackend: AuthBackend {
    let played = PlayedBackend<Answer>()     // the checker delivers each answer the spec allows

    func signIn(email: String, password: String) async throws -> SignInAnswer {
        let answer = try await answer(["signedIn", "mfaRequired", "wrongPassword", "accountLocked"])
        switch answer.event {
        case "signedIn": return .signedIn(token: answer.data["token"] ?? "")
        case "mfaRequired": return .mfaRequired(MFAMethod(rawValue: answer.data["mfaMethod"] ?? "") ?? .sms)
        case "wrongPassword": return .wrongPassword
        default: return .accountLocked
        }
    }

    /// Waits for one of `events`; throws when the request's task is cancelled (back left its screen) or the model discarded.
    func answer(_ events: Set<String>) async throws -> Answer {
        let answer = await withTaskCancellationHandler {
            await played.answer { events.contains($0.event) }
        } onCancel: {
            played.cancel()
        }
        guard let answer, !Task.isCancelled else { throw CancellationError() }
        return answer
    }
    // lookUp(email:), verify(code:accountId:) and requestPasswordReset(email:) take their answers the same way.

    /// An answer as the checks deliver it: the spec's event and the data it carries.
    struct Answer: Sendable {
        var event: String
        var data: [String: String]
    }

    func lookUp(email: String) async throws -> LookupAnswer {
        let answer = try await answer(["accountFound", "noAccount"])
        return answer.event == "accountFound" ? .found(accountId: answer.data["accountId"] ?? "") : .notFound
    }

    func verify(code: String, accountId: String) async throws -> CodeAnswer {
        let answer = try await answer(["codeAccepted", "wrongCode"])
        return answer.event == "codeAccepted" ? .accepted(token: answer.data["token"] ?? "") : .wrongCode
    }

    func resendCode(accountId: String) async throws {}

    func requestPasswordReset(email: String) async throws {
        _ = try await answer(["resetSent"])
    }
}
