import AuthFlow
import Foundation
import AuthFlowChecker

/// A deliberate runtime bug the end-to-end tests inject through `AUTHCHECK_TEST_FAULT`.
///
/// The real ``FlowSession`` never disagrees with the spec, so without a fault no run of the
/// command could show how a runtime counterexample prints (its data values, secrets as
/// `<redacted>`). Only tests set the variable.
enum TestFault: Sendable, Equatable {
    /// The runtime refuses to undo out of the named state.
    case undoRefused(state: String)
    /// The runtime rejects the named event although the table accepts it (a divergence).
    case rejects(event: String)
    /// The passcode check runs the seed article's filter: strip, cut to length, then uppercase.
    case naivePasscode

    init?(_ text: String) {
        if text.hasPrefix("undo-refused:") {
            self = .undoRefused(state: String(text.dropFirst("undo-refused:".count)))
        } else if text.hasPrefix("rejects:") {
            self = .rejects(event: String(text.dropFirst("rejects:".count)))
        } else if text == "naive-passcode" {
            self = .naivePasscode
        } else {
            return nil
        }
    }

    /// A driver of the real runtime with this fault, or nil when the fault is not the runtime's.
    func driver(for model: FlowModel) -> (any FlowDriver)? {
        switch self {
        case let .undoRefused(state):
            return UndoRefusingDriver(model: model, state: model.state(named: state))
        case let .rejects(event):
            return EventRejectingDriver(model: model, event: model.event(named: event))
        case .naivePasscode:
            return nil
        }
    }

    /// The passcode normaliser with this fault, or nil when the fault is not the normaliser's.
    func normaliser(for model: FlowModel) -> ((String) -> String)? {
        guard case .naivePasscode = self else { return nil }
        let policy = model.passcode
        return { input in
            String(input.trimmingCharacters(in: .whitespacesAndNewlines).prefix(policy.maxLength)).uppercased()
        }
    }
}

extension TestFault {
    /// The runtime factory for `fuzz`: the test fault's driver when one is set, else the real session.
    static func driverFactory(model: FlowModel, environment: RunEnvironment) -> (() -> any FlowDriver)? {
        guard let fault = environment.testFault else { return nil }
        guard fault.driver(for: model) != nil else { return nil }
        return { fault.driver(for: model)! }
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

/// The real runtime, except that one event is rejected although the table accepts it.
final class EventRejectingDriver: ForwardingDriver {
    let rejected: EventID?

    init(model: FlowModel, event: EventID?) {
        self.rejected = event
        super.init(model: model)
    }

    override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
        event == rejected ? false : real.send(event, value: value)
    }
}
