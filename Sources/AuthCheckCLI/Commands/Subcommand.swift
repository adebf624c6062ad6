import AuthFlowChecker

/// One `authcheck` subcommand: what it is called, what it takes, and how it runs.
///
/// Each lives in its own file under `Commands/`; ``AuthCheckCommand`` dispatches to them, and
/// ``HelpFormatter`` builds their usage and help from these declarations, so the two never disagree.
protocol Subcommand {
    /// What the command runs with, read from its parsed arguments.
    associatedtype Settings: CommandSettings
    /// The word on the command line: `check`.
    static var name: String { get }
    /// One line for the command list.
    static var abstract: String { get }
    /// The positional arguments as usage shows them: `SPEC...`.
    static var argumentsSynopsis: String { get }
    /// Each positional argument and what it is.
    static var argumentsHelp: [(name: String, help: String)] { get }
    /// The options, in the order help lists them: the specs of the ``Option`` declarations `Settings` reads.
    static var options: [OptionSpec] { get }
    /// Further help sections (definitions, exit status), each a titled block; may be empty.
    static var discussion: [(title: String, body: String)] { get }
    /// Runs with its settings; returns the exit status.
    /// - Throws: ``UsageError`` when the arguments cannot be run (exit 2, usage printed).
    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32
}

/// What a running command writes to and reads from.
struct CommandContext: Sendable {
    /// stdout and stderr.
    var console: Console
    /// Colour, the clock, and the runtime to drive.
    var environment: RunEnvironment

    /// The text style for stdout.
    var style: TextStyle { environment.style(for: console) }
}
