import AuthFlow

/// Renders a ``FlowDiffReport`` for a person reading a pull request: each difference as the user's steps, then old against new.
///
/// `authcheck diff` prints it, and ``FlowGate/assertDiff(old:new:allows:options:callerFile:)`` fails with it.
package enum DiffText {
    package static func render(_ report: FlowDiffReport, old: String, new: String, style: TextStyle = .plain) -> String {
        let names = "\(TerminalText.escaped(old)) → \(TerminalText.escaped(new))"
        var lines: [String] = []
        if report.identical {
            if let stop = report.stoppedBy {
                lines.append("\(names): incomplete — \(stop) before the comparison was complete; no difference found in "
                             + ReportRenderer.counted(report.pairs, "place") + " compared")
            } else {
                lines.append("\(names): \(style.good("identical")) — the same behaviour in "
                             + ReportRenderer.counted(report.pairs, "place") + " compared" + bound(report))
            }
            return lines.joined(separator: "\n")
        }
        var parts: [String] = []
        if !report.differences.isEmpty { parts.append(ReportRenderer.counted(report.differences.count, "difference")) }
        let changes = report.properties
        if !changes.new.isEmpty { parts.append(ReportRenderer.counted(changes.new.count, "new violation")) }
        if !changes.fixed.isEmpty { parts.append("\(changes.fixed.count) fixed") }
        lines.append("\(names): \(style.bad("different")) — \(parts.joined(separator: ", "))" + bound(report))
        if let stop = report.stoppedBy { lines.append("incomplete — \(stop): more differences may exist") }
        for (i, difference) in report.differences.enumerated() {
            lines.append("")
            lines.append("\(i + 1). \(difference.kind.rawValue)\(variant(difference.variant)): \(site(difference))")
            if !difference.path.isEmpty {
                lines.append("   steps: " + difference.path.map { step in
                    "\(escaped(step.event))\(chosen(step.chosen)) → \(escaped(step.state))"
                }.joined(separator: ", "))
            } else if difference.state != nil {
                lines.append("   steps: none (at the start)")
            }
            lines.append("   old: \(result(difference.old))")
            lines.append("   new: \(result(difference.new))")
        }
        let list = propertyLines(changes)
        if !list.isEmpty {
            lines.append("")
            lines += list.map { "\($0.label): " + $0.items.map(escaped).joined(separator: ", ") }
        }
        return lines.joined(separator: "\n")
    }

    package static func escaped(_ text: String) -> String { TerminalText.escaped(text) }

    /// The property changes as labelled lists, unescaped, each renderer escaping them for its reader; only the non-empty ones.
    package static func propertyLines(_ changes: FlowDiffReport.PropertyChanges) -> [(label: String, items: [String])] {
        let all: [(label: String, items: [String])] = [
            ("violations only in the new version", changes.new.map(\.description)),
            ("violations fixed", changes.fixed.map(\.description)),
            ("rules added", changes.rulesAdded),
            ("rules dropped", changes.rulesDropped),
            ("states only the new version reaches", changes.newStates),
            ("rows only the new version fires", changes.newRows.map(\.description)),
        ]
        return all.filter { !$0.items.isEmpty }
    }

    package static func bound(_ report: FlowDiffReport) -> String {
        report.depth.map { " (within \(ReportRenderer.counted($0, "move")) of the start)" } ?? ""
    }

    /// `at email, skip`, `at password, back`, `the initial screen`, `variant recovery=link`.
    package static func site(_ difference: FlowDiffReport.Difference) -> String {
        guard let state = difference.state else {
            switch (difference.old, difference.new) {
            case (.noVariant, _): return "a variant only the new version has"
            case (_, .noVariant): return "a variant only the old version has"
            default: return "the initial screen"
            }
        }
        return "at \(escaped(state)), \(escaped(difference.event ?? "?"))\(chosen(difference.values))"
    }

    /// ` [recovery=code]` for a flow with variants.
    package static func variant(_ values: [FlowSpec.KeyValue]) -> String {
        values.isEmpty ? "" : " [" + values.map { "\(escaped($0.key))=\(escaped($0.value))" }.joined(separator: ", ") + "]"
    }

    /// `(nextStep=done)` for the values the system chose.
    package static func chosen(_ values: [FlowSpec.KeyValue]) -> String {
        values.isEmpty ? "" : "(" + values.map { "\(escaped($0.key))=\(escaped($0.value))" }.joined(separator: ", ") + ")"
    }

    package static func data(_ data: [FlowDiffReport.Datum]) -> String {
        "{" + data.map { datum in datum.value.map { "\(escaped(datum.key))=\(escaped($0))" } ?? escaped(datum.key) }.joined(separator: ", ") + "}"
    }

    package static func result(_ result: FlowDiffReport.Result) -> String {
        switch result {
        case let .moves(state, values): return "→ \(escaped(state)) \(data(values))"
        case let .updates(state, values): return "→ \(escaped(state)) \(data(values)) in place"
        case let .returns(state, values): return "back → \(escaped(state)) \(data(values))"
        case let .resets(state, values): return "starts again at \(escaped(state)) \(data(values))"
        case .notOffered: return "not offered"
        case .back: return "back allowed"
        case .noBack: return "back not allowed"
        case let .starts(state): return "starts at \(escaped(state))"
        case .noVariant: return "no such variant"
        }
    }
}
