import AuthFlow
import Foundation

/// The regressions file: failing paths saved as readable event paths, replayed before any random run.
///
/// One JSON object per line: `{"site": "unmet-requirement@authenticated", "seed": 1, "path": ["startAuth", "knownEmail", "back"]}`.
/// The path is what a person reads and edits; values are not saved (replay uses simple values,
/// so a path that needs particular values is saved with them as `{"event": "e", "values": ["…"]}`).
public enum FuzzRegressions {
    /// Reads every saved path; a missing file is an empty list.
    /// - Throws: ``InvalidSpecError``-style errors as ``RegressionFileError`` naming the line.
    public static func read(_ path: String) throws(RegressionFileError) -> [[FuzzAction]] {
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
    public static func line(for failure: FuzzFailure, model: FlowModel) -> String {
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
    public static func append(_ failure: FuzzFailure, model: FlowModel, to path: String) throws {
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
public struct RegressionFileError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// Renders fuzz reports as text and JSON.
public enum FuzzReportRenderer {
    /// The command that replays the failing run: the same seed, enough runs to reach it.
    public static func replayCommand(spec: String, failure: FuzzFailure, options: FuzzOptions) -> String {
        if failure.run < 0 { return "authcheck fuzz \(ReportRenderer.shellQuoted(spec)) --regressions FILE (a saved regression fails)" }
        return "authcheck fuzz \(ReportRenderer.shellQuoted(spec)) --seed \(failure.seed) --runs \(failure.run + 1) --max-steps \(options.maxSteps)"
    }

    public static func text(_ report: FuzzReport, spec: String, model: FlowModel, options: FuzzOptions, style: TextStyle = .plain) -> String {
        var lines: [String] = []
        let secrets = Set(model.names(of: model.secrets))
        switch report.verdict {
        case .violated:
            let failure = report.failure!
            let where_ = failure.run < 0 ? "saved regression \(-failure.run)" : "run \(failure.run + 1) of \(options.runs), seed \(failure.seed)"
            lines.append("\(spec): \(style.bad("violated")) — a random path failed (\(where_))")
            lines.append("")
            lines.append(CounterexampleRenderer.render(failure.violation, number: 1,
                                                       replay: replayCommand(spec: spec, failure: failure, options: options),
                                                       secrets: secrets, style: style))
            lines.append("   shrunk from \(failure.original.count) to \(failure.shrunk.count) steps in \(failure.shrinkReplays) replays: \(failure.shrunk.map(\.name).joined(separator: " "))")
        case .incomplete:
            lines.append("\(spec): \(style.warn("incomplete")) — \(report.stoppedBy.map { "\($0)" } ?? "a limit was reached") after \(report.runs) of \(options.runs) runs")
        default:
            lines.append("\(spec): \(style.good("holds")) — \(ReportRenderer.counted(report.runs, "random path")), \(ReportRenderer.counted(report.steps, "step")), no failure (seed \(report.seed))")
        }
        let c = report.coverage
        lines.append("coverage: states \(c.statesHit)/\(c.statesReachable), transitions \(c.transitionsHit)/\(c.transitionsLive), (state, event) pairs \(c.pairsHit)/\(c.pairsReachable)"
                     + (c.runsToFullCoverage.map { ", all covered after \($0) run\($0 == 1 ? "" : "s")" } ?? ", not all covered"))
        lines.append("stats: \(ReportRenderer.counted(report.runs, "run")), \(ReportRenderer.counted(report.steps, "step")), "
                     + "\(ReportRenderer.counted(report.regressionsReplayed, "regression")) replayed, \(String(format: "%.3f", report.seconds)) s")
        return lines.joined(separator: "\n")
    }

    public static func json(_ report: FuzzReport, spec: String, model: FlowModel, options: FuzzOptions) -> JSON {
        let secrets = Set(model.names(of: model.secrets))
        var members: [(String, JSON)] = [
            ("spec", .string(spec)), ("verdict", .string(report.verdict.rawValue)),
            ("seed", .int(Int(truncatingIfNeeded: report.seed))),
            ("violations", .array(report.failure.map { [ReportRenderer.violationJSON($0.violation, secrets: secrets)] } ?? [])),
        ]
        if let failure = report.failure {
            members.append(("shrink", .object(JSONObject([
                ("run", .int(failure.run)), ("originalLength", .int(failure.original.count)),
                ("shrunkLength", .int(failure.shrunk.count)), ("replays", .int(failure.shrinkReplays)),
                ("path", .array(failure.shrunk.map { .string($0.name) })),
                ("replay", .string(replayCommand(spec: spec, failure: failure, options: options))),
            ]))))
        }
        let c = report.coverage
        members.append(("coverage", .object(JSONObject([
            ("states", .int(c.statesHit)), ("statesReachable", .int(c.statesReachable)),
            ("transitions", .int(c.transitionsHit)), ("transitionsLive", .int(c.transitionsLive)),
            ("pairs", .int(c.pairsHit)), ("pairsReachable", .int(c.pairsReachable)),
            ("runsToFullCoverage", c.runsToFullCoverage.map(JSON.int) ?? .null),
        ]))))
        var stats: [(String, JSON)] = [("runs", .int(report.runs)), ("steps", .int(report.steps)),
                                       ("regressions", .int(report.regressionsReplayed)),
                                       ("seconds", .double((report.seconds * 1000).rounded() / 1000))]
        if let stop = report.stoppedBy { stats.append(("stoppedBy", .string(stop.description))) }
        members.append(("stats", .object(JSONObject(stats))))
        return .object(JSONObject(members))
    }
}
