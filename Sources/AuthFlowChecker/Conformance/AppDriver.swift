import AuthFlow

/// Drives an app's ``FlowUnderTest`` as the walk and the random-path tester drive a runtime, keeping only what it must.
///
/// It translates the checker's dense ids into the app's names, types the checker's values into
/// the app's value type (and recognises them coming back), and keeps the path of accepted events
/// so that it can backtrack: by the app's back where the spec allows back, else by the app's undo
/// or snapshots when it has them and may use them, else by replaying the path on a fresh
/// instance. It never reports its own bookkeeping: the searches run it with ``DriverTraits/app``,
/// which compares only the app's state and data.
final class AppDriver<Flow: FlowUnderTest>: FlowDriver, NamesUnknownStates {
    let model: FlowModel
    let make: () -> Flow
    /// Whether the app's undo or snapshots may be used to backtrack (off: replays only, as for an app without them).
    let usesCapabilities: Bool
    private(set) var app: Flow
    /// The app as ``UndoableFlowUnderTest``, when it is one and may be used.
    private var undoable: (any UndoableFlowUnderTest)?
    /// Takes and restores the app's snapshots, when it is a ``RestorableFlowUnderTest`` and may be used.
    private var snapshotter: Snapshotter?
    /// The app's event for each of the model's (nil: the app has none).
    private let events: [Flow.Event?]
    /// The app's key for each of the model's.
    private let keys: [Flow.Key?]
    /// The model's move for each (state, event), by `state * events + event`.
    private let moves: [FlowModel.Move?]
    /// For each event, the keys it adds where a step emits it: what it carries when sent where
    /// the step does not emit it, so a table that stores data before refusing shows it.
    private let payloads: [[KeyID]]
    /// Ids of the app's states: the model's, then ids past them for states the spec does not name.
    private var stateIDs: [Flow.State: StateID] = [:]
    private var unknownStates: [String] = []
    /// The checker's value behind each app value it typed.
    private var sent: [Flow.Value: FlowValue] = [:]
    /// Each accepted event and the data it carried, from the root.
    private var path: [(event: Flow.Event, data: [Flow.Key: Flow.Value])] = []
    /// The model's state after each accepted event (the root's first): where back is allowed.
    private var states: [Int32]
    /// The app's snapshot before each accepted event, when snapshots are used.
    private var snapshots: [Any] = []

    /// Saves and restores an app's snapshots through an existential, its `Snapshot` type erased.
    private struct Snapshotter {
        var take: () -> Any
        var restore: (Any) -> Void
    }

    init(model: FlowModel, usesCapabilities: Bool = true, make: @escaping () -> Flow) {
        self.model = model
        self.make = make
        self.usesCapabilities = usesCapabilities
        self.app = make()
        self.events = model.events.map { Flow.event(named: $0) }
        self.keys = model.keys.map { Flow.key(named: $0) }
        var moves = [FlowModel.Move?](repeating: nil, count: model.stateCount * model.events.count)
        for state in 0..<model.stateCount {
            for move in model.moves[state] { moves[state * model.events.count + move.event.index] = move }
        }
        self.moves = moves
        var payloads = [[KeyID]](repeating: [], count: model.events.count)
        for move in model.moves.joined() where payloads[move.event.index].isEmpty { payloads[move.event.index] = move.addedKeys }
        self.payloads = payloads
        self.states = [model.initial.rawValue]
        adopt()
    }

    /// Reads the fresh `app`'s capabilities.
    private func adopt() {
        undoable = usesCapabilities ? app as? any UndoableFlowUnderTest : nil
        snapshotter = nil
        if usesCapabilities, undoable == nil, let restorable = app as? any RestorableFlowUnderTest {
            snapshotter = Self.snapshotter(restorable)
        }
    }

    private static func snapshotter<R: RestorableFlowUnderTest>(_ app: R) -> Snapshotter {
        Snapshotter(take: { app.snapshot() }, restore: { app.restore($0 as! R.Snapshot) })
    }

    var state: StateID {
        let current = app.state
        if let id = stateIDs[current] { return id }
        let name = current.flowName
        let id = model.state(named: name) ?? StateID(model.stateCount + unknownStates.count)
        if id.index >= model.stateCount { unknownStates.append(name) }
        stateIDs[current] = id
        return id
    }

    func name(of state: StateID) -> String? {
        let index = state.index - model.stateCount
        return unknownStates.indices.contains(index) ? unknownStates[index] : nil
    }

    var dataCount: Int { app.data.count }

    func value(of key: KeyID) -> FlowValue? {
        guard let appKey = keys[key.index], let value = app.data[appKey] else { return nil }
        return sent[value] ?? .string("\(value)")
    }

    func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
        let top = Int(states[states.count - 1])
        let move = moves[top * model.events.count + event.index]
        var data: [Flow.Key: Flow.Value] = [:]
        for key in move?.addedKeys ?? payloads[event.index] {
            guard let appKey = keys[key.index] else { continue }
            let typed = value(key)
            let appValue = Flow.Value(flowValue: typed)
            sent[appValue] = typed
            data[appKey] = appValue
        }
        guard let appEvent = events[event.index] else { return false }
        let snapshot = snapshotter?.take()
        guard app.send(appEvent, data: data) else { return false }
        if let snapshot { snapshots.append(snapshot) }
        path.append((appEvent, data))
        states.append(move?.target?.rawValue ?? Int32(top))
        return true
    }

    func back() -> Bool {
        guard app.back() else { return false }
        drop()
        return true
    }

    /// Backtracks one accepted event: the app's back where the spec allows it, else its undo or
    /// snapshot, else a replay of the rest of the path on a fresh instance.
    func undo() -> Bool {
        guard !path.isEmpty else { return false }
        let top = Int(states[states.count - 1])
        if !model.isTerminal[top] && model.canGoBack[top] { return back() }
        if let undoable {
            guard undoable.undo() else { return false }
            drop()
            return true
        }
        if let snapshotter, let snapshot = snapshots.last {
            snapshotter.restore(snapshot)
            drop()
            return true
        }
        let rest = path.dropLast(), restStates = states.dropLast()
        reset()
        for (event, data) in rest {
            guard app.send(event, data: data) else { break }
            path.append((event, data))
        }
        states = Array(restStates.prefix(path.count + 1))
        return true
    }

    /// Forgets the last accepted event.
    private func drop() {
        if !path.isEmpty {
            path.removeLast()
            states.removeLast()
        }
        if !snapshots.isEmpty { snapshots.removeLast() }
    }

    func reset() {
        app = make()
        path.removeAll(keepingCapacity: true)
        states.removeAll(keepingCapacity: true)
        states.append(model.initial.rawValue)
        snapshots.removeAll(keepingCapacity: true)
        adopt()
    }

    // The searches run this driver with `DriverTraits.app`, which never asks what an app cannot answer.
    var height: Int { preconditionFailure("an app's history height is never asked (DriverTraits.app)") }
    func canHandle(_ event: EventID) -> Bool { preconditionFailure("an app's enabled events are never asked (DriverTraits.app)") }
    var canGoBack: Bool { preconditionFailure("whether an app can go back is never asked, only tried (DriverTraits.app)") }
}
