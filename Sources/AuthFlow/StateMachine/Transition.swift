/// One allowed move of a state machine: from a state, on an event, to a state.
///
/// A transition is a value: the machine's table holds them, `send(_:)` returns the one it took,
/// and observers receive it. Self-loops (`from == to`) are ordinary transitions.
public struct Transition<State: Hashable, Event: Hashable>: Hashable {
    /// The state the machine is in before the move.
    public var from: State
    /// The event that triggers the move.
    public var event: Event
    /// The state the machine is in after the move.
    public var to: State

    /// Creates a transition `from --event--> to`.
    public init(from: State, on event: Event, to: State) {
        self.from = from
        self.event = event
        self.to = to
    }
}

extension Transition: Sendable where State: Sendable, Event: Sendable {}

extension Transition: CustomStringConvertible {
    public var description: String { "\(from) --\(event)--> \(to)" }
}

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
    public var description: String {
        switch self {
        case let .noTransition(from, event):
            return "no transition from \(from) on \(event)"
        case let .conflictingTransition(existing, proposed):
            return "conflicting transition: \(proposed) clashes with \(existing)"
        case let .nothingToUndo(state):
            return "nothing to undo: \(state) is the root of the history"
        case let .reentrantCall(during):
            return "re-entrant call from an observer during \(during)"
        }
    }
}
