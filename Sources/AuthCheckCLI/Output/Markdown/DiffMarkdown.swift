import AuthFlow
import AuthFlowChecker

/// Renders a ``FlowDiffReport`` as GitHub Markdown, ready to post as a pull-request comment.
///
/// A heading with the verdict, then one table row per difference (the variant, the site, the
/// user's steps, old against new), then the property changes as a list. Every name comes from a
/// spec the change's author wrote, so each is escaped: control characters as `\u{…}`, the
/// characters Markdown reads as markup behind a backslash or as an entity, `|` so it cannot end
/// a cell, and `@` so a state named after a team mentions nobody.
enum DiffMarkdown {
    static func render(_ report: FlowDiffReport, old: String, new: String) -> String {
        var lines: [String] = []
        let changes = report.properties
        if report.identical {
            let verdict = report.stoppedBy == nil ? "identical" : "incomplete"
            lines.append("### authcheck diff: \(verdict)")
            lines.append("")
            lines.append(names(old, new))
            lines.append("")
            if let stop = report.stoppedBy {
                lines.append("\(escaped(stop.description)) before the comparison was complete; no difference found in "
                             + ReportRenderer.counted(report.pairs, "place") + " compared.")
            } else {
                lines.append("The same behaviour in " + ReportRenderer.counted(report.pairs, "place") + " compared" + DiffText.bound(report) + ".")
            }
            return lines.joined(separator: "\n")
        }
        var parts: [String] = []
        if !report.differences.isEmpty { parts.append(ReportRenderer.counted(report.differences.count, "difference")) }
        if !changes.new.isEmpty { parts.append(ReportRenderer.counted(changes.new.count, "new violation")) }
        if !changes.fixed.isEmpty { parts.append("\(changes.fixed.count) fixed") }
        lines.append("### authcheck diff: different — " + parts.joined(separator: ", ") + DiffText.bound(report))
        lines.append("")
        lines.append(names(old, new))
        if let stop = report.stoppedBy {
            lines.append("")
            lines.append("**Incomplete:** \(escaped(stop.description)); more differences may exist.")
        }
        if !report.differences.isEmpty {
            let variants = report.differences.contains { !$0.variant.isEmpty }
            lines.append("")
            lines.append("| # | difference |" + (variants ? " variant |" : "") + " the user's steps | old | new |")
            lines.append("|---|---|" + (variants ? "---|" : "") + "---|---|---|")
            for (i, difference) in report.differences.enumerated() {
                var cells = ["\(i + 1)", "`\(difference.kind.rawValue)` " + cell(DiffText.site(difference))]
                if variants {
                    cells.append(cell(difference.variant.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")))
                }
                let steps = difference.path.map { "\($0.event)\(DiffText.chosen($0.chosen)) → \($0.state)" }.joined(separator: ", ")
                cells.append(difference.path.isEmpty ? (difference.state == nil ? "—" : "none (at the start)") : cell(steps))
                cells.append(cell(DiffText.result(difference.old)))
                cells.append(cell(DiffText.result(difference.new)))
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        let list = DiffText.propertyLines(changes)
        if !list.isEmpty {
            lines.append("")
            lines.append("**Property changes**")
            lines.append("")
            lines += list.map { "- " + escaped($0.label) + ": " + $0.items.map(escaped).joined(separator: ", ") }
        }
        return lines.joined(separator: "\n")
    }

    /// The report of an invalid input as a comment: a heading, then the report in a fence no line of it can close.
    static func invalid(_ text: String) -> String {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return ["### authcheck diff: invalid input", "", fence + "text", text, fence].joined(separator: "\n")
    }

    /// `` old.json → new.json `` in words that cannot break the comment.
    static func names(_ old: String, _ new: String) -> String {
        "Comparing " + escaped(old) + " → " + escaped(new) + "."
    }

    /// `text` in a table cell: escaped, its pipes too (``escaped(_:)`` covers them).
    static func cell(_ text: String) -> String { escaped(text) }

    /// `text` with control characters written out and every character Markdown or HTML would read as markup neutralised.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in TerminalText.escaped(text) {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "@": result += "&#64;"
            case "\\", "`", "*", "_", "[", "]", "~", "#", "!", "|", "$": result += "\\" + String(character)
            default: result.append(character)
            }
        }
        return result
    }
}
