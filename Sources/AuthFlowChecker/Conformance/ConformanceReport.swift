import AuthFlow

/// The result of ``FlowGate/assertConforms(spec:depth:runs:seed:callerFile:make:)``: the exhaustive walk and the random paths.
public struct ConformanceReport: Sendable {
    /// The spec as the caller named it.
    public var spec: String
    /// The spec's secret keys, whose values print as `<redacted>`.
    public var secrets: Set<String>
    /// The exhaustive walk; `nil` when the spec could not be loaded.
    public var walk: ConformanceWalk?
    /// The random paths (walked only when the walk conforms).
    public var fuzz: FuzzReport?
    /// The options the random paths ran with, for the replay line.
    public var fuzzOptions: FuzzOptions
    /// Why the spec could not be checked, when it could not.
    public var error: InvalidSpecError?

    public init(spec: String, secrets: Set<String>, walk: ConformanceWalk? = nil, fuzz: FuzzReport? = nil,
                fuzzOptions: FuzzOptions, error: InvalidSpecError? = nil) {
        self.spec = spec
        self.secrets = secrets
        self.walk = walk
        self.fuzz = fuzz
        self.fuzzOptions = fuzzOptions
        self.error = error
    }

    /// `invalid`, else `violated` when either search found a failure, else `incomplete` when a limit stopped one, else `holds`.
    public var verdict: Verdict {
        if error != nil { return .invalid }
        if !(walk?.violations.isEmpty ?? true) || fuzz?.failure != nil { return .violated }
        if walk?.stoppedBy != nil || fuzz?.stoppedBy != nil { return .incomplete }
        return .holds
    }
}

/// The error ``FlowGate/assertConforms(spec:depth:runs:seed:callerFile:make:)`` throws: its description is the whole report.
public struct ConformanceFailure: Error, CustomStringConvertible, Sendable {
    /// The report of the failed check.
    public var report: ConformanceReport

    public init(report: ConformanceReport) {
        self.report = report
    }

    public var description: String { ConformanceRenderer.text(report) }
}

/// Renders conformance reports for a person reading a failed test: numbered steps, the breaking
/// step's expected and actual frame as a diff, secrets redacted, and how to replay it.
public enum ConformanceRenderer {
    /// How many of the walk's violations are printed in full; the rest are listed by site.
    public static let printedInFull = 3

    /// The report as text.
    ///
    /// The walk's first ``printedInFull`` violations (shortest first) print as counterexamples;
    /// a broken table can violate hundreds of sites, so the others are listed by site only.
    ///
    /// ```
    /// Specs/email-first.json: violated — the implementation does not conform: 8 violations in the exhaustive walk to depth 12
    ///    steps show what changed: +key added, -key cleared, key a→b changed; {…} is all the data
    ///
    /// 1) undo-mismatch at password on knownEmail — 3 steps
    ///    after back from password (entered by knownEmail), … email is #2, expected absent; …
    ///        (start)     → start     {}
    ///     1. startAuth   → email
    ///     2. knownEmail  → password  +email=#2, +account=#2
    ///  ✗  3. back        → email     -email, -account   ← undo-mismatch
    ///                                {}
    ///    frame after step 3 (− expected by the spec, + actual in the implementation):
    ///        state    email
    ///      + email    #2
    ///      + account  #2
    ///    replay: the path startAuth knownEmail back, found by the walk to depth 12
    /// ```
    public static func text(_ report: ConformanceReport, style: TextStyle = .plain) -> String {
        let subject = DriverTraits.app.subject
        var lines: [String] = []
        if let error = report.error {
            lines.append("\(report.spec): \(style.bad("invalid")) — \(error.issues.count) problem\(error.issues.count == 1 ? "" : "s")")
            lines += error.issues.map { "   \($0)" }
            return lines.joined(separator: "\n")
        }
        let walk = report.walk
        if let walk, !walk.violations.isEmpty {
            let count = walk.violations.count
            lines.append("\(report.spec): \(style.bad("violated")) — \(subject) does not conform: "
                         + "\(count) violation\(count == 1 ? "" : "s") in the exhaustive walk to depth \(walk.depth)")
            if CounterexampleRenderer.needsLegend(Array(walk.violations.prefix(printedInFull))) {
                lines.append("   \(CounterexampleRenderer.legend)")
            }
            for (i, violation) in walk.violations.prefix(printedInFull).enumerated() {
                let path = violation.path.dropFirst().compactMap(\.event)
                lines.append("")
                lines.append(CounterexampleRenderer.render(
                    violation, number: i + 1,
                    replay: "the path \(path.isEmpty ? "(start)" : path.joined(separator: " ")), found by the walk to depth \(walk.depth)",
                    secrets: report.secrets, style: style, subject: subject))
            }
            let rest = walk.violations.dropFirst(printedInFull)
            if !rest.isEmpty {
                let listed = rest.prefix(20).map { "\($0.site) (\($0.length) step\($0.length == 1 ? "" : "s"))" }
                lines.append("")
                lines.append("\(rest.count) more: " + listed.joined(separator: ", ") + (rest.count > 20 ? ", …" : ""))
            }
        } else if let fuzz = report.fuzz, let failure = fuzz.failure {
            let options = report.fuzzOptions
            lines.append("\(report.spec): \(style.bad("violated")) — \(subject) does not conform: a random path failed "
                         + "(run \(failure.run + 1) of \(options.runs), seed \(failure.seed))")
            if CounterexampleRenderer.needsLegend([failure.violation]) { lines.append("   \(CounterexampleRenderer.legend)") }
            lines.append("")
            lines.append(CounterexampleRenderer.render(
                failure.violation, number: 1,
                replay: "seed \(failure.seed) with runs ≥ \(failure.run + 1) walks it again; replay(\(swiftLiteral(failure.shrunk))) replays the shrunk path",
                secrets: report.secrets, style: style, subject: subject))
            lines.append("   shrunk from \(failure.original.count) to \(failure.shrunk.count) steps in \(failure.shrinkReplays) replays "
                         + "(\(FuzzReportRenderer.shortestText(failure)))")
        } else {
            let verdict = report.verdict == .holds ? style.good("holds") : style.warn("incomplete")
            lines.append("\(report.spec): \(verdict) — \(subject) conforms: "
                         + "\(ReportRenderer.counted(walk?.stacks ?? 0, "stack")) at depth \(walk?.depth ?? 0), "
                         + "\(ReportRenderer.counted(report.fuzz?.runs ?? 0, "random path")) (seed \(report.fuzzOptions.seed))")
            if let stop = walk?.stoppedBy ?? report.fuzz?.stoppedBy { lines.append("stopped: \(stop)") }
        }
        return lines.joined(separator: "\n")
    }

    /// `[.event("startAuth", values: nil), .back]`: a path as Swift source, for ``FlowConformance/replay(_:)``.
    static func swiftLiteral(_ path: [FuzzAction]) -> String {
        "[" + path.map { action in
            switch action {
            case .back, .undo: return ".back"
            case let .event(name, values), let .reset(name, values):
                let call = action.isReset ? ".reset" : ".event"
                switch values {
                case let .ordered(values): return "\(call)(\(name.debugDescription), values: [\(values.map(\.debugDescription).joined(separator: ", "))])"
                case .simple: return "\(call)(\(name.debugDescription), values: nil)"
                case let .named(pairs):
                    return "\(call)(\(name.debugDescription), values: [" + pairs.sorted { $0.key < $1.key }
                        .map { "\($0.key.debugDescription): \($0.value.debugDescription)" }.joined(separator: ", ") + "])"
                }
            }
        }.joined(separator: ", ") + "]"
    }
}
