import AuthFlow
import Foundation

/// The regressions file: failing paths saved as readable event paths, replayed before any random run.
///
/// One JSON object per line: `{"spec": "email-first sign-in", "table": "9c0e…", "site":
/// "unmet-requirement@authenticated", "seed": 1, "path": ["startAuth", "knownEmail", "back"]}`.
/// The path is what a person reads and edits; values are not saved (replay uses simple values,
/// so a path that needs particular values is saved with them as `{"event": "e", "values": ["…"]}`).
/// `spec` (the flow's name) and `table` (``FlowModel/tableHash``) tie an entry to the flow it
/// was found in: an entry for another flow, or naming an event the flow does not have, is
/// reported and not replayed (``partition(_:for:)``). Entries written before they carried them
/// still replay when every event is known.
///
/// A trail (`authcheck explore --trail DIR`) is one such entry in a file of its own, extended
/// with `variant` (the config values the flow ran in: `{}` without `config`) and `after` (the frame after
/// each step of `path`: state, data keys, non-secret values), so `authcheck replay` can stop at the
/// first step where the runtime is not where the trail says. A trail appended to a regressions
/// file is an ordinary entry: the fuzzer replays its path.
package enum FuzzRegressions {
    /// One saved path and what it was recorded against.
    package struct Entry: Equatable, Sendable {
        /// The line of the file it is on (1-based).
        package var line: Int
        /// The flow's name when it was saved, if the entry says.
        package var spec: String?
        /// The flow's table hash when it was saved, if the entry says.
        package var table: String?
        /// The path.
        package var actions: [FuzzAction]
        /// The violated site, as ``Site`` prints it, if the entry says.
        package var site: String? = nil
        /// The fuzz seed that found it (written only).
        package var seed: UInt64? = nil
        /// The variant the flow ran in (a trail's; empty for a flow without variants).
        package var variant: [String: String]? = nil
        /// The frame after each step of ``actions`` (a trail's), when the entry records them.
        package var after: [Frame]? = nil
        /// Per step of ``actions`` (an `authflow/2` trail's): the value each valued key the step adds takes
        /// (the system's answer), by key; empty for a step that adds none. `nil` when no step says.
        package var chosen: [[String: String]]? = nil
    }

    /// A frame a trail recorded after one step.
    package struct Frame: Equatable, Sendable {
        /// The state.
        package var state: String
        /// The data keys, in the flow's key order.
        package var keys: [String]
        /// The values of the non-secret keys.
        package var values: [String: String]

        package init(state: String, keys: [String], values: [String: String]) {
            self.state = state
            self.keys = keys
            self.values = values
        }
    }

    /// Splits `entries` into the paths to replay against `model` and the ones not to, each with its reason.
    ///
    /// Not replayed: an entry recorded for a flow of another name, or one with an event `model`
    /// does not have. Replayed with a note: an entry for the same flow whose table has changed.
    package static func partition(_ entries: [Entry], for model: FlowModel) -> (replay: [[FuzzAction]], notes: [(line: Int, text: String, skipped: Bool)]) {
        var replay: [[FuzzAction]] = []
        var notes: [(line: Int, text: String, skipped: Bool)] = []
        let hash = model.tableHash
        for entry in entries {
            if let spec = entry.spec, let name = model.name, spec != name {
                notes.append((entry.line, "not replayed: recorded for the flow '\(spec)', not '\(name)'", true))
                continue
            }
            if let unknown = entry.actions.first(where: { if case let .event(name, _) = $0 { return model.event(named: name) == nil } else { return false } }) {
                notes.append((entry.line, "not replayed: the flow has no event '\(unknown.name)'", true))
                continue
            }
            if let table = entry.table, table != hash {
                notes.append((entry.line, "replayed, though recorded against another version of the table (\(table), now \(hash))", false))
            }
            replay.append(entry.actions)
        }
        return (replay, notes)
    }

    /// The longest line of a regressions file, in bytes: a path of thousands of steps, with room to spare.
    package static let maxLineBytes = 1 << 20

    /// Reads every saved path; a missing file is an empty list.
    ///
    /// The file is streamed a line at a time (LF or CRLF) by ``InputSource``: memory holds the entries, not the file.
    /// - Parameter deadline: when waiting for a FIFO's writer gives up.
    /// - Throws: ``RegressionFileError`` naming the line that cannot be read.
    package static func read(_ path: String, deadline: Deadline? = nil) throws(RegressionFileError) -> [Entry] {
        let source: InputSource
        do {
            source = try InputSource.file(path, what: "a regressions file", deadline: deadline)
        } catch {
            if error.kind == .missing, !path.unicodeScalars.contains("\u{FFFD}") { return [] }
            throw RegressionFileError(file: path, line: 0, message: error.reason)
        }
        var paths: [Entry] = []
        var failure: RegressionFileError?
        do throws(InputError) {
            try source.forEachLine(maxLineBytes: maxLineBytes, chunkBytes: 1 << 16, skipsOverlongLines: false, skipsEmptyLines: true) { line in
                if let length = line.overlong {
                    failure = RegressionFileError(file: path, line: line.number,
                                                  message: "the line is over \(maxLineBytes) bytes (\(length) read); the limit is \(maxLineBytes) bytes")
                    return false
                }
                do throws(RegressionFileError) {
                    if let entry = try entry(line.bytes, file: path, number: line.number) { paths.append(entry) }
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        } catch {
            throw RegressionFileError(file: path, line: 0, message: error.reason)
        }
        if let failure { throw failure }
        return paths
    }

    /// The entry on line `number`, or nil for a blank line or a `#` comment.
    static func entry(_ bytes: UnsafeBufferPointer<UInt8>, file path: String, number: Int) throws(RegressionFileError) -> Entry? {
        // Blank lines, however many, cost no text: only spaces and tabs around an entry are trimmed.
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        if start == end || bytes[start] == UInt8(ascii: "#") { return nil }
        let node: JSONNode
        do {
            node = try JSONParser.parse(Array(bytes[start..<end]))
        } catch {
            throw RegressionFileError(file: path, line: number, message: "malformed JSON at column \(error.location.column): \(error.message)")
        }
        guard case let .array(steps)? = node["path"]?.value else {
            throw RegressionFileError(file: path, line: number, message: "expected an object with a \"path\" array")
        }
        var actions: [FuzzAction] = []
        var chosen: [[String: String]] = []
        for step in steps {
            chosen.append([:])
            switch step.value {
            case .string("back"):
                actions.append(.back)
            case let .string(event):
                actions.append(.event(event))
            case .object:
                guard case let .string(event)? = step["event"]?.value else {
                    throw RegressionFileError(file: path, line: number, message: "a step object needs an \"event\" string")
                }
                var values: [String]?
                if case let .array(list)? = step["values"]?.value {
                    values = list.compactMap { if case let .string(text) = $0.value { return text } else { return nil } }
                }
                if let picked = step["chosen"] {
                    guard let strings = Self.strings(picked) else {
                        throw RegressionFileError(file: path, line: number, message: "a step's \"chosen\" is an object of strings (valued key: value)")
                    }
                    chosen[chosen.count - 1] = strings
                }
                actions.append(.event(event, values: .init(ordered: values)))
            default:
                throw RegressionFileError(file: path, line: number, message: "a step is an event name, \"back\", or {\"event\", \"values\", \"chosen\"}")
            }
        }
        func field(_ key: String) -> String? { if case let .string(value)? = node[key]?.value { return value } else { return nil } }
        var entry = Entry(line: number, spec: field("spec"), table: field("table"), actions: actions, site: field("site"))
        if chosen.contains(where: { !$0.isEmpty }) { entry.chosen = chosen }
        if let variant = node["variant"] {
            guard let strings = Self.strings(variant) else {
                throw RegressionFileError(file: path, line: number, message: "\"variant\" is an object of strings")
            }
            entry.variant = strings
        }
        if let after = node["after"] {
            guard case let .array(frames) = after.value, frames.count == actions.count else {
                throw RegressionFileError(file: path, line: number, message: "\"after\" is an array of one frame per step of \"path\"")
            }
            var recorded: [Frame] = []
            for frame in frames {
                let names = frame["keys"].flatMap(Self.strings(in:))
                let values = frame["values"].map(Self.strings) ?? [:]
                guard case let .string(state)? = frame["state"]?.value, let names, let values else {
                    throw RegressionFileError(file: path, line: number,
                                              message: "a frame of \"after\" is {\"state\": \"…\", \"keys\": [\"…\"], \"values\": {\"key\": \"…\"}}")
                }
                recorded.append(Frame(state: state, keys: names, values: values))
            }
            entry.after = recorded
        }
        return entry
    }

    /// The members of a JSON object whose members are all strings, or nil.
    static func strings(_ node: JSONNode) -> [String: String]? {
        guard case let .object(members) = node.value else { return nil }
        var strings: [String: String] = [:]
        for member in members {
            guard case let .string(text) = member.value.value else { return nil }
            strings[member.key] = text
        }
        return strings
    }

    /// The elements of a JSON array of strings, or nil.
    static func strings(in node: JSONNode) -> [String]? {
        guard case let .array(elements) = node.value else { return nil }
        let strings = elements.compactMap { if case let .string(text) = $0.value { return text } else { return nil } }
        return strings.count == elements.count ? strings : nil
    }

    /// The line that saves `failure` (secret values are never saved: such steps keep simple values).
    package static func line(for failure: FuzzFailure, model: FlowModel) -> String {
        line(for: Entry(line: 0, spec: model.name, table: model.tableHash, actions: failure.shrunk,
                        site: failure.site.description, seed: failure.seed), model: model)
    }

    /// The line that saves `entry`: its members in the order `spec`, `table`, `variant`, `site`, `seed`, `path`, `after`.
    ///
    /// Secret values are never saved: a step that adds a secret keeps simple values, and a frame of
    /// `after` leaves secrets out of its values.
    package static func line(for entry: Entry, model: FlowModel) -> String {
        func object(_ strings: [String: String]) -> JSON {
            .object(JSONObject(strings.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) }))
        }
        let steps: [JSON] = entry.actions.enumerated().map { i, action in
            if case let .event(name, .simple) = action, let picked = entry.chosen?[i], !picked.isEmpty {
                return .object(JSONObject([("event", .string(name)), ("chosen", object(picked))]))
            }
            switch action {
            case .back: return .string("back")
            case .undo: return .string("undo")
            case let .event(name, values), let .reset(name, values):
                guard let values = values.ordered else { return .string(name) }
                let event = model.event(named: name)
                let keys = model.moves.lazy.flatMap { $0 }.first { $0.event == event }?.addedKeys ?? []
                if keys.contains(where: model.secrets.contains) { return .string(name) }
                return .object(JSONObject([("event", .string(name)), ("values", .array(values.map(JSON.string)))]))
            }
        }
        var members: [(String, JSON)] = []
        if let name = entry.spec { members.append(("spec", .string(name))) }
        if let table = entry.table { members.append(("table", .string(table))) }
        if let variant = entry.variant { members.append(("variant", object(variant))) }
        if let site = entry.site { members.append(("site", .string(site))) }
        if let seed = entry.seed { members.append(("seed", .int(Int(truncatingIfNeeded: seed)))) }
        members.append(("path", .array(steps)))
        if let after = entry.after {
            members.append(("after", .array(after.map { frame in
                .object(JSONObject([("state", .string(frame.state)), ("keys", .array(frame.keys.map(JSON.string))),
                                    ("values", object(frame.values))]))
            })))
        }
        return JSON.object(JSONObject(members)).rendered(pretty: false)
    }

    /// Appends `failure` to the file at `path`, creating it; a last line without its line break gets one first, so the entry is a line of its own.
    package static func append(_ failure: FuzzFailure, model: FlowModel, to path: String) throws {
        var line = self.line(for: failure, model: model) + "\n"
        if let handle = FileHandle(forUpdatingAtPath: path) {
            defer { try? handle.close() }
            let end = try handle.seekToEnd()
            if end > 0 {
                try handle.seek(toOffset: end - 1)
                if try handle.read(upToCount: 1) != Data([0x0A]) { line = "\n" + line }
                try handle.seekToEnd()
            }
            try handle.write(contentsOf: Data(line.utf8))
        } else {
            try Data(line.utf8).write(to: URL(fileURLWithPath: path))
        }
    }
}

/// A regressions file that cannot be read, with the line that is wrong.
package struct RegressionFileError: Error, CustomStringConvertible, Sendable {
    package var file: String
    package var line: Int
    package var message: String
    package var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
