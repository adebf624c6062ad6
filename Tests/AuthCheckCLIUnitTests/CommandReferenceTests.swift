@testable import AuthCheckCLI
import AuthFlowChecker
import Foundation
import Testing

/// `docs/commands.md` is what the help tables write: a changed option or help text changes both.
///
/// After an intended change, write it again with `AUTHCHECK_RECORD=1 swift test --filter CommandReferenceTests`
/// and read the diff.
@Suite struct CommandReferenceTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/commands.md")

    @Test func theCommittedReferenceIsWhatTheHelpTablesWrite() throws {
        let written = CommandReference.markdown
        if ProcessInfo.processInfo.environment["AUTHCHECK_RECORD"] == "1" {
            try Data(written.utf8).write(to: Self.file)
        }
        let committed = try String(contentsOf: Self.file, encoding: .utf8)
        guard committed != written else { return }
        let old = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let new = written.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(old, new).prefix { $0 == $1 }.count
        Issue.record("""
            docs/commands.md differs from the help tables from line \(line + 1):
            - committed: \(line < old.count ? String(old[line]) : "(end of file)")
            + written:   \(line < new.count ? String(new[line]) : "(end of file)")
            Write it again with AUTHCHECK_RECORD=1 swift test --filter CommandReferenceTests, and read the diff.
            """)
    }

    @Test func everyCommandOptionAndPropertyHasItsPlace() {
        let markdown = CommandReference.markdown
        for command in AuthCheckCommand.commands {
            #expect(markdown.contains("\n## \(command.name)\n"), "\(command.name) has a section")
            #expect(markdown.contains("](#\(command.name))"), "\(command.name) is linked from the list")
            for option in command.options {
                #expect(markdown.contains("| `\(option.synopsis.replacingOccurrences(of: "|", with: "\\|"))` |"), "\(command.name) \(option.name)")
            }
        }
        for property in Property.builtIn { #expect(markdown.contains("| `\(property.id)` |")) }
    }

    @Test(arguments: [
        ("reads <stdin>", "reads &lt;stdin&gt;"),
        ("Specs/*.json", "Specs/\\*.json"),
        ("text|json", "text\\|json"),
    ])
    func markupInHelpTextIsEscapedInACell(_ text: String, _ cell: String) {
        #expect(CommandReference.cell(text) == cell)
        #expect(CommandReference.code("--format text|json") == "`--format text\\|json`")
    }
}
