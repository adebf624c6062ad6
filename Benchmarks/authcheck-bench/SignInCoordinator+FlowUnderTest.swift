// The example app's adapter (as in Examples/SignInCoordinator's tests), for the conformance walk's figures.
import AuthFlow
import AuthFlowChecker
import SignInCoordinatorExample

extension SignInState: FlowName {}
extension SignInEvent: FlowName {}
extension SignInKey: FlowName {}

extension SignInCoordinator: UndoableFlowUnderTest {
    public func send(_ event: SignInEvent, data: [SignInKey: String]) -> Bool { handle(event, output: data) }
}
