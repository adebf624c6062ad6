@testable import AuthCheckCLI
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// `diff --format markdown`: names from a spec cannot break the comment's table, format text, mention anyone or inject HTML.
@Suite struct DiffMarkdownTests {
    static func difference(state: String) -> FlowDiffReport.Difference {
        FlowDiffReport.Difference(kind: .addedMove, state: state, event: "skip", values: [], variant: [],
                                  path: [FlowDiffReport.Step(event: "begin", chosen: [], state: state)],
                                  old: .notOffered, new: .moves(state: "done", data: []))
    }

    @Test func eachCellEscapesPipesMarkupMentionsAndHTML() {
        let hostile = "a|b *c* _d_ `e` [f](g) <img src=x> @team #1 $x$ \\ new\nline"
        let report = FlowDiffReport(differences: [Self.difference(state: hostile)], properties: .init(), stoppedBy: nil, depth: nil, pairs: 2)
        let text = DiffMarkdown.render(report, old: "old.json", new: "new.json")
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| 1 |") }
        #expect(rows.count == 1, "the line break inside the name stays inside its row:\n\(text)")
        let row = String(rows.first ?? "")
        // Six cells: every pipe of the name is escaped, so only the table's own pipes split the row.
        #expect(row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count == 6, "\(row)")
        #expect(!row.contains("<img"), "\(row)")
        #expect(!row.contains("@team"), "\(row)")
        #expect(row.contains("\\*c\\*") && row.contains("\\_d\\_") && row.contains("\\`e\\`") && row.contains("\\[f\\]"), "\(row)")
        #expect(row.lowercased().contains("\\u{a}"), "\(row)")
    }

    @Test func theHeadingSaysTheVerdict() {
        let same = FlowDiffReport(differences: [], properties: .init(), stoppedBy: nil, depth: nil, pairs: 3)
        #expect(DiffMarkdown.render(same, old: "a", new: "b").hasPrefix("### authcheck diff: identical\n"))
        let changed = FlowDiffReport(differences: [Self.difference(state: "email")], properties: .init(), stoppedBy: nil, depth: nil, pairs: 3)
        #expect(DiffMarkdown.render(changed, old: "a", new: "b").hasPrefix("### authcheck diff: different — 1 difference\n"))
    }
}
