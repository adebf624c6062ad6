import AuthFlow
import AuthFlowChecker

/// Section 6 in the HTML report: the ways in as a table, each row's path a button that highlights it.
///
/// For each protected screen (a step that asks for a level, or a success state, in step order) a row
/// group headed as the text report heads it, then one row per way in, weakest first: the level it
/// meets (`✗` and class `below` where under the screen's level), its factors, its variant, its length,
/// and a button (`sN-wK`, data-way: K, numbered through the document) that chooses it as a
/// violation's button does: its states and rows get class `on-path`, its steps are shown and walked.
/// A spec that uses no section-6 key has no such section.
extension SpecSection {
    /// The section, starting with a line break; empty for a spec without `factors`.
    func waysIn() -> String {
        guard let steps = report.check.waysIn else { return "" }
        let index = stateIndex
        var rowsLeaving: [String: [Int]] = [:]
        for (i, row) in coverage.transitions.enumerated() { rowsLeaving["\(row.from)\u{0}\(row.event)", default: []].append(i) }
        var groups: [String] = []
        var panels: [String] = []
        var number = firstWay
        for step in steps {
            var rows = ["<tr class=\"screen\"><th scope=\"rowgroup\" colspan=\"5\">\(HTMLText.escaped(Self.heading(step)))</th></tr>"]
            if step.ways.isEmpty {
                rows.append("<tr class=\"never\"><td colspan=\"5\">never reached</td></tr>")
            }
            for way in step.ways {
                let id = "\(prefix)-w\(number)"
                let below = step.asks != .none && way.level < step.asks
                let mark = step.asks == .none ? "" : below ? "✗ " : "✓ "
                let variant = way.variant.map { $0.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") } ?? "–"
                let factors = way.factors.isEmpty ? "no factor" : way.factors.joined(separator: ", ")
                var cell = "not shown: the report's paths are at their limit"
                if !way.path.isEmpty {
                    let (nodes, edges) = walk(way.path, index: index, rowsLeaving: rowsLeaving)
                    cell = HTMLText.element("button", [
                        "type": "button", "class": "way", "id": id, "data-way": String(number),
                        "data-nodes": nodes.compactMap { $0 }.map(stateID).joined(separator: " "),
                        "data-edges": edges.compactMap { $0 }.map(rowID).joined(separator: " "),
                        "aria-controls": "\(id)-steps", "aria-pressed": "false",
                    ], "show path")
                    panels.append(panel(way, of: step, id: id, number: number, nodes: nodes, edges: edges))
                }
                rows.append(HTMLText.element("tr", [
                    "class": below ? "way below" : "way", "data-way-row": String(number),
                    "data-level": way.level.rawValue, "data-factors": way.factors.joined(separator: " "),
                ], "<td class=\"level\">\(HTMLText.escaped(mark + way.level.rawValue))</td><td>\(HTMLText.escaped(factors))</td>"
                    + "<td>\(HTMLText.escaped(variant))</td><td class=\"n\">\(way.length)</td><td>\(cell)</td>"))
                number += 1
            }
            groups.append("<tbody>\(rows.joined(separator: "\n"))</tbody>")
        }
        // On the line after the violations' section (the caller puts nothing between): a spec without ways adds no line.
        return "\n" + """
            <section class="ways-in" aria-labelledby="\(prefix)-ways">
            <h3 id="\(prefix)-ways">Ways in</h3>
            <table class="ways"><caption>Every combination of factors that reaches each protected screen, weakest first, with a shortest path</caption>
            <thead><tr><th scope="col">level</th><th scope="col">factors</th><th scope="col">variant</th><th scope="col">steps</th><th scope="col">path</th></tr></thead>
            \(groups.joined(separator: "\n"))</table>
            \(panels.joined(separator: "\n"))
            </section>
            """
    }

    /// `home (success, asks for aal2): 2 ways in, 1 below its level`, as the text report heads a screen.
    static func heading(_ step: ProtectedStep) -> String {
        let asks = step.asks == .none ? (step.isSuccess ? "success, asks for no level" : "asks for no level")
            : "\(step.isSuccess ? "success, " : "")asks for \(step.asks.rawValue)"
        guard !step.ways.isEmpty else { return "\(step.state) (\(asks))" }
        let below = step.asks == .none ? 0 : step.ways.filter { $0.level < step.asks }.count
        return "\(step.state) (\(asks)): \(ReportRenderer.counted(step.ways.count, "way")) in" + (below > 0 ? ", \(below) below its level" : "")
    }

    /// The numbered steps of one way in, hidden until it is chosen (shown in print).
    func panel(_ way: WayIn, of step: ProtectedStep, id: String, number: Int, nodes: [Int?], edges: [Int?]) -> String {
        let items = way.path.enumerated().map { i, pathStep in
            let data = CounterexampleRenderer.dataText(pathStep, secrets: report.check.secrets)
            return HTMLText.element("li", [
                "class": "step", "data-way-step": String(i), "data-node": nodes[i].map(stateID), "data-edge": edges[i].map(rowID),
            ], "<span class=\"event\">\(HTMLText.escaped(pathStep.event ?? "(start)"))</span> → "
                + "<span class=\"state\">\(HTMLText.escaped(pathStep.state))</span> <span class=\"data\">\(HTMLText.escaped(data))</span>")
        }
        let factors = way.factors.isEmpty ? "no factor" : way.factors.joined(separator: ", ")
        let below = step.asks != .none && way.level < step.asks ? ", below \(step.asks.rawValue)" : ""
        return """
            <div class="steps" id="\(id)-steps" hidden="hidden" aria-labelledby="\(id)">
            <h4>way in \(number): \(HTMLText.escaped(step.state)) with \(HTMLText.escaped(factors)) (\(way.level.rawValue)\(below))</h4>
            <p class="nav"><button type="button" class="previous" aria-label="previous step">←</button> <span class="status" aria-live="polite"></span> <button type="button" class="next" aria-label="next step">→</button></p>
            <ol class="step-list" start="0">\(items.joined(separator: "\n"))</ol>
            </div>
            """
    }
}
