import AuthFlow
import AuthFlowChecker

/// `authcheck export --format promela SPEC`: the flow as a Promela model, so SPIN can explore the same stacks.
enum ExportCommand: Subcommand {
    static let name = "export"
    static let abstract = "the flow as a Promela model for SPIN"
    static let argumentsSynopsis = "SPEC"
    static let argumentsHelp = [(name: "SPEC", help: "one authflow/1 spec file (JSON)")]
    static let formats = ["promela"]
    static let options = [
        OptionSpec("--format", value: "promela", help: "the model's language (default promela)"),
        CommonOptions.depth,
    ]
    static let discussion = [
        (title: "OUTPUT", body: """
            A Promela model of the bounded undo-stack exploration: the stack as an array of
            frames (state and data bit set), one push per legal forward event up to --depth,
            an assert per 'requires'. Run it with 'spin -a model.pml && cc -DSAFETY -o pan pan.c
            && ./pan'. SPIN's 'states, stored' equals the 'stacks' count of 'authcheck check
            --depth N' plus one for SPIN's initialisation step.
            """),
        (title: "EXIT STATUS", body: """
            0  the model was written
            2  an invalid spec, or wrong usage
            """),
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) -> Int32 {
        if let text = arguments.value("--format") { _ = try ValueParsers.choice(text, option: "--format", in: formats) }
        var depth = CommonOptions.defaultDepth
        if let text = arguments.value("--depth") { depth = try ValueParsers.integer(text, option: "--depth", in: CommonOptions.depthRange) }
        guard let path = arguments.positionals.first else { throw .missingArgument("SPEC") }
        if arguments.positionals.count > 1 {
            throw .unexpectedArgument(arguments.positionals[1], reason: "export takes one SPEC")
        }
        switch SpecRunner.load(path, options: CheckOptions()) {
        case let .invalid(report):
            context.console.err(SpecRunner.invalidLine(report))
            return 2
        case let .model(model):
            context.console.out(PromelaExporter.export(model, depth: depth))
            return 0
        }
    }
}
