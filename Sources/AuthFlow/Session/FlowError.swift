/// Why a flow session refused a request; nothing changed when one is thrown.
public enum FlowError<State: Hashable, Event: Hashable, Key: Hashable>: Error, Hashable {
    /// The state machine refused (no transition, nothing to undo, re-entrant call).
    case transition(TransitionError<State, Event>)
    /// The step in `state` sent `event`, which its output contract does not list.
    case eventNotInContract(state: State, event: Event)
    /// The step in `state` sent `event`, which it offers only when its `when` holds, and it does not hold now (`authflow/2`).
    case eventNotOffered(state: State, event: Event)
    /// The step in `state` sent `event` with a value for `key` outside the key's declared values (`authflow/2`).
    case valueNotInDomain(state: State, event: Event, key: Key)
    /// The step in `state` sent `event` with other data keys than its contract declares.
    case outputMismatch(state: State, event: Event, expected: [Key], got: [Key])
    /// The step for `state` cannot be created: the data lacks keys its input contract requires.
    case missingInput(state: State, missing: [Key])
    /// Back is not possible from `state`.
    case cannotGoBack(state: State, reason: BackRefusal)
    /// A flow declared in Swift is not a valid flow, so no session can run it: each problem as the checker reports it.
    case invalidDefinition(problems: [String])
}

/// Why the user cannot go back from a screen.
public enum BackRefusal: String, Hashable, Sendable {
    /// The session is at its root: there is nothing to undo.
    case atRoot = "at the root"
    /// The state is terminal (success or abort).
    case terminal = "terminal state"
    /// The step declares `back: false`.
    case disabled = "back is disabled on this screen"
}

extension FlowError: Sendable where State: Sendable, Event: Sendable, Key: Sendable {}

extension FlowError: CustomStringConvertible {
    /// What was refused, with states, events and keys by their ``FlowName/flowName`` (`session`, not `DataKey.session`).
    public var description: String {
        let name = FlowNameText.name
        switch self {
        case let .transition(error):
            return error.description
        case let .eventNotInContract(state, event):
            return "\(name(state)) cannot send \(name(event)): its output contract does not list it"
        case let .eventNotOffered(state, event):
            return "\(name(state)) cannot send \(name(event)) now: its step offers it only when its condition holds, and it does not"
        case let .valueNotInDomain(state, event, key):
            return "\(name(state)) sent \(name(event)) with a value of \(name(key)) that is not one of its declared values"
        case let .outputMismatch(state, event, expected, got):
            return "\(name(state)) sent \(name(event)) with data \(FlowNameText.keys(got)), but its contract declares \(FlowNameText.keys(expected))"
        case let .missingInput(state, missing):
            return "\(name(state)) requires \(FlowNameText.keys(missing)), which the data lacks"
        case let .cannotGoBack(state, reason):
            return "cannot go back from \(name(state)): \(reason.rawValue)"
        case let .invalidDefinition(problems):
            return "the flow is not valid: \(problems.joined(separator: "; "))"
        }
    }
}
