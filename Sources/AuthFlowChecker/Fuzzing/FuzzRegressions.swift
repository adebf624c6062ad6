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

    /// Reads every saved path; a missing file is an empty list.
    /// - Throws: ``RegressionFileError`` naming the line that cannot be read.
    package static func read(_ path: String) throws(RegressionFileError) -> [Entry] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RegressionFileError(file: path, line: 0, message: "cannot be read")
        }
        var paths: [Entry] = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let node: JSONNode
            do {
                node = try JSONParser.parse(Array(text.utf8))
            } catch {
                throw RegressionFileError(file: path, line: number + 1, message: "malformed JSON at column \(error.location.column): \(error.message)")
            }
            guard case let .array(steps)? = node["path"]?.value else {
                throw RegressionFileError(file: path, line: number + 1, message: "expected an object with a \"path\" array")
            }
            var actions: [FuzzAction] = []
            for step in steps {
                switch step.value {
                case .string("back"):
                    actions.append(.back)
                case let .string(event):
                    actions.append(.event(event, values: nil))
                case .object:
                    guard case let .string(event)? = step["event"]?.value else {
                        throw RegressionFileError(file: path, line: number + 1, message: "a step object needs an \"event\" string")
                    }
                    var values: [String]?
                    if case let .array(list)? = step["values"]?.value {
                        values = list.compactMap { if case let .string(text) = $0.value { return text } else { return nil } }
                    }
                    actions.append(.event(event, values: values))
                default:
                    throw RegressionFileError(file: path, line: number + 1, message: "a step is an event name, \"back\", or {\"event\", \"values\"}")
                }
            }
            func field(_ key: String) -> String? { if case let .string(value)? = node[key]?.value { return value } else { return nil } }
            paths.append(Entry(line: number + 1, spec: field("spec"), table: field("table"), actions: actions))
        }
        return paths
    }

    /// The line that saves `failure` (secret values are never saved: such steps keep simple values).
    package static func line(for failure: FuzzFailure, model: FlowModel) -> String {
        let steps: [JSON] = failure.shrunk.map { action in
            switch action {
            case .back: return .string("back")
            case let .event(name, nil): return .string(name)
            case let .event(name, values?):
                let event = model.event(named: name)
                let keys = model.moves.lazy.flatMap { $0 }.first { $0.event == event }?.addedKeys ?? []
                if keys.contains(where: model.secrets.contains) { return .string(name) }
                return .object(JSONObject([("event", .string(name)), ("values", .array(values.map(JSON.string)))]))
            }
        }
        var members: [(String, JSON)] = []
        if let name = model.name { members.append(("spec", .string(name))) }
        members.append(("table", .string(model.tableHash)))
        return JSON.object(JSONObject(members + [("site", .string(failure.site.description)), ("seed", .int(Int(truncatingIfNeeded: failure.seed))),
                                               ("path", .array(steps))])).rendered(pretty: false)
    }

    /// Appends `failure` to the file at `path`, creating it.
    package static func append(_ failure: FuzzFailure, model: FlowModel, to path: String) throws {
        let line = self.line(for: failure, model: model) + "\n"
        if let handle = FileHandle(forWritingAtPath: path) {
            defer { try? handle.close() }
            try handle.seekToEnd()
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
