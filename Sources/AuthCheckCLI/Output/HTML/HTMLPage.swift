import AuthFlowChecker

/// Renders reports as one self-contained HTML file: `authcheck coverage --format html SPEC > flow.html`.
///
/// Per spec: the flow drawn as inline SVG (laid out by ``FlowLayout``), terminal states marked
/// success (✓) or abort (⊘), unreachable states and dead transitions dimmed and dashed, reset rows
/// (`⟲`) dash-dotted, edge labels kept off each other and the states (``LabelPlacer``), each state's
/// and transition's counts in a `<title>` tooltip; the violations as buttons that highlight their
/// path (class `on-path`) and show the numbered steps with the data after each, secrets redacted;
/// the same states and transitions as tables, the graph's text alternative.
///
/// No URL, font or file outside the document: the CSS and the script are inline. The output is
/// well-formed XML as well as HTML, so tests parse it; every name is escaped by ``HTMLText``.
///
/// Element ids, for tests and scripts: `sN-state-I` (data-state: the name), `sN-row-I`
/// (data-from, data-event, data-to), `sN-vK` (the K-th violation's button, data-violation: K), `sN-wK` (the
/// K-th way in's button, data-way: K; section 6).
enum HTMLPage {
    /// One spec's part of the document.
    enum Section: Sendable {
        /// A checked spec with its coverage.
        case coverage(CoverageReport)
        /// A spec that could not be checked: its problems.
        case invalid(CheckReport)
    }

    /// The document for `sections`, under the heading `heading` (the command that made it).
    static func render(_ sections: [Section], heading: String) -> String {
        var body: [String] = []
        var violationNumber = 0
        var wayNumber = 0
        for (index, section) in sections.enumerated() {
            switch section {
            case let .coverage(report):
                body.append(SpecSection(report: report, prefix: "s\(index + 1)", firstViolation: violationNumber + 1,
                                        firstWay: wayNumber + 1).render())
                violationNumber += report.check.violations.count
                wayNumber += (report.check.waysIn ?? []).reduce(0) { $0 + $1.ways.count }
            case let .invalid(report):
                body.append(invalidSection(report, prefix: "s\(index + 1)"))
            }
        }
        let title = sections.count == 1 ? "\(heading): \(name(of: sections[0]))" : "\(heading): \(sections.count) specs"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <meta name="generator" content="authcheck"/>
            <title>\(HTMLText.escaped(title))</title>
            <style>/*<![CDATA[*/
            \(HTMLAssets.style)
            /*]]>*/</style>
            </head>
            <body data-selected="0">
            \(HTMLAssets.markers)
            <header><h1>\(HTMLText.escaped(title))</h1>
            <p class="help">Hover a state or a transition for its counts. Choose a violation (Tab, then Enter) to walk its path on the graph; ← and → step through it.</p>
            </header>
            <main>
            \(body.joined(separator: "\n"))
            </main>
            <script>/*<![CDATA[*/
            \(HTMLAssets.script)
            /*]]>*/</script>
            </body>
            </html>
            """
    }

    static func name(of section: Section) -> String {
        switch section {
        case let .coverage(report): return report.name ?? report.spec
        case let .invalid(report): return report.name ?? report.spec
        }
    }

    /// An invalid spec: its name and each problem, no graph.
    static func invalidSection(_ report: CheckReport, prefix: String) -> String {
        let issues = (report.error?.issues ?? []).map { HTMLText.element("li", [:], HTMLText.escaped("\($0)")) }
        return HTMLText.element("section", ["class": "spec invalid", "id": prefix, "aria-labelledby": "\(prefix)-title"], """

            <h2 id="\(prefix)-title">\(HTMLText.escaped(report.spec)) <span class="verdict invalid">invalid</span></h2>
            <ul class="issues">\(issues.joined())</ul>

            """)
    }
}

/// One checked spec's section: summary, graph, violations, and the tables.
struct SpecSection {
    var report: CoverageReport
    /// The prefix of every id in the section: `s1`.
    var prefix: String
    /// The document-wide number of the section's first violation.
    var firstViolation: Int
    /// The document-wide number of the section's first way in (section 6).
    var firstWay = 1

    var coverage: FlowCoverage { report.coverage }

    /// State name → index in `coverage.states`.
    var stateIndex: [String: Int] {
        Dictionary(coverage.states.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    func stateID(_ index: Int) -> String { "\(prefix)-state-\(index)" }
    func rowID(_ index: Int) -> String { "\(prefix)-row-\(index)" }

    func render() -> String {
        let check = report.check
        let title = report.name ?? report.spec
        let reachable = coverage.states.filter(\.reachable).count
        let fired = coverage.transitions.filter(\.fired).count
        var summary = "\(reachable) of \(coverage.states.count) states reachable, \(fired) of \(coverage.transitions.count) transitions fired; "
            + "\(coverage.configurations) configurations, \(coverage.stacks) stacks of at most \(coverage.depth) events"
        if let stop = coverage.stoppedBy { summary += "; incomplete (\(stop)): dimmed states may yet be reachable" }
        return HTMLText.element("section", ["class": "spec", "id": prefix, "aria-labelledby": "\(prefix)-title"], """

            <h2 id="\(prefix)-title">\(HTMLText.escaped(title)) <span class="verdict \(check.verdict.rawValue)">\(check.verdict.rawValue)</span></h2>
            <p class="path">\(HTMLText.escaped(report.spec))</p>
            <p class="summary">\(HTMLText.escaped(summary))</p>
            \(graph())
            \(violations())\(waysIn())
            \(tables())

            """)
    }

    // MARK: The graph

    /// The largest flow the report draws. The layout counts crossings in O(E²) and a browser lays out
    /// every box: a star of 100,000 transitions took 17 s to draw and gave 93 MB no one could read.
    /// Past either bound the figure says so, and the tables still list every state and transition.
    static let drawingLimit = (states: 1_000, transitions: 3_000)

    func graph() -> String {
        guard coverage.states.count <= Self.drawingLimit.states, coverage.transitions.count <= Self.drawingLimit.transitions else {
            let note = "Not drawn: \(coverage.states.count) states and \(coverage.transitions.count) transitions are more than this report draws "
                + "(\(Self.drawingLimit.states) states, \(Self.drawingLimit.transitions) transitions). The tables below list every one."
            return "<figure class=\"graph\">\n<p class=\"not-drawn\">\(HTMLText.escaped(note))</p>\n</figure>"
        }
        let index = stateIndex
        let edges = coverage.transitions.compactMap { row -> (from: Int, to: Int, label: String)? in
            guard let from = index[row.from], let to = index[row.to] else { return nil }
            return (from, to, Self.edgeLabel(row))
        }
        let initial = coverage.states.firstIndex(where: \.isInitial)
        let leaving = Set(edges.lazy.filter { $0.from != $0.to }.map(\.from))
        let sinks = Set(coverage.states.indices.filter { state in
            (coverage.states[state].isSuccess || coverage.states[state].isAbort) && !leaving.contains(state)
        })
        var layout = FlowLayout(names: coverage.states.map { Self.label($0) }, edges: edges, initial: initial, sinks: sinks)
        // Room on the left for the start arrow.
        let shift = 28.0
        for i in layout.boxes.indices { layout.boxes[i].x += shift }
        layout.width += shift
        let violated = report.violationsByState

        var parts: [String] = []
        parts.append(HTMLText.element("title", ["id": "\(prefix)-graph-title"], HTMLText.escaped("The flow \(report.name ?? report.spec), left to right from its initial state")))
        parts.append(HTMLText.element("desc", ["id": "\(prefix)-graph-desc"], HTMLText.escaped(description())))
        if let initial {
            let box = layout.boxes[initial]
            parts.append(HTMLText.element("g", ["class": "start", "aria-hidden": "true"],
                                          HTMLText.empty("circle", ["cx": HTMLText.number(box.x - 22), "cy": HTMLText.number(box.centreY), "r": "5"])
                                          + HTMLText.empty("path", ["class": "line", "d": "M\(HTMLText.number(box.x - 17)),\(HTMLText.number(box.centreY)) H\(HTMLText.number(box.x - 2))"])))
        }
        let (edgeParts, bounds) = drawnEdges(layout: layout, index: index, initial: initial)
        var nodeParts: [String] = []
        for (i, state) in coverage.states.enumerated() {
            nodeParts.append(node(i, state, box: layout.boxes[i], violations: violated[state.name] ?? []))
        }
        parts.append(HTMLText.element("g", ["class": "edges"], "\n" + edgeParts.joined(separator: "\n") + "\n"))
        parts.append(HTMLText.element("g", ["class": "nodes"], "\n" + nodeParts.joined(separator: "\n") + "\n"))
        // The viewBox from what is drawn (loops above the top row, rows bowing under the bottom one,
        // labels moved out of the way), so nothing is cut off; the figure scrolls to show all of it.
        let view = LabelPlacer.Rect(x: bounds.x - Self.viewMargin, y: bounds.y - Self.viewMargin,
                                    width: bounds.width + 2 * Self.viewMargin, height: bounds.height + 2 * Self.viewMargin)
        let svg = HTMLText.element("svg", [
            "id": "\(prefix)-graph", "class": "flow",
            "viewBox": "\(HTMLText.number(view.x)) \(HTMLText.number(view.y)) \(HTMLText.number(view.width)) \(HTMLText.number(view.height))",
            "width": HTMLText.number(view.width), "height": HTMLText.number(view.height),
            "role": "img", "aria-labelledby": "\(prefix)-graph-title \(prefix)-graph-desc",
        ], "\n" + parts.joined(separator: "\n") + "\n")
        // A reset row counts no stack of its own (its run starts at the root): the legend says so when one is drawn.
        let resetKey = coverage.transitions.contains(where: \.reset)
            ? "<span class=\"key k-reset\">⟲ reset (dash-dot): starts the flow again, so it adds no stack</span> " : ""
        let legend = """
            <figcaption class="legend"><span class="key k-initial">● initial</span> <span class="key k-success">✓ success</span> \
            <span class="key k-abort">⊘ abort</span> <span class="key k-unreachable">unreachable or dead (dashed)</span> \
            <span class="key k-violated">✗ violated here</span> <span class="key k-on-path">a chosen violation's path</span> \
            \(resetKey)— boxes: configurations · stacks; arrows: event · stacks</figcaption>
            """
        return "<figure class=\"graph\">\n<div class=\"scroll\">\(svg)</div>\n\(legend)\n</figure>"
    }

    /// A state's box label: a mark for its role, then its name.
    static func label(_ state: FlowCoverage.StateCoverage) -> String {
        (state.isSuccess ? "✓ " : state.isAbort ? "⊘ " : "") + state.name
    }

    func node(_ i: Int, _ state: FlowCoverage.StateCoverage, box: FlowLayout.Box, violations: [Violation]) -> String {
        var classes = ["node"]
        if state.isInitial { classes.append("initial") }
        if state.isSuccess { classes.append("success") }
        if state.isAbort { classes.append("abort") }
        if !state.reachable { classes.append("unreachable") }
        if !violations.isEmpty { classes.append("violated") }
        var tooltip = [state.name + (state.role.isEmpty ? "" : " (\(state.role))")]
        tooltip.append(state.reachable
            ? "configurations: \(state.configurations); stacks: \(state.stacks)"
            : "unreachable")
        tooltip += violations.map { "✗ \(CoverageReport.label($0)): \($0.message)" }
        let x = HTMLText.number(box.x), y = HTMLText.number(box.y)
        let w = HTMLText.number(box.width), h = HTMLText.number(box.height)
        var shapes = HTMLText.empty("rect", ["class": "box", "x": x, "y": y, "width": w, "height": h, "rx": state.isSuccess ? "17" : "6"])
        if state.isSuccess {
            shapes += HTMLText.empty("rect", ["class": "ring", "x": HTMLText.number(box.x + 3), "y": HTMLText.number(box.y + 3),
                                              "width": HTMLText.number(box.width - 6), "height": HTMLText.number(box.height - 6), "rx": "14"])
        }
        let centre = HTMLText.number(box.x + box.width / 2)
        shapes += HTMLText.element("text", ["class": "name", "x": centre, "y": HTMLText.number(box.y + 15)],
                                   HTMLText.escaped((violations.isEmpty ? "" : "✗ ") + Self.label(state)))
        shapes += HTMLText.element("text", ["class": "counts", "x": centre, "y": HTMLText.number(box.y + 28)],
                                   state.reachable ? "\(state.configurations) · \(state.stacks)" : "unreachable")
        return HTMLText.element("g", ["class": classes.joined(separator: " "), "id": stateID(i), "data-state": state.name],
                                HTMLText.element("title", [:], HTMLText.escaped(tooltip.joined(separator: "\n"))) + shapes)
    }

    /// Room round everything drawn, inside the viewBox.
    static let viewMargin = 12.0

    /// Every row's curve and label, and the rectangle holding them, the states and the start arrow.
    ///
    /// Curves first, then the labels: those of self-loops (which have the least room), then the
    /// others, each in table order, kept off the states, the loops and the labels placed before.
    func drawnEdges(layout: FlowLayout, index: [String: Int], initial: Int?) -> (parts: [String], bounds: LabelPlacer.Rect) {
        var curves: [Int: (curve: EdgeCurve, loop: Bool)] = [:]
        var seen: [String: Int] = [:]
        for (i, row) in coverage.transitions.enumerated() {
            guard let from = index[row.from], let to = index[row.to] else { continue }
            let pair = "\(min(from, to)) \(max(from, to))"
            let parallel = seen[pair, default: 0]
            seen[pair] = parallel + 1
            curves[i] = (Self.curve(from: layout.boxes[from], to: layout.boxes[to], parallel: parallel, loop: from == to), from == to)
        }
        var placer = LabelPlacer()
        var bounds: LabelPlacer.Rect?
        func include(_ rect: LabelPlacer.Rect) { bounds = bounds.map { $0.union(rect) } ?? rect }
        for box in layout.boxes {
            let rect = LabelPlacer.Rect(x: box.x, y: box.y, width: box.width, height: box.height)
            placer.block(LabelPlacer.Rect(x: rect.x - 2, y: rect.y - 2, width: rect.width + 4, height: rect.height + 4))
            include(rect)
        }
        if let initial {
            let box = layout.boxes[initial]
            let start = LabelPlacer.Rect(x: box.x - 28, y: box.centreY - 6, width: 28, height: 12)
            placer.block(start)
            include(start)
        }
        for (_, entry) in curves where entry.loop { placer.block(entry.curve.bounds) }
        var labels: [Int: LabelPlacer.Rect] = [:]
        let order = coverage.transitions.indices.filter { curves[$0]?.loop == true } + coverage.transitions.indices.filter { curves[$0]?.loop == false }
        for i in order {
            guard let (curve, loop) = curves[i] else { continue }
            let width = LabelPlacer.labelWidth(Self.edgeLabel(coverage.transitions[i]))
            labels[i] = placer.place(width: width, candidates: loop ? Self.loopCandidates(curve, width: width) : curve.labelCandidates())
        }
        var parts: [String] = []
        for (i, row) in coverage.transitions.enumerated() {
            guard let (curve, loop) = curves[i], let label = labels[i] else { continue }
            // The arrowhead reaches a little past the curve's hull.
            let hull = curve.hull
            include(LabelPlacer.Rect(x: hull.x - 6, y: hull.y - 6, width: hull.width + 12, height: hull.height + 12))
            include(label)
            parts.append(edge(i, row, curve: curve, label: label, loop: loop))
        }
        return (parts, bounds ?? LabelPlacer.Rect(x: 0, y: 0, width: 0, height: 0))
    }

    /// The curve of a row from box `a` to box `b`, the `parallel`-th between the two.
    static func curve(from a: FlowLayout.Box, to b: FlowLayout.Box, parallel: Int, loop: Bool) -> EdgeCurve {
        let spread = Double(parallel) * 14
        let points: [(x: Double, y: Double)]
        if loop {
            // Above the box, a little right of centre; each further loop wider.
            let x = a.x + a.width / 2, y = a.y
            points = [(x - 8, y), (x - 24 - spread, y - 34 - spread), (x + 24 + spread, y - 34 - spread), (x + 8, y)]
        } else if b.layer > a.layer {
            let start = (x: a.right, y: a.centreY + spread / 2), end = (x: b.x, y: b.centreY + spread / 2)
            let bend = (end.x - start.x) / 2
            points = [start, (start.x + bend, start.y + spread), (end.x - bend, end.y + spread), end]
        } else if b.layer == a.layer {
            // Same column: out of the right side and back in, bowed further right per parallel edge.
            let start = (x: a.right, y: a.centreY), end = (x: b.right, y: b.centreY)
            let out = max(a.right, b.right) + 36 + spread
            points = [start, (out, start.y), (out, end.y), end]
        } else {
            // Backwards: under both boxes, from the bottom of the source to the bottom of the target.
            let start = (x: a.x + a.width / 2 + 6, y: a.y + a.height), end = (x: b.x + b.width / 2 - 6, y: b.y + b.height)
            let low = max(start.y, end.y) + 26 + spread
            points = [start, (start.x, low), (end.x, low), end]
        }
        return EdgeCurve(points: points)
    }

    /// Where a self-loop's label tries to sit, outside the loop: above it, then beside it, then higher.
    static func loopCandidates(_ curve: EdgeCurve, width: Double) -> [(x: Double, y: Double)] {
        let hull = curve.bounds
        let above = hull.y - LabelPlacer.labelHeight / 2 - 1
        let beside = hull.centreY
        let right = hull.right + width / 2 + 2, left = hull.x - width / 2 - 2
        return [(hull.centreX, above), (right, beside), (left, beside)]
            + (1...6).flatMap { k -> [(x: Double, y: Double)] in
                let up = above - Double(k) * LabelPlacer.labelHeight
                return [(hull.centreX, up), (right, up), (left, up)]
            }
    }

    /// A row's label on the graph: `event · stacks` when it fires, the event alone when dead, and
    /// `⟲ event` for a reset row, which starts the flow again and so adds no stack of its own.
    static func edgeLabel(_ row: FlowCoverage.TransitionCoverage) -> String {
        row.reset ? "⟲ \(row.event)" : row.fired ? "\(row.event) · \(row.stacks)" : row.event
    }

    func edge(_ i: Int, _ row: FlowCoverage.TransitionCoverage, curve: EdgeCurve, label: LabelPlacer.Rect, loop: Bool) -> String {
        let points = curve.points
        let d = "M\(p(points[0])) C\(p(points[1])) \(p(points[2])) \(p(points[3]))"
        var classes = ["edge"]
        if !row.fired { classes.append("dead") }
        if loop { classes.append("loop") }
        if row.reset { classes.append("reset") }
        let fate = row.reset ? (row.fired ? "reset: fires, and starts the flow again (no stack of its own)" : "reset, dead: never fires")
            : row.fired ? "stacks: \(row.stacks)" : "dead: never fires"
        let tooltip = "\(row.from) —\(row.event)→ \(row.to)\n" + fate
        return HTMLText.element("g", [
            "class": classes.joined(separator: " "), "id": rowID(i),
            "data-from": row.from, "data-event": row.event, "data-to": row.to,
        ], HTMLText.element("title", [:], HTMLText.escaped(tooltip))
            + HTMLText.empty("path", ["class": "line", "d": d])
            + HTMLText.element("text", ["class": "label", "x": HTMLText.number(label.centreX),
                                        "y": HTMLText.number(label.centreY + LabelPlacer.baselineOffset)], HTMLText.escaped(Self.edgeLabel(row))))
    }

    func p(_ point: (x: Double, y: Double)) -> String { "\(HTMLText.number(point.x)),\(HTMLText.number(point.y))" }

    /// The graph in one paragraph, for the SVG's `<desc>`.
    func description() -> String {
        let initial = coverage.states.first(where: \.isInitial)?.name ?? "none"
        let success = coverage.states.filter(\.isSuccess).map(\.name)
        let abort = coverage.states.filter(\.isAbort).map(\.name)
        return "\(coverage.states.count) states and \(coverage.transitions.count) transitions; initial state \(initial); "
            + "success \(success.isEmpty ? "none" : success.joined(separator: ", ")); abort \(abort.isEmpty ? "none" : abort.joined(separator: ", ")). "
            + "The tables after the violations list every state and transition with its counts."
    }

    // MARK: Violations

    func violations() -> String {
        let check = report.check
        guard !check.violations.isEmpty else {
            return "<section class=\"violations\" aria-labelledby=\"\(prefix)-violations\"><h3 id=\"\(prefix)-violations\">Violations</h3><p class=\"none\">None: every property checked holds.</p></section>"
        }
        let index = stateIndex
        var rowsLeaving: [String: [Int]] = [:]
        for (i, row) in coverage.transitions.enumerated() { rowsLeaving["\(row.from)\u{0}\(row.event)", default: []].append(i) }
        var buttons: [String] = []
        var panels: [String] = []
        for (k, violation) in check.violations.enumerated() {
            let number = firstViolation + k
            let id = "\(prefix)-v\(number)"
            let (nodes, edges) = walk(violation.path, index: index, rowsLeaving: rowsLeaving)
            // A violated `reachable` has no state and no path: say what no configuration shows.
            let site = violation.state == nil ? " — \(violation.unsatisfiedSummary)" : " at \(violation.place)"
            let length = !violation.hasPath ? "" : " — \(violation.length) step\(violation.length == 1 ? "" : "s")"
            buttons.append(HTMLText.element("li", [:], HTMLText.element("button", [
                "type": "button", "class": "violation", "id": id, "data-violation": String(number),
                "data-nodes": nodes.compactMap { $0 }.map(stateID).joined(separator: " "),
                "data-edges": edges.compactMap { $0 }.map(rowID).joined(separator: " "),
                "aria-controls": "\(id)-steps", "aria-pressed": "false",
            ], "<span class=\"property\">\(HTMLText.escaped(violation.property.id))</span>\(HTMLText.escaped(site))\(HTMLText.escaped(length))")))
            panels.append(steps(violation, id: id, number: number, nodes: nodes, edges: edges))
        }
        return """
            <section class="violations" aria-labelledby="\(prefix)-violations">
            <h3 id="\(prefix)-violations">Violations (\(check.violations.count))</h3>
            <ol class="violation-list">\(buttons.joined(separator: "\n"))</ol>
            \(panels.joined(separator: "\n"))
            </section>
            """
    }

    /// Each step's state and the row it took (`nil` where no declared row matches, and for the start).
    /// - Parameter rowsLeaving: the rows of each state and event (keyed `from`, NUL, `event`), in table order.
    func walk(_ path: FlowPath, index: [String: Int], rowsLeaving: [String: [Int]]) -> (nodes: [Int?], edges: [Int?]) {
        var nodes: [Int?] = []
        var edges: [Int?] = []
        for (i, step) in path.enumerated() {
            nodes.append(index[step.state])
            guard i > 0, let event = step.event else {
                edges.append(nil)
                continue
            }
            let from = path[i - 1].state
            let rows = rowsLeaving["\(from)\u{0}\(event)"] ?? []
            edges.append(rows.first { coverage.transitions[$0].to == step.state } ?? rows.first)
        }
        return (nodes, edges)
    }

    /// The numbered steps of one violation, hidden until it is chosen (shown in print).
    func steps(_ violation: Violation, id: String, number: Int, nodes: [Int?], edges: [Int?]) -> String {
        var items: [String] = []
        let refused = violation.property == .illegalTransition ? violation.event : nil
        let last = refused == nil ? violation.path.count - 1 : violation.path.count
        for (i, step) in violation.path.enumerated() {
            let data = CounterexampleRenderer.dataText(step, secrets: report.check.secrets)
            items.append(stepItem(i, last: last, property: violation.property.id, node: nodes[i], edge: edges[i],
                                  content: "<span class=\"event\">\(HTMLText.escaped(step.event ?? "(start)"))</span> → "
                                    + "<span class=\"state\">\(HTMLText.escaped(step.state))</span> <span class=\"data\">\(HTMLText.escaped(data))</span>"))
        }
        if let refused {
            items.append(stepItem(last, last: last, property: violation.property.id, node: nodes.last ?? nil, edge: nil,
                                  content: "<span class=\"event\">\(HTMLText.escaped(refused))</span> → "
                                    + "<span class=\"state\">(no transition from \(HTMLText.escaped(violation.state ?? "?")))</span>"))
        }
        var extra = ""
        if let mismatch = violation.mismatch {
            let diff = CounterexampleRenderer.frameDiff(mismatch, step: violation.length).joined(separator: "\n")
            extra += "\n<pre class=\"diff\">\(HTMLText.escaped(diff))</pre>"
        }
        let replay = ReportRenderer.replayCommand(for: violation, in: report.check)
        return """
            <div class="steps" id="\(id)-steps" hidden="hidden" aria-labelledby="\(id)">
            <h4>\(number)) \(HTMLText.escaped(violation.property.id)): \(HTMLText.escaped(violation.message))</h4>
            <p class="nav"\(violation.path.isEmpty ? " hidden=\"hidden\"" : "")><button type="button" class="previous" aria-label="previous step">←</button> <span class="status" aria-live="polite"></span> <button type="button" class="next" aria-label="next step">→</button></p>
            <ol class="step-list" start="0">\(items.joined(separator: "\n"))</ol>\(extra)
            <p class="replay">replay: <code>\(HTMLText.escaped(replay))</code></p>
            </div>
            """
    }

    func stepItem(_ i: Int, last: Int, property: String, node: Int?, edge: Int?, content: String) -> String {
        let breaking = i == last
        return HTMLText.element("li", [
            "class": breaking ? "step breaking" : "step", "data-step": String(i),
            "data-node": node.map(stateID), "data-edge": edge.map(rowID),
        ], content + (breaking ? " <span class=\"mark\">✗ \(HTMLText.escaped(property))</span>" : ""))
    }

    // MARK: The text alternative

    func tables() -> String {
        let states = coverage.states.enumerated().map { i, state in
            "<tr data-state-ref=\"\(stateID(i))\"><th scope=\"row\">\(HTMLText.escaped(state.name))</th><td>\(HTMLText.escaped(state.role))</td>"
                + "<td>\(state.reachable ? "reachable" : "unreachable")</td><td class=\"n\">\(state.configurations)</td><td class=\"n\">\(state.stacks)</td></tr>"
        }
        let rows = coverage.transitions.enumerated().map { i, row in
            "<tr data-row-ref=\"\(rowID(i))\"><td>\(HTMLText.escaped(row.from))</td><th scope=\"row\">\(HTMLText.escaped(row.event))</th>"
                + "<td>\(HTMLText.escaped(row.to))</td><td>\(row.fired ? "fired" : "dead")</td><td class=\"n\">\(row.stacks)</td></tr>"
        }
        return """
            <section class="tables" aria-labelledby="\(prefix)-tables">
            <h3 id="\(prefix)-tables">States and transitions</h3>
            <table class="states"><caption>States, in declaration order</caption>
            <thead><tr><th scope="col">state</th><th scope="col">role</th><th scope="col">coverage</th><th scope="col">configurations</th><th scope="col">stacks</th></tr></thead>
            <tbody>\(states.joined(separator: "\n"))</tbody></table>
            <table class="transitions"><caption>Transitions, in table order</caption>
            <thead><tr><th scope="col">from</th><th scope="col">event</th><th scope="col">to</th><th scope="col">coverage</th><th scope="col">stacks</th></tr></thead>
            <tbody>\(rows.joined(separator: "\n"))</tbody></table>
            </section>
            """
    }
}

extension HTMLPage {
    /// The sections of checked specs, for `check` and `explore`: each valid spec's coverage is
    /// counted at the check's depth and limits, so the graph shows what the check searched.
    static func sections(_ located: [LocatedReport], options: CheckOptions) -> [Section] {
        located.map { entry in
            guard let model = entry.model, entry.report.verdict != .invalid else { return .invalid(entry.report) }
            let coverage = FlowCoverage.compute(model, depth: options.limits.depth, limits: options.limits)
            return .coverage(CoverageReport(spec: entry.report.spec, name: entry.report.name, coverage: coverage, check: entry.report))
        }
    }
}
