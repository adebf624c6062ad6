import AuthFlowChecker

/// Builds usage lines and help pages from the commands' declarations, wrapped to 80 columns.
enum HelpFormatter {
    /// The width help text is wrapped to.
    static let width = 80
    /// The column option help starts at.
    static let helpColumn = 28

    /// `usage: authcheck check [--depth N] … SPEC...`, wrapped with its continuation lines aligned.
    static func usage(of command: any Subcommand.Type) -> String {
        let lead = "usage: authcheck \(command.name) "
        let words = command.options.map { "[\($0.synopsis)]" } + (command.argumentsSynopsis.isEmpty ? [] : [command.argumentsSynopsis])
        return lead + wrap(words, width: width - lead.count, joiner: " ")
            .joined(separator: "\n" + String(repeating: " ", count: lead.count))
    }

    /// The whole help page of a command.
    static func help(of command: any Subcommand.Type) -> String {
        var lines: [String] = []
        lines.append("authcheck \(command.name): \(command.abstract)")
        lines.append("")
        lines.append(usage(of: command).replacingPrefix("usage:", with: "USAGE:"))
        if !command.argumentsHelp.isEmpty {
            lines.append("")
            lines.append("ARGUMENTS:")
            for argument in command.argumentsHelp { lines += item(argument.name, argument.help) }
        }
        lines.append("")
        lines.append("OPTIONS:")
        for option in command.options { lines += item(option.synopsis, option.help) }
        lines += item("-h, --help", "show this help")
        for section in command.discussion {
            lines.append("")
            lines.append("\(section.title):")
            lines += section.body.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        }
        return lines.map(\.trailingSpacesRemoved).joined(separator: "\n")
    }

    /// One `  name   help` entry, the help wrapped into its column (on the next line if the name is long).
    static func item(_ name: String, _ help: String, column: Int = helpColumn) -> [String] {
        let wrapped = wrap(help.split(separator: " ").map(String.init), width: width - column, joiner: " ")
        let indent = String(repeating: " ", count: column)
        var lines: [String] = []
        let head = "  " + name
        if head.count + 2 <= column {
            lines.append(head + String(repeating: " ", count: column - head.count) + (wrapped.first ?? ""))
            lines += wrapped.dropFirst().map { indent + $0 }
        } else {
            lines.append(head)
            lines += wrapped.map { indent + $0 }
        }
        return lines
    }

    /// Greedily fills lines of at most `width` characters with `words` (a longer word gets a line of its own).
    static func wrap(_ words: [String], width: Int, joiner: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = word
            } else if line.count + joiner.count + word.count <= width {
                line += joiner + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The exit-status section of the spec-checking commands; `several` adds the precedence for several specs.
    /// The exit status of a command that writes something from a spec rather than checking it (`export`, `paths`).
    static func exitStatus(writing what: String) -> String {
        """
        0  \(what) written
        2  an invalid spec, or wrong usage
        """
    }

    static func exitStatus(several: Bool) -> String {
        var text = """
            0  every property holds
            1  a property is violated (or, under --strict, there are lint findings)
            2  an invalid spec, or wrong usage
            3  a limit (--max-configurations, --timeout) stopped the run before it was
               complete; a violation found before the limit still exits 1
            """
        if several {
            text += """

                With several specs the status is the worst by precedence 2 > 1 > 3 > 0: an
                invalid spec outranks a violation, which outranks an incomplete run.
                """
        }
        return text
    }

    /// The property ids and what each demands, for help.
    static var properties: String {
        (Property.builtIn.map { ($0.id, $0.summary) } + [("(your own)", userPropertiesText)]).flatMap { id, summary in
            item(id, summary, column: 22).map { String($0.dropFirst(2)) }
        }.joined(separator: "\n")
    }

    /// What the help says of the properties a spec states itself.
    static let userPropertiesText = "each rule an authflow/2 spec states under 'properties' (always, never or reachable), by its id"
}

extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }

    var trailingSpacesRemoved: String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
