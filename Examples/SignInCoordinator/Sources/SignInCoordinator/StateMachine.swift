/// A generic state machine with a history stack: the table says where each event leads from each state.
///
/// ```swift
/// let machine = StateMachine(initial: SignInState.start, rows: [(.start, .startAuth, .email)])
/// machine.handle(.startAuth)   // true; state == .email, history == [.start]
/// machine.goBack()             // true; state == .start
/// ```
public final class StateMachine<State: Hashable, Event: Hashable> {
    /// One row's key: a state and an event.
    public struct Transition: Hashable {
        public var from: State
        public var event: Event
    }

    /// The state the machine is in.
    public private(set) var state: State
    /// The states before this one, oldest first.
    public private(set) var history: [State] = []
    let initial: State
    let mutant: Mutant?
    private var table: [Transition: State] = [:]
    /// The table as `.tableKeyedByEvent` builds it: one target per event, whatever the state.
    private var byEvent: [Event: State] = [:]

    public init(initial: State, rows: [(from: State, event: Event, to: State)], mutant: Mutant? = nil) {
        self.state = initial
        self.initial = initial
        self.mutant = mutant
        for row in rows {
            table[Transition(from: row.from, event: row.event)] = row.to
            byEvent[row.event] = row.to
        }
    }

    /// Where `event` leads from the current state, or nil when the table has no row.
    public func target(of event: Event) -> State? {
        if mutant == .tableKeyedByEvent { return byEvent[event] }
        return table[Transition(from: state, event: event)]
    }

    /// Whether the table has a row for `event` in the current state.
    public func canHandle(_ event: Event) -> Bool { target(of: event) != nil }

    /// Moves along `event`'s row, remembering the state left; false (and no change) without a row.
    @discardableResult
    public func handle(_ event: Event) -> Bool {
        guard let next = target(of: event) else { return false }
        if mutant == .selfLoopRefused && next == state { return false }
        if mutant == .selfLoopReplacesFrame && next == state { return true }
        history.append(state)
        state = next
        return true
    }

    /// Whether there is a state to go back to.
    public var canGoBack: Bool { !history.isEmpty }

    /// Returns to the previous state; false when there is none.
    @discardableResult
    public func goBack() -> Bool {
        guard !history.isEmpty else { return false }
        if mutant == .undoPopsLastState {
            history.removeLast()
            state = history.last ?? initial
            return true
        }
        state = history.removeLast()
        return true
    }
}
