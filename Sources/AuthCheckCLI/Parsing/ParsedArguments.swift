/// What the parser found on a command line: the texts given to each option, and the positional arguments.
///
/// Options are read by their typed declaration, ``value(of:)``; there is no lookup by name.
struct ParsedArguments: Sendable {
    /// The texts given to each option, by name, in command-line order (`--property a --property b,c` → `["a", "b,c"]`);
    /// a flag given has one empty text.
    var texts: [String: [String]] = [:]
    /// The positional arguments, in order (everything after `--` included).
    var positionals: [String] = []
    /// Whether `-h` or `--help` was given (before any `--`).
    var help = false
    /// The names of the options the command declared.
    var declared: Set<String> = []

    /// The typed value of `option`: its default when it was not given.
    /// - Throws: ``UsageError`` when a text given is not a valid value.
    func value<Value>(of option: Option<Value>) throws(UsageError) -> Value {
        precondition(declared.contains(option.spec.name), "\(option.spec.name) is read but not among the command's options")
        return try option.read(texts[option.spec.name] ?? [])
    }

    /// The only positional argument, called `name` in messages.
    /// - Throws: ``UsageError`` when there is none, or more than one (`reason` says why one).
    func single(_ name: String, reason: String) throws(UsageError) -> String {
        guard let first = positionals.first else { throw .missingArgument(name) }
        if positionals.count > 1 { throw .unexpectedArgument(positionals[1], reason: reason) }
        return first
    }
}
