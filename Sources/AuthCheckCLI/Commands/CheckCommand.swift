import AuthFlow
import AuthFlowChecker

/// `authcheck check SPEC...`: validates each spec and checks every property, one report per spec.
enum CheckCommand: Subcommand {
    static let name = "check"
    static let abstract = "check every property of each spec; one report per spec"
    static let argumentsSynopsis = "SPEC..."
    static let argumentsHelp = [(name: "SPEC...", help: "spec files (JSON, authflow/1 or authflow/2); each is checked and reported on its own; - reads one from standard input (named <stdin> in reports)")]
    static let declared = CheckingOptions(format: CommonOptions.format(CheckFormat.self, help:
        "output format (default text); json prints the contract's report object, sarif a SARIF 2.1.0 log for code scanning, junit JUnit XML for CI test reports, html one page with each flow and its counterexamples drawn",
        drawsElsewhere: true))
    static let quiet = Option(flag: "--quiet", help:
        "print only what fails: nothing for a spec that holds (the exit status still says); text format only")
    static let options = declared.specs + [quiet.spec]
    static let discussion = [
        (title: "OUTPUT", body: """
            text: per spec a verdict line, each violation as a numbered counterexample
            (the breaking step marked, and the command that replays it), lint, and stats.
            json: the contract's report object per spec; an array when several specs are
            given (even if one is invalid). An invalid spec's problems are in the report;
            with json, sarif and junit it also gets one 'error:' line on stderr.
            sarif: one SARIF 2.1.0 run; a result per violation, invalid-spec problem and
            lint finding (a note, a warning under --strict), each at the line of the spec
            to fix: the step, its emits entry for the event, its requires, or the row.
            junit: a testsuite per spec, a testcase per property (the counterexamples in
            the failure), an invalid spec as an error.
            html: one self-contained page; per spec the flow as a graph with its coverage
            counts, each violation's path walked on it step by step, an invalid spec's
            problems. Open it from disk: it loads nothing.
            With GITHUB_ACTIONS=true, also a workflow command per finding (::error for
            violations and invalid specs, ::warning for lint) that annotates the spec's
            lines: on stdout after text, on stderr with the other formats.
            """),
        (title: "EXIT STATUS", body: HelpFormatter.exitStatus(several: true)),
    ]

    struct Settings: CommandSettings {
        var check: CheckSettings<CheckFormat>
        var quiet: Bool
        var specs: [String]

        init(_ parsed: ParsedArguments) throws(UsageError) {
            check = try CheckSettings(parsed, options: declared)
            quiet = try parsed.value(of: CheckCommand.quiet)
            guard !parsed.positionals.isEmpty else { throw .missingArgument("SPEC") }
            specs = parsed.positionals
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        let options = settings.check.checkOptions
        let format = settings.check.format
        var located: [LocatedReport] = []
        var printed = 0
        for path in settings.specs {
            let result = SpecRunner.check(path, options: options, context: context)
            located.append(result)
            let report = result.report
            if report.verdict == .invalid { SpecRunner.diagnose(report, stdout: format == .text ? .textReport : .document, console: context.console) }
            if format == .text && !(settings.quiet && report.verdict == .holds) {
                if printed > 0 { context.console.out("") }
                context.console.out(ReportRenderer.text(report, style: context.style))
                printed += 1
            }
        }
        let reports = located.map(\.report)
        switch format {
        case .json:
            let json = reports.count == 1 ? ReportRenderer.json(reports[0]) : .array(reports.map(ReportRenderer.json))
            context.console.out(json.rendered(pretty: true))
        case .sarif:
            context.console.out(SARIFRenderer.render(located, toolVersion: AuthCheckCommand.version))
        case .junit:
            context.console.out(JUnitRenderer.render(reports, checked: settings.check.properties))
        case .html:
            context.console.out(HTMLPage.render(HTMLPage.sections(located, options: options), heading: "authcheck check"))
        case .text:
            if reports.count > 1 && printed > 0 {
                context.console.out("")
                context.console.out(SpecRunner.summary(reports))
            }
        }
        if context.environment.annotatesForGitHub {
            // GitHub reads workflow commands from the step's output; a document on stdout must stay valid.
            for line in WorkflowAnnotations.lines(located) {
                if format == .text { context.console.out(line) } else { context.console.err(line) }
            }
        }
        return SpecRunner.exitStatus(reports.map(\.exitCode))
    }
}
