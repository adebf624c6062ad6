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
///
/// Performance: the machine's mutable state lives behind one unsafe pointer, so the hot path
/// (``send(_:)``, ``undo()``, ``canSend(_:)``, ``state``) pays no dynamic exclusivity check, and
/// when `State` and `Event` are the model's dense ids the table is also kept as an open-addressed
/// integer hash, so a lookup hashes no `Hasher`. Both are invisible to callers.
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

    /// Everything that changes, in one place behind ``storage``.
    ///
    /// The table is kept three ways, which ``_checkInvariants()`` checks agree: `table` answers
    /// look-ups for any `State` and `Event`, `eventsByState` lists each state's events in the order
    /// they were added, `declared` lists the transitions in that order, and for dense ids
    /// `denseKeys`/`denseTargets` hold `table` again as an open-addressed hash.
    @usableFromInline
    struct _Storage {
        /// The states visited, root first (one owner: the machine, which destroys it in `deinit`).
        @usableFromInline var history: _OwnedStack<State>
        @usableFromInline var table: [Trigger: State] = [:]
        @usableFromInline var eventsByState: [State: [Event]] = [:]
        @usableFromInline var declared: [Transition<State, Event>] = []
        @usableFromInline var observers: [(MachineEvent<State, Event>) -> Void] = []
        @usableFromInline var notifying = false
        /// A ``StateMachine/reset()`` asked for by an observer, done when the notification ends.
        @usableFromInline var resetPending = false
        /// For dense ids: the table again, open-addressed on `from << 32 | event` (empty: `nil` target).
        @usableFromInline var denseKeys: [Int64] = []
        @usableFromInline var denseTargets: [State?] = []
        /// `64 - log2(capacity)`: the shift that turns a multiplied key into a slot.
        @usableFromInline var denseShift: UInt64 = 64
        /// Whether the dense table is in use (both `State` and `Event` are dense ids).
        @usableFromInline var dense: Bool

        @inlinable init(initial: State, dense: Bool) {
            self.history = _OwnedStack(initial)
            self.dense = dense
        }
    }

    /// Where ``storage`` lives; only `init`, `deinit` and ``storage`` touch the pointer.
    @usableFromInline let _s: UnsafeMutablePointer<_Storage>

    /// The machine's mutable state, read and changed in place.
    ///
    /// Reached through a pointer, so no access needs a dynamic exclusivity check: the machine is
    /// single-threaded, and observers run only after a change is complete (never while a caller
    /// holds an access to the storage).
    @inlinable var storage: _Storage {
        @inline(__always) unsafeAddress { UnsafePointer(_s) }
        @inline(__always) unsafeMutableAddress { _s }
    }

    /// The state the machine starts in and returns to on ``reset()``.
    public let initial: State

    /// Creates a machine in `initial` with the given table.
    /// - Throws: ``TransitionError/conflictingTransition(existing:proposed:)`` if two transitions
    ///   share `from` and `event` but differ in `to`. Identical duplicates are accepted once.
    public init(initial: State, transitions: [Transition<State, Event>] = []) throws(TransitionError<State, Event>) {
        self.initial = initial
        self._s = .allocate(capacity: 1)
        _s.initialize(to: _Storage(initial: initial,
                                   dense: _DenseIndex.applies(to: State.self) && _DenseIndex.applies(to: Event.self)))
        for transition in transitions {
            try insert(transition)
        }
        _checkInvariants()
    }

    deinit {
        _s.pointee.history.destroy()
        _s.deinitialize(count: 1)
        _s.deallocate()
    }

    /// Adds `transition` to the table.
    ///
    /// Adding an identical transition again does nothing.
    /// - Throws: ``TransitionError/conflictingTransition(existing:proposed:)`` when the table already
    ///   sends `(from, event)` elsewhere; the table is unchanged.
    public func add(_ transition: Transition<State, Event>) throws(TransitionError<State, Event>) {
        try insert(transition)
        _checkInvariants()
    }

    /// Adds `transition` to every form of the table, or throws when it conflicts; see ``add(_:)``.
    func insert(_ transition: Transition<State, Event>) throws(TransitionError<State, Event>) {
        let trigger = Trigger(transition.from, transition.event)
        if let existing = storage.table[trigger] {
            if existing == transition.to { return }
            throw .conflictingTransition(
                existing: Transition(from: transition.from, on: transition.event, to: existing),
                proposed: transition)
        }
        storage.table[trigger] = transition.to
        storage.eventsByState[transition.from, default: []].append(transition.event)
        storage.declared.append(transition)
        if storage.dense { denseInsert(transition) }
    }

    /// Every transition of the table, in the order they were added.
    public var transitions: [Transition<State, Event>] { storage.declared }

    /// The current state: the top of the history.
    @inlinable public var state: State { storage.history.last }

    /// The states visited, root first; the last element is the current state.
    @inlinable public var history: [State] { storage.history.elements }

    /// How many states the history holds (one at the root).
    @inlinable public var historyCount: Int { storage.history.count }

    /// Whether ``undo()`` would succeed now.
    @inlinable public var canUndo: Bool { storage.history.count > 1 }

    /// The target of `event` from `state`, or `nil` when the table has none.
    @inlinable public func target(from state: State, on event: Event) -> State? {
        lookup(state, event)
    }

    /// Whether `send(event)` would be accepted now; answers without moving.
    @inlinable @inline(__always) public func canSend(_ event: Event) -> Bool {
        lookup(state, event) != nil
    }

    /// The events with a transition from the current state, in the order they were added.
    public var enabledEvents: [Event] { storage.eventsByState[state] ?? [] }

    /// Moves along the transition for `event` and returns it.
    ///
    /// - Returns: the transition taken; the target is pushed on the history.
    /// - Throws: ``TransitionError/noTransition(from:on:)`` when the table has no entry; the
    ///   machine is unchanged and observers are told of the rejection.
    /// - Complexity: O(1) on average.
    @inlinable @inline(__always) @discardableResult
    public func send(_ event: Event) throws(TransitionError<State, Event>) -> Transition<State, Event> {
        if storage.notifying { throw TransitionError.reentrantCall(during: "send(\(event))") }
        let from = state
        guard let to = lookup(from, event) else {
            let error = TransitionError<State, Event>.noTransition(from: from, on: event)
            if !storage.observers.isEmpty { notify(.rejected(error)) }
            throw error
        }
        storage.history.append(to)
        _checkHistory()
        let transition = Transition(from: from, on: event, to: to)
        if !storage.observers.isEmpty { notify(.transitioned(transition)) }
        return transition
    }

    /// Moves to `to` as if the table sent `event` there, without consulting the table: for a session
    /// whose rows have guards (``FlowSession`` running an `authflow/2` flow), which decides the
    /// target itself. Observers are told as for ``send(_:)``.
    /// - Throws: ``TransitionError/reentrantCall(during:)`` from inside an observer; nothing changes.
    @inlinable @inline(__always) @discardableResult
    func move(on event: Event, to: State) throws(TransitionError<State, Event>) -> Transition<State, Event> {
        if storage.notifying { throw TransitionError.reentrantCall(during: "send(\(event))") }
        let transition = Transition(from: state, on: event, to: to)
        storage.history.append(to)
        _checkHistory()
        if !storage.observers.isEmpty { notify(.transitioned(transition)) }
        return transition
    }

    /// Returns to exactly the previous state.
    ///
    /// - Returns: the state the machine is in after the undo.
    /// - Throws: ``TransitionError/nothingToUndo(at:)`` at the root; nothing changes.
    @inlinable @inline(__always) @discardableResult
    public func undo() throws(TransitionError<State, Event>) -> State {
        if storage.notifying { throw TransitionError.reentrantCall(during: "undo()") }
        guard storage.history.count > 1 else {
            let error = TransitionError<State, Event>.nothingToUndo(at: state)
            if !storage.observers.isEmpty { notify(.rejected(error)) }
            throw error
        }
        let from = storage.history.removeLast()
        _checkHistory()
        if !storage.observers.isEmpty { notify(.undone(from: from, to: state)) }
        return state
    }

    /// Returns to the initial state with a history of one.
    ///
    /// Called from inside an observer, the reset waits until every observer has been told of the
    /// change being notified, then happens (and is notified) once: observers never see a history
    /// change under them.
    public func reset() {
        if storage.notifying {
            storage.resetPending = true
            return
        }
        storage.history.removeAll()
        storage.history.append(initial)
        _checkHistory()
        if !storage.observers.isEmpty { notify(.reset(to: initial)) }
    }

    /// Registers `observer`, called synchronously after every transition, rejection, undo and reset.
    public func observe(_ observer: @escaping (MachineEvent<State, Event>) -> Void) {
        storage.observers.append(observer)
    }

    @usableFromInline func notify(_ event: MachineEvent<State, Event>) {
        storage.notifying = true
        let observers = storage.observers
        for observer in observers { observer(event) }
        storage.notifying = false
        if storage.resetPending {
            storage.resetPending = false
            reset()
        }
    }

    // MARK: The table

    /// The target of `event` from `from`: the dense table for dense ids, the dictionary otherwise.
    @inlinable @inline(__always)
    func lookup(_ from: State, _ event: Event) -> State? {
        if storage.dense, let f = _DenseIndex.raw(from), let e = _DenseIndex.raw(event) {
            return denseLookup(Self.denseKey(f, e))
        }
        return storage.table[Trigger(from, event)]
    }

    @inlinable @inline(__always)
    static func denseKey(_ from: Int32, _ event: Int32) -> Int64 {
        Int64(from) << 32 | Int64(UInt32(bitPattern: event))
    }

    @inlinable @inline(__always)
    static func denseSlot(_ key: Int64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inlinable @inline(__always)
    func denseLookup(_ key: Int64) -> State? {
        let shift = storage.denseShift
        if shift >= 64 { return nil }   // empty table
        let mask = storage.denseKeys.count &- 1
        var slot = Self.denseSlot(key, shift: shift)
        while true {
            guard let target = storage.denseTargets[slot] else { return nil }
            if storage.denseKeys[slot] == key { return target }
            slot = (slot &+ 1) & mask
        }
    }

    func denseInsert(_ transition: Transition<State, Event>) {
        guard let f = _DenseIndex.raw(transition.from), let e = _DenseIndex.raw(transition.event) else { return }
        let count = storage.declared.count   // already includes `transition`
        if storage.denseKeys.count < 2 * count {
            // Grow to keep the load at most one half, and re-insert every row.
            var capacity = 8
            var bits: UInt64 = 3
            while capacity < 4 * count { capacity <<= 1; bits += 1 }
            storage.denseKeys = [Int64](repeating: 0, count: capacity)
            storage.denseTargets = [State?](repeating: nil, count: capacity)
            storage.denseShift = 64 - bits
            for row in storage.declared {
                denseStore(Self.denseKey(_DenseIndex.raw(row.from)!, _DenseIndex.raw(row.event)!), row.to)
            }
        } else {
            denseStore(Self.denseKey(f, e), transition.to)
        }
    }

    func denseStore(_ key: Int64, _ target: State) {
        let mask = storage.denseKeys.count - 1
        var slot = Self.denseSlot(key, shift: storage.denseShift)
        while storage.denseTargets[slot] != nil { slot = (slot + 1) & mask }
        storage.denseKeys[slot] = key
        storage.denseTargets[slot] = target
    }

    // MARK: Invariants

    /// Traps unless the history starts at ``initial``; a no-op unless built with `DEBUG` or `AUTHFLOW_INVARIANTS`.
    @inlinable @inline(__always)
    func _checkHistory() {
        #if DEBUG || AUTHFLOW_INVARIANTS
        precondition(!storage.history.isEmpty && storage.history[0] == initial, "the history must start at the initial state")
        #endif
    }

    /// Traps unless the forms the table is kept in agree and the history starts at ``initial``.
    ///
    /// Checked: `table`, `eventsByState` and `declared` hold the same transitions, each state's
    /// events in the order they were added; for dense ids, the open-addressed table holds each of
    /// them once, at most half full, and nothing else. Called after every change to the table in
    /// builds with `DEBUG` or `AUTHFLOW_INVARIANTS` (as swift-collections does with its own
    /// flag), and from tests; elsewhere a no-op.
    /// - Complexity: O(*n*) for *n* transitions.
    @inlinable @inline(__always)
    func _checkInvariants() {
        #if DEBUG || AUTHFLOW_INVARIANTS
        _checkHistory()
        let declared = storage.declared
        precondition(storage.table.count == declared.count, "table and declared hold different numbers of transitions")
        var byState: [State: [Event]] = [:]
        for transition in declared {
            precondition(storage.table[Trigger(transition.from, transition.event)] == transition.to,
                         "table disagrees with declared on \(transition)")
            byState[transition.from, default: []].append(transition.event)
        }
        precondition(storage.eventsByState == byState, "eventsByState disagrees with declared")
        guard storage.dense else { return }
        let capacity = storage.denseKeys.count
        precondition(storage.denseTargets.count == capacity, "dense keys and targets differ in length")
        if declared.isEmpty {
            precondition(storage.denseShift == 64 || storage.denseTargets.allSatisfy { $0 == nil }, "an empty dense table holds targets")
            return
        }
        precondition(capacity >= 2 * declared.count && capacity & (capacity - 1) == 0
                     && storage.denseShift == UInt64(64 - capacity.trailingZeroBitCount),
                     "the dense table is more than half full or its shift does not fit its capacity")
        precondition(storage.denseTargets.lazy.filter { $0 != nil }.count == declared.count,
                     "the dense table holds other than the declared transitions")
        for transition in declared {
            let key = Self.denseKey(_DenseIndex.raw(transition.from)!, _DenseIndex.raw(transition.event)!)
            precondition(denseLookup(key) == transition.to, "the dense table disagrees with declared on \(transition)")
        }
        #endif
    }
}
