import AuthFlow
import AuthFlowChecker

/// The floor of a conformance walk over a synchronous app: the app's own calls, with no checking.
///
/// One walk runs over ``Recorder``, which forwards every call the checks make to a real app and
/// logs it; the log is then replayed on fresh apps, timed. What the replay costs is what the app
/// itself costs on the walk's stacks (its factory, `send`, `back`, `undo`, `receive`, and its
/// `state` and `data` getters), whatever the checker does around it: no conformance walk of this
/// app can be faster.
enum AppFloor {
    /// The calls the checks made, in order, with the events and data sent.
    final class Log<Event, Key: Hashable, Value> {
        enum Call: UInt8 { case make, state, data, send, receive, back, undo }
        var calls: [Call] = []
        var events: [Event] = []
        var payloads: [[Key: Value]] = []
    }

    /// Forwards to a fresh app, logging each call.
    final class Recorder<App: UndoableFlowUnderTest>: UndoableFlowUnderTest {
        typealias Calls = Log<App.Event, App.Key, App.Value>
        let inner: App
        let log: Calls
        init(_ inner: App, log: Calls) {
            (self.inner, self.log) = (inner, log)
            log.calls.append(.make)
        }
        var state: App.State {
            log.calls.append(.state)
            return inner.state
        }
        var data: [App.Key: App.Value] {
            log.calls.append(.data)
            return inner.data
        }
        func send(_ event: App.Event, data: [App.Key: App.Value]) -> Bool {
            log.calls.append(.send)
            log.events.append(event)
            log.payloads.append(data)
            return inner.send(event, data: data)
        }
        func receive(_ answer: App.Event, data: [App.Key: App.Value]) -> Bool {
            log.calls.append(.receive)
            log.events.append(answer)
            log.payloads.append(data)
            return inner.receive(answer, data: data)
        }
        func back() -> Bool {
            log.calls.append(.back)
            return inner.back()
        }
        func undo() -> Bool {
            log.calls.append(.undo)
            return inner.undo()
        }
        static func event(named name: String) -> App.Event? { App.event(named: name) }
        static func key(named name: String) -> App.Key? { App.key(named: name) }
    }

    /// Walks `model` to `depth` over recorders of the apps `make` returns; the walk's stacks and the calls it made.
    static func record<App: UndoableFlowUnderTest>(_ model: FlowModel, depth: Int, make: @escaping () -> App)
        -> (stacks: Int, log: Log<App.Event, App.Key, App.Value>) {
        let log = Log<App.Event, App.Key, App.Value>()
        let walk = FlowConformance(model: model) { Recorder(make(), log: log) }.explore(depth: depth)
        return (walk.stacks, log)
    }

    /// Makes the logged calls again on fresh apps; returns a value that depends on every answer.
    @inline(never)
    static func replay<App: UndoableFlowUnderTest>(_ log: Log<App.Event, App.Key, App.Value>, make: () -> App) -> Int {
        var app = make()
        let initial = app.state
        var sink = 0, sent = 0
        for call in log.calls {
            switch call {
            case .make: app = make()
            case .state: if app.state == initial { sink &+= 1 }
            case .data: sink &+= app.data.count
            case .send:
                if app.send(log.events[sent], data: log.payloads[sent]) { sink &+= 1 }
                sent += 1
            case .receive:
                if app.receive(log.events[sent], data: log.payloads[sent]) { sink &+= 1 }
                sent += 1
            case .back: if app.back() { sink &+= 1 }
            case .undo: if app.undo() { sink &+= 1 }
            }
        }
        return sink
    }
}
