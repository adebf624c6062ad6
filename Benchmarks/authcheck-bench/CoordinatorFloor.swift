import AuthFlow
import AuthFlowChecker
import Foundation
import SignInCoordinatorExample

/// The floor of the conformance walk over the example coordinator: the coordinator's own calls, with no checking.
///
/// One walk runs over ``Recorder``, which forwards every call the checks make to a real
/// coordinator and logs it; the log is then replayed on fresh coordinators, timed. What the replay
/// costs is what the coordinator itself costs on the walk's stacks (its factory, its `handle`,
/// `back` and `undo`, and its `state` and `data` getters), whatever the checker does around it:
/// no conformance walk of this coordinator can be faster.
enum CoordinatorFloor {
    /// The calls the checks made, in order: what ``replay()`` makes again.
    struct Log {
        enum Call: UInt8 { case make, state, data, send, back, undo }
        var calls: [Call] = []
        var events: [SignInEvent] = []
        var outputs: [[SignInKey: String]] = []
    }

    nonisolated(unsafe) static var log = Log()

    /// Forwards to a fresh coordinator, logging each call.
    final class Recorder: UndoableFlowUnderTest {
        let inner = SignInCoordinator()
        init() { CoordinatorFloor.log.calls.append(.make) }
        var state: SignInState {
            CoordinatorFloor.log.calls.append(.state)
            return inner.state
        }
        var data: [SignInKey: String] {
            CoordinatorFloor.log.calls.append(.data)
            return inner.data
        }
        func send(_ event: SignInEvent, data: [SignInKey: String]) -> Bool {
            CoordinatorFloor.log.calls.append(.send)
            CoordinatorFloor.log.events.append(event)
            CoordinatorFloor.log.outputs.append(data)
            return inner.handle(event, output: data)
        }
        func back() -> Bool {
            CoordinatorFloor.log.calls.append(.back)
            return inner.back()
        }
        func undo() -> Bool {
            CoordinatorFloor.log.calls.append(.undo)
            return inner.undo()
        }
    }

    /// Walks `model` to `depth` over recorders; the walk's stacks.
    static func record(_ model: FlowModel, depth: Int) -> Int {
        log = Log()
        return FlowConformance(model: model) { Recorder() }.explore(depth: depth).stacks
    }

    /// Makes the logged calls again on fresh coordinators; returns a value that depends on every answer.
    @inline(never)
    static func replay() -> Int {
        var app = SignInCoordinator()
        var sink = 0, send = 0
        for call in log.calls {
            switch call {
            case .make: app = SignInCoordinator()
            case .state: if app.state == .authenticated { sink &+= 1 }
            case .data: sink &+= app.data.count
            case .send:
                if app.handle(log.events[send], output: log.outputs[send]) { sink &+= 1 }
                send += 1
            case .back: if app.back() { sink &+= 1 }
            case .undo: if app.undo() { sink &+= 1 }
            }
        }
        return sink
    }
}
