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
/// ## Re-entrant calls
///
/// A session calls out to code it was given while it works: the ``presenter``, the ``describe``
/// closure, the `value` closure of ``send(_:value:)``, and the machine's observers. A call back
/// into the session from any of them is defined and safe, and never interleaves with the
/// operation that is running:
///
/// - ``handle(_:)``, ``send(_:value:)``, ``back()`` and ``undo()`` throw
///   ``FlowError/transition(_:)`` with ``TransitionError/reentrantCall(during:)`` and change
///   nothing. To move on as soon as a step is presented, send after the outer call has returned.
/// - ``reset()`` and ``logout(newSessionID:)`` are deferred: they run once the running operation
///   has finished, before it returns to its caller. During a reset's own notifications the
///   session is already at its root, so a reset asked for then does nothing and a logout only
///   takes its new session id: a presenter that resets whenever it is called cannot loop.
///
/// Queries (``state``, ``data``, ``currentStep()``, ``canHandle(_:)``…) answer at any time. Inside a
/// machine observer the new frame's data is not pushed yet: read the data from the ``presenter``.
///
/// ## Concurrency
///
/// A session is for one task at a time: it is a class with mutable state and is not `Sendable`,
/// so the compiler refuses to share one between tasks (capturing it in two concurrent tasks, or
/// using it after handing it to another, does not compile). Handing a session over to one other
/// task for good is allowed. Give each concurrent flow its own session.
/// The dense frame of one step of an `authflow/2` session: the model's presence bits and packed values, and whether
/// the step updated the frame below in place (section 5's `"history": "replace"`).
@usableFromInline
struct _SessionFrame {
    @usableFromInline var keys: UInt64
    @usableFromInline var values: UInt64
    /// Where the session's decisions for this frame are (``SessionMoves/FrameDecisions``), valid while their
    /// `generation` is this one's; -1 until asked. An undo lands on a frame that knows its place, so it is not looked up again.
    @usableFromInline var decision: Int32 = -1
    /// The decided branch that pushed this frame (its index in the decisions' outcomes, same generation), or -1: the
    /// frame's own place is written back there once found, so the next push by that branch knows it.
    @usableFromInline var from: Int32 = -1
    @usableFromInline var generation: UInt32 = 0
    @usableFromInline var replaced: Bool
    @inlinable init(_ frame: (keys: UInt64, values: UInt64), replaced: Bool) {
        (keys, values) = frame
        self.replaced = replaced
    }
    /// The presence bits and packed values, as the model's questions take them.
    @inlinable var frame: (keys: UInt64, values: UInt64) { (keys, values) }
}

public final class FlowSession<State: Hashable, Event: Hashable, Key: Hashable, Value: Equatable> {
    public typealias Step = FlowStep<State, Event, Key, Value>
    public typealias Error = FlowError<State, Event, Key>

    /// The state machine that decides where the user goes next.
    public let machine: StateMachine<State, Event>
    /// A reset deferred until the running operation has finished; a logout also renews the tracker's session id.
    @usableFromInline enum PendingReset {
        case reset
        case logout(newSessionID: String)
    }
    /// What changes as the session runs, behind one pointer so the hot path pays no dynamic
    /// exclusivity check (a session is used by one task at a time).
    @usableFromInline
    struct _Storage {
        @usableFromInline var data = DataStack<Key, Value>()
        /// For an `authflow/2` session: the dense frame of each step, root first, parallel to the machine's history
        /// (one owner: the session, which destroys it in `deinit`).
        @usableFromInline var frames = _OwnedStack<_SessionFrame>(capacity: 1)
        @usableFromInline var tracker: FlowTracker?
        @usableFromInline var presenter: ((Result<Step, Error>) -> Void)?
        /// Whether an operation is running (and may be calling out to the presenter, an observer…).
        @usableFromInline var busy = false
        /// Whether the running operation is a reset.
        @usableFromInline var resetting = false
        /// A reset or logout asked for while an operation ran, to run when it has finished.
        @usableFromInline var pendingReset: PendingReset?
        /// The session id of a logout asked for during a reset's notifications: it comes later
        /// than the id of the logout that reset, so it wins.
        var lateSessionID: String?
        @inlinable init(tracker: FlowTracker?) { self.tracker = tracker }
    }
    /// Where ``storage`` lives; only `init`, `deinit` and ``storage`` touch the pointer.
    @usableFromInline let _s: UnsafeMutablePointer<_Storage>
    /// The session's mutable state, read and changed in place through ``_s``.
    @inlinable var storage: _Storage {
        @inline(__always) unsafeAddress { UnsafePointer(_s) }
        @inline(__always) unsafeMutableAddress { _s }
    }
    /// The aggregated data, one frame per step.
    @inlinable public var data: DataStack<Key, Value> { storage.data }
    /// The contract of each state; a state without an entry has the empty contract.
    @usableFromInline let _contracts: [State: StepContract<Event, Key>]
    /// The contract of each state; a state without an entry has the empty contract.
    @inlinable public var contracts: [State: StepContract<Event, Key>] { _contracts }
    /// For dense state ids: the contracts by state index (`nil` when states are not dense ids).
    @usableFromInline let _denseContracts: [StepContract<Event, Key>]?
    /// For dense state ids: whether each state index is terminal.
    @usableFromInline let _denseTerminal: [Bool]
    /// The terminal states (success and abort); back is refused from them.
    public let terminals: Set<State>
    /// For a flow whose moves depend on its data (`authflow/2`): its model and the dense frame of each step.
    @usableFromInline let _rules: SessionRules<State, Event, Key, Value>?
    /// The tracker told of every transition, rejection, undo and reset, if any.
    @inlinable public var tracker: FlowTracker? {
        get { storage.tracker }
        set { storage.tracker = newValue }
    }
    /// How states and events are named in the tracker's records.
    public var describe: (Any) -> String = { String(describing: $0) }
    /// Called with the new step (or why it cannot be created) after every entry into a state.
    @inlinable public var presenter: ((Result<Step, Error>) -> Void)? {
        get { storage.presenter }
        set { storage.presenter = newValue }
    }

    /// Creates a session at `initial` with empty data.
    /// - Throws: ``FlowError/transition(_:)`` with a conflicting transition in `transitions`.
    public convenience init(
        initial: State,
        transitions: [Transition<State, Event>],
        contracts: [State: StepContract<Event, Key>],
        terminals: Set<State> = [],
        tracker: FlowTracker? = nil
    ) throws(FlowError<State, Event, Key>) {
        let machine: StateMachine<State, Event>
        do {
            machine = try StateMachine(initial: initial, transitions: transitions)
        } catch {
            throw .transition(error)
        }
        self.init(machine: machine, contracts: contracts, terminals: terminals, tracker: tracker)
    }

    /// Creates a session over an existing machine (for example one shared with a UI layer).
    public convenience init(
        machine: StateMachine<State, Event>,
        contracts: [State: StepContract<Event, Key>],
        terminals: Set<State> = [],
        tracker: FlowTracker? = nil
    ) {
        self.init(machine: machine, contracts: contracts, terminals: terminals, tracker: tracker, rules: nil)
    }

    /// Creates a session that decides its moves by `rules` (an `authflow/2` flow) when given them, else by the machine's table.
    init(
        machine: StateMachine<State, Event>,
        contracts: [State: StepContract<Event, Key>],
        terminals: Set<State>,
        tracker: FlowTracker?,
        rules: SessionRules<State, Event, Key, Value>?
    ) {
        self._rules = rules
        self.machine = machine
        (self._denseContracts, self._denseTerminal) = Self.denseTables(contracts, terminals)
        self._contracts = contracts
        self.terminals = terminals
        self._s = .allocate(capacity: 1)
        _s.initialize(to: _Storage(tracker: tracker))
        if let rules { _s.pointee.frames.append(_SessionFrame(rules.root, replaced: false)) }
        _checkInvariants()
    }

    deinit {
        _s.pointee.frames.destroy()
        _s.deinitialize(count: 1)
        _s.deallocate()
    }

    /// The contracts and terminal flags by state index, when states are dense ids with small indices.
    static func denseTables(_ contracts: [State: StepContract<Event, Key>], _ terminals: Set<State>)
        -> ([StepContract<Event, Key>]?, [Bool]) {
        guard _DenseIndex.applies(to: State.self) else { return (nil, []) }
        var count = 0
        for state in Array(contracts.keys) + Array(terminals) {
            guard let index = _DenseIndex.index(state) else { return (nil, []) }
            count = max(count, index + 1)
        }
        var table = [StepContract<Event, Key>](repeating: StepContract(), count: count)
        var terminal = [Bool](repeating: false, count: count)
        for (state, contract) in contracts { table[_DenseIndex.index(state)!] = contract }
        for state in terminals { terminal[_DenseIndex.index(state)!] = true }
        return (table, terminal)
    }

    /// Traps unless the dense contract and terminal tables agree with ``contracts`` and ``terminals``,
    /// and the machine's own tables agree; a no-op unless built with `DEBUG` or `AUTHFLOW_INVARIANTS`.
    /// - Complexity: O(*n*) in the number of states and transitions.
    func _checkInvariants() {
        #if DEBUG || AUTHFLOW_INVARIANTS
        machine._checkInvariants()
        guard let table = _denseContracts else {
            precondition(_denseTerminal.isEmpty, "terminal flags kept by index for states that are not dense ids")
            return
        }
        var contracts = [StepContract<Event, Key>](repeating: StepContract(), count: table.count)
        var terminal = [Bool](repeating: false, count: table.count)
        for (state, contract) in _contracts {
            guard let index = _DenseIndex.index(state), index < table.count else { preconditionFailure("a contract missing from the dense table") }
            contracts[index] = contract
        }
        for state in terminals {
            guard let index = _DenseIndex.index(state), index < table.count else { preconditionFailure("a terminal missing from the dense table") }
            terminal[index] = true
        }
        precondition(table == contracts, "the dense contracts disagree with contracts")
        precondition(_denseTerminal == terminal, "the dense terminal flags disagree with terminals")
        #endif
    }

    /// The current state.
    @inlinable public var state: State { machine.state }

    /// The contract of the current state.
    @inlinable public var contract: StepContract<Event, Key> { contract(of: machine.state) }

    /// The contract of `state`: a flat array read for dense ids, a dictionary look-up otherwise.
    @inlinable @inline(__always)
    func contract(of state: State) -> StepContract<Event, Key> {
        if let table = _denseContracts {
            guard let index = _DenseIndex.index(state), index < table.count else { return StepContract() }
            return table[index]
        }
        return _contracts[state] ?? StepContract()
    }

    /// The keys the current step's contract says `event` adds, or `nil` when it does not list `event`.
    @inlinable @inline(__always)
    func _adds(for event: Event) -> [Key]? {
        if let table = _denseContracts {
            guard let index = _DenseIndex.index(machine.state), index < table.count else { return nil }
            return table[index].adds(for: event)
        }
        return contract.adds(for: event)
    }

    /// Whether the contract of `state` allows back, read without copying the contract.
    @inlinable @inline(__always)
    func contractAllowsBack(_ state: State) -> Bool {
        if let table = _denseContracts {
            guard let index = _DenseIndex.index(state), index < table.count else { return true }
            return table[index].canGoBack
        }
        return _contracts[state]?.canGoBack ?? true
    }

    /// Whether `state` is terminal.
    @inlinable @inline(__always)
    func isTerminal(_ state: State) -> Bool {
        if _denseContracts != nil {
            guard let index = _DenseIndex.index(state), index < _denseTerminal.count else { return false }
            return _denseTerminal[index]
        }
        return terminals.contains(state)
    }

    /// The events the current step can send that the table accepts, in contract order. In an
    /// `authflow/2` flow: the events the step offers now (their `when` holds) for which some
    /// value the step may send has a row that fires.
    public var enabledEvents: [Event] {
        if let rules = _rules { return _enabledByRules(rules) }
        return contract.emits.compactMap { machine.canSend($0.event) ? $0.event : nil }
    }

    /// Whether the current step may send `event` and the table accepts it; answers without moving.
    @inlinable @inline(__always) public func canHandle(_ event: Event) -> Bool {
        if let rules = _rules { return _canHandleByRules(rules, event) }
        return _adds(for: event) != nil && machine.canSend(event)
    }

    @inlinable @inline(never)
    func _canHandleByRules(_ rules: SessionRules<State, Event, Key, Value>, _ event: Event) -> Bool {
        guard let s = rules.id(of: machine.state), let e = rules.id(of: event), let index = rules.emission(e, in: s) else { return false }
        return rules.accepts(state: s, emission: index, in: storage.frames.last.frame)
    }

    /// The value of `key` as the flow holds it now: the data's; in an `authflow/2` flow also the
    /// variant's config values and a counter's count (0 until incremented).
    public func value(_ key: Key) -> Value? {
        if let rules = _rules { return rules.current(key, data: storage.data) }
        return storage.data[key]
    }

    /// Whether the data holds `value` for `key` (``data``'s own value, not a config value or a counter's 0),
    /// compared in place: the checker compares every frame this way.
    @inlinable @inline(__always)
    package func dataHolds(_ value: Value, for key: Key) -> Bool {
        storage.data.holds(value, for: key)
    }

    /// The config values this session's variant fixed (`authflow/2`); empty for other flows.
    public var configuration: [Key: Value] { _rules?.config ?? [:] }

    /// Whether ``back()`` would succeed now.
    @inlinable public var canGoBack: Bool { backRefusal == nil }

    /// Why ``back()`` would fail now, or `nil` when it would succeed.
    @inlinable @inline(__always) public var backRefusal: BackRefusal? {
        if !machine.canUndo { return .atRoot }
        // Only a flow with section 5's history keys marks in-place frames (this runs at every question the checker asks).
        if let rules = _rules, rules.usesSection5History, _backFrames == 0 { return .atRoot }
        let state = machine.state
        if isTerminal(state) { return .terminal }
        if !contractAllowsBack(state) { return .disabled }
        return nil
    }

    /// Handles a step's output: validates it, then moves and pushes its data together.
    ///
    /// - Returns: the transition taken.
    /// - Throws: ``FlowError/eventNotInContract(state:event:)``,
    ///   ``FlowError/outputMismatch(state:event:expected:got:)`` or ``FlowError/transition(_:)``;
    ///   in every case the state and the data are unchanged. Called from inside the presenter or
    ///   an observer, it throws ``TransitionError/reentrantCall(during:)``.
    @discardableResult
    public func handle(_ output: StepOutput<Event, Key, Value>) throws(FlowError<State, Event, Key>) -> Transition<State, Event> {
        try begin { "handle(\(output.event))" }
        defer { end() }
        if let rules = _rules {
            let data = output.data
            return try _sendByRules(rules, output.event, sent: data.map(\.key)) { key in data.last { $0.key == key }?.value }
        }
        let from = machine.state
        guard let adds = _adds(for: output.event) else {
            track(.rejection, from: from, event: output.event, reason: "not in the output contract")
            throw .eventNotInContract(state: from, event: output.event)
        }
        let got = output.data.map(\.key)
        if got.count != adds.count || !adds.allSatisfy(got.contains) {
            track(.rejection, from: from, event: output.event, reason: "output data does not match the contract")
            throw .outputMismatch(state: from, event: output.event, expected: adds, got: got)
        }
        let transition = try advance(output.event)   // validates; pushes the state only when legal
        storage.data.push(output.data.lazy.map { ($0.key, $0.value) })
        entered(transition, added: adds)
        return transition
    }

    /// Sends `event` with a value for each key the contract says it adds, asking `value(for:)` for each.
    ///
    /// The allocation-free path the checker drives: the data keys come from the contract, so the
    /// output always matches it. Validation and atomicity are those of ``handle(_:)``.
    @inlinable @discardableResult
    public func send(_ event: Event, value: (Key) -> Value) throws(FlowError<State, Event, Key>) -> Transition<State, Event> {
        try begin { "send(\(event))" }
        defer { end() }
        if let rules = _rules { return try _sendByRules(rules, event, sent: nil) { value($0) } }
        let from = machine.state
        guard let adds = _adds(for: event) else {
            if storage.tracker != nil { track(.rejection, from: from, event: event, reason: "not in the output contract") }
            throw .eventNotInContract(state: from, event: event)
        }
        let transition = try advance(event)   // validates; pushes the state only when legal
        storage.data.push(keys: adds, value: value)
        entered(transition, added: adds)
        return transition
    }

    /// Marks an operation as running, or throws when one already is: the call is re-entrant.
    @inlinable @inline(__always)
    func begin(_ call: () -> String) throws(FlowError<State, Event, Key>) {
        if storage.busy { throw .transition(.reentrantCall(during: call())) }
        storage.busy = true
    }

    /// Marks the running operation as finished, then runs a reset asked for while it ran.
    @inlinable @inline(__always)
    func end() {
        storage.busy = false
        if storage.pendingReset != nil { runPendingReset() }
    }

    @usableFromInline
    func runPendingReset() {
        guard let pending = storage.pendingReset else { return }
        storage.pendingReset = nil
        switch pending {
        case .reset: reset()
        case let .logout(newSessionID): logout(newSessionID: newSessionID)
        }
    }

    @inlinable @inline(__always)
    func advance(_ event: Event) throws(FlowError<State, Event, Key>) -> Transition<State, Event> {
        do {
            return try machine.send(event)
        } catch {
            if storage.tracker != nil { track(.rejection, from: machine.state, event: event, reason: error.description) }
            throw .transition(error)
        }
    }

    @inlinable @inline(__always)
    func entered(_ transition: Transition<State, Event>, added: [Key], cleared: [Key]? = nil, values: [Key: String]? = nil) {
        if storage.tracker != nil {
            track(.transition, from: transition.from, event: transition.event, to: transition.to, added: added, cleared: cleared, values: values)
        }
        if storage.presenter != nil { present() }
    }

    /// Undoes one step: the previous state and exactly the previous data.
    /// - Returns: the state after the undo.
    /// - Throws: ``FlowError/cannotGoBack(state:reason:)``; nothing changes. Called from inside the
    ///   presenter or an observer, ``FlowError/transition(_:)`` with ``TransitionError/reentrantCall(during:)``.
    @inlinable @discardableResult
    public func back() throws(FlowError<State, Event, Key>) -> State {
        try begin { "back()" }
        defer { end() }
        let from = machine.state
        if let refusal = backRefusal {
            if storage.tracker != nil { track(.rejection, from: from, reason: "back refused: \(refusal.rawValue)") }
            throw .cannotGoBack(state: from, reason: refusal)
        }
        do {
            try machine.undo()
        } catch {
            throw .transition(error)
        }
        if let rules = _rules, rules.usesSection5History {
            _userBack(rules)
        } else {
            try? storage.data.pop()
            if _rules != nil, storage.frames.count > 1 { storage.frames.removeLast() }
        }
        if storage.tracker != nil { track(.undo, from: from, to: machine.state) }
        if storage.presenter != nil { present() }
        return machine.state
    }

    /// How many frames the user's back takes off: the top one and every frame that updated it in place
    /// (section 5's `"history": "replace"`); 0 when that would leave no frame (the user is at the root's screen).
    @inlinable var _backFrames: Int {
        BackFrames.count(height: storage.frames.count) { storage.frames[$0].replaced }
    }

    /// The user's back in a flow with section 5's keys, once the machine's top is undone: the frames ``_backFrames`` counts
    /// come off, and the server-side data stays as it is now.
    @usableFromInline @inline(never)
    func _userBack(_ rules: SessionRules<State, Event, Key, Value>) {
        let held = rules.serverKeyIDs.map { storage.data[rules.keys[$0]] }
        let count = _backFrames
        // The machine's top is undone already; the frames that updated the screen in place go with it.
        for _ in 1..<max(1, count) { _ = try? machine.undo() }
        guard storage.frames.count > count else { return }
        let left = storage.frames.last
        for _ in 0..<count {
            try? storage.data.pop()
            storage.frames.removeLast()
        }
        for (position, k) in rules.serverKeyIDs.enumerated() { storage.data.overwrite(rules.keys[k], with: held[position]) }
        let below = storage.frames.last
        storage.frames.last = _SessionFrame(rules.layout.back(to: below.keys, below.values, server: left.keys, left.values),
                                            replaced: below.replaced)
    }

    /// Undoes one step regardless of the screen's back policy: for tools that backtrack, such as the checker.
    ///
    /// ``back()`` is the user's undo and refuses at terminal states and on `back: false` screens;
    /// this one refuses only at the root. The state and exactly the previous data are restored.
    /// - Throws: ``FlowError/cannotGoBack(state:reason:)`` with ``BackRefusal/atRoot``.
    @inlinable @discardableResult
    public func undo() throws(FlowError<State, Event, Key>) -> State {
        try begin { "undo()" }
        defer { end() }
        let from = machine.state
        do {
            try machine.undo()
        } catch {
            throw .cannotGoBack(state: from, reason: .atRoot)
        }
        try? storage.data.pop()
        if _rules != nil, storage.frames.count > 1 { storage.frames.removeLast() }
        if storage.tracker != nil { track(.undo, from: from, to: machine.state) }
        if storage.presenter != nil { present() }
        return machine.state
    }

    /// Returns to the root: the initial state, empty data and history.
    ///
    /// Called while another operation runs (from the presenter or an observer), the reset runs once
    /// that operation has finished; called during a reset's own notifications, it does nothing.
    public func reset() {
        if storage.busy {
            if !storage.resetting, storage.pendingReset == nil { storage.pendingReset = .reset }
            return
        }
        storage.busy = true
        storage.resetting = true
        defer {
            storage.resetting = false
            end()
        }
        let from = machine.state
        machine.reset()
        storage.data.reset()
        if let rules = _rules {
            storage.frames.removeAll()
            storage.frames.append(_SessionFrame(rules.root, replaced: false))
        }
        track(.reset, from: from, to: machine.state)
        present()
    }

    /// Returns to the root of another `authflow/2` variant (an index of ``FlowModel/variantNames``):
    /// its config values from now on, no data, history one frame. `false`, with nothing changed, for
    /// a variant the flow does not have; a flow without variants has only variant 0 (a ``reset()``).
    @discardableResult
    public func reset(variant: Int) -> Bool {
        guard let rules = _rules else {
            guard variant == 0 else { return false }
            reset()
            return true
        }
        guard rules.model.roots.indices.contains(variant), !storage.busy else { return false }
        rules.select(variant: variant)
        reset()
        return true
    }

    /// Logs the user out: a ``reset()`` that also starts a new tracker session id.
    ///
    /// Called while another operation runs, the logout runs once that operation has finished;
    /// called during a reset's own notifications, it only takes the new session id.
    public func logout(newSessionID: String) {
        if storage.busy {
            if storage.resetting {
                tracker?.sessionID = newSessionID
                storage.lateSessionID = newSessionID
            } else {
                storage.pendingReset = .logout(newSessionID: newSessionID)
            }
            return
        }
        storage.lateSessionID = nil
        reset()
        tracker?.sessionID = storage.lateSessionID ?? newSessionID
        storage.lateSessionID = nil
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
    func track(_ kind: TrackedKind, from: State, event: Event? = nil, to: State? = nil, reason: String? = nil,
               added: [Key]? = nil, cleared: [Key]? = nil, values: [Key: String]? = nil) {
        guard let tracker else { return }
        tracker.record(kind, from: describe(from), event: event.map(describe), to: to.map(describe), reason: reason,
                       added: added.map { $0.map(describe) }, cleared: cleared.map { $0.map(describe) },
                       values: values.map { Dictionary($0.map { (describe($0.key), $0.value) }, uniquingKeysWith: { first, _ in first }) })
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
