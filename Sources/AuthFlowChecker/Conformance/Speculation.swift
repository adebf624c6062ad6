import AuthFlow

/// The conformance walk of an ``AsyncFlowUnderTest`` run ahead of the app: every action answered as the walk expects, checked later where the app runs.
///
/// Awaiting the app from the walk's thread costs a task, a hop to the app's actor and a
/// semaphore per call, several microseconds where the app's call takes well under one. Instead,
/// the walk tells the driver what it expects of each action (accepted or refused, the state it
/// lands on) and the driver answers so at once, queueing the call; each frame comparison is
/// queued too, with a copy of the tokens it compares. The queue runs on the main actor in one hop
/// (``PlayedAhead``) when it is long, when the walk asks the app something the walk cannot
/// expect (its state after a reset, the data a finding shows), and at the end; each queued action
/// is awaited in turn, as the app's own code awaits it, and each queued check is made on the app
/// as it is then. The walk is deterministic given the app's answers, so when every answer is the
/// one the walk was given, its result is the walk's with the app awaited per call; at the first
/// answer that is not, the rest is dropped and the caller walks again, awaiting every call
/// (``AppConformance/explore(depth:timeout:)``). An app that conforms is walked once.
@usableFromInline
final class Speculation: @unchecked Sendable {
    /// What the walk expects of the app's next action: accepted, and the model's state it lands on (-1: not said).
    @usableFromInline var accepted = true
    @usableFromInline var state: Int32 = -1
    /// The checks left for later, in the order made: each with the offset of its tokens in ``tokens`` and the app's history height.
    @usableFromInline var checks: [(check: (UnsafePointer<Int>, Int) -> Bool, tokens: Int, height: Int)] = []
    /// The walk's tokens each check compares with, copied when it was made (the walk's change as it goes on).
    @usableFromInline var tokens: [Int] = []
    /// How many tokens a check copies: one per key of the model.
    @usableFromInline let keyCount: Int
    /// Whether an answer of the app was not the one the walk was given: the walk's result stands for nothing.
    @usableFromInline var diverged = false
    /// Runs the queue now (set by ``PlayedAhead``).
    var flush: () -> Void = {}

    init(keyCount: Int) {
        self.keyCount = keyCount
    }

    /// Says what the next action must do.
    @inline(__always)
    func expect(accepted: Bool, state: Int32) {
        self.accepted = accepted
        self.state = state
    }

    /// Leaves `check` for when the app has run, with a copy of the walk's tokens `values` (one per key), and answers `true` as the walk expects.
    @inlinable
    func later(_ values: UnsafePointer<Int>?, height: Int, _ check: @escaping (UnsafePointer<Int>, Int) -> Bool) -> Bool {
        let offset = tokens.count
        if let values { tokens.append(contentsOf: UnsafeBufferPointer(start: values, count: keyCount)) }
        checks.append((check, offset, height))
        return true
    }

    /// Makes the checks `range` on the app as it is now; false at the first that fails.
    func run(_ range: Range<Int>) -> Bool {
        if tokens.isEmpty { tokens.append(0) }   // a base address for checks that compare no tokens
        return tokens.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            for i in range where !checks[i].check(base + checks[i].tokens, checks[i].height) { return false }
            return true
        }
    }

    /// Forgets the checks made.
    ///
    /// They are let go after ``checks`` is empty: a check may hold the last reference to a driver, whose app's end queues a call.
    func clear() {
        var made: [(check: (UnsafePointer<Int>, Int) -> Bool, tokens: Int, height: Int)] = []
        swap(&made, &checks)
        tokens.removeAll(keepingCapacity: true)
        made.removeAll()
    }
}

/// The calls of the walk to an async app, queued, and run in one hop on the main actor: a ``Speculation``'s other half.
///
/// The walk's driver holds a ``PlayedAhead/Handle`` per app it makes; the apps themselves are made
/// and awaited here, on the main actor, when the queue runs.
final class PlayedAhead<App: AsyncFlowUnderTest>: @unchecked Sendable {
    enum Call {
        case make(FlowVariant)
        case send(App.Event, [App.Key: App.Value])
        case receive(App.Event, [App.Key: App.Value])
        case back
        case discard
    }

    /// A call to the app numbered `app`, the answer the walk was given, and how many checks come before it.
    struct Queued {
        var call: Call
        var app: Int
        var expected: Bool
        var checksBefore: Int
    }

    let make: @Sendable (FlowVariant) async -> App
    let speculation: Speculation
    var queued: [Queued] = []
    /// How many apps the walk made (the next one's number).
    var made = 0
    /// The apps made and not yet discarded, by number; the app last called and its state and data after the call.
    var apps: [Int: App] = [:]
    var state: App.State?
    var data: [App.Key: App.Value] = [:]
    /// Whether the queue is running (the checks read the app as it is), or has run its last.
    var running = false
    var finished = false
    /// The longest queue: then it runs.
    static var limit: Int { 4096 }

    init(keyCount: Int, make: @escaping @Sendable (FlowVariant) async -> App) {
        self.make = make
        self.speculation = Speculation(keyCount: keyCount)
        speculation.flush = { [unowned self] in self.flush() }
    }

    /// Queues `call` to app `app`, whose answer the walk was given as `expected`.
    func enqueue(_ call: Call, app: Int, expected: Bool = true) {
        guard !finished, !speculation.diverged else { return }
        queued.append(Queued(call: call, app: app, expected: expected, checksBefore: speculation.checks.count))
        if queued.count >= Self.limit { flush() }
    }

    /// Runs the queue and the checks left, from the walk's thread (one hop), unless it is running.
    func flush() {
        guard !running, !finished, !speculation.diverged else { return }
        AsyncBridge.wait { await self.run() }
    }

    /// Runs the queued calls in turn on the main actor, each check before the call after it; stops at the first answer that is not the one given.
    @MainActor
    func run() async {
        running = true
        defer {
            running = false
            queued.removeAll(keepingCapacity: true)
            speculation.clear()
        }
        guard !speculation.diverged else { return }
        var checked = 0
        for queued in queued {
            guard speculation.run(checked..<queued.checksBefore) else { return speculation.diverged = true }
            checked = queued.checksBefore
            if case .make(let variant) = queued.call {
                let app = await make(variant)
                apps[queued.app] = app
                state = await app.state
                data = await app.data
                continue
            }
            guard let app = apps[queued.app] else { continue }
            let accepted: Bool
            switch queued.call {
            case .make: continue
            case let .send(event, payload): accepted = await app.send(event, data: payload)
            case let .receive(event, payload): accepted = await app.receive(event, data: payload)
            case .back: accepted = await app.back()
            case .discard:
                apps[queued.app] = nil
                await app.discard()
                continue
            }
            state = await app.state
            data = await app.data
            guard accepted == queued.expected else { return speculation.diverged = true }
        }
        if !speculation.run(checked..<speculation.checks.count) { speculation.diverged = true }
    }

    /// Runs what is queued and discards every app left; whether every answer was the one the walk was given.
    func finish() -> Bool {
        flush()
        finished = true
        let left = Array(apps.values)
        apps = [:]
        if !left.isEmpty {
            AsyncBridge.wait { @MainActor in for app in left { await app.discard() } }
        }
        return !speculation.diverged
    }

    /// The app's state and data as the walk reads them: as they are now (the queue runs first unless it is running).
    func current() -> (state: App.State, data: [App.Key: App.Value]) {
        if !running { flush() }
        guard let state else { preconditionFailure("the first call queued makes an app") }
        return (state, data)
    }

    /// An app as the walk's driver holds it: its calls queued, answered as the walk expects.
    final class Handle: FlowUnderTest {
        typealias State = App.State
        typealias Event = App.Event
        typealias Key = App.Key
        typealias Value = App.Value

        let played: PlayedAhead
        let number: Int

        init(_ played: PlayedAhead, variant: FlowVariant) {
            self.played = played
            number = played.made
            played.made += 1
            played.enqueue(.make(variant), app: number)
        }

        deinit { played.enqueue(.discard, app: number) }

        var state: State { played.current().state }
        var data: [Key: Value] { played.current().data }

        func send(_ event: Event, data: [Key: Value]) -> Bool { answer(.send(event, data)) }
        func receive(_ answer: Event, data: [Key: Value]) -> Bool { self.answer(.receive(answer, data)) }
        func back() -> Bool { answer(.back) }

        /// Queues `call` and answers as the walk expects.
        private func answer(_ call: Call) -> Bool {
            let expected = played.speculation.accepted
            played.enqueue(call, app: number, expected: expected)
            return expected
        }

        static func event(named name: String) -> Event? { App.event(named: name) }
        static func key(named name: String) -> Key? { App.key(named: name) }
    }
}
