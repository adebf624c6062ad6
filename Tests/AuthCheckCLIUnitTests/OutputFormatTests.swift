@testable import AuthCheckCLI
import Foundation
import Testing

/// Each command's `--format` comes from its format enum, and no command picks a renderer by a format's name.
@Suite struct OutputFormatTests {
    /// Each command and the `--format` names of its enum, in the order usage lists them.
    static let declared: [(command: String, names: [String])] = [
        ("check", CheckFormat.names), ("explore", ExploreFormat.names), ("coverage", CoverageFormat.names),
        ("paths", PathsFormat.names), ("traces", TracesFormat.names), ("fuzz", FuzzFormat.names),
        ("diff", DiffFormat.names), ("replay", ReplayFormat.names), ("export", ExportFormat.names),
        ("passcode", PasscodeFormat.names),
    ]

    @Test func everyCommandsFormatOptionListsItsEnum() throws {
        for (name, names) in Self.declared {
            let command = try #require(AuthCheckCommand.commands.first { $0.name == name })
            let format = try #require(command.options.first { $0.name == "--format" }, "\(name)")
            #expect(format.value == names.joined(separator: "|"), "\(name)")
        }
        // Every command with --format is in the table.
        let withFormat = AuthCheckCommand.commands.filter { $0.options.contains { $0.name == "--format" } }.map { $0.name }
        #expect(Set(withFormat) == Set(Self.declared.map(\.command)))
    }

    /// The commands' folder, read from this file's place in the repository.
    static let commands = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AuthCheckCLI/Commands")

    /// `case "json":` or `format == "text"` in a command: a renderer chosen by a string, which a new format's case would not be told about.
    @Test func noCommandSwitchesOnAFormatName() throws {
        let names = Set(Self.declared.flatMap(\.names))
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.commands.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(!files.isEmpty)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.commands.appendingPathComponent(file), encoding: .utf8)
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for name in names where line.contains("case \"\(name)\"") || line.contains("format == \"\(name)\"")
                    || line.contains("format != \"\(name)\"") {
                    found.append("\(file):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func aFormatParsesToItsCaseAndAnUnknownOneIsToldTheChoices() throws {
        #expect(try ValueParsers.choice("sarif", option: "--format", in: CheckFormat.self) == .sarif)
        #expect(throws: UsageError.invalidValue(option: "--format", value: "jsn", reason: "did you mean 'json'? expected one of text, json, sarif, junit, html")) {
            try ValueParsers.choice("jsn", option: "--format", in: CheckFormat.self)
        }
    }
}
