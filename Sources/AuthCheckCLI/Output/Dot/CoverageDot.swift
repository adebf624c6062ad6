import AuthFlow
import AuthFlowChecker
import Foundation

/// Renders a ``CoverageReport`` as a Graphviz digraph: `authcheck coverage --format dot SPEC | dot -Tsvg > flow.svg`.
///
/// - the initial state has an arrow from a point; success states are double circles; abort states
///   are grey-filled octagons; other states are rounded boxes;
/// - each state shows its configurations and stacks, each transition its event and stacks;
/// - unreachable states and dead transitions are dashed and grey;
/// - states with violations are red, the properties under the name and the messages in a tooltip;
///   the edge that breaks it is red too: the last step of the counterexample, or, for an event the
///   table has no row for (`illegal-transition`), a red dashed edge to a small "no transition" node;
/// - states whose step says `back: false` have a bold border and a `⊘ back` line;
/// - a legend note explains `configurations · stacks` and the colours.
///
/// With a funnel (`authcheck traces --format dot`), the same graph shows what recorded sessions
/// walked instead of the counts: each state its sessions and how many left there, each edge how
/// often it was taken (thicker the more), a transition the spec reaches but no session took
/// dashed orange, and a move sessions made that the table does not have as a red dashed edge.
///
/// Every id and label is a quoted, escaped DOT string, so any state or event name is valid DOT.
enum CoverageDot {
    static let grey = "grey55"
    static let system = "steelblue"

    static func render(_ report: CoverageReport) -> String {
        let coverage = report.coverage
        let violations = report.violationsByState
        let title = report.name ?? report.spec
        var lines: [String] = []
        lines.append("digraph \(quoted(DotText.cut(title))) {")
        let funnel = report.funnel
        let funnelStates = report.funnelStates
        var heading = "\(title): coverage at depth \(coverage.depth)"
        if let funnel {
            heading = "\(title): what \(TracesText.counted(funnel.sessions.total, "recorded session")) walked"
            if funnel.sessions.broken > 0 { heading += " (\(TracesText.grouped(funnel.sessions.broken)) broke the spec)" }
        }
        if let stop = coverage.stoppedBy { heading += "\nincomplete: \(stop); grey may yet be reachable" }
        lines.append("  graph [rankdir=LR, fontname=\"Helvetica\", labelloc=t, label=\(label(heading))];")
        lines.append("  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];")
        lines.append("  edge [fontname=\"Helvetica\", fontsize=9];")

        let names = Set(coverage.states.map(\.name))
        func freshID(_ base: String) -> String {
            var id = base
            while names.contains(id) { id += "_" }
            return id
        }
        let start = freshID("__start__")
        lines.append("  \(quoted(start)) [shape=point, width=0.15, label=\"\", tooltip=\"start\"];")
        let base = funnel == nil ? """
            legend\\l\
            state: name, configurations · stacks\\l\
            edge: event · stacks\\l\
            red: a violated state and the edge that breaks it\\l\
            red dashed to \\"no transition\\": an event the table has no row for\\l\
            dashed grey: unreachable or dead\\l\
            bold border, ⊘ back: back is not allowed\\l
            """ : """
            legend\\l\
            state: name, sessions that entered it · sessions that left there\\l\
            edge: event · times taken (thicker: taken more)\\l\
            dashed orange: the spec reaches it, no session took it\\l\
            red dashed: sessions took it, the spec has no such move\\l\
            red: a property of the spec itself is violated there\\l\
            dashed grey: unreachable or dead in the spec\\l\
            bold border, ⊘ back: back is not allowed\\l
            """
        let legend = base + (coverage.transitions.contains(where: \.bySystem) ? "blue, open arrow, ⚙: the system's answer, not the user's\\l" : "")
            + (coverage.transitions.contains(where: \.reset) ? "bold, ⟲: starts the flow again\\l" : "")
            + (coverage.transitions.contains { $0.condition != nil || $0.offeredWhen != nil } ? "if G: offered when G holds; [G]: taken when G holds\\l" : "")
        lines.append("  \(quoted(freshID("__legend__"))) [shape=note, fontsize=9, label=\"\(legend)\", tooltip=\"legend\"];")

        for state in coverage.states {
            var attributes: [String] = []
            var styles: [String] = []
            if state.isSuccess {
                attributes.append("shape=doublecircle")
            } else if state.isAbort {
                attributes.append("shape=octagon")
                styles.append("filled")
                attributes.append("fillcolor=\"grey92\"")
            } else {
                styles.append("rounded")
            }
            var text = "\(state.name)\n\(state.configurations) · \(state.stacks)"
            var tooltip = [state.role.isEmpty ? "state" : "\(state.role) state"]
            if let walked = funnelStates[state.name] {
                text = "\(state.name)\n\(CoverageReport.funnelLabel(walked))"
                tooltip.append("entries \(walked.entries), exits \(walked.exits), backs \(walked.backs), refused \(walked.rejections)")
            }
            if !state.backAllowed && !state.isSuccess && !state.isAbort {
                text += "\n⊘ back"
                attributes.append("penwidth=2")
                tooltip.append("back is not allowed")
            }
            if !state.reachable {
                styles.append("dashed")
                attributes.append("color=\(grey)")
                attributes.append("fontcolor=\(grey)")
                tooltip = ["unreachable"]
            }
            if let found = violations[state.name], !found.isEmpty {
                attributes.append("color=red")
                attributes.append("fontcolor=red")
                if !attributes.contains("penwidth=2") { attributes.append("penwidth=2") }
                text += found.map { "\n✗ " + CoverageReport.label($0) }.joined()
                tooltip = found.map { "\($0.property.id): \($0.message)" }
            }
            attributes.insert("label=\(label(text))", at: 0)
            attributes.append("tooltip=\(label(tooltip.joined(separator: "\n")))")
            if !styles.isEmpty { attributes.append("style=\"\(styles.joined(separator: ","))\"") }
            lines.append("  \(quoted(state.name)) [\(attributes.joined(separator: ", "))];")
        }

        if let initial = coverage.states.first(where: \.isInitial) {
            lines.append("  \(quoted(start)) -> \(quoted(initial.name));")
        }
        let breaking = report.breakingEdges
        let taken = report.taken
        let most = max(1, taken.max() ?? 1)
        for (i, transition) in coverage.transitions.enumerated() {
            var attributes: [String]
            if transition.fired, funnel != nil {
                let count = i < taken.count ? taken[i] : 0
                if count > 0 {
                    let width = 1 + 4 * Double(count) / Double(most)
                    attributes = ["label=\(label("\(transition.label) · \(TracesText.grouped(count))"))",
                                  "penwidth=\(String(format: "%.1f", width))"]
                } else {
                    attributes = ["label=\(label("\(transition.label) · never taken"))", "style=dashed", "color=darkorange",
                                  "fontcolor=darkorange"]
                }
                if breaking.steps.contains(transition.id) {
                    attributes += ["color=red", "fontcolor=red"]
                } else if transition.bySystem, count > 0 {
                    attributes += ["color=\(system)", "fontcolor=\(system)", "arrowhead=open"]
                }
                if transition.reset { attributes += ["constraint=false"] }
            } else if transition.fired {
                attributes = ["label=\(label("\(transition.label) · \(transition.stacks)"))"]
                if breaking.steps.contains(transition.id) {
                    attributes += ["color=red", "fontcolor=red", "penwidth=2"]
                } else if transition.bySystem {
                    // The system's answers are drawn apart from what the user does.
                    attributes += ["color=\(system)", "fontcolor=\(system)", "arrowhead=open"]
                }
                if transition.reset { attributes += ["style=bold", "constraint=false"] }
            } else {
                attributes = ["label=\(label("\(transition.label) (dead)"))", "style=dashed", "color=\(grey)", "fontcolor=\(grey)"]
            }
            attributes.append("tooltip=\(label("\(transition.from) --\(transition.label)--> \(transition.to)"))")
            lines.append("  \(quoted(transition.from)) -> \(quoted(transition.to)) [\(attributes.joined(separator: ", "))];")
        }
        // Moves sessions made that the table does not have, between states it has.
        for move in funnel?.offSpec ?? [] where names.contains(move.from) && names.contains(move.to) {
            lines.append("  \(quoted(move.from)) -> \(quoted(move.to)) [label=\(label("\(move.event) · \(TracesText.grouped(move.count))")), "
                         + "style=dashed, color=red, fontcolor=red, tooltip=\(label("\(move.from) --\(move.event)--> \(move.to): not in the spec"))];")
        }
        for (index, refused) in breaking.refused.enumerated() {
            let id = quoted(freshID("__no_transition_\(index)__"))
            lines.append("  \(id) [shape=box, style=dashed, color=red, fontcolor=red, fontsize=9, label=\"no transition\", tooltip=\(label("\(refused.state) has no transition on \(refused.event)"))];")
            lines.append("  \(quoted(refused.state)) -> \(id) [label=\(label(refused.event)), style=dashed, color=red, fontcolor=red, tooltip=\(label("\(refused.state) --\(refused.event)--> (no transition)"))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// `text` as a quoted DOT id: see ``DotText/quoted(_:)``. State names are short (a spec's are at most 128 bytes).
    static func quoted(_ text: String) -> String { DotText.quoted(text) }

    /// `text` as a quoted DOT label, cut short when long: see ``DotText/label(_:)``.
    static func label(_ text: String) -> String { DotText.label(text) }
}
