/// Why a flow session refused a request; nothing changed when one is thrown.
public enum FlowError<State: Hashable, Event: Hashable, Key: Hashable>: Error, Hashable {
    /// The state machine refused (no transition, nothing to undo, re-entrant call).
    case transition(TransitionError<State, Event>)
    /// The step in `state` sent `event`, which its output contract does not list.
    case eventNotInContract(state: State, event: Event)
    /// The step in `state` sent `event` with other data keys than its contract declares.
    case outputMismatch(state: State, event: Event, expected: [Key], got: [Key])
    /// The step for `state` cannot be created: the data lacks keys its input contract requires.
    case missingInput(state: State, missing: [Key])
    /// Back is not possible from `state`.
    case cannotGoBack(state: State, reason: BackRefusal)
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
    public var description: String {
        switch self {
        case let .transition(error):
            return error.description
        case let .eventNotInContract(state, event):
            return "\(state) cannot send \(event): its output contract does not list it"
        case let .outputMismatch(state, event, expected, got):
            return "\(state) sent \(event) with data \(got), but its contract declares \(expected)"
        case let .missingInput(state, missing):
            return "\(state) requires \(missing), which the data lacks"
        case let .cannotGoBack(state, reason):
            return "cannot go back from \(state): \(reason.rawValue)"
        }
    }
}

/// A running flow: state machine, data stack, tracker and step creation, moved together.
///
/// Handling a step's output is atomic: the output is checked against the step's contract and the
/// transition table first, then the state and the data frame are pushed together; a rejected
/// output changes neither. ``back()`` undoes exactly one step, state and data. Steps are created
/// on every entry into a state with exactly the input their contract requires.
///
/// ```swift
/// let session = try FlowSession<String, String, String, FlowValue>(
///     initial: "email",
///     transitions: [Transition(from: "email", on: "knownEmail", to: "password")],
///     contracts: ["email": StepContract(emits: [.init("knownEmail", adds: ["email"])]),
///                 "password": StepContract(requires: ["email"])])
/// try session.handle(StepOutput("knownEmail", data: [("email", "a@b.c")]))
/// try session.back()   // state "email", no data
/// ```
///
/// A session is for one task at a time; it is not `Sendable`.
public final class FlowSession<State: Hashable, Event: Hashable, Key: Hashable, Value: Equatable> {
    public typealias Step = FlowStep<State, Event, Key, Value>
    public typealias Error = FlowError<State, Event, Key>

    /// The state machine that decides where the user goes next.
    public let machine: StateMachine<State, Event>
    @usableFromInline internal(set) var _data = DataStack<Key, Value>()
    /// The aggregated data, one frame per step.
    @inlinable public var data: DataStack<Key, Value> { _data }
    /// The contract of each state; a state without an entry has the empty contract.
    @usableFromInline let _contracts: [State: StepContract<Event, Key>]
    /// The contract of each state; a state without an entry has the empty contract.
    @inlinable public var contracts: [State: StepContract<Event, Key>] { _contracts }
    /// The terminal states (success and abort); back is refused from them.
    public let terminals: Set<State>
    /// The tracker told of every transition, rejection, undo and reset, if any.
    public var tracker: FlowTracker? { get { _tracker } set { _tracker = newValue } }
    @usableFromInline var _tracker: FlowTracker?
    /// How states and events are named in the tracker's records.
    public var describe: (Any) -> String = { String(describing: $0) }
    /// Called with the new step (or why it cannot be created) after every entry into a state.
    public var presenter: ((Result<Step, Error>) -> Void)? { get { _presenter } set { _presenter = newValue } }
    @usableFromInline var _presenter: ((Result<Step, Error>) -> Void)?

    /// Creates a session at `initial` with empty data.
    /// - Throws: ``FlowError/transition(_:)`` with a conflicting transition in `transitions`.
    public init(
        initial: State,
        transitions: [Transition<State, Event>],
        contracts: [State: StepContract<Event, Key>],
        terminals: Set<State> = [],
        tracker: FlowTracker? = nil
    ) throws(FlowError<State, Event, Key>) {
        do {
            self.machine = try StateMachine(initial: initial, transitions: transitions)
        } catch {
            throw .transition(error)
        }
        self._contracts = contracts
        self.terminals = terminals
        self._tracker = tracker
    }

    /// Creates a session over an existing machine (for example one shared with a UI layer).
    public init(
        machine: StateMachine<State, Event>,
        contracts: [State: StepContract<Event, Key>],
        terminals: Set<State> = [],
        tracker: FlowTracker? = nil
    ) {
        self.machine = machine
        self._contracts = contracts
        self.terminals = terminals
        self._tracker = tracker
    }

    /// The current state.
    @inlinable public var state: State { machine.state }

    /// The contract of the current state.
    @inlinable public var contract: StepContract<Event, Key> { _contracts[machine.state] ?? StepContract() }

    /// The events the current step can send that the table accepts, in contract order.
    public var enabledEvents: [Event] {
        contract.emits.compactMap { machine.canSend($0.event) ? $0.event : nil }
    }

    /// Whether the current step may send `event` and the table accepts it; answers without moving.
    @inlinable public func canHandle(_ event: Event) -> Bool {
        contract.adds(for: event) != nil && machine.canSend(event)
    }

    /// Whether ``back()`` would succeed now.
    public var canGoBack: Bool { backRefusal == nil }

    /// Why ``back()`` would fail now, or `nil` when it would succeed.
    public var backRefusal: BackRefusal? {
        if !machine.canUndo { return .atRoot }
        if terminals.contains(machine.state) { return .terminal }
        if !contract.canGoBack { return .disabled }
        return nil
    }

    /// Handles a step's output: validates it, then moves and pushes its data together.
    ///
    /// - Returns: the transition taken.
    /// - Throws: ``FlowError/eventNotInContract(state:event:)``,
    ///   ``FlowError/outputMismatch(state:event:expected:got:)`` or ``FlowError/transition(_:)``;
    ///   in every case the state and the data are unchanged.
    @discardableResult
    public func handle(_ output: StepOutput<Event, Key, Value>) throws(FlowError<State, Event, Key>) -> Transition<State, Event> {
        let from = machine.state
        guard let adds = contract.adds(for: output.event) else {
            track(.rejection, from: from, event: output.event, reason: "not in the output contract")
            throw .eventNotInContract(state: from, event: output.event)
        }
        let got = output.data.map(\.key)
        if got.count != adds.count || !adds.allSatisfy(got.contains) {
            track(.rejection, from: from, event: output.event, reason: "output data does not match the contract")
            throw .outputMismatch(state: from, event: output.event, expected: adds, got: got)
        }
        let transition = try advance(output.event)   // validates; pushes the state only when legal
        _data.push(output.data.lazy.map { ($0.key, $0.value) })
        entered(transition)
        return transition
    }

    /// Sends `event` with a value for each key the contract says it adds, asking `value(for:)` for each.
    ///
    /// The allocation-free path the checker drives: the data keys come from the contract, so the
    /// output always matches it. Validation and atomicity are those of ``handle(_:)``.
    @inlinable @discardableResult
    public func send(_ event: Event, value: (Key) -> Value) throws(FlowError<State, Event, Key>) -> Transition<State, Event> {
        let from = machine.state
        guard let adds = contract.adds(for: event) else {
            if _tracker != nil { track(.rejection, from: from, event: event, reason: "not in the output contract") }
            throw .eventNotInContract(state: from, event: event)
        }
        let transition = try advance(event)   // validates; pushes the state only when legal
        _data.push(keys: adds, value: value)
        entered(transition)
        return transition
    }

    @inlinable
    func advance(_ event: Event) throws(FlowError<State, Event, Key>) -> Transition<State, Event> {
        do {
            return try machine.send(event)
        } catch {
            if _tracker != nil { track(.rejection, from: machine.state, event: event, reason: error.description) }
            throw .transition(error)
        }
    }

    @inlinable
    func entered(_ transition: Transition<State, Event>) {
        if _tracker != nil { track(.transition, from: transition.from, event: transition.event, to: transition.to) }
        if _presenter != nil { present() }
    }

    /// Undoes one step: the previous state and exactly the previous data.
    /// - Returns: the state after the undo.
    /// - Throws: ``FlowError/cannotGoBack(state:reason:)``; nothing changes.
    @discardableResult
    public func back() throws(FlowError<State, Event, Key>) -> State {
        let from = machine.state
        if let refusal = backRefusal {
            track(.rejection, from: from, reason: "back refused: \(refusal.rawValue)")
            throw .cannotGoBack(state: from, reason: refusal)
        }
        do {
            try machine.undo()
        } catch {
            throw .transition(error)
        }
        try? _data.pop()
        track(.undo, from: from, to: machine.state)
        present()
        return machine.state
    }

    /// Undoes one step regardless of the screen's back policy: for tools that backtrack, such as the checker.
    ///
    /// ``back()`` is the user's undo and refuses at terminal states and on `back: false` screens;
    /// this one refuses only at the root. The state and exactly the previous data are restored.
    /// - Throws: ``FlowError/cannotGoBack(state:reason:)`` with ``BackRefusal/atRoot``.
    @inlinable @discardableResult
    public func undo() throws(FlowError<State, Event, Key>) -> State {
        let from = machine.state
        do {
            try machine.undo()
        } catch {
            throw .cannotGoBack(state: from, reason: .atRoot)
        }
        try? _data.pop()
        if _tracker != nil { track(.undo, from: from, to: machine.state) }
        if _presenter != nil { present() }
        return machine.state
    }

    /// Returns to the root: the initial state, empty data and history.
    public func reset() {
        let from = machine.state
        machine.reset()
        _data.reset()
        track(.reset, from: from, to: machine.state)
        present()
    }

    /// Logs the user out: a ``reset()`` that also starts a new tracker session id.
    public func logout(newSessionID: String) {
        reset()
        tracker?.sessionID = newSessionID
    }

    /// The step for the current state, holding exactly the data its contract requires.
    /// - Throws: ``FlowError/missingInput(state:missing:)`` when required data is absent.
    public func currentStep() throws(FlowError<State, Event, Key>) -> Step {
        let contract = self.contract
        var input: [Key: Value] = [:]
        var missing: [Key] = []
        for key in contract.requires {
            if let value = data[key] { input[key] = value } else { missing.append(key) }
        }
        if !missing.isEmpty { throw .missingInput(state: machine.state, missing: missing) }
        return FlowStep(state: machine.state, contract: contract, input: input)
    }

    @usableFromInline
    func track(_ kind: TrackedKind, from: State, event: Event? = nil, to: State? = nil, reason: String? = nil) {
        guard let tracker else { return }
        tracker.record(kind, from: describe(from), event: event.map(describe), to: to.map(describe), reason: reason)
    }

    @usableFromInline
    func present() {
        guard let presenter else { return }
        do {
            presenter(.success(try currentStep()))
        } catch {
            presenter(.failure(error))
        }
    }
}
