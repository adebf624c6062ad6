import AuthFlow
import AuthFlowChecker
import Testing
#if canImport(AsyncSignInExample)
import AsyncSignInExample   // the example built inside authcheck's own package
#else
import AsyncSignIn
#endif

/// The app's gate: its view model conforms to the spec it ships with, the checker playing the backend.
@Suite struct SignInConformanceTests {
    @Test func viewModelConformsToTheSpec() async throws {
        try await FlowGate.assertConforms(spec: "Specs/email-first-v2.json") { await SignInModel(backend: PlayedAuthBackend()) }
    }
}
