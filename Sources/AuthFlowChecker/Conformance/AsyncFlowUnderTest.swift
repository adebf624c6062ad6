import AuthFlow
import Dispatch
import Foundation

/// An app's own implementation of a flow whose actions are `async`: a `@MainActor` coordinator or view model that awaits its backend.
///
/// The checks drive it as they drive a ``FlowUnderTest``, awaiting every call before the next:
/// deterministic, with no sleeps and no timing. `send` returns once the app has finished the
/// user's action or waits on its backend; `receive` hands the backend's answer to the call that
/// waits for it (``PlayedBackend`` does both for an app built with a fake backend) and returns
/// once the app has handled it. Everything else is as for ``FlowUnderTest``: after every action
/// the app's state and data must equal the spec's frame, and a refused action changes nothing.
///
/// ```swift
/// extension LoginModel: AsyncFlowUnderTest {
///     var state: Screen { screen }
///     func send(_ action: Action, data: [Field: String]) async -> Bool { await perform(action, data) }
///     func receive(_ answer: Action, data: [Field: String]) async -> Bool { await backend.played.deliver(Answer(answer, data)) }
///     func back() async -> Bool { false }
/// }
/// try await FlowGate.assertConforms(spec: "Specs/sign-in.json") { await LoginModel(backend: FakeBackend()) }
/// ```
public protocol AsyncFlowUnderTest: AnyObject, Sendable {
    /// The app's states; each one's ``FlowName/flowName`` is the spec's name for it.
    associatedtype State: FlowName
    /// The app's events: the user's actions and the backend's answers.
    associatedtype Event: FlowName
    /// The app's data keys.
    associatedtype Key: FlowName
    /// The app's data values.
    associatedtype Value: FlowDataValue & Sendable

    /// The state the app is in now.
    var state: State { get async }
    /// The data the app holds now, every key it has a value for.
    var data: [Key: Value] { get async }
    /// Performs the user's `event` with `data`; returns once the app has finished it or waits on its backend. `false`: refused, nothing changed.
    func send(_ event: Event, data: [Key: Value]) async -> Bool
    /// Hands the backend's (or a timer's) answer `answer` to the app; returns once the app has handled it. `false`: refused, nothing changed.
    func receive(_ answer: Event, data: [Key: Value]) async -> Bool
    /// The user's back; `true` when accepted (it must restore the previous state and data exactly).
    func back() async -> Bool
    /// Called when the checks are done with this instance: release what it waits on (``PlayedBackend/cancel()``). By default nothing.
    func discard() async

    /// The app's event the spec calls `name`, or nil when the app has none.
    static func event(named name: String) -> Event?
    /// The app's key the spec calls `name`, or nil when the app has none.
    static func key(named name: String) -> Key?
}

extension AsyncFlowUnderTest {
    public func receive(_ answer: Event, data: [Key: Value]) async -> Bool { await send(answer, data: data) }
    public func discard() async {}
}

extension AsyncFlowUnderTest where Event: RawRepresentable, Event.RawValue == String {
    public static func event(named name: String) -> Event? { Event(rawValue: name) }
}

extension AsyncFlowUnderTest where Event == String {
    public static func event(named name: String) -> Event? { name }
}

extension AsyncFlowUnderTest where Key: RawRepresentable, Key.RawValue == String {
    public static func key(named name: String) -> Key? { Key(rawValue: name) }
}

extension AsyncFlowUnderTest where Key == String {
    public static func key(named name: String) -> Key? { name }
}

/// The backend as the checks play it: the app's fake backend awaits ``answer(accepting:)``, and the checks deliver each answer the spec allows.
///
/// Build the app with a fake backend that asks this object for every answer; the adapter runs
/// each user action with ``run(_:)`` (which returns once the action finished or waits on the
/// backend) and hands every answer to ``deliver(_:)``. No timing is involved: every step is a
/// continuation resumed by the checks.
///
/// ```swift
/// struct FakeBackend: SignInBackend {
///     let played = PlayedBackend<Answer>()
///     func lookUp(email: String) async -> String {
///         await played.answer { $0.event == .found }?.data[.accountId] ?? ""
///     }
/// }
/// ```
public final class PlayedBackend<Answer: Sendable>: @unchecked Sendable {
    /// The call waiting for an answer: which answers it takes, where to resume it, and the action it waits for (``run(_:)``'s number).
    private var pending: (accepts: @Sendable (Answer) -> Bool, resume: CheckedContinuation<Answer?, Never>, run: Int)?
    /// Whether the last action finished or waits on the backend; who waits for that.
    private var settled = true
    private var waiter: CheckedContinuation<Void, Never>?
    /// How many actions ``run(_:)`` started, and the one whose end settles the wait now: the last one run, or the one
    /// whose call was last answered. An action the app let go of (a request cancelled by back) ends late, while the next
    /// one runs; its end must not end that one's wait.
    private var runs = 0
    private var owner = 0
    private let lock = NSLock()

    public init() {}

    /// Whether a call of the app waits for an answer.
    public var isWaiting: Bool { lock.withLock { pending != nil } }

    /// Called by the app's fake backend: waits until the checks deliver an answer `accepts` takes
    /// (nil when the app is discarded first, ``cancel()``).
    public func answer(accepting accepts: @escaping @Sendable (Answer) -> Bool = { _ in true }) async -> Answer? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Answer?, Never>) in
            let earlier = lock.withLock { () -> CheckedContinuation<Answer?, Never>? in
                defer { pending = (accepts, continuation, runs) }
                return pending?.resume
            }
            earlier?.resume(returning: nil)
            settle(run: nil)
        }
    }

    /// Runs the user's `action`; returns once it has finished or waits on the backend.
    public func run(_ action: @escaping @Sendable () async -> Void) async {
        let run = lock.withLock { () -> Int in
            settled = false
            runs += 1
            owner = runs
            return runs
        }
        Task {
            await action()
            self.settle(run: run)
        }
        await untilSettled()
    }

    /// Delivers `answer` to the call that waits for one; returns once the app has handled it (finished, or waits again). `false`
    /// when no call waits or the one that waits does not take it (nothing changes).
    public func deliver(_ answer: Answer) async -> Bool {
        let call = lock.withLock { () -> CheckedContinuation<Answer?, Never>? in
            guard let pending, pending.accepts(answer) else { return nil }
            self.pending = nil
            settled = false
            owner = pending.run
            return pending.resume
        }
        guard let call else { return false }
        call.resume(returning: answer)
        await untilSettled()
        return true
    }

    /// Resumes a waiting call with nil: the app is being discarded.
    public func cancel() {
        let call = lock.withLock { () -> CheckedContinuation<Answer?, Never>? in
            defer { pending = nil }
            return pending?.resume
        }
        call?.resume(returning: nil)
    }

    /// Ends the wait for the action now under way: a call waits on the backend (`run` nil), or action number `run` ended (ignored
    /// unless it is the ``owner``).
    private func settle(run: Int?) {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if let run, run != owner { return nil }
            settled = true
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume()
    }

    private func untilSettled() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                if settled { return true }
                waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// An ``AsyncFlowUnderTest`` as the synchronous searches drive it: every call awaited on its own task, the search waiting on a thread of its own.
///
/// The searches run on a thread outside Swift's cooperative pool (``AsyncBridge/run(_:)``), so
/// waiting there never holds up the tasks (or the main actor) the app runs on.
final class BlockingFlow<App: AsyncFlowUnderTest>: FlowUnderTest {
    typealias State = App.State
    typealias Event = App.Event
    typealias Key = App.Key
    typealias Value = App.Value

    /// What one awaited call brings back: its answer, and the app's state and data after it.
    struct After: @unchecked Sendable {
        var accepted: Bool
        var state: State
        var data: [Key: Value]
    }

    let app: App
    /// The app's state and data after the last call: read in the same hop as the call, since
    /// nothing but the checks' calls changes the app (each returns once the app has settled).
    private(set) var state: State
    private(set) var data: [Key: Value]

    init(_ make: @escaping @Sendable () async -> App) {
        let (app, after) = AsyncBridge.wait { () -> (App, After) in
            let app = await make()
            return (app, After(accepted: true, state: await app.state, data: await app.data))
        }
        self.app = app
        self.state = after.state
        self.data = after.data
    }

    deinit {
        let app = self.app
        AsyncBridge.wait { await app.discard() }
    }

    /// Runs `call` on the app and reads its state and data after it, all in one hop.
    private func perform(_ call: @escaping @Sendable (App) async -> Bool) -> Bool {
        let app = self.app
        let after = AsyncBridge.wait { After(accepted: await call(app), state: await app.state, data: await app.data) }
        state = after.state
        data = after.data
        return after.accepted
    }

    func send(_ event: Event, data: [Key: Value]) -> Bool { perform { await $0.send(event, data: data) } }
    func receive(_ answer: Event, data: [Key: Value]) -> Bool { perform { await $0.receive(answer, data: data) } }
    func back() -> Bool { perform { await $0.back() } }

    static func event(named name: String) -> Event? { App.event(named: name) }
    static func key(named name: String) -> Key? { App.key(named: name) }
}

/// Runs the synchronous searches for an async app: on a thread of their own, each of the app's calls awaited in turn.
enum AsyncBridge {
    /// A value handed from one thread to another, after the handing-over is ordered by a semaphore or a continuation.
    final class Box<T>: @unchecked Sendable {
        var value: T?
        init(_ value: T? = nil) { self.value = value }
    }

    /// `body`'s result, waited for on this thread (never one of the cooperative pool's: see ``run(_:)``).
    static func wait<T>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>(), done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        guard let value = box.value else { preconditionFailure("an awaited call always returns") }
        return value
    }

    /// Runs `body` on a new thread and awaits its result: the searches wait on the app's tasks there, never on the pool's threads.
    static func run<T>(_ body: @escaping () -> T) async -> T {
        let work = Box(body)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Box<T>, Never>) in
            let thread = Thread {
                let made = Box<T>()
                made.value = work.value?()
                continuation.resume(returning: made)
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
        guard let value = result.value else { preconditionFailure("the thread always sets its result") }
        return value
    }
}

/// The conformance checks of an ``AsyncFlowUnderTest``: the exhaustive walk and the random tester, awaited.
///
/// ```swift
/// let conformance = AsyncFlowConformance(model: model) { await LoginModel(backend: FakeBackend()) }
/// await conformance.explore(depth: 12).violations   // []
/// await conformance.fuzz().failure                  // nil
/// ```
public struct AsyncFlowConformance<Flow: AsyncFlowUnderTest>: Sendable {
    /// The spec's model.
    public let model: FlowModel
    let make: @Sendable (FlowVariant) async -> Flow

    /// Checks the apps `make` returns (each fresh, at the spec's initial state with no data) against `model`; the same kind for every variant.
    public init(model: FlowModel, make: @escaping @Sendable () async -> Flow) {
        self.model = model
        self.make = { _ in await make() }
    }

    /// Checks the apps `make` returns for each variant of `model`.
    public init(model: FlowModel, variants make: @escaping @Sendable (FlowVariant) async -> Flow) {
        self.model = model
        self.make = make
    }

    var drivers: AppDrivers { Self.drivers(make) }

    static func drivers(_ make: @escaping @Sendable (FlowVariant) async -> Flow) -> AppDrivers {
        .of(variants: { variant in BlockingFlow { await make(variant) } })
    }

    /// Drivers that run the walk ahead of the app, the app's calls queued and awaited in one hop (``Speculation``), and
    /// what says afterwards whether every answer was the one the walk was given.
    static func ahead(_ make: @escaping @Sendable (FlowVariant) async -> Flow) -> (AppTables) -> (drivers: AppDrivers, settle: () -> Bool) {
        { tables in
            let played = PlayedAhead<Flow>(keyCount: tables.model.keys.count, make: make)
            let drivers = AppDrivers { tables, usesCapabilities in
                let driver = AppDriver(tables: tables, usesCapabilities: usesCapabilities) { PlayedAhead.Handle(played, variant: $0) }
                driver.speculation = played.speculation
                return driver.erased()
            }
            return (drivers, { played.finish() })
        }
    }

    /// As ``FlowConformance/explore(depth:timeout:)``, every call of the app awaited.
    public func explore(depth: Int, timeout: Double? = nil) async -> ConformanceWalk {
        var checks = AppConformance(model: model, drivers: drivers)
        checks.ahead = Self.ahead(make)
        return await AsyncBridge.run { checks.explore(depth: depth, timeout: timeout) }
    }

    /// As ``FlowConformance/fuzz(_:)``, every call of the app awaited.
    public func fuzz(_ options: FuzzOptions = FuzzOptions()) async -> FuzzReport {
        let checks = AppConformance(model: model, drivers: drivers)
        return await AsyncBridge.run { checks.fuzzer().run(options) }
    }
}

extension FlowGate {
    /// Checks an app whose actions are `async` (a `@MainActor` coordinator awaiting its backend) against the spec at `path`, and throws unless it conforms.
    ///
    /// As ``assertConforms(spec:depth:runs:seed:callerFile:make:)``, from an `async` test in
    /// XCTest or Swift Testing alike:
    ///
    /// ```swift
    /// @Test func loginConforms() async throws {
    ///     try await FlowGate.assertConforms(spec: "Specs/sign-in.json") { await LoginModel(backend: FakeBackend()) }
    /// }
    /// ```
    @discardableResult
    public static func assertConforms<Flow: AsyncFlowUnderTest>(spec path: String, depth: Int = ConformanceDefaults.depth,
                                                                runs: Int = ConformanceDefaults.runs, seed: UInt64 = ConformanceDefaults.seed,
                                                                callerFile: StaticString = #filePath,
                                                                make: @escaping @Sendable () async -> Flow) async throws(ConformanceFailure) -> ConformanceReport {
        try await assertConforms(spec: path, depth: depth, runs: runs, seed: seed, callerFile: callerFile,
                                 drivers: AsyncFlowConformance<Flow>.drivers { _ in await make() },
                                 ahead: AsyncFlowConformance<Flow>.ahead { _ in await make() })
    }

    /// As ``assertConforms(spec:depth:runs:seed:callerFile:make:)-async``, with each variant's config handed to the factory.
    @discardableResult
    public static func assertConforms<Flow: AsyncFlowUnderTest>(spec path: String, depth: Int = ConformanceDefaults.depth,
                                                                runs: Int = ConformanceDefaults.runs, seed: UInt64 = ConformanceDefaults.seed,
                                                                callerFile: StaticString = #filePath,
                                                                make: @escaping @Sendable (FlowVariant) async -> Flow) async throws(ConformanceFailure) -> ConformanceReport {
        try await assertConforms(spec: path, depth: depth, runs: runs, seed: seed, callerFile: callerFile,
                                 drivers: AsyncFlowConformance<Flow>.drivers(make), ahead: AsyncFlowConformance<Flow>.ahead(make))
    }

    static func assertConforms(spec path: String, depth: Int, runs: Int, seed: UInt64, callerFile: StaticString, drivers: AppDrivers,
                               ahead: @escaping (AppTables) -> (drivers: AppDrivers, settle: () -> Bool)) async throws(ConformanceFailure) -> ConformanceReport {
        let result = await AsyncBridge.run { () -> Result<ConformanceReport, ConformanceFailure> in
            do throws(ConformanceFailure) {
                return .success(try assertConforms(spec: path, depth: depth, runs: runs, seed: seed, callerFile: callerFile,
                                                   drivers: drivers, ahead: ahead))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
