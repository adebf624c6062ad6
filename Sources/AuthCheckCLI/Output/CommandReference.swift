import AuthFlowChecker

/// The command reference, `docs/commands.md`, written from the tables the help pages are built
/// from (each ``Subcommand``'s declarations, ``AuthCheckCommand``'s top-level tables, the
/// properties), so the reference and `authcheck help` cannot drift apart.
///
/// A test compares the committed file with ``markdown`` and writes it again under
/// `AUTHCHECK_RECORD=1`.
enum CommandReference {
    /// The whole reference, as Markdown.
    static var markdown: String {
        var lines: [String] = [
            "# authcheck commands",
            "",
            "<!-- Written from the command line's own tables (Sources/AuthCheckCLI), as `authcheck help` is: do not edit.",
            "     Write it again with `AUTHCHECK_RECORD=1 swift test --filter CommandReferenceTests`. -->",
            "",
            "authcheck \(AuthCheckCommand.version): \(AuthCheckCommand.tagline). Every command also takes `-h`/`--help`;",
            "`authcheck help COMMAND` prints the same as each section below, for the terminal.",
            "",
            "```",
            "authcheck <command> [options] [arguments]",
            "```",
            "",
            "| command | does |",
            "|---|---|",
        ]
        for command in AuthCheckCommand.commands {
            lines.append("| [\(code(command.name + " " + command.argumentsSynopsis))](#\(anchor(command.name))) | \(cell(command.abstract)) |")
        }
        lines += ["", "| option | does |", "|---|---|"]
        for option in AuthCheckCommand.topLevelOptions { lines.append("| \(code(option.name)) | \(cell(option.help)) |") }
        lines += ["", "## Properties", "", "Ids for `--property`, in reports and in JSON.", "", "| id | holds when |", "|---|---|"]
        for property in Property.builtIn { lines.append("| \(code(property.id)) | \(cell(property.summary)) |") }
        lines.append("| *your own* | \(cell(HelpFormatter.userPropertiesText)) |")
        lines += ["", "## Exit status", ""] + block(HelpFormatter.exitStatus(several: true))
        lines += ["", "## Output", ""] + [paragraph(AuthCheckCommand.outputText)]
        lines += ["", "## Environment", "", "| variable | does |", "|---|---|"]
        for variable in AuthCheckCommand.environment { lines.append("| \(code(variable.name)) | \(cell(variable.help)) |") }
        for command in AuthCheckCommand.commands { lines += [""] + section(command) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One command's section: its abstract, usage, arguments, options and discussion.
    static func section(_ command: any Subcommand.Type) -> [String] {
        var lines = ["## \(command.name)", "", paragraph(command.abstract.prefix(1).uppercased() + command.abstract.dropFirst() + "."), ""]
        lines += block(HelpFormatter.usage(of: command))
        if !command.argumentsHelp.isEmpty {
            lines += ["", "| argument | meaning |", "|---|---|"]
            for argument in command.argumentsHelp { lines.append("| \(code(argument.name)) | \(cell(argument.help)) |") }
        }
        lines += ["", "| option | does |", "|---|---|"]
        for option in command.options { lines.append("| \(code(option.synopsis)) | \(cell(option.help)) |") }
        lines.append("| `-h`, `--help` | show this help |")
        for section in command.discussion {
            lines += ["", "### \(section.title.prefix(1) + section.title.dropFirst().lowercased())", ""] + block(section.body)
        }
        return lines
    }

    /// `text` as a fenced block, its line breaks and alignment kept as the help page has them.
    static func block(_ text: String) -> [String] {
        ["```text"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trailingSpacesRemoved } + ["```"]
    }

    /// `text`, wrapped in the help page, as one Markdown paragraph.
    static func paragraph(_ text: String) -> String {
        escaped(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    /// `text` in a table cell: its pipes escaped too.
    static func cell(_ text: String) -> String {
        escaped(text).replacingOccurrences(of: "|", with: "\\|")
    }

    /// `text` as code in a table cell: only its pipes escaped (backslashes are literal in code).
    static func code(_ text: String) -> String {
        "`" + text.replacingOccurrences(of: "|", with: "\\|") + "`"
    }

    /// `text` with the characters Markdown would read as markup escaped (`<stdin>` is no tag, `*.json` no emphasis).
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "*", "`": result += "\\" + String(character)
            default: result.append(character)
            }
        }
        return result
    }

    /// The anchor GitHub gives a `## name` heading.
    static func anchor(_ name: String) -> String {
        name.lowercased()
    }
}
