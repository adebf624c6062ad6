import AuthFlow
import AuthFlowChecker

/// `authcheck export --format promela SPEC`: the flow as a Promela model, so SPIN explores the same space and finds the same violations.
enum ExportCommand: Subcommand {
    static let name = "export"
    static let abstract = "the flow as a Promela model for SPIN"
    static let argumentsSynopsis = "SPEC"
    static let argumentsHelp = [(name: "SPEC", help: "one spec file (JSON, authflow/1 or authflow/2), or - for standard input")]
    static let formats = ExportFormat.names
    /// The formats other commands write, and the command that writes each: what `--format` points to instead.
    static let elsewhere = ["text": "check", "json": "check", "sarif": "check", "junit": "check", "dot": "coverage", "mermaid": "coverage"]
    static let format = Option("--format", value: formats.joined(separator: "|"), help:
        "the model's language (default promela); reports and graphs come from 'check' and 'coverage'",
        default: ExportFormat.promela) { text, name throws(UsageError) in
        if !formats.contains(text), let command = elsewhere[text] {
            throw .invalidValue(option: name, value: text, reason:
                "export writes \(formats.joined(separator: ", ")) only; for \(text) use 'authcheck \(command) --format \(text)'")
        }
        return try ValueParsers.choice(text, option: name, in: ExportFormat.self)
    }
    /// `--depth N`: export the stacks of at most N events instead of the configurations (no default: absent means configurations).
    static let depth = Option<Int?>("--depth", value: "N", help:
        "export the undo stacks of at most N forward events, as 'check --depth N' drives them (0...64), instead of every configuration",
        default: nil) { text, name throws(UsageError) in
        try ValueParsers.integer(text, option: name, in: CommonOptions.depthRange)
    }
    static let options = [format.spec, depth.spec, CommonOptions.timeout.spec, CommonOptions.variant.spec]
    static let discussion = [
        (title: "OUTPUT", body: """
            A Promela model of the flow. Without --depth: every reachable configuration
            (state and data) once, with the properties a safety run can state: an assertion
            for illegal-transition, unmet-requirement, terminal-exit and each of the spec's
            always and never properties, named after the property (rule_ and the id, with _
            for -, for the spec's own), and deadlock as an invalid end state. pan then reports
            an error of a property exactly when 'authcheck check' reports it; no-exit and
            reachable say that a path exists, which a safety run cannot state. SPIN's
            'states, stored' equals the configurations plus one for SPIN's initialisation
            step. Run it with
            'spin -a model.pml && cc -DSAFETY -o pan pan.c && ./pan -c0 -m1000000'.
            With --depth N: the bounded undo-stack walk, the stack as an array of frames,
            one push per legal forward event up to N and back as a pop, with the same
            assertions and deadlock asserted on each frame entered (back keeps the process
            running, so no end state is invalid there); SPIN's 'states, stored' equals the
            'stacks' count of 'authcheck check --depth N' plus one.
            """),
        (title: "EXIT STATUS", body: HelpFormatter.exitStatus(writing: "the model was") + "\n3  --timeout passed before the model was written (stdout stays empty)"),
    ]

    struct Settings: CommandSettings {
        /// Only promela, for now.
        var format: ExportFormat
        /// The stack bound, or `nil` for the configurations model.
        var depth: Int?
        var spec: String
        var variants: [String: Set<String>] = [:]
        var timeout: Double?

        init(_ parsed: ParsedArguments) throws(UsageError) {
            format = try parsed.value(of: ExportCommand.format)
            depth = try parsed.value(of: ExportCommand.depth)
            timeout = try parsed.value(of: CommonOptions.timeout)
            variants = try parsed.value(of: CommonOptions.variant)
            spec = try parsed.single("SPEC", reason: "export takes one SPEC")
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        let deadline = Deadline(timeout: settings.timeout ?? CommonOptions.defaultTimeout)
        switch SpecRunner.load(settings.spec, options: CheckOptions(variants: settings.variants), input: context.console, deadline: deadline) {
        case let .invalid(report):
            SpecRunner.diagnose(report, stdout: .nothing, console: context.console)
            return report.exitCode
        case let .model(model):
            guard let text = PromelaExporter.export(model, space: settings.depth.map { .stacks(depth: $0) } ?? .configurations, deadline: deadline) else {
                // Half a model would not parse: nothing on stdout.
                context.console.err("\(SpecRunner.displayName(settings.spec)): incomplete — \(deadline.stopReason.map { "\($0)" } ?? "the deadline passed") before the model was written")
                return 3
            }
            context.console.out(text)
            return 0
        }
    }
}
