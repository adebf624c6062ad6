/// Splits a command's arguments into options, flags and positionals, the way swift-argument-parser does.
///
/// - `--name value` and `--name=value` both give an option its value; a value may start with a
///   single dash (`--depth -1` reaches the range check), but not with `--`: `--depth --strict` is
///   a missing value.
/// - `-h` and `--help` ask for help wherever they appear before `--`.
/// - `--` ends the options: everything after it is positional, even `--help` or `-1`.
/// - Anything else starting with `-` (except `-` alone) is an unknown option, with the nearest
///   known option suggested for a typo.
///
/// ```swift
/// let parsed = try ArgumentParser(options: CheckCommand.options).parse(["--depth=3", "a.json"])
/// try parsed.value(of: CommonOptions.depth)   // 3
/// parsed.positionals                          // ["a.json"]
/// ```
struct ArgumentParser: Sendable {
    /// The options the command accepts (`-h`/`--help` are always accepted).
    var options: [OptionSpec]

    init(options: [OptionSpec]) {
        self.options = options
    }

    /// Parses `arguments` (the command's own, without the command name).
    /// - Throws: ``UsageError`` for an unknown option, a missing value, or a value given to a flag.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(declared: Set(options.map(\.name)))
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.help = true
                continue
            }
            guard argument.hasPrefix("--") else {
                // A single-dash word: `-depth` is most likely `--depth`.
                throw .unknownOption(argument, suggestion: suggestion(for: argument))
            }
            let name: String
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                if name == "--help" { throw .unexpectedValue(option: name, value: inline ?? "") }
                throw .unknownOption(name, suggestion: suggestion(for: name))
            }
            guard let placeholder = spec.value else {
                if let inline { throw .unexpectedValue(option: name, value: inline) }
                parsed.texts[name] = [""]
                continue
            }
            let value: String
            if let inline {
                guard !inline.isEmpty else { throw .missingValue(option: name, placeholder: placeholder) }
                value = inline
            } else {
                guard index < arguments.count, !arguments[index].hasPrefix("--"), arguments[index] != "-h" else {
                    throw .missingValue(option: name, placeholder: placeholder)
                }
                value = arguments[index]
                index += 1
            }
            if spec.repeatable {
                parsed.texts[name, default: []].append(value)
            } else {
                parsed.texts[name] = [value]
            }
        }
        return parsed
    }

    /// The known option nearest to a mistyped one.
    func suggestion(for name: String) -> String? {
        Suggestion.nearest(to: name, in: options.map(\.name) + ["--help"])
    }
}
