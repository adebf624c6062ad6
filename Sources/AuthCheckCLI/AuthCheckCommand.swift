import AuthFlow
import AuthFlowChecker
import Foundation

/// The `authcheck` command line: finds the subcommand, parses its arguments, runs it, and maps errors to exit 2.
///
/// ```swift
/// exit(AuthCheckCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
/// ```
public enum AuthCheckCommand {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// Every subcommand, in the order help lists them.
    static var commands: [any Subcommand.Type] {
        [CheckCommand.self, ExploreCommand.self, CoverageCommand.self, TracesCommand.self, FuzzCommand.self, PasscodeCommand.self, ExportCommand.self, ReplayCommand.self, PathsCommand.self, DiffCommand.self, HelpCommand.self]
    }

    /// Runs the command line `arguments` (without the program name) in this process's environment.
    /// - Returns: the exit status: 0 holds, 1 violated, 2 invalid spec or usage, 3 incomplete.
    public static func main(arguments: [String]) -> Int32 {
        main(arguments: arguments, environment: .process())
    }

    /// Runs the command line `arguments` in `environment`, writing to `console`: how tests run the command.
    ///
    /// Output that could not be written (a full disk) ends the run with exit 2 and says so on stderr,
    /// whatever the command found: a report that did not arrive is not a verdict.
    /// - Returns: the exit status, as ``main(arguments:)``.
    public static func main(arguments: [String], environment: RunEnvironment, console: Console = .standard()) -> Int32 {
        let status = run(arguments, context: CommandContext(console: console, environment: environment))
        if let failure = console.outputFailure {
            console.err("error: cannot write the output: \(failure)")
            return 2
        }
        return status
    }

    /// Runs `arguments` writing to `context`'s console; the command lines it prints start as the run was invoked.
    static func run(_ arguments: [String], context: CommandContext) -> Int32 {
        ReportRenderer.$program.withValue(context.environment.invokedAs) { dispatch(arguments, context: context) }
    }

    /// Finds the subcommand named first in `arguments` and runs it.
    private static func dispatch(_ arguments: [String], context: CommandContext) -> Int32 {
        let console = context.console
        guard let first = arguments.first else {
            return fail(.missingCommand, usage: usage, console: console)
        }
        switch first {
        case "-h", "--help":
            console.out(help)
            return 0
        case "--version":
            console.out(versionText)
            return 0
        default:
            break
        }
        guard let command = command(named: first) else {
            if first.hasPrefix("-") {
                return fail(.unknownOption(first, suggestion: Suggestion.nearest(to: first, in: ["--help", "--version"])),
                            usage: usage, console: console)
            }
            if first.hasSuffix(".json") || FileManager.default.fileExists(atPath: first) {
                return fail(.specWithoutCommand(first), usage: usage, console: console)
            }
            return fail(.unknownCommand(first, suggestion: suggestion(for: first)), usage: usage, console: console)
        }
        let rest = Array(arguments.dropFirst())
        // Help wins over every other problem on the line, as in swift-argument-parser.
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            console.out(HelpFormatter.help(of: command))
            return 0
        }
        do {
            return try execute(command, arguments: rest, context: context)
        } catch {
            return fail(error, usage: HelpFormatter.usage(of: command) + "\nSee 'authcheck help \(command.name)'.", console: console)
        }
    }

    /// Parses `arguments` against the command's options, builds its settings from them, and runs it.
    static func execute<Command: Subcommand>(_ command: Command.Type, arguments: [String], context: CommandContext) throws(UsageError) -> Int32 {
        let parsed = try ArgumentParser(options: command.options).parse(arguments)
        return try command.run(Command.Settings(parsed), context: context)
    }

    /// Prints `error: …` and the usage to stderr; returns 2.
    static func fail(_ error: UsageError, usage: String, console: Console) -> Int32 {
        console.err("error: \(error)")
        console.err(usage)
        return 2
    }

    /// The subcommand called `name`.
    static func command(named name: String) -> (any Subcommand.Type)? {
        commands.first { $0.name == name }
    }

    /// The subcommand nearest to a mistyped one.
    static func suggestion(for name: String) -> String? {
        Suggestion.nearest(to: name, in: commands.map { $0.name })
    }

    /// What `--version` prints: `authcheck 0.1.0`, then the spec formats the loader reads.
    static var versionText: String {
        "authcheck \(version)\nspec formats: \(SpecLoader.formats.joined(separator: ", "))"
    }

    /// The top-level usage, printed after a top-level error.
    static let usage = """
        usage: authcheck <command> [options] [arguments]
          commands: \(commands.map { $0.name }.joined(separator: ", "))
        See 'authcheck --help'.
        """

    /// What authcheck does, in one line: the top-level help's first.
    static let tagline = "model-check mobile sign-in flows before they ship"

    /// The options the command line takes before a command, with their help.
    static let topLevelOptions = [
        (name: "-h, --help", help: "show this help; after a command, that command's help"),
        (name: "--version", help: "print the version and the spec formats it reads"),
    ]

    /// Where the command writes what, for the top-level help.
    static let outputText = """
        Reports go to stdout, an invalid spec's problems in them; usage errors, the
        progress line and an invalid spec's 'error:' lines when stdout holds no text
        report go to stderr. Colour only when stdout is a terminal; progress
        only when stderr is a terminal and a run takes more than a second.
        """

    /// The environment variables the command reads, with what each does.
    static let environment = [
        (name: "NO_COLOR", help: "when set and not empty, never colour the output"),
        (name: "GITHUB_ACTIONS", help: "when true, 'check' also prints workflow commands that annotate the spec's lines"),
    ]

    /// The top-level help.
    static var help: String {
        var lines = [
            "authcheck \(version): \(tagline)",
            "",
            "USAGE: authcheck <command> [options] [arguments]",
            "",
            "COMMANDS:",
        ]
        for command in commands {
            lines += HelpFormatter.item("\(command.name) \(command.argumentsSynopsis)", command.abstract, column: 22)
        }
        lines += ["", "OPTIONS:"]
        for option in topLevelOptions { lines += HelpFormatter.item(option.name, option.help, column: 22) }
        lines += ["", "PROPERTIES (ids for --property):"]
        lines += HelpFormatter.properties.split(separator: "\n").map { "  " + $0 }
        lines += ["", "EXIT STATUS:"]
        lines += HelpFormatter.exitStatus(several: true).split(separator: "\n").map { "  " + $0 }
        lines += ["", "OUTPUT:"]
        lines += outputText.split(separator: "\n").map { "  " + $0 }
        lines += ["", "ENVIRONMENT:"]
        for variable in environment { lines += HelpFormatter.item(variable.name, variable.help, column: 26) }
        lines += ["", "See 'authcheck help <command>' for a command's options."]
        return lines.map(\.trailingSpacesRemoved).joined(separator: "\n")
    }
}
