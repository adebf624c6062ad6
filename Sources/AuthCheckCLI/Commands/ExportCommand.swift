import AuthFlow
import AuthFlowChecker

/// `authcheck export --format promela SPEC`: the flow as a Promela model, so SPIN can explore the same stacks.
enum ExportCommand: Subcommand {
    static let name = "export"
    static let abstract = "the flow as a Promela model for SPIN"
    static let argumentsSynopsis = "SPEC"
    static let argumentsHelp = [(name: "SPEC", help: "one authflow/1 spec file (JSON)")]
    static let formats = ["promela"]
    static let format = CommonOptions.format(formats, help: "the model's language (default promela)")
    static let options = [format.spec, CommonOptions.depth.spec]
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

    struct Settings: CommandSettings {
        /// Only promela, for now.
        var format: String
        var depth: Int
        var spec: String

        init(_ parsed: ParsedArguments) throws(UsageError) {
            format = try parsed.value(of: ExportCommand.format)
            depth = try parsed.value(of: CommonOptions.depth)
            spec = try parsed.single("SPEC", reason: "export takes one SPEC")
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        switch SpecRunner.load(settings.spec, options: CheckOptions()) {
        case let .invalid(report):
            SpecRunner.diagnose(report, stdout: .nothing, console: context.console)
            return 2
        case let .model(model):
            context.console.out(PromelaExporter.export(model, depth: settings.depth))
            return 0
        }
    }
}
