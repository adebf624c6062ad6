@testable import AuthCheckCLI
import AuthCheckTestSupport
import Foundation
import Testing

/// What `replay` and `replay --format swift` say of a trail file they cannot use: each message, whole, and exit 2.
@Suite struct ReplayTrailFileTests {
    /// Runs `replay` (text, or Swift tests with an adapter) on the email-first spec and `trail`.
    static func replay(_ trail: String, swift: Bool) -> (status: Int32, stdout: String, stderr: String) {
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(), environment: RunEnvironment(variables: [:]))
        let format = swift ? ["--format", "swift", "--adapter", "App"] : []
        let status = AuthCheckCommand.run(["replay"] + format + [Fixture.url(Fixture.emailFirst).path, trail], context: context)
        return (status, capture.stdout, capture.stderr)
    }

    /// A folder of its own with `files` in it (name, content); `nil` content makes a folder.
    static func folder(_ files: [(String, String?)]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-trail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, content) in files {
            let url = directory.appendingPathComponent(name)
            if let content {
                try Data(content.utf8).write(to: url)
            } else {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            }
        }
        return directory
    }

    /// Each unusable file, and the line each path prints for it (text, Swift): both read the file the same way
    /// (``ReplayCommand/readTrailFile(_:deadline:context:)``); only what each asks of the entries differs.
    @Test func anUnusableTrailFileIsNamedWithWhyOnEitherPath() throws {
        let directory = try Self.folder([("garbage.json", "not a trail\n"), ("empty.json", ""), ("blank.json", "\n\n# only a comment\n"),
                                         ("folder.json", nil), ("plain", "x")])
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("loop.json").path,
                                                   withDestinationPath: directory.appendingPathComponent("loop.json").path)
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let cases: [(file: String, text: String, swift: String)] = [
            (path("missing.json"), "no such file", "no such file"),
            (path("garbage.json"), "1: malformed JSON at column 1: expected a JSON value, found 'not'", "1: malformed JSON at column 1: expected a JSON value, found 'not'"),
            (path("empty.json"), "a trail holds one entry; this file holds 0", "holds no trail"),
            (path("blank.json"), "a trail holds one entry; this file holds 0", "holds no trail"),
            (path("folder.json"), "is a directory, not a regressions file", "is a directory, not a regressions file"),
            (path("loop.json"), "a loop of symbolic links (ELOOP): following them never reaches a file",
             "a loop of symbolic links (ELOOP): following them never reaches a file"),
            (path("plain/trail.json"), "no such file: a part of the path before the name is not a directory",
             "no such file: a part of the path before the name is not a directory"),
        ]
        for (file, text, swift) in cases {
            for (isSwift, why) in [(false, text), (true, swift)] {
                let run = Self.replay(file, swift: isSwift)
                #expect(run.status == 2, "\(file) swift: \(isSwift)")
                let separator = why.first?.isNumber == true ? ":" : ": "
                #expect(run.stderr == "error: \(file)\(separator)\(why)\n", "\(file) swift: \(isSwift)")
                #expect(run.stdout.isEmpty, "\(file) swift: \(isSwift)")
            }
        }
    }
}
