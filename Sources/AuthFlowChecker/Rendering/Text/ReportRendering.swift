import AuthFlow
import Foundation

/// Renders ``CheckReport``s as text for people and as the contract's JSON for CI.
public enum ReportRenderer {
    /// How reports name a spec read from standard input (`authcheck check -`).
    public static let standardInputName = "<stdin>"

    /// How printed command lines start: `authcheck`, or the command the run was started by.
    ///
    /// The command plugin runs the tool as `swift package authcheck`, where no `authcheck` is on
    /// `PATH`; it sets this (through the tool's `AUTHCHECK_INVOKED_AS`) so a replay line runs as printed.
    @TaskLocal public static var program = "authcheck"

    /// The command line that replays `violation` of `report`; `-` for a spec read from standard input.
    public static func replayCommand(for violation: Violation, in report: CheckReport) -> String {
        let spec = specArgument(report.spec)
        // The complete check decides what no one path shows: the passcode, a `reachable` no configuration satisfies;
        // and it alone decides assurance levels over every configuration (the exhaustive walk does not).
        // So does a path that goes back (section 5's server-side keys): the exhaustive walk drives stacks of forward moves.
        if violation.property == .passcode || violation.property == .assurance || violation.state == nil
            || (violation.property != .undoMismatch && violation.property != .divergence
                && violation.path.dropFirst().contains(where: { $0.step?.isBack == true })) {
            return "\(program) check \(spec) --property \(ShellText.quoted(violation.property.id))"
        }
        return "\(program) explore \(spec) --property \(ShellText.quoted(violation.property.id)) --depth \(report.stats.depth)"
    }

    /// The report as text: a verdict line, each violation as a numbered counterexample, lint, stats.
    public static func text(_ report: CheckReport, style: TextStyle = .plain) -> String {
        var lines: [String] = []
        switch report.verdict {
        case .invalid:
            // A file that cannot be read is one plain line: `spec.json: invalid — no such file`.
            if let issues = report.error?.issues, issues.count == 1, issues[0].isWholeFile {
                return "\(TerminalText.escaped(report.spec)): \(style.bad("invalid")) — \(TerminalText.escaped(issues[0].message))"
            }
            lines.append("\(TerminalText.escaped(report.spec)): \(style.bad("invalid")) — \(report.error?.issues.count ?? 0) problem\(report.error?.issues.count == 1 ? "" : "s")")
            for issue in report.error?.issues ?? [] {
                lines.append("   \(TerminalText.escapedKeepingLines("\(issue)"))")
            }
            return lines.joined(separator: "\n")
        case .holds:
            lines.append("\(TerminalText.escaped(report.spec)): \(style.good("holds")) — \(summary(report.stats))")
        case .violated:
            let count = report.violations.count
            let what = count > 0 ? "\(count) violation\(count == 1 ? "" : "s")" : "lint findings under --strict"
            lines.append("\(TerminalText.escaped(report.spec)): \(style.bad("violated")) — \(what)")
        case .incomplete:
            lines.append("\(TerminalText.escaped(report.spec)): \(style.warn("incomplete")) — \(report.stoppedBy.map { "\($0)" } ?? "a limit was reached") before the check was complete")
        }
        for warning in report.warnings { lines += CounterexampleRenderer.wrappedText("\(warning)", first: "   warning: ", rest: "      ") }
        if CounterexampleRenderer.needsLegend(report.violations) { lines.append("   \(CounterexampleRenderer.legend)") }
        for (i, violation) in report.violations.enumerated() {
            lines.append("")
            lines.append(CounterexampleRenderer.render(violation, number: i + 1, replay: replayCommand(for: violation, in: report),
                                                       secrets: report.secrets, style: style))
        }
        let cut = report.violations.filter { $0.cutLength != nil }.count
        if cut > 0 {
            lines.append("")
            lines.append("note: \(counted(cut, "path")) not shown (\(CounterexampleRenderer.cutNote)); "
                         + "fix the violations shown, or check one property with --property ID, to see the rest")
        }
        if !report.lint.isEmpty {
            if !report.violations.isEmpty { lines.append("") }
            let prefix = report.strict ? "lint (fails under --strict)" : "lint"
            lines += report.lint.lines.map { "\(prefix): \($0)" }
        }
        // Section 6: every way into each protected screen (a spec without its keys has none).
        if let waysIn = report.waysIn {
            lines.append("")
            lines += waysInLines(waysIn, style: style)
        }
        if report.verdict != .holds {
            if !report.violations.isEmpty || !report.lint.isEmpty || report.waysIn != nil { lines.append("") }
            if let stop = report.stoppedBy, report.verdict == .violated { lines.append("stopped: \(stop)") }
            lines.append("stats: \(summary(report.stats, stopped: report.stoppedBy != nil))")
        }
        return lines.joined(separator: "\n")
    }

    /// `7 states, 10 configurations, 136 stacks at depth 12, 0.004 s (34.0 k stacks/s)`; no rate when no time was
    /// measured, nor when a limit stopped the run (a rate over work it did not finish says nothing), nor when the
    /// stacks were counted from the model rather than driven (`136 stacks at depth 12 counted, not driven`).
    public static func summary(_ stats: Stats, stopped: Bool = false) -> String {
        let stacks = "\(counted(stats.stacks, "stack")) at depth \(stats.depth)" + (stats.stacksCounted ? " counted, not driven" : "")
        return "\(counted(stats.states, "state")), \(counted(stats.configurations, "configuration")), \(stacks), \(seconds(stats.seconds)) s"
            + (stats.seconds > 0 && !stopped && !stats.stacksCounted ? " (\(rate(stats.rate)) stacks/s)" : "")
    }

    /// `2.40 M`, `310.5 k` or `812`: a rate as people read it.
    public static func rate(_ value: Double) -> String {
        if value >= 1e6 { return String(format: "%.2f M", value / 1e6) }
        if value >= 1e3 { return String(format: "%.1f k", value / 1e3) }
        return String(format: "%.0f", value)
    }

    public static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// The report as the contract's JSON object (key order fixed).
    package static func json(_ report: CheckReport) -> JSON {
        var members: [(String, JSON)] = [("spec", .string(report.spec)), ("verdict", .string(report.verdict.rawValue))]
        if report.verdict == .invalid {
            let first = report.error?.issues.first
            var error: [(String, JSON)] = [("message", .string(first.map { $0.isWholeFile ? $0.message : "\($0.path): \($0.message)" } ?? "invalid spec"))]
            error.append(("line", first?.location.map { .int($0.line) } ?? .null))
            error.append(("column", first?.location.map { .int($0.column) } ?? .null))
            error.append(("path", first.map { .string($0.path) } ?? .null))
            error.append(("issues", .array((report.error?.issues ?? []).map { issue in
                .object(JSONObject([
                    ("path", .string(issue.path)), ("line", issue.location.map { .int($0.line) } ?? .null),
                    ("column", issue.location.map { .int($0.column) } ?? .null), ("message", .string(issue.message)),
                ]))
            })))
            members.append(("error", .object(JSONObject(error))))
            return .object(JSONObject(members))
        }
        members.append(("violations", .array(report.violations.map { violationJSON($0, secrets: report.secrets) })))
        // The authflow/2 findings appear when there are some, so a /1 report keeps its three keys.
        var lint: [(String, JSON)] = [
            ("unreachable", .array(report.lint.unreachable.map(JSON.string))),
            ("deadTransitions", .array(report.lint.deadTransitions.map(JSON.string))),
            ("unusedData", .array(report.lint.unusedData.map(JSON.string))),
        ]
        for (key, list) in [("waitsOnSystem", report.lint.waitsOnSystem), ("shadowedRows", report.lint.shadowedRows),
                            ("overriddenAnywhere", report.lint.overriddenAnywhere)] where !list.isEmpty {
            lint.append((key, .array(list.map(JSON.string))))
        }
        members.append(("lint", .object(JSONObject(lint))))
        // Spec warnings (settings ignored, duplicate rows, rows whose event is never emitted) appear when there are some.
        if !report.warnings.isEmpty {
            members.append(("warnings", .array(report.warnings.map { warning in
                .object(JSONObject([
                    ("path", .string(warning.path)), ("line", warning.location.map { .int($0.line) } ?? .null),
                    ("column", warning.location.map { .int($0.column) } ?? .null), ("message", .string(warning.message)),
                ]))
            })))
        }
        if let waysIn = report.waysIn { members.append(("waysIn", waysInJSON(waysIn))) }
        var stats: [(String, JSON)] = [
            ("states", .int(report.stats.states)), ("configurations", .int(report.stats.configurations)),
            ("depth", .int(report.stats.depth)), ("stacks", .int(report.stats.stacks)),
            ("seconds", .double((report.stats.seconds * 1000).rounded() / 1000)),
        ]
        if let stop = report.stoppedBy { stats.append(("stoppedBy", .string(stop.description))) }
        members.append(("stats", .object(JSONObject(stats))))
        return .object(JSONObject(members))
    }

    /// One violation as the contract's JSON object: `values` on each step of a path that has them
    /// (runtime paths, `authflow/2` flows with valued keys or counters), `variant` for an `authflow/2` flow,
    /// and for a violated `reachable` (`state` null, no path) `variants`, those where nothing satisfies it.
    package static func violationJSON(_ violation: Violation, secrets: Set<String>) -> JSON {
        var members: [(String, JSON)] = [
            ("property", .string(violation.property.id)),
            ("state", violation.state.map(JSON.string) ?? .null),
            ("event", violation.event.map(JSON.string) ?? .null),
            ("message", .string(violation.message)),
        ]
        if let variant = violation.variant {
            members.append(("variant", .object(JSONObject(variant.map { ($0.key, JSON.string($0.value)) }))))
        }
        // A violated `reachable` has no one path, so no one variant: the variants where nothing satisfies it.
        if let variants = violation.unsatisfiedIn {
            members.append(("variants", .array(variants.map { variant in .object(JSONObject(variant.map { ($0.key, JSON.string($0.value)) })) })))
        }
        // A path left out to keep the report bounded: its length, and that it was cut.
        if let cut = violation.cutLength {
            members.append(("length", .int(cut)))
            members.append(("pathCut", .bool(true)))
        }
        members.append(("path", .array(violation.path.map { step in
            var members: [(String, JSON)] = [
                ("event", step.event.map(JSON.string) ?? .null),
                ("state", .string(step.state)),
                ("data", .array(step.data.map(JSON.string))),
            ]
            if let values = step.values {
                // A key with no value (an authflow/2 presence key) is listed in data alone.
                members.append(("values", .object(JSONObject(step.data.compactMap { key in
                    values[key].map { (key, JSON.string(secrets.contains(key) ? FlowReport.redacted : $0)) }
                }))))
            }
            return .object(JSONObject(members))
        })))
        return .object(JSONObject(members))
    }

    /// The spec named `spec` as a command line gives it: `-` for one read from standard input, else its path, quoted for a shell.
    public static func specArgument(_ spec: String) -> String {
        spec == standardInputName ? "-" : ShellText.quoted(spec, file: true)
    }

    /// Quotes `text` for a shell when it needs it: see ``ShellText/quoted(_:file:)``.
    public static func shellQuoted(_ text: String) -> String {
        ShellText.quoted(text)
    }
}
