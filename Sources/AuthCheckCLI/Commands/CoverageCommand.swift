import AuthFlow
import AuthFlowChecker

/// `authcheck coverage SPEC`: reachable and unreachable states, fired and dead transitions, with counts.
enum CoverageCommand: Subcommand {
    static let name = "coverage"
    static let abstract = "reachable states, fired transitions, and their counts"
    static let argumentsSynopsis = "SPEC"
    static let argumentsHelp = [(name: "SPEC", help: "one spec file (JSON, authflow/1 or authflow/2), or - for standard input")]
    static let declared = CheckingOptions(
        depth: CommonOptions.depth(help: "count the undo stacks of at most N forward events (0...64; default \(CommonOptions.defaultDepth))"),
        format: CommonOptions.format(CoverageFormat.self, help: "output format (default text); see FORMATS"),
        workers: nil)
    static let options = declared.specs
    static let discussion = [
        (title: "COUNTS", body: """
            configurations (per state): the reachable (state, data keys) configurations
              whose state it is; they sum to the spec's configurations.
            stacks (per state): the distinct undo stacks of at most --depth forward
              events whose top frame is in the state; they sum to the spec's stacks (the
              start stack included), the figure 'check' reports.
            stacks (per transition): the distinct stacks of at most --depth events whose
              top frame the transition pushed; they sum to stacks - 1. When two events of
              one step push the same frame, that stack counts for the earlier event.
            A transition is fired when its source state is reachable and emits its event;
            otherwise it is dead. A fired transition may count 0 stacks at a small depth.
            """),
        (title: "FORMATS", body: """
            text     tables, unreachable states and dead transitions first
            json     the same figures as one object
            dot      a Graphviz digraph: coverage --format dot SPEC | dot -Tsvg > flow.svg
                     (initial state marked, success states double circles, abort states
                     grey, unreachable states and dead transitions dashed and grey,
                     states with violations red with the properties)
            mermaid  a stateDiagram-v2 for Markdown (GitHub renders it)
            html     one self-contained page: coverage --format html SPEC > flow.html
                     (the graph laid out left to right, counts on hover, violations
                     walked step by step on it, tables of states and transitions)
            """),
        (title: "EXIT STATUS", body: """
            As 'check', for the spec properties: coverage does not drive the runtime, so
            undo-mismatch and divergence are left to 'check' and 'explore'.
            """ + "\n" + HelpFormatter.exitStatus(several: false)),
    ]

    struct Settings: CommandSettings {
        var check: CheckSettings<CoverageFormat>
        var spec: String

        init(_ parsed: ParsedArguments) throws(UsageError) {
            check = try CheckSettings(parsed, options: declared)
            spec = try parsed.single("SPEC", reason: "coverage takes one SPEC")
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        let path = SpecRunner.displayName(settings.spec)
        let options = settings.check.checkOptions
        let start = context.environment.clock.now()
        let model: FlowModel
        switch SpecRunner.load(settings.spec, options: options, input: context.console) {
        case let .invalid(report):
            switch settings.check.format {
            case .text:
                context.console.out(ReportRenderer.text(report, style: context.style))
                SpecRunner.diagnose(report, stdout: .textReport, console: context.console)
            case .json:
                context.console.out(ReportRenderer.json(report).rendered(pretty: true))
                SpecRunner.diagnose(report, stdout: .document, console: context.console)
            case .dot, .mermaid, .html:
                // No graph to draw: stdout stays empty.
                SpecRunner.diagnose(report, stdout: .nothing, console: context.console)
            }
            return report.exitCode
        case let .model(loaded):
            model = loaded
        }

        let (check, coverage) = ProgressLine.around(label: path, depthBound: settings.check.depth, console: context.console) {
            FlowChecker.coverage(model, source: path, options: options,
                                 normalise: context.environment.makeNormaliser(model),
                                 start: start, clock: context.environment.clock)
        }
        let report = CoverageReport(spec: path, name: model.name, coverage: coverage, check: check)
        switch settings.check.format {
        case .json: context.console.out(CoverageJSON.render(report).rendered(pretty: true))
        case .dot: context.console.out(CoverageDot.render(report))
        case .mermaid: context.console.out(CoverageMermaid.render(report))
        case .html: context.console.out(HTMLPage.render([.coverage(report)], heading: "authcheck coverage"))
        case .text: context.console.out(CoverageText.render(report, style: context.style))
        }
        return check.exitCode
    }
}
