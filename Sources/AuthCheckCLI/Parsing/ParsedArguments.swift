/// What the parser found on a command line: option values by name, flags, and positional arguments.
struct ParsedArguments: Sendable {
    /// The values of each option given, in command-line order (`--property a --property b,c` → `["a", "b,c"]`).
    var values: [String: [String]] = [:]
    /// The flags given.
    var flags: Set<String> = []
    /// The positional arguments, in order (everything after `--` included).
    var positionals: [String] = []
    /// Whether `-h` or `--help` was given (before any `--`).
    var help = false

    /// The last value of `name`, when given (a repeated single-valued option: the last wins).
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether the flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }
}
