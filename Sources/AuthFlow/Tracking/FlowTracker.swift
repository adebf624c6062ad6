import Foundation

/// Records a flow's transitions, rejections, undos and resets for funnel analytics.
///
/// A ``FlowSession`` given a tracker calls ``record(_:from:event:to:reason:)`` on every move.
/// The log exports as JSON Lines (``jsonLines()``), reads back with
/// ``events(fromJSONLines:)``, and summarises as a ``Funnel``:
///
/// ```swift
/// let tracker = FlowTracker(sessionID: "s1")
/// tracker.record(.transition, from: "start", event: "startAuth", to: "email")
/// tracker.funnel(success: ["authenticated"], abort: ["cancelled"]).dropOff  // ["email": 1]
/// ```
///
/// A tracker is for use by one task at a time, like the session that drives it: it is a
/// class with mutable state and is not `Sendable`. Give each concurrent session its own
/// tracker and merge their ``events`` afterwards; the funnel groups them by session id.
public final class FlowTracker {
    /// The session id stamped on the events recorded from now on.
    ///
    /// Settable, so that a logout can start a new session: events already recorded keep theirs.
    public var sessionID: String
    /// Every event recorded, oldest first.
    public private(set) var events: [TrackedEvent] = []
    private let clock: @Sendable () -> Date

    /// Creates a tracker with an empty log.
    /// - Parameters:
    ///   - sessionID: the id of the first session; a fresh UUID by default.
    ///   - clock: where timestamps come from; inject a fixed clock in tests.
    public init(sessionID: String = UUID().uuidString, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.sessionID = sessionID
        self.clock = clock
    }

    /// Appends an event to the log, stamped with the current session id and the clock's time.
    /// - Parameters:
    ///   - kind: what happened.
    ///   - from: the state the flow was in.
    ///   - event: the event sent, for a transition or a rejected event.
    ///   - to: the state the flow is in afterwards, for a transition, an undo or a reset.
    ///   - reason: why an event was rejected.
    ///   - added: for a transition, the names of the data keys it added (never their values);
    ///     `nil` when the caller does not know them.
    ///   - cleared: for a transition, the names of the data keys it cleared; `nil` when unknown.
    ///   - values: for a transition, the values of the `authflow/2` valued keys it added or set,
    ///     by name; pass only keys that are not secret.
    public func record(
        _ kind: TrackedKind, from: String, event: String? = nil, to: String? = nil, reason: String? = nil,
        added: [String]? = nil, cleared: [String]? = nil, values: [String: String]? = nil
    ) {
        events.append(TrackedEvent(
            kind: kind, sessionID: sessionID, timestamp: clock(), from: from, event: event, to: to, reason: reason,
            added: added, cleared: cleared, values: values))
    }

    /// The log as JSON Lines: one compact JSON object per event, each line ending in a newline.
    ///
    /// Every line has the keys `kind`, `sessionID`, `timestamp`, `from`, `event`, `to`, `reason`
    /// in that order, `null` when absent; the timestamp is ISO 8601 in UTC to the millisecond. A
    /// transition recorded with its data names adds `added` and `cleared` (and `values` when given):
    ///
    /// ```
    /// {"kind":"transition","sessionID":"s1","timestamp":"2024-05-01T12:00:00.000Z","from":"start","event":"startAuth","to":"email","reason":null}
    /// {"kind":"transition","sessionID":"s1","timestamp":"2024-05-01T12:00:02.250Z","from":"email","event":"knownEmail","to":"password","reason":null,"added":["email","account"],"cleared":[]}
    /// ```
    /// An empty log gives the empty string.
    public func jsonLines() -> String {
        Self.jsonLines(events)
    }

    /// `events` as JSON Lines; see ``jsonLines()``.
    public static func jsonLines(_ events: [TrackedEvent]) -> String {
        var bytes: [UInt8] = []
        for event in events { event.writeJSONLine(into: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The funnel of this tracker's log; see ``funnel(of:success:abort:)``.
    public func funnel(success: Set<String>, abort: Set<String>) -> Funnel {
        Self.funnel(of: events, success: success, abort: abort)
    }
}
