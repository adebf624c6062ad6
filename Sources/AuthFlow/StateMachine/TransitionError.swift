/// Why a state machine refused a request; every case says what and where.
public enum TransitionError<State: Hashable, Event: Hashable>: Error, Hashable {
    /// The table has no transition from `from` on `event`; nothing changed.
    case noTransition(from: State, on: Event)
    /// A transition with the same `from` and `event` but another target is already in the table.
    case conflictingTransition(existing: Transition<State, Event>, proposed: Transition<State, Event>)
    /// `undo()` was asked for at the root of the history; nothing changed.
    case nothingToUndo(at: State)
    /// `send(_:)` or `undo()` was called from inside an observer while the machine was notifying.
    case reentrantCall(during: String)
}

extension TransitionError: Sendable where State: Sendable, Event: Sendable {}

extension TransitionError: CustomStringConvertible {
    /// What was refused, with states and events by their ``FlowName/flowName`` when their types have one.
    public var description: String {
        let name = FlowNameText.name
        switch self {
        case let .noTransition(from, event):
            return "no transition from \(name(from)) on \(name(event))"
        case let .conflictingTransition(existing, proposed):
            return "conflicting transition: \(proposed) clashes with \(existing)"
        case let .nothingToUndo(state):
            return "nothing to undo: \(name(state)) is the root of the history"
        case let .reentrantCall(during):
            return "re-entrant call from an observer during \(during)"
        }
    }
}
