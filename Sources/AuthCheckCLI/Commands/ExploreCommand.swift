import AuthFlow
import AuthFlowChecker

/// `authcheck explore SPEC`: every violation with its full counterexample path, each property's result, and stats.
enum ExploreCommand: Subcommand {
    static let name = "explore"
    static let abstract = "every violation's full path, each property's result"
    static let argumentsSynopsis = "SPEC"
    static let argumentsHelp = [(name: "SPEC", help: "one spec file (JSON, authflow/1 or authflow/2), or - for standard input; use 'check' for several")]
    static let declared = CheckingOptions(format: CommonOptions.format(ExploreFormat.self, help:
        "output format (default text); json prints the contract's report object, sarif a SARIF 2.1.0 log for code scanning, html one page with the flow and each counterexample drawn",
        drawsElsewhere: true))
    static let trail = Option<String?>("--trail", value: "DIR",
                                       help: "write each violation as a trail file in DIR (created) for 'authcheck replay'",
                                       default: nil) { text, _ throws(UsageError) in text }
    static let options = declared.specs + [trail.spec]
    static let discussion = [
        (title: "OUTPUT", body: """
            text: the report as 'check' prints it (every violation, one per site, with its
            shortest counterexample: the events from the start, the state and data after
            each step, the breaking step marked; runtime paths also show data values, and
            secrets as <redacted>), then each property's result and the stats.
            json: the contract's report object, plus "properties": per property its "id",
            its "result" (holds, violated, incomplete or not checked) and its "sites"; a
            spec's own always or never rule also has "runtimeWalk", what the walk of the
            runtime found on the frames it held: holds, violated (the spec breaks it too) or
            violated-by-runtime (only the runtime breaks it; the walk's path is reported).
            sarif: a SARIF 2.1.0 log, as 'check --format sarif' writes it.
            html: one self-contained page, as 'check --format html' writes it.
            """),
        (title: "EXIT STATUS", body: HelpFormatter.exitStatus(several: false)),
    ]

    struct Settings: CommandSettings {
        var check: CheckSettings<ExploreFormat>
        var spec: String
        var trail: String?

        init(_ parsed: ParsedArguments) throws(UsageError) {
            check = try CheckSettings(parsed, options: declared)
            trail = try parsed.value(of: ExploreCommand.trail)
            spec = try parsed.single("SPEC", reason: "explore takes one SPEC; use 'authcheck check' for several")
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        let located = SpecRunner.check(settings.spec, options: settings.check.checkOptions, context: context)
        let report = located.report
        if report.verdict == .invalid { SpecRunner.diagnose(report, stdout: settings.check.format == .text ? .textReport : .document, console: context.console) }
        if let directory = settings.trail, let model = located.model, !report.violations.isEmpty {
            if let failure = TrailFiles.write(report.violations, model: model, to: directory, context: context) {
                context.console.err("error: \(failure)")
                return 2
            }
        }
        switch settings.check.format {
        case .json:
            // check's report, plus each property's result: explore is about the properties.
            var json = ReportRenderer.json(report)
            if report.verdict != .invalid, case let .object(object) = json {
                let results = propertyResults(report, requested: settings.check.properties).map { result in
                    var members: [(String, JSON)] = [("id", .string(result.property.id)), ("result", .string(result.status.rawValue)),
                                                     ("sites", .array(result.sites.map(JSON.string)))]
                    // A spec's own always/never rule: what the runtime walk found on the frames it drove.
                    if let walked = report.runtimeRules[result.property] { members.append(("runtimeWalk", .string(walked.rawValue))) }
                    return JSON.object(JSONObject(members))
                }
                json = .object(JSONObject(object.members.map { ($0.key, $0.value) } + [("properties", .array(results))]))
            }
            context.console.out(json.rendered(pretty: true))
        case .sarif:
            context.console.out(SARIFRenderer.render([located], toolVersion: AuthCheckCommand.version))
        case .html:
            context.console.out(HTMLPage.render(HTMLPage.sections([located], options: settings.check.checkOptions),
                                                heading: "authcheck explore"))
        case .text:
            var text = ReportRenderer.text(report, style: context.style)
            if report.verdict != .invalid {
                text += "\n\n" + propertyTable(report, requested: settings.check.properties, style: context.style)
            }
            context.console.out(text)
        }
        return report.exitCode
    }

    /// Each property's result: holds, violated (with its sites), incomplete, or not checked.
    /// A property's result in an explore run.
    enum PropertyStatus: String {
        case holds, violated, incomplete
        case notChecked = "not checked"
    }

    /// Each property's result, in id order: not checked, violated (with its sites), incomplete, or holds.
    static func propertyResults(_ report: CheckReport, requested: Set<Property>?)
        -> [(property: Property, status: PropertyStatus, sites: [String])] {
        report.properties.map { property in
            let sites = report.violations.filter { $0.property == property }
            if !(requested?.contains(property) ?? true) { return (property, .notChecked, []) }
            if !sites.isEmpty {
                // A violated `reachable` has no site: nothing reachable shows it.
                return (property, .violated, sites.filter { $0.state != nil }.map(\.place))
            }
            return (property, report.stoppedBy != nil ? .incomplete : .holds, [])
        }
    }

    static func propertyTable(_ report: CheckReport, requested: Set<Property>?, style: TextStyle) -> String {
        let width = report.properties.map { TerminalText.width($0.id) }.max() ?? 0
        var lines = ["properties:"]
        for result in propertyResults(report, requested: requested) {
            let status: String
            var detail = ""
            switch result.status {
            case .notChecked: status = style.dim("not checked")
            case .violated:
                status = style.bad("violated")
                if result.sites.isEmpty, let violation = report.violations.first(where: { $0.property == result.property }) {
                    detail = ": \(violation.unsatisfiedSummary)"
                } else {
                    detail = " at \(result.sites.joined(separator: ", "))"
                }
                switch report.runtimeRules[result.property] {
                case .violated?: detail += " (the runtime walk breaks it too)"
                case .violatedByRuntime?: detail += " (by the runtime: the spec keeps it)"
                case .holds?: detail += " (no frame the runtime held on a stack of at most \(report.stats.depth) events breaks it)"
                case nil: break
                }
            case .incomplete: status = style.warn("incomplete")
            case .holds:
                status = style.good("holds")
                if result.property == .undoMismatch || result.property == .divergence {
                    detail = " on every stack of at most \(report.stats.depth) events"
                } else if report.runtimeRules[result.property] != nil {
                    detail = ", and on every frame the runtime held on every stack of at most \(report.stats.depth) events"
                }
            }
            lines.append("  \(TerminalText.padded(result.property.id, toWidth: width))  \(status)\(detail)")
        }
        return lines.joined(separator: "\n")
    }
}
