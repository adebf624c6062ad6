import AuthFlow
import Foundation

/// Renders fuzz reports as text and JSON.
public enum FuzzReportRenderer {
    /// The command that replays the failing run: the same seed, enough runs to reach it, the same properties
    /// (a run stops at the first failure among those checked, so another choice can stop it elsewhere).
    public static func replayCommand(spec: String, failure: FuzzFailure, options: FuzzOptions) -> String {
        let spec = ReportRenderer.specArgument(spec)
        if failure.run < 0 { return "\(ReportRenderer.program) fuzz \(spec) --regressions FILE (a saved regression fails)" }
        let properties = (options.properties ?? []).sorted().map { " --property \(ShellText.quoted($0.id))" }.joined()
        return "\(ReportRenderer.program) fuzz \(spec) --seed \(failure.seed) --runs \(failure.run + 1) --max-steps \(options.maxSteps)"
            + properties
    }

    /// The spec's `reachable` rules the run checks: a random path can show a way in, never that there is none,
    /// so a run that finds no failure has not decided them (``FlowChecker`` does).
    static func undecided(_ model: FlowModel, options: FuzzOptions) -> [String] {
        Property.userProperties(of: model).filter { $0.rule?.kind == .reachable && (options.properties?.contains($0) ?? true) }.map(\.id)
    }

    public static func text(_ report: FuzzReport, spec: String, model: FlowModel, options: FuzzOptions, style: TextStyle = .plain) -> String {
        var lines: [String] = []
        let secrets = Set(model.names(of: model.secrets))
        switch report.verdict {
        case .violated:
            let failure = report.failure!
            let where_ = failure.run < 0 ? "saved regression \(-failure.run)" : "run \(failure.run + 1) of \(options.runs), seed \(failure.seed)"
            lines += headline(spec, verdict: "violated", style.bad("violated"), "a random path failed (\(where_))")
            if CounterexampleRenderer.needsLegend([failure.violation]) { lines.append("   \(CounterexampleRenderer.legend)") }
            lines.append("")
            lines.append(CounterexampleRenderer.render(failure.violation, number: 1,
                                                       replay: replayCommand(spec: spec, failure: failure, options: options),
                                                       secrets: secrets, style: style))
            lines += CounterexampleRenderer.wrappedText(
                "\(failure.shrunk.map(\.name).joined(separator: " ")) (\(shortestText(failure)))",
                first: "   shrunk from \(failure.original.count) to \(failure.shrunk.count) steps in \(failure.shrinkReplays) replays: ", rest: "      ")
            if let stop = failure.shrinkStoppedBy {
                lines.append("   shrinking stopped: \(stop); a shorter path may fail too")
            }
        case .incomplete:
            lines += headline(spec, verdict: "incomplete", style.warn("incomplete"),
                              "\(report.stoppedBy.map { "\($0)" } ?? "a limit was reached") after \(report.runs) of \(options.runs) runs")
        default:
            lines += headline(spec, verdict: "holds", style.good("holds"),
                              "\(ReportRenderer.counted(report.runs, "random path")), \(ReportRenderer.counted(report.steps, "step")), no failure (seed \(report.seed))")
        }
        let undecided = undecided(model, options: options)
        if report.verdict != .violated, !undecided.isEmpty {
            lines += CounterexampleRenderer.wrappedText("\(undecided.map(TerminalText.escaped).joined(separator: ", ")) — a reachable rule: "
                + "a random path can show a way in, never that there is none; '\(ReportRenderer.program) check' decides it",
                first: "not decided: ", rest: "   ")
        }
        let c = report.coverage
        lines.append("coverage: states \(c.statesHit)/\(c.statesReachable), transitions \(c.transitionsHit)/\(c.transitionsLive), (state, event) pairs \(c.pairsHit)/\(c.pairsReachable)"
                     + (c.runsToFullCoverage.map { ", all covered after \($0) run\($0 == 1 ? "" : "s")" } ?? ", not all covered"))
        lines.append("stats: \(ReportRenderer.counted(report.runs, "run")), \(ReportRenderer.counted(report.steps, "step")), "
                     + "\(ReportRenderer.counted(report.regressionsReplayed, "regression")) replayed, \(String(format: "%.3f", report.seconds)) s")
        return lines.joined(separator: "\n")
    }

    /// `spec: verdict — what`, on one line when it fits in ``CounterexampleRenderer/lineWidth`` columns, else
    /// `spec: verdict —` with what under it (a long spec path), so the verdict stays beside the spec.
    static func headline(_ spec: String, verdict plain: String, _ styled: String, _ what: String) -> [String] {
        let spec = TerminalText.escaped(spec)
        guard TerminalText.width("\(spec): \(plain) — \(what)") > CounterexampleRenderer.lineWidth else { return ["\(spec): \(styled) — \(what)"] }
        return ["\(spec): \(styled) —"] + CounterexampleRenderer.wrappedText(what, first: "   ", rest: "   ")
    }

    /// Whether the shrunk path is known to be the shortest: `the shortest for its site`, or what is known.
    static func shortestText(_ failure: FuzzFailure) -> String {
        guard let shortest = failure.shortestKnown else { return "no shorter path known" }
        if failure.isKnownShortest { return "the shortest for its site" }
        return "the shortest known for its site is \(shortest) step\(shortest == 1 ? "" : "s")"
    }

    package static func json(_ report: FuzzReport, spec: String, model: FlowModel, options: FuzzOptions) -> JSON {
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
                ("shortestKnown", failure.shortestKnown.map(JSON.int) ?? .null), ("isShortest", .bool(failure.isKnownShortest)),
            ] + (failure.shrinkStoppedBy.map { [("stoppedBy", JSON.string($0.description))] } ?? []) + [
                ("path", .array(failure.shrunk.map { .string($0.name) })),
                ("replay", .string(replayCommand(spec: spec, failure: failure, options: options))),
            ]))))
        }
        let undecided = undecided(model, options: options)
        if report.verdict != .violated, !undecided.isEmpty {
            members.append(("undecided", .array(undecided.map(JSON.string))))
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
