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
/// States, events and data keys are recorded by name, so logs from different builds of an app
/// stay comparable. A transition may also carry the names of the data keys it added and cleared
/// (never their values), and the values of `authflow/2` valued keys that are not secret, so that
/// `authcheck traces` can check each screen's input contract and replay guards; a record without
/// them (an older tracker's) still reads, and the checks that need them are skipped.
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
    /// The names of the data keys a transition added, in the order the step's contract lists
    /// them; `nil` when the record does not say (an older tracker).
    public var added: [String]?
    /// The names of the data keys a transition cleared; `nil` when the record does not say.
    public var cleared: [String]?
    /// The values of the valued keys a transition added or set, by key name, for `authflow/2`
    /// keys that are not secret; `nil` when the record does not say. Never holds a secret.
    public var values: [String: String]?

    /// Creates an event.
    public init(
        kind: TrackedKind, sessionID: String, timestamp: Date, from: String,
        event: String? = nil, to: String? = nil, reason: String? = nil,
        added: [String]? = nil, cleared: [String]? = nil, values: [String: String]? = nil
    ) {
        self.kind = kind
        self.sessionID = sessionID
        self.timestamp = timestamp
        self.from = from
        self.event = event
        self.to = to
        self.reason = reason
        self.added = added
        self.cleared = cleared
        self.values = values
    }

    /// Whether the record says which data keys it added and cleared (`added` or `cleared` present).
    public var carriesData: Bool { added != nil || cleared != nil }

    /// The event as the JSON object of its JSON Lines record.
    ///
    /// Keys always appear, in this order: `kind`, `sessionID`, `timestamp`, `from`, `event`,
    /// `to`, `reason`; absent values are `null`, so every line has the same columns. Then, only
    /// when the record has them: `added`, `cleared` (arrays of key names) and `values` (an object,
    /// keys sorted). The timestamp is ISO 8601 in UTC with milliseconds, e.g. `2024-05-01T12:00:00.123Z`.
    package var json: JSON {
        var object: JSONObject = [
            "kind": .string(kind.rawValue),
            "sessionID": .string(sessionID),
            "timestamp": .string(_Timestamp.format(timestamp)),
            "from": .string(from),
            "event": event.map(JSON.string) ?? .null,
            "to": to.map(JSON.string) ?? .null,
            "reason": reason.map(JSON.string) ?? .null,
        ]
        if let added { object["added"] = .array(added.map(JSON.string)) }
        if let cleared { object["cleared"] = .array(cleared.map(JSON.string)) }
        if let values {
            object["values"] = .object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) }))
        }
        return .object(object)
    }
}

extension TrackedEvent {
    /// Appends the event's JSON Lines record and its newline: the bytes of ``json`` rendered compact,
    /// written directly so that long logs and generated corpora cost no JSON tree per line.
    package func writeJSONLine(into out: inout [UInt8]) {
        func key(_ name: StaticString, first: Bool = false) {
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: "\":".utf8)
        }
        func optional(_ text: String?) {
            if let text { JSON.writeString(text, into: &out) } else { out.append(contentsOf: "null".utf8) }
        }
        func names(_ list: [String]) {
            out.append(UInt8(ascii: "["))
            for (i, name) in list.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(name, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "{"))
        key("kind", first: true); JSON.writeString(kind.rawValue, into: &out)
        key("sessionID"); JSON.writeString(sessionID, into: &out)
        key("timestamp")
        out.append(UInt8(ascii: "\""))
        _Timestamp.write(_Timestamp.milliseconds(timestamp), into: &out)
        out.append(UInt8(ascii: "\""))
        key("from"); JSON.writeString(from, into: &out)
        key("event"); optional(event)
        key("to"); optional(to)
        key("reason"); optional(reason)
        if let added { key("added"); names(added) }
        if let cleared { key("cleared"); names(cleared) }
        if let values {
            key("values")
            out.append(UInt8(ascii: "{"))
            for (i, entry) in values.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(entry.key, into: &out)
                out.append(UInt8(ascii: ":"))
                JSON.writeString(entry.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "}\n".utf8)
    }
}
