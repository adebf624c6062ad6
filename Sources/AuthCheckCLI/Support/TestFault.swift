import AuthFlow
import AuthFlowChecker

/// A deliberate runtime bug the end-to-end tests inject through `AUTHCHECK_TEST_FAULT`.
///
/// The real ``FlowSession`` never disagrees with the spec, so without a fault no run of the
/// command could show how a runtime counterexample prints (its data values, secrets as
/// `<redacted>`). Only tests set the variable.
enum TestFault: Sendable, Equatable {
    /// The runtime refuses to undo out of the named state.
    case undoRefused(state: String)

    init?(_ text: String) {
        let prefix = "undo-refused:"
        guard text.hasPrefix(prefix) else { return nil }
        self = .undoRefused(state: String(text.dropFirst(prefix.count)))
    }

    /// A driver of the real runtime with this fault.
    func driver(for model: FlowModel) -> any FlowDriver {
        switch self {
        case let .undoRefused(state):
            return UndoRefusingDriver(model: model, state: model.state(named: state))
        }
    }
}

extension TestFault {
    /// The runtime factory for `fuzz`: the test fault's driver when one is set, else the real session.
    static func driverFactory(model: FlowModel, environment: RunEnvironment) -> (() -> any FlowDriver)? {
        guard let fault = environment.testFault else { return nil }
        return { fault.driver(for: model) }
    }
}

/// The real runtime, except that undo (and back) out of one state is refused.
final class UndoRefusingDriver: ForwardingDriver {
    let refusedState: StateID?

    init(model: FlowModel, state: StateID?) {
        self.refusedState = state
        super.init(model: model)
    }

    override func back() -> Bool { real.state == refusedState ? false : real.back() }
    override func undo() -> Bool { real.state == refusedState ? false : real.undo() }
}
