// `@MainActor` apps whose actions are async, as the conformance walk drives them (`AsyncFlowUnderTest`), and
// their floor: the same calls recorded once and replayed with no checking.
import AuthFlow
import AuthFlowChecker
import Dispatch
import Foundation
import SignInCoordinatorExample

/// Email-first sign-in as a `@MainActor` view model over the example's coordinator: every action awaited.
@MainActor final class AsyncEmailFirstModel {
    let coordinator = SignInCoordinator()
}

extension AsyncEmailFirstModel: AsyncFlowUnderTest {
    var state: SignInState { coordinator.state }
    var data: [SignInKey: String] { coordinator.data }
    func send(_ event: SignInEvent, data: [SignInKey: String]) async -> Bool { coordinator.handle(event, output: data) }
    func back() async -> Bool { coordinator.back() }
}

/// What the identity service answers a sign-in with: the spec's event and the data it carries.
struct ServiceAnswer: Sendable {
    var action: NextStepCoordinator.Action
    var values: [NextStepCoordinator.Field: String]
}

/// The identity service the app awaits.
protocol IdentityService: Sendable {
    func signIn(username: String, password: String) async -> ServiceAnswer?
}

/// The service as tests build the app with it: every answer is the checker's, through a ``PlayedBackend``.
struct PlayedIdentityService: IdentityService {
    static let signInAnswers: Set<NextStepCoordinator.Action> = [.signedIn, .challenged, .wrongPassword, .accountLocked]
    let played = PlayedBackend<ServiceAnswer>()
    func signIn(username: String, password: String) async -> ServiceAnswer? {
        await played.answer { Self.signInAnswers.contains($0.action) }
    }
}

/// Sign-in where the service's answer names the next step, as a `@MainActor` view model: submitting awaits the
/// service, whose answer moves the coordinator on; the other answers (a code accepted, the session expired) arrive as pushes.
@MainActor final class AsyncNextStepModel {
    let core = NextStepCoordinator()
    let service: PlayedIdentityService
    init(service: PlayedIdentityService) { self.service = service }

    func submit(_ values: [NextStepCoordinator.Field: String]) async {
        guard core.handle(.submit, values) else { return }
        guard let answer = await service.signIn(username: values[.username] ?? "", password: values[.password] ?? ""),
              core.screen == .signingIn else { return }
        _ = core.handle(answer.action, answer.values)
    }
}

extension AsyncNextStepModel: AsyncFlowUnderTest {
    typealias Field = NextStepCoordinator.Field
    var state: NextStepCoordinator.Screen { core.screen }
    var data: [Field: String] { core.values }
    func send(_ action: NextStepCoordinator.Action, data: [Field: String]) async -> Bool {
        guard action == .submit else { return core.handle(action, data) }
        guard core.canHandle(.submit) else { return false }
        await service.played.run { await self.submit(data) }
        return true
    }
    func receive(_ answer: NextStepCoordinator.Action, data: [Field: String]) async -> Bool {
        if core.screen == .signingIn, service.played.isWaiting, PlayedIdentityService.signInAnswers.contains(answer) {
            guard core.canHandle(answer) else { return false }
            return await service.played.deliver(ServiceAnswer(action: answer, values: data))
        }
        return core.handle(answer, data)
    }
    func back() async -> Bool { core.back() }
    func discard() async { service.played.cancel() }
}

/// The floor of a conformance walk over an async app: its calls recorded once and replayed with no checking.
///
/// The walk awaits each action of the app and then its `state` and `data`, all in one hop from
/// the walk's thread. The replay awaits the same calls in turn from one task on the main actor,
/// as the app's own code awaits them (``replay(_:make:)``); and, as a second figure, from a thread
/// outside the cooperative pool with each action and its reads in one hop of its own, as the
/// checker awaits them (``replayHopping(_:make:)``).
enum AsyncAppFloor {
    final class Log<Event: Sendable, Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
        enum Call: UInt8 { case make, state, data, send, receive, back, discard }
        var calls: [Call] = []
        var events: [Event] = []
        var payloads: [[Key: Value]] = []
        let lock = NSLock()
        func append(_ call: Call) { lock.withLock { calls.append(call) } }
        func append(_ call: Call, _ event: Event, _ payload: [Key: Value]) {
            lock.withLock {
                calls.append(call)
                events.append(event)
                payloads.append(payload)
            }
        }
    }

    /// Forwards to an app, logging each call.
    final class Recorder<App: AsyncFlowUnderTest>: AsyncFlowUnderTest, @unchecked Sendable {
        typealias Calls = Log<App.Event, App.Key, App.Value>
        let inner: App
        let log: Calls
        init(_ inner: App, log: Calls) {
            (self.inner, self.log) = (inner, log)
            log.append(.make)
        }
        var state: App.State {
            get async {
                log.append(.state)
                return await inner.state
            }
        }
        var data: [App.Key: App.Value] {
            get async {
                log.append(.data)
                return await inner.data
            }
        }
        func send(_ event: App.Event, data: [App.Key: App.Value]) async -> Bool {
            log.append(.send, event, data)
            return await inner.send(event, data: data)
        }
        func receive(_ answer: App.Event, data: [App.Key: App.Value]) async -> Bool {
            log.append(.receive, answer, data)
            return await inner.receive(answer, data: data)
        }
        func back() async -> Bool {
            log.append(.back)
            return await inner.back()
        }
        func discard() async {
            log.append(.discard)
            await inner.discard()
        }
        static func event(named name: String) -> App.Event? { App.event(named: name) }
        static func key(named name: String) -> App.Key? { App.key(named: name) }
    }

    /// Walks `model` to `depth` over recorders of the apps `make` returns; the walk's stacks and the calls it made.
    static func record<App: AsyncFlowUnderTest>(_ model: FlowModel, depth: Int, make: @escaping @Sendable () async -> App) async
        -> (stacks: Int, log: Log<App.Event, App.Key, App.Value>) {
        let log = Log<App.Event, App.Key, App.Value>()
        let walk = await AsyncFlowConformance(model: model) { Recorder(await make(), log: log) }.explore(depth: depth)
        return (walk.stacks, log)
    }

    /// Makes the logged calls again on fresh apps, awaiting each in turn on the main actor; a value that depends on every answer.
    @MainActor @inline(never)
    static func replay<App: AsyncFlowUnderTest>(_ log: Log<App.Event, App.Key, App.Value>, make: () async -> App) async -> Int {
        var app = await make()
        var sink = 0, sent = 0
        for call in log.calls {
            switch call {
            case .make: app = await make()
            case .state: if await app.state.flowName.isEmpty { sink &+= 1 }
            case .data: sink &+= await app.data.count
            case .send:
                if await app.send(log.events[sent], data: log.payloads[sent]) { sink &+= 1 }
                sent += 1
            case .receive:
                if await app.receive(log.events[sent], data: log.payloads[sent]) { sink &+= 1 }
                sent += 1
            case .back: if await app.back() { sink &+= 1 }
            case .discard: await app.discard()
            }
        }
        return sink
    }

    /// The same calls from this (non-pool) thread, each action with the reads after it in one awaited hop, as the checker makes them.
    @inline(never)
    static func replayHopping<App: AsyncFlowUnderTest>(_ log: Log<App.Event, App.Key, App.Value>,
                                                        make: @escaping @Sendable () async -> App) -> Int {
        var app: App?
        var sink = 0, sent = 0, index = 0
        let calls = log.calls
        while index < calls.count {
            let call = calls[index]
            index += 1
            // The reads right after an action go in its hop, as the checker reads them.
            var reads = 0
            while index < calls.count, calls[index] == .state || calls[index] == .data {
                reads += 1
                index += 1
            }
            let (current, read) = (app, reads > 0)
            switch call {
            case .make:
                app = hop {
                    let made = await make()
                    _ = read ? await made.data.count : 0
                    return made
                }
                continue
            default: break
            }
            guard let current else { continue }
            switch call {
            case .make: break
            case .state, .data: sink &+= hop { await current.data.count }
            case .send, .receive:
                let (event, payload, isSend) = (log.events[sent], log.payloads[sent], call == .send)
                sent += 1
                sink &+= hop {
                    let accepted = isSend ? await current.send(event, data: payload) : await current.receive(event, data: payload)
                    return (accepted ? 1 : 0) &+ (read ? await current.data.count : 0)
                }
            case .back: sink &+= hop { (await current.back() ? 1 : 0) &+ (read ? await current.data.count : 0) }
            case .discard: hop { await current.discard() }
            }
        }
        return sink
    }

    /// `body`'s result, awaited from this thread: a task and a semaphore, as the checker's bridge does.
    @discardableResult
    static func hop<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = HopBox<T>(), done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

/// A value handed from a task to the thread that waits for it, ordered by a semaphore.
final class HopBox<T>: @unchecked Sendable {
    var value: T?
}
