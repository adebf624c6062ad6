import AuthFlow
import AuthFlowChecker

/// Drives the real runtime and lets a subclass change one behaviour: how tests inject a runtime fault.
///
/// Every method forwards to a ``SessionDriver`` over a fresh ``FlowSession``; override the one
/// the fault is about and the explorer and the fuzzer must catch it.
///
/// ```swift
/// final class UndoForgetsData: ForwardingDriver {
///     override func undo() -> Bool { (try? real.session.machine.undo()) != nil }   // data stays
/// }
/// ```
open class ForwardingDriver: FlowDriver {
    /// The real runtime's driver.
    public let real: SessionDriver
    /// The model the session was built from.
    public let model: FlowModel

    public init(model: FlowModel) {
        self.model = model
        self.real = SessionDriver(model: model)
    }

    open var state: StateID { real.state }
    open var height: Int { real.height }
    open var dataCount: Int { real.dataCount }
    open func value(of key: KeyID) -> FlowValue? { real.value(of: key) }
    open func canHandle(_ event: EventID) -> Bool { real.canHandle(event) }
    open var canGoBack: Bool { real.canGoBack }
    open func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool { real.send(event, value: value) }
    open func back() -> Bool { real.back() }
    open func undo() -> Bool { real.undo() }
    open func reset() { real.reset() }
    open func start(variant: Int) -> Bool { real.start(variant: variant) }
}
