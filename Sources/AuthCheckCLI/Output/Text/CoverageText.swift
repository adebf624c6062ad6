import AuthFlow
import AuthFlowChecker

/// Renders a ``CoverageReport`` as tables for people: unreachable states and dead transitions first.
enum CoverageText {
    static func render(_ report: CoverageReport, style: TextStyle = .plain) -> String {
        let coverage = report.coverage
        // Each filtered once: asked per row of the tables, they made a star of 20,000 leaves take minutes.
        let unreachable = report.unreachable
        let dead = report.dead
        let reachable = coverage.states.count - unreachable.count
        let fired = coverage.transitions.count - dead.count
        var lines: [String] = []
        lines.append("\(TerminalText.escaped(report.spec)): coverage at depth \(coverage.depth): \(reachable) of \(coverage.states.count) states \(coverage.stoppedBy == nil ? "reachable" : "reached"), \(fired) of \(coverage.transitions.count) transitions fired")
        let unreachableText = unreachable.isEmpty ? "none" : style.warn(unreachable.map(\.name).joined(separator: ", "))
        let deadText = dead.isEmpty ? "none" : style.warn(dead.map(\.id).joined(separator: ", "))
        if let stop = coverage.stoppedBy {
            // The search stopped early: what it did not reach may still be reachable.
            lines.append("stopped: \(stop); the counts are lower bounds")
            lines.append("states not reached before the stop: \(unreachableText)")
            lines.append("transitions not fired before the stop: \(deadText)")
        } else {
            lines.append("unreachable states: \(unreachableText)")
            lines.append("dead transitions: \(deadText)")
            if let stop = report.check.stoppedBy { lines.append("stopped: \(stop)") }
        }
        if coverage.saturated {
            lines.append("note: some counts reached \(Int.max) and stopped growing")
        }

        // States: unreachable first, then declaration order.
        let violations = report.violationsByState
        let states = unreachable + coverage.states.filter(\.reachable)
        var stateRows: [[String]] = [["state", "role", "reachable", "configurations", "stacks", "violations"]]
        for state in states {
            stateRows.append([
                state.name, state.role, state.reachable ? "yes" : coverage.stoppedBy == nil ? "no" : "not reached",
                String(state.configurations), count(state.stacks),
                (violations[state.name] ?? []).map(CoverageReport.label).joined(separator: ", "),
            ])
        }
        stateRows.append(["total", "", "\(reachable) of \(coverage.states.count)", String(coverage.configurations), count(coverage.stacks), ""])
        lines.append("")
        lines += table(stateRows, rightAligned: [3, 4], style: style) { row in
            if row == 0 { return nil }
            if row <= unreachable.count { return .warn }
            if row < stateRows.count - 1, !stateRows[row][5].isEmpty { return .bad }
            return nil
        }

        // Transitions: dead first, then table order.
        let transitions = dead + coverage.transitions.filter(\.fired)
        var transitionRows: [[String]] = [["transition", "fired", "stacks"]]
        for transition in transitions {
            transitionRows.append(["\(transition.from) --\(transition.label)--> \(transition.to)",
                                   transition.fired ? "yes" : coverage.stoppedBy == nil ? "dead" : "not fired", count(transition.stacks)])
        }
        // Every count saturates at Int.max, the total too: a wrapping sum printed -110 for a complete graph at depth 64.
        let transitionStacks = coverage.transitions.reduce(0) { total, transition in
            let (sum, overflow) = total.addingReportingOverflow(transition.stacks)
            return overflow ? Int.max : sum
        }
        transitionRows.append(["total", "\(fired) of \(coverage.transitions.count)", count(transitionStacks)])
        lines.append("")
        lines += table(transitionRows, rightAligned: [2], style: style) { row in
            row > 0 && row <= dead.count ? .warn : nil
        }

        if !coverage.variants.isEmpty {
            // authflow/2 with config: what each variant's own root reaches, then the whole.
            var variantRows: [[String]] = [["variant", "states", "transitions", "configurations", "stacks"]]
            for variant in coverage.variants {
                variantRows.append([variant.name, String(variant.statesReached), String(variant.transitionsFired),
                                    String(variant.configurations), count(variant.stacks)])
            }
            variantRows.append(["all variants", String(reachable), String(fired), String(coverage.configurations), count(coverage.stacks)])
            lines.append("")
            lines += table(variantRows, rightAligned: [1, 2, 3, 4], style: style) { _ in nil }
        }
        if coverage.transitions.contains(where: { $0.bySystem || $0.reset || $0.condition != nil || $0.offeredWhen != nil }) {
            lines.append("")
            lines.append("⚙: the system's answer, not the user's; ⟲: starts the flow again; if G: offered when G holds; [G]: taken when G holds.")
        }
        lines.append("")
        lines.append("configurations: reachable (state, data keys) pairs of the state.")
        lines.append("stacks: undo stacks of at most \(coverage.depth) events whose top frame is in the state,")
        lines.append("or that the transition pushed (every stack but the start is pushed by one transition).")
        switch report.check.verdict {
        case .holds:
            lines.append("verdict: \(style.good("holds"))")
        case .violated:
            let count = report.check.violations.count
            if count > 0 {
                lines.append("verdict: \(style.bad("violated")): \(count) violation\(count == 1 ? "" : "s"); 'authcheck explore \(ReportRenderer.specArgument(report.spec))' shows the counterexamples")
            } else {
                lines.append("verdict: \(style.bad("violated")): lint findings under --strict")
            }
        case .incomplete:
            lines.append("verdict: \(style.warn("incomplete"))")
        case .invalid:
            lines.append("verdict: invalid")
        }
        return lines.joined(separator: "\n")
    }

    /// A stack count as the tables print it: one that reached `Int.max` and stopped growing (saturated) as `≥ 9223372036854775807`.
    static func count(_ stacks: Int) -> String {
        stacks == Int.max ? "≥ \(Int.max)" : String(stacks)
    }

    /// Lays out `rows` in columns two spaces apart, the first row a header, the last a total.
    /// How a row is highlighted.
    enum Tone { case warn, bad }

    static func table(_ rows: [[String]], rightAligned: Set<Int>, style: TextStyle,
                      tone: (Int) -> Tone?) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        return rows.enumerated().map { index, row in
            let cells = row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }
            var line = "  " + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            if index == 0 { return style.dim(line) }
            switch tone(index) {
            case .warn?: return style.warn(line)
            case .bad?: return style.bad(line)
            case nil: return line
            }
        }
    }
}
