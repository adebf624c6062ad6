import AuthFlow

/// The runtime as the explorer drives it: ask what can happen, send, go back, undo.
///
/// ``SessionDriver`` adapts the real ``FlowSession``; tests adapt deliberately broken runtimes
/// to prove the explorer catches them. Every method answers through the runtime's own API.
/// An app's own coordinator, which keeps no history the explorer can read, is checked through
/// ``FlowUnderTest`` instead.
public protocol FlowDriver: AnyObject {
    /// The runtime's current state.
    var state: StateID { get }
    /// How many frames the runtime's history holds (1 at the root).
    var height: Int { get }
    /// How many data keys have a value.
    var dataCount: Int { get }
    /// The runtime's value for `key`.
    func value(of key: KeyID) -> FlowValue?
    /// Whether the runtime would accept `event` now.
    func canHandle(_ event: EventID) -> Bool
    /// Whether the runtime would let the user go back now.
    var canGoBack: Bool { get }
    /// Sends `event` with `value(key)` for each key it adds; `true` when accepted.
    func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool
    /// The user's back; `true` when accepted.
    func back() -> Bool
    /// Undo regardless of the back policy (the explorer's backtrack); `true` when accepted.
    func undo() -> Bool
    /// Returns to the root with no data.
    func reset()
    /// Starts again at the root of an `authflow/2` variant (an index of ``FlowModel/variantNames``);
    /// false when the driver cannot run that variant. By default only variant 0, by ``reset()``.
    func start(variant: Int) -> Bool
}

extension FlowDriver {
    public func start(variant: Int) -> Bool {
        guard variant == 0 else { return false }
        reset()
        return true
    }
}

/// Drives the real runtime: a ``FlowSession`` built from the model.
public final class SessionDriver: FlowDriver {
    /// The session being driven.
    public let session: FlowSession<StateID, EventID, KeyID, FlowValue>

    /// Drives a fresh session built from `model`, in its first variant.
    public init(model: FlowModel) {
        self.session = model.makeSession()
    }

    /// Drives `session`.
    public init(session: FlowSession<StateID, EventID, KeyID, FlowValue>) {
        self.session = session
    }

    /// Resets the session to the root of `variant` (``FlowSession/reset(variant:)``).
    public func start(variant: Int) -> Bool { session.reset(variant: variant) }

    @inlinable @inline(__always) public var state: StateID { session.state }
    @inlinable @inline(__always) public var height: Int { session.machine.historyCount }
    @inlinable @inline(__always) public var dataCount: Int { session.data.count }
    @inlinable @inline(__always) public func value(of key: KeyID) -> FlowValue? { session.data[key] }
    @inlinable @inline(__always) public func canHandle(_ event: EventID) -> Bool { session.canHandle(event) }
    @inlinable @inline(__always) public var canGoBack: Bool { session.canGoBack }
    /// Sends an `authflow/2` flow's events through the session's ``FlowSession/trySend(_:value:)``, where a
    /// refusal builds no error; other flows' through the throwing send, as before.
    @inlinable public func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
        if session.runsByRules { return session.trySend(event, value: value) }
        do { try session.send(event, value: value); return true } catch { return false }
    }
    @inlinable public func back() -> Bool {
        do { try session.back(); return true } catch { return false }
    }
    @inlinable public func undo() -> Bool {
        do { try session.undo(); return true } catch { return false }
    }
    public func reset() { session.reset() }
}
