/// The app's sign-in coordinator: a state machine with a history, the data each step collected, and the steps it presents.
///
/// The screens call ``handle(_:output:)`` with what the user did and what the step produced;
/// the back button calls ``back()``.
///
/// ```swift
/// let coordinator = SignInCoordinator()
/// coordinator.handle(.startAuth, output: [:])                  // true: the email screen
/// coordinator.handle(.knownEmail, output: [.email: "a@b.c", .account: "42"])
/// coordinator.back()                                           // true: the email screen, no email
/// ```
public final class SignInCoordinator {
    /// The bug this coordinator was built with, if any (test fixtures only).
    public let mutant: Mutant?
    let machine: StateMachine<SignInState, SignInEvent>
    var store: DataStack<SignInKey, String>

    public init(mutant: Mutant? = nil) {
        self.mutant = mutant
        self.machine = StateMachine(initial: .start, rows: StepFactory.rows(mutant: mutant), mutant: mutant)
        self.store = DataStack(mutant: mutant)
    }

    /// The state shown now.
    public var state: SignInState { machine.state }
    /// The data collected so far.
    public var data: [SignInKey: String] { store.current }
    /// The step shown now.
    public var step: Step { StepFactory.step(for: machine.state) }

    /// Handles `event` from the current step with the data it produced; false (and no change) when the flow has no such transition.
    @discardableResult
    public func handle(_ event: SignInEvent, output: [SignInKey: String]) -> Bool {
        if mutant == .dataBeforeLegalCheck { store.push(output) }
        guard let next = machine.target(of: event) else { return false }
        let selfLoop = next == machine.state
        guard machine.handle(event) else { return false }
        if mutant == .selfLoopReplacesFrame && selfLoop {
            store.merge(output)
        } else if mutant == .cancelClearsData && event == .cancel {
            store.pushCleared()
        } else if mutant != .dataBeforeLegalCheck {
            store.push(output)
        }
        return true
    }

    /// The user's back: to the previous step with the data it had; false where the step does not allow it.
    @discardableResult
    public func back() -> Bool {
        let step = self.step
        guard step.allowsBack || (mutant == .backFromTerminal && step.isTerminal), machine.canGoBack else { return false }
        if mutant == .backSkipsSameScreen {
            let left = machine.state
            while machine.state == left, machine.goBack() { store.pop() }
            return true
        }
        machine.goBack()
        if mutant != .backForgetsData { store.pop() }
        return true
    }

    /// Undoes the last transition whatever the step allows (debug menus and tests).
    @discardableResult
    public func undo() -> Bool {
        guard machine.goBack() else { return false }
        store.pop()
        return true
    }
}
