import AuthFlow
import AuthFlowChecker

/// Renders a ``CoverageReport`` as a Mermaid `stateDiagram-v2`, which GitHub renders in Markdown.
///
/// `[*] --> initial`, terminal states `--> [*]`; ids are the states' numbers (`s3`) and each state
/// keeps its name as its label, escaped by ``MermaidText``; transitions are labelled with their event and stacks, dead ones
/// with `(dead)`. Classes style unreachable states (dashed, grey), abort states (grey), states
/// with violations (red, with a note naming the properties) and states whose step says
/// `back: false` (bold border). Mermaid state diagrams cannot colour an edge, so the edge that breaks
/// a property is marked `✗` instead: the last step of a counterexample, or, for an event the table
/// has no row for (`illegal-transition`), an edge to a red dashed "no transition" state. A note on
/// the initial state is the legend.
///
/// With a funnel (`authcheck traces --format mermaid`) each state's label adds its sessions and how
/// many left there, each edge says how often it was taken or `never taken`, and a move sessions
/// made that the table does not have is an edge marked `✗ … not in the spec`.
enum CoverageMermaid {
    static func render(_ report: CoverageReport) -> String {
        let coverage = report.coverage
        let violations = report.violationsByState
        var lines: [String] = []
        var title = report.name
        if let funnel = report.funnel {
            title = (title.map { $0 + ": " } ?? "") + "what \(TracesText.counted(funnel.sessions.total, "recorded session")) walked"
        }
        if let stop = coverage.stoppedBy { title = (title.map { $0 + " " } ?? "") + "(incomplete: \(stop))" }
        if let title {
            lines += ["---", "title: \(MermaidText.title(title))", "---"]
        }
        lines.append("stateDiagram-v2")
        lines.append("    direction LR")
        lines.append("    classDef unreachable stroke-dasharray:5 5,color:#8c8c8c,stroke:#8c8c8c")
        lines.append("    classDef abort fill:#ececec")
        lines.append("    classDef violated stroke:#d00000,stroke-width:2px,color:#d00000")
        lines.append("    classDef noBack stroke-width:3px")
        lines.append("    classDef refused stroke:#d00000,stroke-dasharray:5 5,color:#d00000")
        let funnelStates = report.funnelStates

        var ids: [String: String] = [:]
        for (index, state) in coverage.states.enumerated() {
            let id = identifier(index)
            ids[state.name] = id
            let shown = funnelStates[state.name].map { "\(state.name) · \(CoverageReport.funnelLabel($0))" } ?? state.name
            lines.append("    state \"\(text(shown))\" as \(id)")
        }
        if let initial = coverage.states.first(where: \.isInitial) {
            lines.append("    [*] --> \(ids[initial.name]!)")
        }
        let breaking = report.breakingEdges
        let taken = report.taken
        for (i, transition) in coverage.transitions.enumerated() {
            var note = transition.fired ? "\(transition.stacks) stack\(transition.stacks == 1 ? "" : "s")" : "dead"
            if report.funnel != nil, transition.fired {
                let count = i < taken.count ? taken[i] : 0
                note = count > 0 ? "\(TracesText.grouped(count))×" : "never taken"
            }
            let mark = transition.fired && breaking.steps.contains(transition.id) ? "✗ " : ""
            lines.append("    \(ids[transition.from]!) --> \(ids[transition.to]!) : \(mark)\(text(transition.label)) (\(note))")
        }
        for move in report.funnel?.offSpec ?? [] {
            guard let from = ids[move.from], let to = ids[move.to] else { continue }
            lines.append("    \(from) --> \(to) : ✗ \(text(move.event)) (\(TracesText.grouped(move.count))×, not in the spec)")
        }
        for (index, refused) in breaking.refused.enumerated() {
            lines.append("    state \"no transition\" as refused\(index)")
            lines.append("    \(ids[refused.state]!) --> refused\(index) : ✗ \(text(refused.event))")
            lines.append("    class refused\(index) refused")
        }
        for state in coverage.states where state.isSuccess || state.isAbort {
            lines.append("    \(ids[state.name]!) --> [*]")
        }
        for state in coverage.states {
            let id = ids[state.name]!
            if !state.reachable { lines.append("    class \(id) unreachable") }
            if state.isAbort && state.reachable { lines.append("    class \(id) abort") }
            if !state.backAllowed && !state.isSuccess && !state.isAbort { lines.append("    class \(id) noBack") }
            if let found = violations[state.name], !found.isEmpty {
                lines.append("    class \(id) violated")
                lines.append("    note right of \(id) : \(text(found.map(CoverageReport.label).joined(separator: ", ")))")
            }
        }
        if let initial = coverage.states.first(where: \.isInitial) {
            let extras = (coverage.transitions.contains(where: \.bySystem) ? " ⚙: the system's answer, not the user's." : "")
                + (coverage.transitions.contains(where: \.reset) ? " ⟲: starts the flow again." : "")
                + (coverage.transitions.contains { $0.condition != nil || $0.offeredWhen != nil } ? " if G: offered when G holds; [G]: taken when G holds." : "")
            let legend = report.funnel != nil
                ? "Legend. State: sessions that entered it, and those that left there. Edge: event (times taken). "
                    + "✗ edge: sessions took it, the spec has no such move. Red: a violated state. Dashed grey: unreachable. "
                    + "Bold border: back is not allowed." + extras
                : "Legend. Edge: event (stacks). Red: a violated state. ✗ edge: the step that breaks it. "
                    + "No transition: an event the table has no row for. Dashed grey: unreachable. "
                    + "Bold border: back is not allowed." + extras
            lines.append("    note left of \(ids[initial.name]!) : \(MermaidText.label(legend, limit: nil))")
        }
        return lines.joined(separator: "\n")
    }

    /// The id of state number `index`: `s` and the number, so no name can make an id Mermaid reads as syntax.
    static func identifier(_ index: Int) -> String { "s\(index)" }

    /// A label as Mermaid must read it: see ``MermaidText/label(_:)``.
    static func text(_ label: String) -> String { MermaidText.label(label) }
}
