import AuthFlow
import Foundation

/// The regressions file: failing paths saved as readable event paths, replayed before any random run.
///
/// One JSON object per line: `{"site": "unmet-requirement@authenticated", "seed": 1, "path": ["startAuth", "knownEmail", "back"]}`.
/// The path is what a person reads and edits; values are not saved (replay uses simple values,
/// so a path that needs particular values is saved with them as `{"event": "e", "values": ["…"]}`).
package enum FuzzRegressions {
    /// Reads every saved path; a missing file is an empty list.
    /// - Throws: ``InvalidSpecError``-style errors as ``RegressionFileError`` naming the line.
    package static func read(_ path: String) throws(RegressionFileError) -> [[FuzzAction]] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RegressionFileError(file: path, line: 0, message: "cannot be read")
        }
        var paths: [[FuzzAction]] = []
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
            paths.append(actions)
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
        return JSON.object(JSONObject([("site", .string(failure.site.description)), ("seed", .int(Int(truncatingIfNeeded: failure.seed))),
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
