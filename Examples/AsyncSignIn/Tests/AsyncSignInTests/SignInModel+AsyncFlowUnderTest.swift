import AuthFlow
import AuthFlowChecker
#if canImport(AsyncSignInExample)
import AsyncSignInExample   // the example built inside authcheck's own package
#else
import AsyncSignIn
#endif

// The whole adapter: the spec's names are the app's (screens, actions: raw values; events and keys: strings).
extension SignInModel: AsyncFlowUnderTest {
    public var state: String { screen.rawValue }
    public var data: [String: String] {
        ["email": form.email, "accountId": form.accountId, "password": form.password, "code": form.code, "token": form.token,
         "mfaMethod": form.mfaMethod?.rawValue, "passwordVerified": form.passwordVerified ? "yes" : nil,
         "codeVerified": form.codeVerified ? "yes" : nil, "attempts": failedAttempts > 0 ? "\(failedAttempts)" : nil].compactMapValues { $0 }
    }
    public func send(_ action: String, data: [String: String]) async -> Bool {
        await settled { model in Action(rawValue: action).map { model.perform($0, input: data.values.first) } ?? false }
    }
    public func receive(_ answer: String, data: [String: String]) async -> Bool { await played.deliver(.init(event: answer, data: data)) }
    public func back() async -> Bool { await settled { $0.goBack() } }
    public func discard() async { played.cancel() }
    var played: PlayedBackend<PlayedAuthBackend.Answer> { (backend as? PlayedAuthBackend)?.played ?? PlayedBackend() }
    /// Runs `act` on the model (on its actor: its request starts only after); if accepted, returns when the request waits.
    func settled(_ act: @escaping @MainActor (SignInModel) -> Bool) async -> Bool {
        let accepted = Accepted()
        await played.run { @MainActor in if act(self) { accepted.value = true; await self.request?.value } }
        return accepted.value
    }
}
final class Accepted: @unchecked Sendable { var value = false }

/// The app the generated tests (EmailFirstV2ToursTests.swift, EmailFirstV2TrailsTests.swift: `authcheck paths|replay --format swift
/// --adapter EmailFirstV2App --async`) drive: one name for it in this package's build and in authcheck's own, where the app's
/// module is named differently.
typealias EmailFirstV2App = SignInModel

extension SignInModel {
    /// The model the generated tests make (`EmailFirstV2App()`): the checker plays its backend.
    convenience init() { self.init(backend: PlayedAuthBackend()) }
}
