@testable import AuthCheckCLI
import Foundation
import Testing

/// `authcheck diff REV:PATH NEW`: a spec as git holds it, or an error naming the input and why.
@Suite struct DiffGitInputTests {
    /// Runs git in `directory`; false when git cannot run there.
    @discardableResult
    static func git(_ arguments: [String], in directory: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static let gitAvailable = git(["--version"], in: FileManager.default.temporaryDirectory)

    @Test func anArgumentIsReadFromGitOnlyWhenNoFileHasItsName() {
        let none: (String) -> Bool = { _ in false }
        #expect(GitObject.parse("HEAD:Specs/x.json", fileExists: none)! == ("HEAD", "Specs/x.json"))
        #expect(GitObject.parse("v1.2:./x.json", fileExists: none)! == ("v1.2", "./x.json"))
        #expect(GitObject.parse("HEAD:Specs/x.json", fileExists: { _ in true }) == nil)
        #expect(GitObject.parse("Specs/x.json", fileExists: none) == nil)
        #expect(GitObject.parse(":x.json", fileExists: none) == nil)
        #expect(GitObject.parse("HEAD:", fileExists: none) == nil)
        // git would read a leading dash as an option.
        #expect(GitObject.parse("--output=/tmp/x:y", fileExists: none) == nil)
        #expect(GitObject.parse("-", fileExists: none) == nil)
    }

    @Test(.enabled(if: gitAvailable)) func aCommittedVersionIsReadAndAnUnknownRevisionOrPathIsNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authcheck-diff-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"format": "authflow/1"}"#.utf8).write(to: directory.appendingPathComponent("x.json"))
        #expect(Self.git(["init", "-q"], in: directory))
        #expect(Self.git(["add", "x.json"], in: directory))
        #expect(Self.git(["commit", "-q", "-m", "v1"], in: directory))
        let bytes = try GitObject.read(revision: "HEAD", path: "x.json", limit: 1000, directory: directory)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"format": "authflow/1"}"#)
        let unknown = #expect(throws: GitReadError.self) { try GitObject.read(revision: "no-such-rev", path: "x.json", limit: 1000, directory: directory) }
        #expect(unknown?.reason.hasPrefix("git cannot read no-such-rev:x.json: fatal:") == true, "\(unknown?.reason ?? "")")
        let missing = #expect(throws: GitReadError.self) { try GitObject.read(revision: "HEAD", path: "y.json", limit: 1000, directory: directory) }
        #expect(missing?.reason.contains("y.json") == true)
        let large = #expect(throws: GitReadError.self) { try GitObject.read(revision: "HEAD", path: "x.json", limit: 5, directory: directory) }
        #expect(large?.reason == "HEAD:x.json is larger than 5 bytes")
    }

    @Test func withoutGitTheErrorSaysSo() {
        let error = #expect(throws: GitReadError.self) { try GitObject.read(revision: "HEAD", path: "x.json", limit: 10, git: "no-such-git-program") }
        #expect(error?.reason == "no-such-git-program is not installed or not on PATH; it is needed to read HEAD:x.json")
    }
}
