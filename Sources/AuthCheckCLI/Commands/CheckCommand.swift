import AuthFlow
import AuthFlowChecker

/// `authcheck check SPEC...`: validates each spec and checks every property, one report per spec.
enum CheckCommand: Subcommand {
    static let name = "check"
    static let abstract = "check every property of each spec; one report per spec"
    static let argumentsSynopsis = "SPEC..."
    static let argumentsHelp = [(name: "SPEC...", help: "authflow/1 spec files (JSON); each is checked and reported on its own")]
    static let formats = ["text", "json"]
    static let declared = CheckingOptions(format: CommonOptions.format(formats, drawsElsewhere: true))
    static let options = declared.specs
    static let discussion = [
        (title: "OUTPUT", body: """
            text: per spec a verdict line, each violation as a numbered counterexample
            (the breaking step marked, and the command that replays it), lint, and stats.
            json: the contract's report object per spec; an array when several specs are
            given (even if one is invalid). An invalid spec also gets an 'error:' line on
            stderr.
            """),
        (title: "EXIT STATUS", body: HelpFormatter.exitStatus(several: true)),
    ]

    struct Settings: CommandSettings {
        var check: CheckSettings
        var specs: [String]

        init(_ parsed: ParsedArguments) throws(UsageError) {
            check = try CheckSettings(parsed, options: declared)
            guard !parsed.positionals.isEmpty else { throw .missingArgument("SPEC") }
            specs = parsed.positionals
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        let options = settings.check.checkOptions
        var reports: [CheckReport] = []
        for (i, path) in settings.specs.enumerated() {
            let report = SpecRunner.check(path, options: options, context: context)
            reports.append(report)
            if report.verdict == .invalid { context.console.err(SpecRunner.invalidLine(report)) }
            if settings.check.format == "text" {
                if i > 0 { context.console.out("") }
                context.console.out(ReportRenderer.text(report, style: context.style))
            }
        }
        if settings.check.format == "json" {
            let json = reports.count == 1 ? ReportRenderer.json(reports[0]) : .array(reports.map(ReportRenderer.json))
            context.console.out(json.rendered(pretty: true))
        } else if reports.count > 1 {
            context.console.out("")
            context.console.out(SpecRunner.summary(reports))
        }
        return SpecRunner.exitStatus(reports.map(\.exitCode))
    }
}
