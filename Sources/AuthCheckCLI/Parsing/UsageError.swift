/// A command line that cannot be run: what exactly was wrong, in words a person can act on (exit 2).
///
/// Printed as `error: <description>` followed by the command's usage, to stderr.
enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No subcommand was given.
    case missingCommand
    /// The subcommand is not one authcheck has; with the nearest one, if it looks like a typo.
    case unknownCommand(String, suggestion: String?)
    /// The first argument looks like a spec, but no subcommand came before it.
    case specWithoutCommand(String)
    /// An option the command does not have; with the nearest option, if it looks like a typo.
    case unknownOption(String, suggestion: String?)
    /// An option that needs a value was given none.
    case missingValue(option: String, placeholder: String)
    /// A flag was given a value (`--strict=yes`).
    case unexpectedValue(option: String, value: String)
    /// An option's value is not acceptable; `reason` says what is.
    case invalidValue(option: String, value: String, reason: String)
    /// A required positional argument is missing.
    case missingArgument(String)
    /// More positional arguments than the command takes.
    case unexpectedArgument(String, reason: String)
    /// Options that cannot be combined.
    case conflict(String)

    var description: String {
        switch self {
        case .missingCommand:
            return "missing command"
        case let .unknownCommand(name, suggestion):
            return "unknown command '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case let .specWithoutCommand(spec):
            return "missing command before '\(spec)'; did you mean 'authcheck check \(spec)'?"
        case let .unknownOption(name, suggestion):
            if let suggestion { return "unknown option '\(name)'; did you mean '\(suggestion)'?" }
            return "unknown option '\(name)' (to pass an argument that starts with '-', put it after '--')"
        case let .missingValue(option, placeholder):
            return "missing value for '\(option) \(placeholder)'"
        case let .unexpectedValue(option, value):
            return "option '\(option)' takes no value, but was given '\(value)'"
        case let .invalidValue(option, value, reason):
            return "invalid value '\(value)' for '\(option)': \(reason)"
        case let .missingArgument(name):
            return "missing argument \(name)"
        case let .unexpectedArgument(argument, reason):
            return "unexpected argument '\(argument)': \(reason)"
        case let .conflict(message):
            return message
        }
    }
}
