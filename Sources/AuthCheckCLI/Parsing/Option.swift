/// One option declared once: how usage and help show it, how its text becomes a typed value, and its default.
///
/// A command's settings read the parsed value through the declaration itself, so a misspelt
/// option is a compile error rather than a silent `nil`, and the help printed for an option is
/// the help of the very declaration its value is read with.
///
/// ```swift
/// static let depth = Option("--depth", value: "N", help: "…", default: 12) { text, name throws(UsageError) in
///     try ValueParsers.integer(text, option: name, in: 0...64)
/// }
/// let depth = try parsed.value(of: depth)   // an Int: 12 unless --depth was given
/// ```
struct Option<Value: Sendable>: Sendable {
    /// The name, placeholder and help the parser and the help page use.
    var spec: OptionSpec
    /// The typed value of every text given for the option, in command-line order (none when absent).
    var read: @Sendable ([String]) throws(UsageError) -> Value

    /// An option with one value, the last given winning; `defaultValue` when it is absent.
    /// - Parameter parse: the value of a text, given the option's name for the error message.
    init(_ name: String, value placeholder: String, help: String, default defaultValue: Value,
         parse: @escaping @Sendable (_ text: String, _ name: String) throws(UsageError) -> Value) {
        spec = OptionSpec(name, value: placeholder, help: help)
        read = { texts throws(UsageError) in
            guard let last = texts.last else { return defaultValue }
            return try parse(last, name)
        }
    }

    /// An option that may be repeated: `read` gets every text given, in order.
    init(repeating name: String, value placeholder: String, help: String,
         read: @escaping @Sendable (_ texts: [String], _ name: String) throws(UsageError) -> Value) {
        spec = OptionSpec(name, value: placeholder, repeatable: true, help: help)
        self.read = { texts throws(UsageError) in try read(texts, name) }
    }
}

extension Option where Value == Bool {
    /// A flag: `true` when given.
    init(flag name: String, help: String) {
        spec = OptionSpec(name, help: help)
        read = { texts throws(UsageError) in !texts.isEmpty }
    }
}

/// What a command runs with: its options and arguments, read and validated before anything runs.
///
/// Every command has one, built the same way: ``AuthCheckCommand`` parses the command line
/// against the command's declared options, then builds its settings from the parsed arguments,
/// reading each option by its ``Option`` declaration; a bad value throws before the command runs.
protocol CommandSettings: Sendable {
    /// Reads and validates `parsed`.
    /// - Throws: ``UsageError`` naming the first bad value or argument.
    init(_ parsed: ParsedArguments) throws(UsageError)
}
