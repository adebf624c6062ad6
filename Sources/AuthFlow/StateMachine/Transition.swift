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
    /// `password --mfaChallenged--> mfaCode`, with states and events by their ``FlowName/flowName`` when their types have one.
    public var description: String { "\(FlowNameText.name(from)) --\(FlowNameText.name(event))--> \(FlowNameText.name(to))" }
}

