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
final class UndoRefusingDriver: FlowDriver {
    let base: SessionDriver
    let refusedState: StateID?

    init(model: FlowModel, state: StateID?) {
        self.base = SessionDriver(model: model)
        self.refusedState = state
    }

    var state: StateID { base.state }
    var height: Int { base.height }
    var dataCount: Int { base.dataCount }
    func value(of key: KeyID) -> FlowValue? { base.value(of: key) }
    func canHandle(_ event: EventID) -> Bool { base.canHandle(event) }
    var canGoBack: Bool { base.canGoBack }
    func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool { base.send(event, value: value) }
    func back() -> Bool { base.state == refusedState ? false : base.back() }
    func undo() -> Bool { base.state == refusedState ? false : base.undo() }
    func reset() { base.reset() }
}
