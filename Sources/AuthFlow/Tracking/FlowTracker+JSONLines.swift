import Foundation

/// Why a JSON Lines log could not be read: the line, the column when known, and what was wrong.
public struct JSONLinesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line, counting from 1 (blank lines included).
    public var line: Int
    /// The column on the line, counting Unicode scalars from 1, when the error has one.
    public var column: Int?
    /// What was wrong, e.g. `missing key "kind"`.
    public var message: String

    /// Creates an error.
    public init(line: Int, column: Int?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// The error as `line 3, column 14: message`, or `line 3: message` without a column.
    public var description: String {
        if let column { "line \(line), column \(column): \(message)" } else { "line \(line): \(message)" }
    }
}

extension FlowTracker {
    /// The keys a record may have, in the order the tracker writes them.
    package static let recordKeys = ["kind", "sessionID", "timestamp", "from", "event", "to", "reason", "added", "cleared", "values"]

    /// Reads a log written by ``jsonLines()`` back into events.
    ///
    /// Blank lines are skipped and a CR before a line's LF is ignored. Each other line must be
    /// one JSON object with string `kind` (a ``TrackedKind``), `sessionID`, `timestamp` and
    /// `from`, and optional `event`, `to` and `reason` (string or `null`), `added` and `cleared`
    /// (arrays of key names, or `null`) and `values` (an object of strings, or `null`). The
    /// timestamp is ISO 8601 with `Z` or a `±HH:MM` offset, fraction optional; digits past
    /// milliseconds are dropped. Like the spec format, the reader is strict: a key it does not know
    /// is an error (so a typo such as `evnt` is never silently read as a missing event), except
    /// keys starting with `x-`, which are ignored.
    ///
    /// - Parameter text: the log.
    /// - Returns: the events, in the order of the lines.
    /// - Throws: ``JSONLinesError`` for the first bad line, with its line number and column.
    public static func events(fromJSONLines text: String) throws -> [TrackedEvent] {
        var events: [TrackedEvent] = []
        var lineNumber = 0
        for rawLine in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if let event = try event(fromJSONLine: Array(rawLine), line: lineNumber) { events.append(event) }
        }
        return events
    }

    /// Reads one line of a log: the event it holds, or `nil` for a blank line (spaces, tabs, a CR).
    ///
    /// The one definition of the record format that ``events(fromJSONLines:)`` and
    /// `authcheck traces` share.
    /// - Parameters:
    ///   - bytes: the line, without its LF.
    ///   - line: its line number, for the error.
    /// - Throws: ``JSONLinesError`` saying what is wrong, at `line` and the column when known.
    package static func event(fromJSONLine bytes: [UInt8], line: Int) throws(JSONLinesError) -> TrackedEvent? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw JSONLinesError(
                line: line, column: error.location.line == 1 ? error.location.column : nil,
                message: error.message)
        }
        return try event(from: root, line: line)
    }

    private static func event(from root: JSONNode, line: Int) throws(JSONLinesError) -> TrackedEvent {
        func fail(_ message: String, _ node: JSONNode) -> JSONLinesError {
            JSONLinesError(line: line, column: node.location.line == 1 ? node.location.column : nil, message: message)
        }
        guard case .object(let members) = root.value else {
            throw fail("expected a JSON object, found \(root.value.typeName)", root)
        }
        let known = recordKeys
        var fields: [String: JSONNode] = [:]
        for member in members where !member.key.hasPrefix("x-") {
            guard known.contains(member.key) else {
                throw JSONLinesError(
                    line: line, column: member.keyLocation.column,
                    message: "unknown key \(JSON.quoted(member.key)); expected one of \(known.joined(separator: ", "))")
            }
            fields[member.key] = member.value
        }
        func required(_ key: String) throws(JSONLinesError) -> (String, JSONNode) {
            guard let node = fields[key] else { throw fail("missing key \(JSON.quoted(key))", root) }
            guard case .string(let text) = node.value else {
                throw fail("\(JSON.quoted(key)) must be a string, found \(node.value.typeName)", node)
            }
            return (text, node)
        }
        func optional(_ key: String) throws(JSONLinesError) -> String? {
            guard let node = fields[key] else { return nil }
            switch node.value {
            case .null: return nil
            case .string(let text): return text
            default: throw fail("\(JSON.quoted(key)) must be a string or null, found \(node.value.typeName)", node)
            }
        }
        func names(_ key: String) throws(JSONLinesError) -> [String]? {
            guard let node = fields[key] else { return nil }
            switch node.value {
            case .null: return nil
            case .array(let elements):
                var names: [String] = []
                for element in elements {
                    guard case .string(let name) = element.value else {
                        throw fail("\(JSON.quoted(key)) must list key names as strings, found \(element.value.typeName)", element)
                    }
                    names.append(name)
                }
                return names
            default: throw fail("\(JSON.quoted(key)) must be an array of key names or null, found \(node.value.typeName)", node)
            }
        }
        let (kindText, kindNode) = try required("kind")
        guard let kind = TrackedKind(rawValue: kindText) else {
            let kinds = TrackedKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail("\"kind\" must be one of \(kinds), found \(JSON.quoted(kindText))", kindNode)
        }
        let (sessionID, _) = try required("sessionID")
        let (timestampText, timestampNode) = try required("timestamp")
        guard let timestamp = _Timestamp.parse(timestampText) else {
            throw fail(
                "\"timestamp\" must be an ISO 8601 date and time such as 2024-05-01T12:00:00.000Z, found \(JSON.quoted(timestampText))",
                timestampNode)
        }
        let (from, _) = try required("from")
        var values: [String: String]?
        if let node = fields["values"] {
            switch node.value {
            case .null: break
            case .object(let members):
                var read: [String: String] = [:]
                for member in members {
                    guard case .string(let value) = member.value.value else {
                        throw fail("\"values\" must map key names to strings, found \(member.value.value.typeName) for \(JSON.quoted(member.key))", member.value)
                    }
                    read[member.key] = value
                }
                values = read
            default: throw fail("\"values\" must be an object of key names and values, or null, found \(node.value.typeName)", node)
            }
        }
        return TrackedEvent(
            kind: kind, sessionID: sessionID, timestamp: timestamp, from: from,
            event: try optional("event"), to: try optional("to"), reason: try optional("reason"),
            added: try names("added"), cleared: try names("cleared"), values: values)
    }
}
