import AuthFlow

/// An app's own implementation of a flow, as the conformance checks drive it: in the app's own names, through what the user does.
///
/// Conform the coordinator itself, or a small adapter around it. The checks read its current
/// state and data, send it events (with the data the step outputs) and the user's back, and
/// compare what it holds after every action with the frame the spec's semantics expect. They ask
/// nothing else: no history height, no list of enabled events. Between paths they start again
/// from a fresh instance made by the factory passed to ``FlowGate/assertConforms(spec:depth:runs:seed:callerFile:make:)``
/// (for a flow with `config`, one that takes the ``FlowVariant``).
///
/// States, events and keys are the app's own ``FlowName`` types (or `String`), matched to the
/// spec by ``FlowName/flowName``; values are the app's own type. A `String`-backed enum needs no
/// more than its cases:
///
/// ```swift
/// extension SignInCoordinator: FlowUnderTest {
///     public func send(_ event: Event, data: [Key: String]) -> Bool { handle(event, output: data) }
/// }
/// ```
///
/// For speed, an implementation may also conform to ``UndoableFlowUnderTest`` (an undo the
/// exhaustive walk backtracks with) or ``RestorableFlowUnderTest`` (snapshots it restores);
/// without either, backtracking past a screen the user cannot leave by back replays the path
/// from a fresh instance.
public protocol FlowUnderTest: AnyObject {
    /// The app's states; each one's ``FlowName/flowName`` is the spec's name for it.
    associatedtype State: FlowName
    /// The app's events.
    associatedtype Event: FlowName
    /// The app's data keys.
    associatedtype Key: FlowName
    /// The app's data values: compared with `==`, printed with `description`.
    associatedtype Value: FlowDataValue

    /// The state the implementation is in now.
    var state: State { get }
    /// The data the implementation holds now, every key it has a value for.
    var data: [Key: Value] { get }
    /// Handles `event` with `data`, the values of the keys the step outputs with it; `true` when
    /// accepted, `false` when refused (a refused event must change nothing).
    func send(_ event: Event, data: [Key: Value]) -> Bool
    /// The user's back; `true` when accepted (it must restore the previous state and data exactly),
    /// `false` when refused (it must change nothing).
    func back() -> Bool
    /// Delivers the backend's (or a timer's) answer `answer` with `data`, the values of the keys the
    /// answer outputs: an event an `authflow/2` step emits `"by": "system"`. `true` when the app took
    /// it, `false` when it ignored it (which must change nothing).
    ///
    /// The checks play the backend: wherever the spec lets the backend answer, they deliver each
    /// answer it allows (each value of a valued key it outputs), one after another, backtracking in
    /// between. By default the answer is sent like the user's events, with ``send(_:data:)``;
    /// implement it to hand the answer to the app the way its backend does (a completion, a
    /// delegate call, the fake backend the app was built with).
    func receive(_ answer: Event, data: [Key: Value]) -> Bool

    /// The app's event the spec calls `name`, or nil when the app has none (the event is then refused).
    static func event(named name: String) -> Event?
    /// The app's key the spec calls `name`, or nil when the app has none (its values are then dropped).
    static func key(named name: String) -> Key?
}

extension FlowUnderTest {
    public func receive(_ answer: Event, data: [Key: Value]) -> Bool { send(answer, data: data) }
}

extension FlowUnderTest where Event: RawRepresentable, Event.RawValue == String {
    public static func event(named name: String) -> Event? { Event(rawValue: name) }
}

extension FlowUnderTest where Event == String {
    public static func event(named name: String) -> Event? { name }
}

extension FlowUnderTest where Key: RawRepresentable, Key.RawValue == String {
    public static func key(named name: String) -> Key? { Key(rawValue: name) }
}

extension FlowUnderTest where Key == String {
    public static func key(named name: String) -> Key? { name }
}

/// An implementation with an undo the exhaustive walk can backtrack with: faster than replaying.
///
/// Unlike back, undo must work everywhere the implementation has something to undo, also on a
/// screen the user cannot leave by back and on a terminal state; it must restore exactly the
/// state and data before the last accepted event. The checks use back wherever the spec allows
/// it (so back itself is checked) and undo only where it does not.
///
/// ```swift
/// extension SignInCoordinator: UndoableFlowUnderTest {
///     public func undo() -> Bool { machine.undo() }
/// }
/// ```
public protocol UndoableFlowUnderTest: FlowUnderTest {
    /// Undoes the last accepted event, whatever the back policy; `true` when there was one.
    func undo() -> Bool
}

/// An implementation that can save and restore its whole state: the walk's backtrack without replays.
///
/// ```swift
/// extension Wizard: RestorableFlowUnderTest {
///     public func snapshot() -> Wizard.Memento { memento }
///     public func restore(_ snapshot: Wizard.Memento) { memento = snapshot }
/// }
/// ```
public protocol RestorableFlowUnderTest: FlowUnderTest {
    /// What ``snapshot()`` returns: enough to put the implementation back exactly.
    associatedtype Snapshot
    /// The implementation's whole state now.
    func snapshot() -> Snapshot
    /// Puts the implementation back exactly as it was when `snapshot` was taken.
    func restore(_ snapshot: Snapshot)
}

/// A value type an app keeps its flow's data in, which the checks can type into it.
///
/// The checks send values of their own (unique per step, so a value restored from the wrong
/// step shows) and recognise them when the implementation gives them back. They look like the
/// app's: a key named like an email gets an email address, one like a code a six-digit code,
/// one like an id a numeric id with a leading zero, so a coercion (`Int(id) ?? 0`) shows. A
/// valued key gets the texts of its domain, a counter its count as `.int` (an app may hold a
/// counter at 0 or leave it out).
public protocol FlowDataValue: Hashable {
    /// The app's value for `value`, one the checks sent; distinct values must stay distinct.
    init(flowValue value: FlowValue)
}

extension String: FlowDataValue {
    public init(flowValue value: FlowValue) { self = value.description }
}

extension FlowValue: FlowDataValue {
    public init(flowValue value: FlowValue) { self = value }
}
