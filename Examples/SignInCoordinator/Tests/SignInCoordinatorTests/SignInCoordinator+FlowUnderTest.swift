// The whole adapter: the coordinator already has `state`, `data`, `back()` and `undo()`.
import AuthFlow
import AuthFlowChecker
#if canImport(SignInCoordinatorExample)
import SignInCoordinatorExample   // the example built inside authcheck's own package
#else
import SignInCoordinator
#endif

extension SignInState: FlowName {}
extension SignInEvent: FlowName {}
extension SignInKey: FlowName {}

extension SignInCoordinator: UndoableFlowUnderTest {
    public func send(_ event: SignInEvent, data: [SignInKey: String]) -> Bool {
        handle(event, output: data)
    }
}

/// The app the generated tours (EmailFirstToursTests.swift, `authcheck paths --format swift --adapter EmailFirstApp`) drive:
/// one name for it in this package's build and in authcheck's own, where the app's module is named differently.
typealias EmailFirstApp = SignInCoordinator
