import AuthCheckCLI
import AuthFlow
import AuthFlowChecker
import Foundation

/// A deliberate runtime bug the end-to-end tests inject, so a run of the command can show how a runtime counterexample prints.
///
/// The real ``FlowSession`` never disagrees with the spec, so without a fault no run could show
/// a runtime counterexample (its data values, secrets as `<redacted>`). `authcheck-testing`
/// reads one from `AUTHCHECK_TEST_FAULT` and hands it to the command as a ``RunEnvironment``;
/// the shipped `authcheck` has no way to take one.
public enum TestFault: Sendable, Equatable {
    /// The runtime refuses to undo out of the named state.
    case undoRefused(state: String)
    /// The runtime rejects the named event although the table accepts it (a divergence).
    case rejects(event: String)
    /// The passcode check runs the seed article's filter: strip, cut to length, then uppercase.
    case naivePasscode

    /// Parses `undo-refused:STATE`, `rejects:EVENT` or `naive-passcode`.
    public init?(_ text: String) {
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
    public func driver(for model: FlowModel) -> (any FlowDriver)? {
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
    public func normaliser(for model: FlowModel) -> (@Sendable (String) -> String)? {
        guard case .naivePasscode = self else { return nil }
        let policy = model.passcode
        return { input in
            String(input.trimmingCharacters(in: .whitespacesAndNewlines).prefix(policy.maxLength)).uppercased()
        }
    }
}

extension RunEnvironment {
    /// The environment the end-to-end tests run the command in: `variables`, a fixed clock (every
    /// duration `0.000`, so output is byte-stable), and `fault`'s runtime or normaliser when one is given.
    public static func testing(variables: [String: String], fault: TestFault?) -> RunEnvironment {
        RunEnvironment(variables: variables, clock: .fixed(),
                       makeDriver: { model in fault?.driver(for: model) },
                       makeNormaliser: { model in fault?.normaliser(for: model) })
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
