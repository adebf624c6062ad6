import AuthFlow
import AuthFlowChecker

/// `authcheck export --format promela SPEC`: the flow as a Promela model, so SPIN can explore the same stacks.
enum ExportCommand: Subcommand {
    static let name = "export"
    static let abstract = "the flow as a Promela model for SPIN"
    static let argumentsSynopsis = "SPEC"
    static let argumentsHelp = [(name: "SPEC", help: "one spec file (JSON, authflow/1 or authflow/2)")]
    static let formats = ["promela"]
    /// The formats other commands write, and the command that writes each: what `--format` points to instead.
    static let elsewhere = ["text": "check", "json": "check", "sarif": "check", "junit": "check", "dot": "coverage", "mermaid": "coverage"]
    static let format = Option("--format", value: formats.joined(separator: "|"), help:
        "the model's language (default promela); reports and graphs come from 'check' and 'coverage'",
        default: formats[0]) { text, name throws(UsageError) in
        if !formats.contains(text), let command = elsewhere[text] {
            throw .invalidValue(option: name, value: text, reason:
                "export writes \(formats.joined(separator: ", ")) only; for \(text) use 'authcheck \(command) --format \(text)'")
        }
        return try ValueParsers.choice(text, option: name, in: formats)
    }
    static let depth = CommonOptions.depth(help:
        "the model explores every undo stack of at most N forward events, as 'check --depth N' drives them (0...64; default \(CommonOptions.defaultDepth))")
    static let options = [format.spec, depth.spec, CommonOptions.variant.spec]
    static let discussion = [
        (title: "OUTPUT", body: """
            A Promela model of the bounded undo-stack exploration: the stack as an array of
            frames (state and data bit set), one push per legal forward event up to --depth,
            an assert per 'requires'. Run it with 'spin -a model.pml && cc -DSAFETY -o pan pan.c
            && ./pan'. SPIN's 'states, stored' equals the 'stacks' count of 'authcheck check
            --depth N' plus one for SPIN's initialisation step.
            """),
        (title: "EXIT STATUS", body: HelpFormatter.exitStatus(writing: "the model was")),
    ]

    struct Settings: CommandSettings {
        /// Only promela, for now.
        var format: String
        var depth: Int
        var spec: String
        var variants: [String: Set<String>] = [:]

        init(_ parsed: ParsedArguments) throws(UsageError) {
            format = try parsed.value(of: ExportCommand.format)
            depth = try parsed.value(of: ExportCommand.depth)
            variants = try parsed.value(of: CommonOptions.variant)
            spec = try parsed.single("SPEC", reason: "export takes one SPEC")
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        switch SpecRunner.load(settings.spec, options: CheckOptions(variants: settings.variants)) {
        case let .invalid(report):
            SpecRunner.diagnose(report, stdout: .nothing, console: context.console)
            return 2
        case let .model(model):
            if SpecRunner.refusesDataDependent(model, command: "export", spec: settings.spec, console: context.console) { return 2 }
            context.console.out(PromelaExporter.export(model, depth: settings.depth))
            return 0
        }
    }
}
