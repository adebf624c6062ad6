import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The one escaper per output language (Export/Escaping, and ``TerminalText`` for the terminal), on hostile text.
@Suite struct EscapingTests {
    static let hostile = [
        "plain", "", "-flow.json", "my flow.json", "it's", "a\"b\\c", "new\nline", "tab\there", "esc\u{1B}]0;owned\u{07}",
        "$(touch pwned)", "`x`", "*/ /*", "e\u{301}\u{303}", "🧑🏽🇫🇷", "日本語", "bidi\u{202E}txt", "~user", "a;b|c&d", "%%{init}%%",
    ]

    /// Every quoted word reads back, through bash, as the argument it quotes; a file name starting with `-` gets `./`.
    @Test func shellWordsReadBackAsTheArgument() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else {
            print("◇ skipped: no /bin/bash to read the quoted words back")
            return
        }
        let words = Self.hostile.map { ShellText.quoted($0) }
        for word in words { #expect(!word.unicodeScalars.contains { $0.isControlOrInvisibleFormat }, "\(word.debugDescription) is not terminal-safe") }
        let script = "for a in " + words.joined(separator: " ") + "; do printf '%s\\0' \"$a\"; done"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let read = data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        #expect(read == Self.hostile)
        #expect(ShellText.quoted("-flow.json", file: true) == "./-flow.json")
        #expect(ReportRenderer.specArgument("-flow.json") == "./-flow.json")
        #expect(ShellText.quoted("Specs/email-first.json", file: true) == "Specs/email-first.json")
    }

    /// Terminal text shows control and invisible characters as `\u{…}`, keeps everything else, and pads by columns.
    @Test func terminalTextEscapesAndPadsByColumns() {
        #expect(TerminalText.escaped("esc\u{1B}]0;owned\u{07}") == "esc\\u{1B}]0;owned\\u{7}")
        #expect(TerminalText.escaped("bidi\u{202E}txt") == "bidi\\u{202E}txt")
        #expect(TerminalText.escaped("e\u{301}\u{303} 日本語 🧑🏽") == "e\u{301}\u{303} 日本語 🧑🏽")
        #expect(TerminalText.escapedKeepingLines("a\nb\u{1B}[2J\tc") == "a\nb\\u{1B}[2J\tc")
        #expect(TerminalText.width("e\u{301}\u{303}") == 1)
        #expect(TerminalText.width("日本語") == 6)
        #expect(TerminalText.width("🧑🏽🇫🇷") == 4)
        #expect(TerminalText.width("❤️") == 2)
        #expect(TerminalText.width("a\u{200B}b") == 2)
        #expect(TerminalText.padded("日本", toWidth: 6) == "日本  ")
        #expect(TerminalText.padded("e\u{301}", toWidth: 3) == "e\u{301}  ")
        #expect(TerminalText.padded("longer", toWidth: 2) == "longer")
        // A cut never splits a character: the combining marks stay with their letter.
        #expect(TerminalText.escaped("e\u{301}\u{303}e\u{301}", limit: 1, counted: false) == "e\u{301}\u{303}…")
    }

    /// Swift literals escape what would end them or break the line; comments stay on one line with no `*/`.
    @Test func swiftTextStaysInsideItsLiteralAndComment() {
        #expect(SwiftText.literal("a\"b\\c\nd\u{1B}\u{202E}\0") == "\"a\\\"b\\\\c\\nd\\u{1B}\\u{202E}\\0\"")
        #expect(SwiftText.literal("\\(x)") == "\"\\\\(x)\"")
        for name in Self.hostile {
            let comment = SwiftText.comment(name)
            #expect(!comment.contains("\n") && !comment.contains("\r") && !comment.contains("*/") && !comment.contains("/*"))
        }
        #expect(SwiftText.typeName("set direction TB", fallback: "Flow") == "SetDirectionTB")
        #expect(SwiftText.typeName("日本 2fa", fallback: "Flow") == "Flow2fa")
        #expect(SwiftText.typeName("", fallback: "Flow") == "Flow")
    }

    /// Mermaid labels hold no character Mermaid reads as syntax; DOT labels stay under Graphviz's 16,384 bytes.
    @Test func mermaidAndDotTextHoldNoSyntax() {
        for name in Self.hostile + ["set direction TB", "x[[fork]]", "a & b", "note: x; y", "Direction  lr"] {
            let label = MermaidText.label(name)
            #expect(!label.isEmpty)
            let bare = label.replacingOccurrences(of: #"#\w+;"#, with: "", options: .regularExpression)   // its entity codes
            #expect(!bare.contains { ":;\"%[]{}<>&\\`|\n".contains($0) }, "\(label.debugDescription)")
            #expect(label.range(of: #"direction\s+(tb|bt|lr|rl)"#, options: [.regularExpression, .caseInsensitive]) == nil)
        }
        #expect(MermaidText.label("") == "#32;")
        #expect(MermaidText.label(String(repeating: "x", count: 20_000)).count == MermaidText.maxLabelCharacters + 1)
        let long = DotText.label(String(repeating: "é", count: 10_000))
        #expect(long.utf8.count <= DotText.maxBytes + 2 && long.hasSuffix("…\""))
        #expect(DotText.quoted("a\"b\\c\u{1B}") == "\"a\\\"b\\\\c\\\\u{1B}\"")
    }
}
