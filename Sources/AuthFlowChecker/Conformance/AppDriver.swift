import AuthFlow

/// Drives an app's ``FlowUnderTest`` as the walk and the random-path tester drive a runtime, keeping only what it must.
///
/// It translates the checker's dense ids into the app's names, types the checker's values into
/// the app's value type (and recognises them coming back), and keeps the path of accepted events
/// so that it can backtrack: by the app's back where the spec allows back, else by the app's undo
/// or snapshots when it has them and may use them, else by replaying the path on a fresh
/// instance. It never reports its own bookkeeping: the searches run it with ``DriverTraits/app``,
/// which compares only the app's state and data.
///
/// Its members are inlinable, and the searches reach it only through the closures of an
/// ``ErasedAppDriver`` made by ``erased()`` in the app's own module (``AppDrivers``), so the
/// compiler specialises every call for the app's types: no generic metadata, witness tables or
/// name lookups per step. What stays per step is the app's own work and, per frame, one dense
/// table read per key:
///
/// - the event and key names are translated once, into arrays by id;
/// - the data sent with an event is built once per (height, state, event) and sent again as it
///   is, so sending is a table read (the walk's values depend on nothing else);
/// - the checker's values are typed into the app's value type once each, in ``TokenTable``;
/// - a frame is compared without building anything: the app's state with the app's own value for
///   the expected state (learned the first time it is met), its data by iterating the app's
///   dictionary once (no hashing of the app's keys) when the spec has at most 16 keys.
///
/// Its stored properties skip Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`),
/// which cost more per step than the step's own bookkeeping: one search drives a driver from one
/// thread, no member starts an access to a property while another access to it is under way, and
/// the app's own code never reaches the driver.
@usableFromInline
final class AppDriver<Flow: FlowUnderTest> {
    @usableFromInline let tables: AppTables
    /// Makes a fresh app for a variant.
    @usableFromInline let make: (FlowVariant) -> Flow
    /// The variant the app was made for (an index of ``AppTables/variants``).
    @usableFromInline @exclusivity(unchecked) var variant = 0
    /// Whether the app's undo or snapshots may be used to backtrack (off: replays only, as for an app without them).
    @usableFromInline let usesCapabilities: Bool
    /// The app now; ``borrowedApp`` is the same object, for calls that need not retain it.
    @usableFromInline @exclusivity(unchecked) var app: Flow {
        didSet { borrowedApp = Unmanaged.passUnretained(app) }
    }
    @usableFromInline @exclusivity(unchecked) var borrowedApp: Unmanaged<Flow>
    /// The app as ``UndoableFlowUnderTest``, when it is one and may be used.
    @usableFromInline @exclusivity(unchecked) var undoable: (any UndoableFlowUnderTest)?
    /// Takes and restores the app's snapshots, when it is a ``RestorableFlowUnderTest`` and may be used.
    @usableFromInline @exclusivity(unchecked) var snapshotter: Snapshotter?
    /// Whether backtracking past a screen without back replays the path (no undo, no snapshots): only then is the path kept.
    @usableFromInline @exclusivity(unchecked) var replays = true
    /// The app's event for each of the model's (nil: the app has none).
    @usableFromInline let events: [Flow.Event?]
    /// The app's key for each of the model's.
    @usableFromInline let keys: [Flow.Key?]
    /// The app's keys that the spec names, and each one's id: an app key's id is found by comparing, not hashing.
    @usableFromInline let appKeys: [Flow.Key]
    @usableFromInline let appKeyIDs: [Int32]
    /// Whether frames are compared by iterating the app's data (few keys, each app key for one spec key) rather than by lookups.
    @usableFromInline let iteratesData: Bool
    /// Whether the flow has only presence keys (every `authflow/1` flow): a frame compares tokens only.
    @usableFromInline let presenceOnly: Bool
    /// The app's own value for each of the model's states, learned when it is first met.
    @usableFromInline @exclusivity(unchecked) var appStates: [Flow.State?]
    /// Ids of the app's states: the model's, then ids past them for states the spec does not name.
    @usableFromInline @exclusivity(unchecked) var stateIDs: [Flow.State: StateID] = [:]
    @usableFromInline @exclusivity(unchecked) var unknownStates: [String] = []
    /// The app value typed from each of the checker's integer values.
    @usableFromInline @exclusivity(unchecked) var typed = TokenTable<Flow.Value>()
    /// The value last typed per slot `key << 6 | height` (both mod 64), with its integer: typed values without hashing.
    @usableFromInline @exclusivity(unchecked) var recentTokens = [Int](repeating: .min, count: 64 * 64)
    @usableFromInline @exclusivity(unchecked) var recentValues = [Flow.Value?](repeating: nil, count: 64 * 64)
    /// The checker's value behind each app value it typed.
    @usableFromInline @exclusivity(unchecked) var sent: [Flow.Value: FlowValue] = [:]
    /// The app value typed from each of the checker's text values for a key with a style (``AppValueStyle``), by key.
    @usableFromInline @exclusivity(unchecked) var styled: [[FlowValue: Flow.Value]]
    /// How many styled values were typed: the next one's number.
    @usableFromInline @exclusivity(unchecked) var styledCount = 0
    /// Per valued key, the app's value for each of its domain's; per counter, for each count met.
    @usableFromInline @exclusivity(unchecked) var domainValues: [[Flow.Value]]
    @usableFromInline @exclusivity(unchecked) var countValues: [[Flow.Value]]
    /// The data last sent from each (height, payload slot), with the checker's values it was typed from.
    @usableFromInline @exclusivity(unchecked) var payloads: [Payload?] = []
    /// Each accepted event (the model's id) and the data it carried, from the root (kept only when backtracking replays).
    @usableFromInline @exclusivity(unchecked) var path: [(event: Int, data: [Flow.Key: Flow.Value])] = []
    /// The model's state after each accepted event (the root's first): where back is allowed.
    @usableFromInline @exclusivity(unchecked) var states: [Int32]
    /// The app's snapshot before each accepted event, when snapshots are used.
    @usableFromInline @exclusivity(unchecked) var snapshots: [Any] = []
    /// Per height, the app's data last found to match the frame there, and the frame (``Verified``).
    @usableFromInline @exclusivity(unchecked) var verified: [Verified?] = []
    /// Per height and key, the token of each presence key of the frame in ``verified``.
    @usableFromInline @exclusivity(unchecked) var verifiedTokens: [Int] = []
    /// An async app's walk that runs ahead of the app (``Speculation``): frames are compared later, where the app runs.
    @usableFromInline @exclusivity(unchecked) var speculation: Speculation?

    /// Saves and restores an app's snapshots through an existential, its `Snapshot` type erased.
    @usableFromInline struct Snapshotter {
        @usableFromInline var take: () -> Any
        @usableFromInline var restore: (Any) -> Void
        @inlinable init(take: @escaping () -> Any, restore: @escaping (Any) -> Void) {
            self.take = take
            self.restore = restore
        }
    }

    /// Data built for one send, and the checker's values it was built from.
    @usableFromInline struct Payload {
        @usableFromInline var values: [FlowValue]
        @usableFromInline var data: [Flow.Key: Flow.Value]
        @inlinable init(values: [FlowValue], data: [Flow.Key: Flow.Value]) {
            self.values = values
            self.data = data
        }
    }

    @inlinable
    init(tables: AppTables, usesCapabilities: Bool = true, make: @escaping (FlowVariant) -> Flow) {
        let model = tables.model
        self.tables = tables
        self.make = make
        self.usesCapabilities = usesCapabilities
        let app = make(tables.variants.first ?? FlowVariant(index: 0, values: []))
        self.app = app
        self.borrowedApp = Unmanaged.passUnretained(app)
        let keys = model.keys.map { Flow.key(named: $0) }
        self.events = model.events.map { Flow.event(named: $0) }
        self.keys = keys
        var appKeys: [Flow.Key] = [], appKeyIDs: [Int32] = []
        for (id, key) in keys.enumerated() {
            if let key { appKeys.append(key); appKeyIDs.append(Int32(id)) }
        }
        self.appKeys = appKeys
        self.appKeyIDs = appKeyIDs
        self.iteratesData = appKeys.count <= 16 && Set(appKeys).count == appKeys.count
        self.presenceOnly = tables.kinds.allSatisfy { $0 == AppTables.KeyKind.presence.rawValue }
        self.appStates = Array(repeating: nil, count: model.stateCount)
        self.styled = Array(repeating: [:], count: model.keys.count)
        self.domainValues = tables.domains.map { $0.map { Flow.Value(flowValue: .string($0)) } }
        self.countValues = Array(repeating: [], count: model.keys.count)
        self.states = [tables.initial]
        adopt()
    }

    /// Reads the fresh `app`'s capabilities.
    @inlinable
    func adopt() {
        undoable = usesCapabilities ? app as? any UndoableFlowUnderTest : nil
        snapshotter = nil
        if usesCapabilities, undoable == nil, let restorable = app as? any RestorableFlowUnderTest {
            snapshotter = Self.snapshotter(restorable)
        }
        replays = undoable == nil && snapshotter == nil
    }

    @inlinable
    static func snapshotter<R: RestorableFlowUnderTest>(_ app: R) -> Snapshotter {
        // The snapshot is always the one `take` returned: a failed cast restores nothing rather than trapping.
        Snapshotter(take: { app.snapshot() }, restore: { if let snapshot = $0 as? R.Snapshot { app.restore(snapshot) } })
    }

    /// This driver as the searches take it: a ``FlowDriver`` whose calls are this driver's, specialised where `Flow` is known.
    @inlinable
    func erased() -> ErasedAppDriver {
        ErasedAppDriver(
            state: { self.state }, dataCount: { self.dataCount }, value: { self.value(of: $0) },
            isAt: { self.isAt($0, keys: $1, values: $2, packed: $3) }, holds: { self.holds($0, values: $1, packed: $2) },
            send: { self.send($0, value: $1) },
            back: { self.back() }, undo: { self.undo() }, reset: { self.reset() }, start: { self.start(variant: $0) },
            name: { self.name(of: $0) }, speculation: speculation)
    }

    @inlinable
    var state: StateID { id(of: withApp { $0.state }) }

    /// Calls `body` with the app, not retaining it: `app` keeps it alive, and no body replaces it.
    @inlinable @inline(__always)
    func withApp<Result>(_ body: (Flow) -> Result) -> Result {
        borrowedApp._withUnsafeGuaranteedRef(body)
    }

    /// The id of the app's state `current`: the model's id for its name, or one past the model's.
    @inlinable
    func id(of current: Flow.State) -> StateID {
        if let id = stateIDs[current] { return id }
        let name = current.flowName
        let id = tables.model.state(named: name) ?? StateID(tables.model.stateCount + unknownStates.count)
        if id.index >= tables.model.stateCount {
            unknownStates.append(name)
        } else if appStates[id.index] == nil {
            appStates[id.index] = current
        }
        stateIDs[current] = id
        return id
    }

    @inlinable
    func name(of state: StateID) -> String? {
        let index = state.index - tables.model.stateCount
        return unknownStates.indices.contains(index) ? unknownStates[index] : nil
    }

    /// How many keys the app holds data for; a counter held at 0 counts as absent.
    @inlinable
    var dataCount: Int {
        let data = app.data
        if presenceOnly { return data.count }
        var count = 0
        for (key, value) in data {
            if let i = appKeys.firstIndex(of: key), isZeroCount(value, key: Int(appKeyIDs[i])) { continue }
            count += 1
        }
        return count
    }

    /// Whether `value` is the app's 0 for counter `k`.
    @inlinable
    func isZeroCount(_ value: Flow.Value, key k: Int) -> Bool {
        tables.kinds[k] == AppTables.KeyKind.counter.rawValue && value == countValue(0, key: k)
    }

    /// The app's value for count `count` of counter `k`.
    @inlinable
    func countValue(_ count: Int, key k: Int) -> Flow.Value {
        if count >= 0 && count < countValues[k].count { return countValues[k][count] }
        while countValues[k].count <= count { countValues[k].append(Flow.Value(flowValue: .int(countValues[k].count))) }
        return countValues[k][count]
    }

    /// The checker's name for the app's value of `key`: the value the checker typed it from, a
    /// domain value, a count; `present` for a presence key an effect added (the app's own value),
    /// else the app's value as text.
    @inlinable
    func value(of key: KeyID) -> FlowValue? {
        guard let appKey = keys[key.index], let value = app.data[appKey] else { return nil }
        let k = key.index
        switch tables.kinds[k] {
        case AppTables.KeyKind.counter.rawValue:
            if isZeroCount(value, key: k) { return nil }
            let limit = Int(tables.mask[k])
            for count in 1...max(1, limit) where countValue(count, key: k) == value { return .int(count) }
        case AppTables.KeyKind.valued.rawValue:
            if let index = domainValues[k].firstIndex(of: value) { return .string(tables.domains[k][index]) }
        default:
            if let known = sent[value] { return known }
            if tables.effectAdded & (1 << UInt64(k)) != 0 { return AppTables.present }
        }
        return .string("\(value)")
    }

    /// The app's value for the checker's `value` of `key`: typed once, remembered by the checker's integers.
    @inlinable
    func typedValue(_ value: FlowValue, key: KeyID) -> Flow.Value {
        let k = key.index
        if case .int(let token) = value { return typedValue(token: token, key: k) }
        if tables.styles[k] != .plain && tables.kinds[k] == AppTables.KeyKind.presence.rawValue {
            if let known = styled[k][value] { return known }
            let made = styledValue(for: value, key: k)
            styled[k][value] = made
            return made
        }
        let made = Flow.Value(flowValue: value)
        sent[made] = value
        return made
    }

    /// A new value in key `k`'s style, standing for the checker's `value`.
    @inlinable
    func styledValue(for value: FlowValue, key k: Int) -> Flow.Value {
        styledCount += 1
        guard let text = tables.styles[k].text(styledCount) else { return Flow.Value(flowValue: value) }
        let made = Flow.Value(flowValue: .string(text))
        sent[made] = value
        return made
    }

    /// The app's value for the checker's integer `token` of key `k`: from the slot of its key and height
    /// (the walk's values are `height << 32 | event << 8 | key`), else from ``TokenTable``, else typed now.
    @inlinable @inline(__always)
    func typedValue(token: Int, key k: Int) -> Flow.Value {
        let slot = (token & 0x3F) << 6 | (token >> 32) & 0x3F
        if recentTokens[slot] == token, let recent = recentValues[slot] { return recent }
        return typedValue(token: token, key: k, slot: slot)
    }

    @inlinable @inline(never)
    func typedValue(token: Int, key k: Int, slot: Int) -> Flow.Value {
        let made: Flow.Value
        if let known = typed.value(for: token) {
            made = known
        } else {
            // A key the app types in a style of its own gets a value in that style.
            if k < tables.styles.count && tables.styles[k] != .plain && tables.kinds[k] == AppTables.KeyKind.presence.rawValue {
                made = styledValue(for: .int(token), key: k)
            } else {
                made = Flow.Value(flowValue: .int(token))
                sent[made] = .int(token)
            }
            typed.insert(made, for: token)
        }
        recentTokens[slot] = token
        recentValues[slot] = made
        return made
    }

    /// Whether the app is at `state` holding exactly `expected`: each presence key the app's value
    /// for the integer `values[key]` (any value for one an effect added), each valued key and counter
    /// its field in `packed`.
    @inlinable
    func isAt(_ state: StateID, keys expected: KeySet, values: UnsafePointer<Int>, packed: UInt64) -> Bool {
        if let speculation { return speculation.later(values, height: states.count) { self.isAt(state, keys: expected, values: $0, packed: packed, height: $1) } }
        return isAt(state, keys: expected, values: values, packed: packed, height: states.count)
    }

    /// ``isAt(_:keys:values:packed:)`` with the app's history `height` frames high.
    @inlinable
    func isAt(_ state: StateID, keys expected: KeySet, values: UnsafePointer<Int>, packed: UInt64, height: Int) -> Bool {
        let current = withApp { $0.state }
        let known = state.index >= 0 && state.index < appStates.count ? appStates[state.index] : nil
        if known.map({ $0 != current }) ?? true, id(of: current) != state { return false }
        return holds(expected, values: values, packed: packed, height: height)
    }

    /// Whether the app holds exactly the data `expected` (see ``isAt(_:keys:values:packed:)``).
    ///
    /// The same dictionary the app held when it last matched this frame at this height matches
    /// again without comparing (``AppDriver/Verified``): what a refused event or a back that
    /// restores the data leaves.
    @inlinable
    func holds(_ expected: KeySet, values: UnsafePointer<Int>, packed: UInt64) -> Bool {
        if let speculation { return speculation.later(values, height: states.count) { self.holds(expected, values: $0, packed: packed, height: $1) } }
        return holds(expected, values: values, packed: packed, height: states.count)
    }

    /// ``holds(_:values:packed:)`` with the app's history `height` frames high.
    @inlinable
    func holds(_ expected: KeySet, values: UnsafePointer<Int>, packed: UInt64, height: Int) -> Bool {
        let data = withApp { $0.data }
        if isVerified(data, height: height, expected, values: values, packed: packed) { return true }
        guard compares(data, expected, values: values, packed: packed) else { return false }
        verify(data, height: height, expected, values: values, packed: packed)
        return true
    }

    /// Whether `data` is exactly the data `expected`, compared key by key.
    @inlinable
    func compares(_ data: [Flow.Key: Flow.Value], _ expected: KeySet, values: UnsafePointer<Int>, packed: UInt64) -> Bool {
        if presenceOnly {
            guard data.count == expected.count else { return false }
            if iteratesData {
                for (key, value) in data {
                    var i = 0
                    while i < appKeys.count && appKeys[i] != key { i &+= 1 }
                    guard i < appKeys.count else { return false }
                    let id = KeyID(appKeyIDs[i])
                    guard expected.contains(id), matches(value, key: id.index, values: values, packed: packed) else { return false }
                }
            } else {
                for key in expected {
                    guard let appKey = keys[key.index], let have = data[appKey], matches(have, key: key.index, values: values, packed: packed) else { return false }
                }
            }
            return true
        }
        // Valued keys and counters: a counter at 0 may be held as 0 or not at all.
        var held = 0
        for (key, value) in data {
            var i = 0
            while i < appKeys.count && appKeys[i] != key { i &+= 1 }
            guard i < appKeys.count else { return false }
            let k = Int(appKeyIDs[i])
            if !expected.contains(KeyID(Int32(k))) {
                guard isZeroCount(value, key: k) else { return false }
                continue
            }
            guard matches(value, key: k, values: values, packed: packed) else { return false }
            held += 1
        }
        return held == expected.count
    }

    /// Whether the app's `value` of key `k` is the frame's.
    @inlinable @inline(__always)
    func matches(_ value: Flow.Value, key k: Int, values: UnsafePointer<Int>, packed: UInt64) -> Bool {
        switch tables.kinds[k] {
        case AppTables.KeyKind.valued.rawValue:
            let index = tables.field(k, in: packed)
            return index < domainValues[k].count && value == domainValues[k][index]
        case AppTables.KeyKind.counter.rawValue:
            return value == countValue(tables.field(k, in: packed), key: k)
        default:
            let token = values[k]
            if token == AppTables.addedByEffect { return true }
            return value == typedValue(token: token, key: k)
        }
    }

    @inlinable
    func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
        let top = Int(states[states.count - 1])
        let cell = top < tables.model.stateCount ? top &* tables.eventCount &+ event.index : event.index
        let data = payload(cell: cell, value: value)
        guard events[event.index] != nil else { return false }
        if let snapshotter {
            let snapshot = snapshotter.take()
            guard deliver(event.index, data: data) else { return false }
            snapshots.append(snapshot)
        } else {
            guard deliver(event.index, data: data) else { return false }
        }
        if replays { path.append((event.index, data)) }
        // A flow whose moves depend on its data: the walk compares the app with the spec's frame
        // next, so its own state is where the spec's move went whenever it is checked further.
        if tables.isStatic {
            states.append(tables.nextState[cell])
        } else if let speculation {
            // Where the walk expects the app to be: checked when the app has run.
            let expected = speculation.state
            states.append(expected)
            _ = speculation.later(nil, height: 0) { _, _ in self.id(of: self.withApp { $0.state }).rawValue == expected }
        } else {
            states.append(id(of: withApp { $0.state }).rawValue)
        }
        return true
    }

    /// Hands the app the model's event `event` with `data`: an answer of the backend (or a timer) by ``FlowUnderTest/receive(_:data:)``, the user's by ``FlowUnderTest/send(_:data:)``.
    @inlinable @inline(__always)
    func deliver(_ event: Int, data: [Flow.Key: Flow.Value]) -> Bool {
        guard let appEvent = events[event] else { return false }
        if tables.systemEvents[event] { return withApp { $0.receive(appEvent, data: data) } }
        return withApp { $0.send(appEvent, data: data) }
    }

    /// The data sent with the event of `cell` from the current height, the values `value` gives
    /// its keys: the last one built there when the values are the same.
    @inlinable
    func payload(cell: Int, value: (KeyID) -> FlowValue) -> [Flow.Key: Flow.Value] {
        let start = Int(tables.payloadStart[cell]), end = Int(tables.payloadStart[cell + 1])
        if start == end { return [:] }
        let index = states.count &* tables.slotCount &+ Int(tables.payloadSlot[cell])
        if index < payloads.count, let cached = payloads[index] {
            var same = true
            for i in start..<end where value(KeyID(tables.payloadKeys[i])) != cached.values[i - start] {
                same = false
                break
            }
            if same { return cached.data }
        }
        var values: [FlowValue] = []
        var data: [Flow.Key: Flow.Value] = [:]
        values.reserveCapacity(end - start)
        for i in start..<end {
            let key = KeyID(tables.payloadKeys[i])
            let checkers = value(key)
            values.append(checkers)
            guard let appKey = keys[key.index] else { continue }
            data[appKey] = typedValue(checkers, key: key)
        }
        if index >= payloads.count { payloads.append(contentsOf: repeatElement(nil, count: index + 1 - payloads.count)) }
        payloads[index] = Payload(values: values, data: data)
        return data
    }

    @inlinable
    func back() -> Bool {
        guard withApp({ $0.back() }) else { return false }
        drop()
        return true
    }

    /// Backtracks one accepted event: the app's back where the spec allows it (and it is the undo of the last move: no
    /// section 5 history keys), else its undo or snapshot, else a replay of the rest of the path on a fresh instance.
    @inlinable
    func undo() -> Bool {
        guard states.count > 1 else { return false }
        let top = Int(states[states.count - 1])
        if top < tables.backAllowed.count && tables.backAllowed[top] { return back() }
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
            guard deliver(event, data: data) else { break }
            path.append((event, data))
        }
        states = Array(restStates.prefix(path.count + 1))
        return true
    }

    /// Forgets the last accepted event.
    @inlinable
    func drop() {
        if states.count > 1 {
            states.removeLast()
            if replays { path.removeLast() }
        }
        if !snapshots.isEmpty { snapshots.removeLast() }
    }

    /// Starts again with a fresh app for `variant`; false when the flow has no such variant.
    @inlinable
    func start(variant index: Int) -> Bool {
        guard tables.variants.indices.contains(index) else { return false }
        variant = index
        reset()
        return true
    }

    @inlinable
    func reset() {
        app = make(tables.variants.indices.contains(variant) ? tables.variants[variant] : FlowVariant(index: 0, values: []))
        path.removeAll(keepingCapacity: true)
        states.removeAll(keepingCapacity: true)
        states.append(tables.initial)
        snapshots.removeAll(keepingCapacity: true)
        adopt()
    }
}

/// An ``AppDriver`` as the searches take it: a plain ``FlowDriver`` whose every call is a closure into the typed driver.
///
/// Not generic, so the walk is compiled once for it in this module; the closures are made by
/// ``AppDriver/erased()`` where the app's types are known, so what they run is specialised there.
@usableFromInline
final class ErasedAppDriver: FlowDriver, NamesUnknownStates {
    let stateOf: () -> StateID
    let dataCountOf: () -> Int
    let valueOf: (KeyID) -> FlowValue?
    let isAtFrame: (StateID, KeySet, UnsafePointer<Int>, UInt64) -> Bool
    let holdsData: (KeySet, UnsafePointer<Int>, UInt64) -> Bool
    let sendEvent: (EventID, (KeyID) -> FlowValue) -> Bool
    let backOnce: () -> Bool
    let undoOnce: () -> Bool
    /// Where the walk says what it expects of an async app's next action, when the app is driven ahead of its calls (``Speculation``).
    let speculation: Speculation?
    let resetApp: () -> Void
    let startVariant: (Int) -> Bool
    let nameOf: (StateID) -> String?

    @usableFromInline
    init(state: @escaping () -> StateID, dataCount: @escaping () -> Int, value: @escaping (KeyID) -> FlowValue?,
         isAt: @escaping (StateID, KeySet, UnsafePointer<Int>, UInt64) -> Bool, holds: @escaping (KeySet, UnsafePointer<Int>, UInt64) -> Bool,
         send: @escaping (EventID, (KeyID) -> FlowValue) -> Bool,
         back: @escaping () -> Bool, undo: @escaping () -> Bool, reset: @escaping () -> Void, start: @escaping (Int) -> Bool,
         name: @escaping (StateID) -> String?, speculation: Speculation? = nil) {
        self.speculation = speculation
        stateOf = state
        dataCountOf = dataCount
        valueOf = value
        isAtFrame = isAt
        holdsData = holds
        sendEvent = send
        backOnce = back
        undoOnce = undo
        resetApp = reset
        startVariant = start
        nameOf = name
    }

    @usableFromInline var state: StateID { stateOf() }
    @usableFromInline var dataCount: Int { dataCountOf() }
    @usableFromInline func value(of key: KeyID) -> FlowValue? { valueOf(key) }
    /// Whether the app is at `state` holding exactly the keys in `keys`: each presence key the app's value
    /// for the walk's integer `values[key]` (indexed by key id), each valued key and counter its field in
    /// `packed`; the walk's frame compared in one call (see ``FrameMatcher/matches(state:values:data:height:)``).
    @usableFromInline func isAt(_ state: StateID, keys: KeySet, values: UnsafePointer<Int>, packed: UInt64) -> Bool {
        isAtFrame(state, keys, values, packed)
    }
    /// ``isAt(_:keys:values:packed:)`` without the state.
    @usableFromInline func holds(_ keys: KeySet, values: UnsafePointer<Int>, packed: UInt64) -> Bool { holdsData(keys, values, packed) }
    @usableFromInline func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool { sendEvent(event, value) }
    @usableFromInline func back() -> Bool { backOnce() }
    @usableFromInline func undo() -> Bool { undoOnce() }
    @usableFromInline func reset() { resetApp() }
    /// A fresh app made for `variant` (``FlowVariant``).
    @usableFromInline func start(variant: Int) -> Bool { startVariant(variant) }
    @usableFromInline func name(of state: StateID) -> String? { nameOf(state) }

    // The searches run this driver with `DriverTraits.app`, which never asks what an app cannot answer.
    @usableFromInline var height: Int { preconditionFailure("an app's history height is never asked (DriverTraits.app)") }
    @usableFromInline func canHandle(_ event: EventID) -> Bool { preconditionFailure("an app's enabled events are never asked (DriverTraits.app)") }
    @usableFromInline var canGoBack: Bool { preconditionFailure("whether an app can go back is never asked, only tried (DriverTraits.app)") }
}

/// Makes the drivers of one app type, specialised for it: made where the app's type is known, used where it is not.
@usableFromInline
struct AppDrivers {
    @usableFromInline let make: (AppTables, Bool) -> ErasedAppDriver

    @usableFromInline
    init(make: @escaping (AppTables, Bool) -> ErasedAppDriver) {
        self.make = make
    }

    /// The drivers of the apps `make` returns. Inlinable, so that the drivers it makes are compiled for `Flow` where the caller knows it.
    @inlinable
    static func of<Flow: FlowUnderTest>(_ make: @escaping () -> Flow) -> AppDrivers {
        AppDrivers { tables, usesCapabilities in
            AppDriver(tables: tables, usesCapabilities: usesCapabilities, make: { _ in make() }).erased()
        }
    }

    /// The drivers of the apps `make` returns for each variant.
    @inlinable
    static func of<Flow: FlowUnderTest>(variants make: @escaping (FlowVariant) -> Flow) -> AppDrivers {
        AppDrivers { tables, usesCapabilities in
            AppDriver(tables: tables, usesCapabilities: usesCapabilities, make: make).erased()
        }
    }
}

/// The model's tables an ``AppDriver`` reads per step, computed once per conformance check.
@usableFromInline
final class AppTables: Sendable {
    @usableFromInline let model: FlowModel
    @usableFromInline let initial: Int32
    @usableFromInline let eventCount: Int
    /// Per cell `state * eventCount + event`: the state after sending the event (the same state when the table has no row).
    @usableFromInline let nextState: [Int32]
    /// Per cell: the keys the event carries from the state are `payloadKeys[payloadStart[cell] ..< payloadStart[cell + 1]]`,
    /// those its move adds, or where the step does not emit it those it adds where a step does, so
    /// that a table that stores data before refusing shows it.
    @usableFromInline let payloadStart: [Int32]
    @usableFromInline let payloadKeys: [Int32]
    /// Per cell with a payload: its index among them (the data built for it is kept per height and slot).
    @usableFromInline let payloadSlot: [Int32]
    @usableFromInline let slotCount: Int
    /// Per state: whether the walk may backtrack by the user's back from it: the spec allows back there, and the flow has
    /// none of section 5's history keys (with them back is not the undo of the last move: ``FlowModel/usesSection5History``).
    @usableFromInline let backAllowed: [Bool]
    /// Whether the state alone decides every move (``nextState`` is then where an accepted event leads;
    /// otherwise the app's own state after it is read).
    @usableFromInline let isStatic: Bool
    /// Per key: ``KeyKind``'s raw value.
    @usableFromInline let kinds: [UInt8]
    /// Per key: where a valued key's value index or a counter's count lies in a frame's packed values.
    @usableFromInline let shift: [UInt64]
    @usableFromInline let mask: [UInt64]
    /// Per key: a valued key's domain.
    @usableFromInline let domains: [[String]]
    /// Presence keys a row's effects or a step's entry add: the app holds a value of its own for them, so only their presence is compared.
    @usableFromInline let effectAdded: UInt64
    /// Per key: how the values typed into the app for it look.
    @usableFromInline let styles: [AppValueStyle]
    /// Per event: whether a system (the backend, a timer) sends it, so the app ``FlowUnderTest/receive(_:data:)``s it.
    @usableFromInline let systemEvents: [Bool]
    /// The flow's variants, in the order the checker runs them (one, with no values, without config).
    @usableFromInline let variants: [FlowVariant]

    /// What the walk expects of a presence key an effect added (``FrameTable/addedByEffect``), and what it shows for it.
    @usableFromInline static let addedByEffect = FrameTable.addedByEffect
    @usableFromInline static let present = FlowValue.string(FrameTable.presentText)

    /// What a key holds, as an app's data is compared.
    @usableFromInline enum KeyKind: UInt8 {
        case presence, valued, counter, config
    }

    @usableFromInline
    init(model: FlowModel) {
        self.model = model
        let events = model.events.count
        let layout = model.layout
        initial = model.initial.rawValue
        eventCount = events
        isStatic = model.isStatic
        var payloads = [[KeyID]](repeating: [], count: events)
        for move in model.moves.joined() where payloads[move.event.index].isEmpty { payloads[move.event.index] = move.addedKeys }
        // A flow whose moves depend on its data: the keys each emission outputs (its presence keys, then its valued keys).
        let outputs = model.emissions.map { list in list.map { ($0.event.index, $0.outputKeys(keyCount: model.keys.count).map { KeyID(Int32($0)) }) } }
        if !model.isStatic {
            payloads = Array(repeating: [], count: events)
            for (event, keys) in outputs.joined() where payloads[event].isEmpty { payloads[event] = keys }
        }
        var nextState: [Int32] = [], payloadStart: [Int32] = [0], payloadKeys: [Int32] = [], payloadSlot: [Int32] = []
        var slots: Int32 = 0
        for state in 0..<model.stateCount {
            var moves = [FlowModel.Move?](repeating: nil, count: events)
            for move in model.moves[state] { moves[move.event.index] = move }
            // Several emissions of one event (each with its own `when`): the data carries every key any of them outputs.
            var emitted = [[KeyID]?](repeating: nil, count: events)
            for (event, keys) in outputs[state] {
                emitted[event] = (emitted[event] ?? []) + keys.filter { !(emitted[event] ?? []).contains($0) }
            }
            for event in 0..<events {
                nextState.append(moves[event]?.target?.rawValue ?? Int32(state))
                let keys = model.isStatic ? moves[event]?.addedKeys ?? payloads[event] : emitted[event] ?? payloads[event]
                payloadKeys += keys.map(\.rawValue)
                payloadStart.append(Int32(payloadKeys.count))
                payloadSlot.append(keys.isEmpty ? -1 : slots)
                if !keys.isEmpty { slots += 1 }
            }
        }
        self.nextState = nextState
        self.payloadStart = payloadStart
        self.payloadKeys = payloadKeys
        self.payloadSlot = payloadSlot
        self.slotCount = Int(slots)
        let section5 = model.usesSection5History
        self.backAllowed = (0..<model.stateCount).map { !section5 && !model.isTerminal[$0] && model.canGoBack[$0] }
        let keys = model.keys.indices
        kinds = keys.map { k in
            (layout.isConfig[k] ? KeyKind.config : layout.isCounter(k) ? .counter : layout.isValued(k) ? .valued : .presence).rawValue
        }
        shift = keys.map { UInt64(layout.shift[$0]) }
        mask = keys.map { layout.width[$0] == 0 ? 0 : (1 << UInt64(layout.width[$0])) - 1 }
        domains = layout.domains
        var added: UInt64 = 0
        for emission in model.emissions.joined() {
            for row in emission.rows { added |= row.effects.addKeys | row.entry.addKeys }
        }
        effectAdded = added
        styles = model.keys.map(AppValueStyle.init(key:))
        var system = [Bool](repeating: false, count: events)
        for emission in model.emissions.joined() where emission.bySystem { system[emission.event.index] = true }
        systemEvents = system
        variants = model.variants.enumerated().map { FlowVariant(index: $0.offset, values: $0.element) }
    }

    /// Key `k`'s field in the packed `values`: a valued key's value index, a counter's count.
    @inlinable @inline(__always)
    func field(_ k: Int, in values: UInt64) -> Int {
        Int(truncatingIfNeeded: (values >> shift[k]) & mask[k])
    }
}

/// The app values typed from the checker's integer values: an open-addressing table, so that a frame's comparison hashes no app value.
@usableFromInline
struct TokenTable<Value> {
    @usableFromInline var tokens: [Int]
    @usableFromInline var values: [Value?]
    @usableFromInline var count = 0

    @inlinable
    init() {
        tokens = Array(repeating: .min, count: 64)
        values = Array(repeating: nil, count: 64)
    }

    @inlinable
    func slot(_ token: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(token)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (tokens.count - 1)
    }

    /// The value typed from `token`, if there is one.
    @inlinable
    func value(for token: Int) -> Value? {
        var i = slot(token)
        while true {
            let here = tokens[i]
            if here == token { return values[i] }
            if here == .min { return nil }
            i = (i &+ 1) & (tokens.count - 1)
        }
    }

    /// Remembers `value` as typed from `token` (`Int.min` is never remembered).
    @inlinable
    mutating func insert(_ value: Value, for token: Int) {
        guard token != .min else { return }
        if (count + 1) * 2 > tokens.count {
            let old = (tokens, values)
            tokens = Array(repeating: .min, count: old.0.count * 2)
            values = Array(repeating: nil, count: old.0.count * 2)
            count = 0
            for (token, value) in zip(old.0, old.1) where token != .min {
                if let value { insert(value, for: token) }
            }
        }
        var i = slot(token)
        while tokens[i] != .min && tokens[i] != token { i = (i &+ 1) & (tokens.count - 1) }
        if tokens[i] == .min { count += 1 }
        tokens[i] = token
        values[i] = value
    }
}
