/// Something that happened to a state machine, as observers see it.
public enum MachineEvent<State: Hashable, Event: Hashable>: Hashable {
    /// The machine moved along `transition`.
    case transitioned(Transition<State, Event>)
    /// The machine refused a request and did not change.
    case rejected(TransitionError<State, Event>)
    /// The machine undid one step, from `from` back to `to`.
    case undone(from: State, to: State)
    /// The machine returned to its root state with an empty history.
    case reset(to: State)
}

/// A generic state machine with a deterministic transition table and an undo history.
///
/// The table maps `(from, event)` to exactly one target; adding a conflicting entry throws
/// instead of overwriting. Every accepted `send(_:)` pushes the target on the history, self-loops
/// included, so `undo()` always returns to exactly the previous state. Queries
/// (``canSend(_:)``, ``enabledEvents``) answer without moving, so a checker explores through the
/// same API the app uses.
///
/// ```swift
/// let machine = try StateMachine(initial: "email", transitions: [
///     Transition(from: "email", on: "knownEmail", to: "password"),
/// ])
/// try machine.send("knownEmail")   // Transition email --knownEmail--> password
/// try machine.undo()               // back at "email"
/// ```
///
/// A machine is meant for one task at a time (it is not `Sendable`). Observers run synchronously
/// after each change; a `send` or `undo` issued from inside an observer is rejected with
/// ``TransitionError/reentrantCall(during:)`` rather than interleaving with the notification.
public final class StateMachine<State: Hashable, Event: Hashable> {
    /// A key of the transition table.
    @usableFromInline
    struct Trigger: Hashable {
        @usableFromInline var from: State
        @usableFromInline var event: Event
        @inlinable init(_ from: State, _ event: Event) {
            self.from = from
            self.event = event
        }
    }

    @usableFromInline var table: [Trigger: State] = [:]
    @usableFromInline var eventsByState: [State: [Event]] = [:]
    @usableFromInline var declared: [Transition<State, Event>] = []
    @usableFromInline var _history: [State]
    @usableFromInline var observers: [(MachineEvent<State, Event>) -> Void] = []
    @usableFromInline var notifying = false

    /// The state the machine starts in and returns to on ``reset()``.
    public let initial: State

    /// Creates a machine in `initial` with the given table.
    /// - Throws: ``TransitionError/conflictingTransition(existing:proposed:)`` if two transitions
    ///   share `from` and `event` but differ in `to`. Identical duplicates are accepted once.
    public init(initial: State, transitions: [Transition<State, Event>] = []) throws(TransitionError<State, Event>) {
        self.initial = initial
        self._history = [initial]
        for transition in transitions {
            try add(transition)
        }
    }

    /// Adds `transition` to the table.
    ///
    /// Adding an identical transition again does nothing.
    /// - Throws: ``TransitionError/conflictingTransition(existing:proposed:)`` when the table already
    ///   sends `(from, event)` elsewhere; the table is unchanged.
    public func add(_ transition: Transition<State, Event>) throws(TransitionError<State, Event>) {
        let trigger = Trigger(transition.from, transition.event)
        if let existing = table[trigger] {
            if existing == transition.to { return }
            throw .conflictingTransition(
                existing: Transition(from: transition.from, on: transition.event, to: existing),
                proposed: transition)
        }
        table[trigger] = transition.to
        eventsByState[transition.from, default: []].append(transition.event)
        declared.append(transition)
    }

    /// Every transition of the table, in the order they were added.
    public var transitions: [Transition<State, Event>] { declared }

    /// The current state: the top of the history.
    @inlinable public var state: State { _history[_history.count - 1] }

    /// The states visited, root first; the last element is the current state.
    @inlinable public var history: [State] { _history }

    /// How many states the history holds (one at the root).
    @inlinable public var historyCount: Int { _history.count }

    /// Whether ``undo()`` would succeed now.
    @inlinable public var canUndo: Bool { _history.count > 1 }

    /// The target of `event` from the current state, or `nil` when the table has none.
    @inlinable public func target(of event: Event) -> State? {
        table[Trigger(state, event)]
    }

    /// The target of `event` from `state`, or `nil` when the table has none.
    @inlinable public func target(from state: State, on event: Event) -> State? {
        table[Trigger(state, event)]
    }

    /// Whether `send(event)` would be accepted now; answers without moving.
    @inlinable public func canSend(_ event: Event) -> Bool {
        table[Trigger(state, event)] != nil
    }

    /// The events with a transition from the current state, in the order they were added.
    public var enabledEvents: [Event] { eventsByState[state] ?? [] }

    /// Moves along the transition for `event` and returns it.
    ///
    /// - Returns: the transition taken; the target is pushed on the history.
    /// - Throws: ``TransitionError/noTransition(from:on:)`` when the table has no entry; the
    ///   machine is unchanged and observers are told of the rejection.
    /// - Complexity: O(1) on average.
    @inlinable @discardableResult
    public func send(_ event: Event) throws(TransitionError<State, Event>) -> Transition<State, Event> {
        if notifying { throw TransitionError.reentrantCall(during: "send(\(event))") }
        let from = state
        guard let to = table[Trigger(from, event)] else {
            let error = TransitionError<State, Event>.noTransition(from: from, on: event)
            if !observers.isEmpty { notify(.rejected(error)) }
            throw error
        }
        _history.append(to)
        let transition = Transition(from: from, on: event, to: to)
        if !observers.isEmpty { notify(.transitioned(transition)) }
        return transition
    }

    /// Returns to exactly the previous state.
    ///
    /// - Returns: the state the machine is in after the undo.
    /// - Throws: ``TransitionError/nothingToUndo(at:)`` at the root; nothing changes.
    @inlinable @discardableResult
    public func undo() throws(TransitionError<State, Event>) -> State {
        if notifying { throw TransitionError.reentrantCall(during: "undo()") }
        guard _history.count > 1 else {
            let error = TransitionError<State, Event>.nothingToUndo(at: state)
            if !observers.isEmpty { notify(.rejected(error)) }
            throw error
        }
        let from = _history.removeLast()
        if !observers.isEmpty { notify(.undone(from: from, to: state)) }
        return state
    }

    /// Returns to the initial state with a history of one.
    public func reset() {
        _history.removeAll(keepingCapacity: true)
        _history.append(initial)
        if !observers.isEmpty { notify(.reset(to: initial)) }
    }

    /// Registers `observer`, called synchronously after every transition, rejection, undo and reset.
    public func observe(_ observer: @escaping (MachineEvent<State, Event>) -> Void) {
        observers.append(observer)
    }

    @usableFromInline func notify(_ event: MachineEvent<State, Event>) {
        notifying = true
        defer { notifying = false }
        for observer in observers { observer(event) }
    }
}
