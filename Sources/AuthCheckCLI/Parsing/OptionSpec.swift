/// One option a command accepts: its name, the placeholder of its value (none for a flag), and its help.
///
/// ```swift
/// OptionSpec("--depth", value: "N", help: "…")     // --depth 3, --depth=3
/// OptionSpec("--strict", help: "…")                // a flag
/// ```
struct OptionSpec: Hashable, Sendable {
    /// The long name with its dashes, e.g. `--depth`.
    var name: String
    /// The value's placeholder in usage and help (`N`, `SECONDS`), or `nil` for a flag.
    var value: String?
    /// What the option does, with its default; wrapped when help is printed.
    var help: String
    /// Whether the option may be given more than once, its values accumulating (otherwise the last wins).
    var repeatable: Bool

    init(_ name: String, value: String? = nil, repeatable: Bool = false, help: String) {
        precondition(name.hasPrefix("--"), "option names are long: \(name)")
        self.name = name
        self.value = value
        self.help = help
        self.repeatable = repeatable
    }

    /// Whether the option takes a value.
    var takesValue: Bool { value != nil }

    /// `--depth N`, `--property ID...`, `--strict`: how usage lines show the option.
    var synopsis: String {
        guard let value else { return name }
        return "\(name) \(value)" + (repeatable ? "..." : "")
    }
}
