import AuthFlow

/// A report with the model it checked, so that reports for editors and CI can point at lines of the spec.
///
/// The model is `nil` for an invalid spec: its problems carry their own locations.
package struct LocatedReport: Sendable {
    /// What the check found.
    package var report: CheckReport
    /// The model the report is about, loaded with its source locations.
    package var model: FlowModel?

    package init(report: CheckReport, model: FlowModel?) {
        self.report = report
        self.model = model
    }
}

/// One thing a CI report lists, located in its spec file: a violation, a problem of an invalid
/// spec, a lint finding or a spec warning.
///
/// SARIF results and GitHub workflow annotations are both written from findings, so they list
/// the same things at the same lines.
package struct Finding: Hashable, Sendable {
    /// How much a finding matters, in SARIF's words.
    package enum Level: String, Hashable, Sendable {
        /// Fails the check: a violation, or a problem that makes the spec invalid.
        case error
        /// Worth a look: a spec warning, or lint under `--strict` (which then fails the check).
        case warning
        /// Lint, reported but not failing.
        case note
    }

    /// The rule: a property id (`deadlock`) or one of ``Finding/extraRules``' ids (`invalid-spec`).
    package var ruleID: String
    /// How much it matters.
    package var level: Level
    /// What is wrong; for a violation, its message, counterexample and replay command on three lines.
    package var message: String
    /// The spec file, as the report names it.
    package var file: String
    /// Where in the file; `nil` when the file gives no location (a missing file).
    package var location: SourceLocation?

    package init(ruleID: String, level: Level, message: String, file: String, location: SourceLocation?) {
        self.ruleID = ruleID
        self.level = level
        self.message = message
        self.file = file
        self.location = location
    }

    /// The rules findings use besides the properties, each with one line saying what it flags.
    package static let extraRules: [(id: String, summary: String)] = [
        ("invalid-spec", "the spec is a valid authflow document: well-formed JSON, known keys, existing states, a deterministic table"),
        ("spec-warning", "the spec has no suspicious but harmless declarations, such as an identical duplicate transition"),
        ("unreachable-state", "every step is reachable from the initial state (lint)"),
        ("dead-transition", "every declared transition fires from some reachable configuration (lint)"),
        ("unused-data", "every data key a step produces is required by some step (lint)"),
    ]

    /// Every finding of `located`, in report order: the invalid spec's problems, or the spec
    /// warnings, the violations, then lint.
    ///
    /// Each is placed where a person fixes it: an illegal transition at the step's `emits` entry
    /// for the event, an unmet requirement at the state's `requires`, the other properties at the
    /// state's step (at the event's `emits` entry when the site has an event), a dead transition
    /// at its row, unused data at the first `emits` entry that adds it, an invalid spec's problem
    /// at its own line:column.
    package static func findings(of located: LocatedReport) -> [Finding] {
        let report = located.report
        let model = located.model
        if let error = report.error {
            return error.issues.map { issue in
                Finding(ruleID: "invalid-spec", level: .error, message: issue.isWholeFile ? issue.message : "\(issue.path): \(issue.message)", file: report.spec,
                        location: issue.location)
            }
        }
        var findings = report.warnings.map { warning in
            Finding(ruleID: "spec-warning", level: .warning, message: "\(warning.path): \(warning.message)", file: report.spec,
                    location: warning.location)
        }
        for violation in report.violations {
            let replay = ReportRenderer.replayCommand(for: violation, in: report)
            var lines = [violation.message]
            if !violation.path.isEmpty { lines.append("counterexample: " + pathLine(violation)) }
            lines.append("replay: " + replay)
            findings.append(Finding(ruleID: violation.property.id, level: .error, message: lines.joined(separator: "\n"),
                                    file: report.spec, location: model.flatMap { location(of: violation, in: $0) }))
        }
        let lintLevel: Level = report.strict ? .warning : .note
        func lint(_ rule: String, _ message: String, _ location: SourceLocation?) {
            findings.append(Finding(ruleID: rule, level: lintLevel, message: message, file: report.spec, location: location))
        }
        for state in report.lint.unreachable {
            lint("unreachable-state", "state \(state) is not reachable from the initial state", model?.location(ofStep: state))
        }
        for transition in report.lint.deadTransitions {
            let row = model?.spec.transitions.firstIndex {
                Lint.rowName(from: $0.from, on: $0.on) == transition || Lint.rowName(from: $0.from, on: $0.on, to: $0.to) == transition
            }
            lint("dead-transition", "transition \(transition) never fires from a reachable configuration",
                 row.flatMap { model?.location(ofRow: $0) })
        }
        for key in report.lint.unusedData {
            let producer = model?.spec.steps.lazy.compactMap { step in
                step.emits.first { $0.adds.contains(key) }.map { (step.state, $0.event) }
            }.first
            lint("unused-data", "data key \(key) is produced but no step requires it",
                 producer.flatMap { model?.location(ofEmission: $0.1, inStep: $0.0) })
        }
        return findings
    }

    /// Where a person fixes `violation` in `model`'s file.
    package static func location(of violation: Violation, in model: FlowModel) -> SourceLocation? {
        if violation.property.isUserDefined {
            // The row whose move broke the rule: the last step of its path, where a person changes the flow; a rule
            // broken at the start (or on a frame back returned to) is placed at its own entry in `properties`.
            if violation.path.count >= 2, let last = violation.path.last, let event = last.step?.event,
               let row = model.location(ofRowFrom: violation.path[violation.path.count - 2].state, on: event, to: last.state) {
                return row
            }
            return model.location(ofProperty: violation.property.id)
        }
        guard let state = violation.state else { return nil }
        let step = model.location(ofStep: state)
        switch violation.property {
        case .unmetRequirement:
            return model.location(ofRequires: state) ?? step
        case .passcode:
            return model.location(ofMember: "passcode") ?? model.location(ofMember: "format")
        case .assurance:
            return model.location(ofAssurance: state) ?? step
        default:
            return violation.event.flatMap { model.location(ofEmission: $0, inStep: state) } ?? step
        }
    }

    /// The counterexample on one line, in the notation of the spec's own messages:
    /// `start --begin--> code --resend--> (no transition from code)`.
    package static func pathLine(_ violation: Violation) -> String {
        var text = violation.path.first?.state ?? violation.state ?? "(no path)"
        for step in violation.path.dropFirst() {
            text += " --\(step.event ?? "?")--> \(step.state)"
        }
        if violation.property == .illegalTransition, let event = violation.event {
            text += " --\(event)--> (no transition from \(violation.state ?? "?"))"
        }
        return text
    }
}
