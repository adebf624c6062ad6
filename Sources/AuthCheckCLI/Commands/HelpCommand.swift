import AuthFlowChecker

/// `authcheck help [COMMAND]`: the top-level help, or a command's.
enum HelpCommand: Subcommand {
    static let name = "help"
    static let abstract = "show this help, or a command's"
    static let argumentsSynopsis = "[COMMAND]"
    static let argumentsHelp = [(name: "COMMAND", help: "one of \(AuthCheckCommand.commands.map { $0.name }.joined(separator: ", "))")]
    static let options: [OptionSpec] = []
    static let discussion: [(title: String, body: String)] = []

    struct Settings: CommandSettings {
        /// The command whose help to show; none for the top-level help.
        var command: String?

        init(_ parsed: ParsedArguments) throws(UsageError) {
            command = parsed.positionals.first
            if parsed.positionals.count > 1 {
                throw .unexpectedArgument(parsed.positionals[1], reason: "help takes at most one COMMAND")
            }
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        guard let name = settings.command else {
            context.console.out(AuthCheckCommand.help)
            return 0
        }
        guard let command = AuthCheckCommand.command(named: name) else {
            throw .unknownCommand(name, suggestion: AuthCheckCommand.suggestion(for: name))
        }
        context.console.out(HelpFormatter.help(of: command))
        return 0
    }
}
