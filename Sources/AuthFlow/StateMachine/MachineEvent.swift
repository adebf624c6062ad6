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
