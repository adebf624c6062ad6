import AuthFlow
import AuthFlowChecker
import Foundation

/// Renders a ``TraceReport`` for people: the verdict, each finding at its line, records not read, then the funnel.
enum TracesText {
    static func render(_ report: TraceReport, strict: Bool, style: TextStyle = .plain) -> String {
        var lines: [String] = []
        let sessions = report.sessions
        let inputs = report.files.map { $0 == "-" ? ReportRenderer.standardInputName : $0 }
        let read = "\(counted(report.records, "record")) in \(inputs.joined(separator: ", "))"
        if report.violated {
            lines.append("\(TerminalText.escaped(report.spec)): \(style.bad("violated")) — \(grouped(sessions.broken)) of \(counted(sessions.total, "session")) "
                         + "\(sessions.broken == 1 ? "breaks" : "break") the spec (\(read))")
        } else if exitStatus(report, strict: strict) != 0 {
            lines.append("\(TerminalText.escaped(report.spec)): \(style.bad("violated")) — no session breaks the spec, but \(counted(report.problemTotal, "record"))"
                         + " could not be read or \(report.problemTotal == 1 ? "was" : "were") out of place, under --strict "
                         + "(\(counted(sessions.total, "session")), \(read))")
        } else {
            lines.append("\(TerminalText.escaped(report.spec)): \(style.good("holds")) — no session breaks the spec (\(counted(sessions.total, "session")), \(read))")
        }

        if !report.findings.isEmpty {
            lines.append("")
            for (i, finding) in report.findings.enumerated() {
                let on = finding.event.map { " on \($0)" } ?? ""
                lines.append("\(i + 1)) \(TerminalText.escaped(finding.file)):\(finding.line)  session \(finding.session)  "
                             + style.bad("\(finding.property.rawValue)") + " at \(finding.state)\(on)")
                lines.append("   \(finding.message)")
            }
            let unlisted = report.findingTotal - report.findings.count
            if unlisted > 0 {
                lines.append("… and \(counted(unlisted, "more finding")) (\(countsByProperty(report))); --max-listed N lists more")
            }
        }

        if report.problemTotal > 0 {
            lines.append("")
            lines.append(style.warn("records not read or out of place: \(grouped(report.problemTotal))") + " (" + problemCounts(report) + ")")
            for problem in report.problems {
                lines.append("  \(TerminalText.escaped(problem.file)):\(problem.line)  \(problem.kind.rawValue): \(problem.message)")
            }
            let unlisted = report.problemTotal - report.problems.count
            if unlisted > 0 { lines.append("  … and \(grouped(unlisted)) more") }
        }

        lines.append("")
        let ended = ["\(grouped(sessions.succeeded)) signed in", "\(grouped(sessions.aborted)) gave up", "\(grouped(sessions.abandoned)) left part way"]
        lines.append("sessions: \(grouped(sessions.total)): " + ended.joined(separator: ", ")
                     + (sessions.broken > 0 ? "; \(grouped(sessions.broken)) broke the spec" : ""))
        for note in report.skipped { lines.append("skipped: \(note)") }

        // The funnel: per state, then per declared transition.
        lines.append("")
        lines.append("funnel by state (sessions that entered it; dropped: sessions that ended there, not signed in or out):")
        var stateRows: [[String]] = [["state", "role", "sessions", "entries", "exits", "backs", "refused", "dropped", "drop %", "ended"]]
        for state in report.states {
            // A terminal state ends sessions rather than dropping them.
            let terminal = state.isSuccess || state.isAbort
            stateRows.append([
                state.name, role(state), grouped(state.sessions), grouped(state.entries), grouped(state.exits), grouped(state.backs),
                grouped(state.rejections), terminal ? "" : grouped(state.dropped),
                terminal || state.sessions == 0 ? "" : percent(state.dropRate), terminal ? grouped(state.completed) : "",
            ])
        }
        let dropOrder = report.states.indices.sorted { report.states[$0].dropped > report.states[$1].dropped }
        let worst = dropOrder.first.flatMap { report.states[$0].dropped > 0 ? $0 + 1 : nil }
        lines += CoverageText.table(stateRows, rightAligned: [2, 3, 4, 5, 6, 7, 8, 9], style: style) { row in
            row == worst ? .warn : nil
        }
        lines.append("")
        lines.append("transitions (model: fired when the spec reaches it, dead when it never can):")
        var transitionRows: [[String]] = [["transition", "model", "taken"]]
        for transition in report.transitions {
            transitionRows.append(["\(transition.from) --\(transition.event)--> \(transition.to)",
                                   transition.fired ? "fired" : "dead", grouped(transition.taken)])
        }
        transitionRows.append(["total", "", grouped(report.transitions.reduce(0) { $0 + $1.taken })])
        lines += CoverageText.table(transitionRows, rightAligned: [2], style: style) { row in
            row > 0 && row <= report.transitions.count && report.transitions[row - 1].fired && report.transitions[row - 1].taken == 0 ? .warn : nil
        }
        // Each as its row, as the table shows it: two guarded rows of one state and event differ only in where they go.
        let neverTaken = report.neverTaken
        if neverTaken.isEmpty {
            lines.append("never taken, though the spec reaches them: none")
        } else {
            lines.append("never taken, though the spec reaches them (\(neverTaken.count)):")
            lines += neverTaken.map { "  " + style.warn("\($0.from) --\($0.event)--> \($0.to)") }
        }
        if !report.offSpec.isEmpty {
            lines.append("taken though the spec has no such move: "
                         + style.bad(report.offSpec.map { "\($0.from) --\($0.event)--> \($0.to) (\(grouped($0.count)))" }.joined(separator: ", ")))
        }

        lines.append("")
        let status = exitStatus(report, strict: strict)
        switch status {
        case 0: lines.append("verdict: \(style.good("holds"))")
        default:
            lines.append("verdict: \(style.bad("violated"))" + (report.violated ? "" : ": records not read or out of place, under --strict"))
        }
        lines.append("stats: \(counted(report.lines, "line")), \(counted(report.records, "record")), \(counted(sessions.total, "session")) "
                     + "(at most \(grouped(sessions.peakOpen)) open at once), \(String(format: "%.3f", report.seconds)) s")
        return lines.joined(separator: "\n")
    }

    /// 1 when a session broke the spec (or, under `strict`, a record could not be read or was out of place); else 0.
    static func exitStatus(_ report: TraceReport, strict: Bool) -> Int32 {
        report.violated || (strict && report.problemTotal > 0) ? 1 : 0
    }

    static func role(_ state: TraceReport.StateFunnel) -> String {
        var roles: [String] = []
        if state.isInitial { roles.append("initial") }
        if state.isSuccess { roles.append("success") }
        if state.isAbort { roles.append("abort") }
        if !state.reachable { roles.append("unreachable") }
        return roles.joined(separator: ", ")
    }

    static func countsByProperty(_ report: TraceReport) -> String {
        TraceReport.Property.allCases.compactMap { property in
            report.findingCounts[property].map { "\(grouped($0)) \(property.rawValue)" }
        }.joined(separator: ", ")
    }

    static func problemCounts(_ report: TraceReport) -> String {
        TraceReport.ProblemKind.allCases.compactMap { kind in
            report.problemCounts[kind].map { "\(grouped($0)) \(kind.rawValue)" }
        }.joined(separator: ", ")
    }

    static func percent(_ rate: Double) -> String { String(format: "%.1f%%", rate * 100) }

    static func grouped(_ value: Int) -> String { ProgressLine.grouped(value) }

    static func counted(_ value: Int, _ noun: String) -> String { "\(grouped(value)) \(noun)\(value == 1 ? "" : "s")" }
}
