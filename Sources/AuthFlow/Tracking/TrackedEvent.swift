import Foundation

/// What a tracked event records: a forward transition, a rejected event, an undo or a reset.
public enum TrackedKind: String, Sendable, CaseIterable {
    /// A forward transition `from` → `to` on `event`.
    case transition
    /// An event (or a back) that was refused; the flow did not move. `reason` says why.
    case rejection
    /// A back: the flow returned from `from` to the previous state `to`.
    case undo
    /// A return to the initial state `to`, dropping all history.
    case reset
}

/// One record in a funnel log: what happened, in which session, when, and between which states.
///
/// States and events are recorded by name, so logs from different builds of an app stay
/// comparable.
public struct TrackedEvent: Equatable, Sendable {
    /// What happened.
    public var kind: TrackedKind
    /// The session it happened in; the funnel groups events by it.
    public var sessionID: String
    /// When it happened. JSON Lines keep it to the millisecond.
    public var timestamp: Date
    /// The state the flow was in.
    public var from: String
    /// The event sent, for a transition or a rejected event.
    public var event: String?
    /// The state the flow ended in, for a transition, an undo or a reset.
    public var to: String?
    /// Why an event was rejected.
    public var reason: String?

    /// Creates an event.
    public init(
        kind: TrackedKind, sessionID: String, timestamp: Date, from: String,
        event: String? = nil, to: String? = nil, reason: String? = nil
    ) {
        self.kind = kind
        self.sessionID = sessionID
        self.timestamp = timestamp
        self.from = from
        self.event = event
        self.to = to
        self.reason = reason
    }

    /// The event as the JSON object of its JSON Lines record.
    ///
    /// Keys always appear, in this order: `kind`, `sessionID`, `timestamp`, `from`, `event`,
    /// `to`, `reason`; absent values are `null`, so every line has the same columns. The
    /// timestamp is ISO 8601 in UTC with milliseconds, e.g. `2024-05-01T12:00:00.123Z`.
    package var json: JSON {
        [
            "kind": .string(kind.rawValue),
            "sessionID": .string(sessionID),
            "timestamp": .string(_Timestamp.format(timestamp)),
            "from": .string(from),
            "event": event.map(JSON.string) ?? .null,
            "to": to.map(JSON.string) ?? .null,
            "reason": reason.map(JSON.string) ?? .null,
        ]
    }
}
