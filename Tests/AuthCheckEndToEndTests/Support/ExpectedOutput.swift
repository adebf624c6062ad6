import Foundation

/// The expected stdout, stderr and exit status of one end-to-end case, kept in `Expected/NAME.{stdout,stderr,status}`.
///
/// To record them again after an intended change, run
/// `AUTHCHECK_RECORD=1 swift test --filter AuthCheckEndToEndTests`, then read the diff before
/// committing: a recording shows what the binary printed, which is only right if the binary is.
enum ExpectedOutput {
    /// Whether this run records expected files instead of comparing with them.
    static var recording: Bool { ProcessInfo.processInfo.environment["AUTHCHECK_RECORD"] == "1" }

    /// Where expected files are read from: the copy in the test bundle's resources (the source folder as a fallback).
    static var readDirectory: URL {
        if let resources = Bundle.module.resourceURL?.appendingPathComponent("Expected"),
           FileManager.default.fileExists(atPath: resources.path) {
            return resources
        }
        return sourceDirectory
    }

    /// Where expected files are recorded: the source folder.
    static let sourceDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Expected")

    /// The expected output of case `name`, or nil when it has not been recorded.
    static func load(_ name: String) -> AuthCheckBinary.Output? {
        let directory = readDirectory
        func read(_ suffix: String) -> String? {
            try? String(contentsOf: directory.appendingPathComponent("\(name).\(suffix)"), encoding: .utf8)
        }
        guard let stdout = read("stdout"), let stderr = read("stderr"), let status = read("status"),
              let code = Int32(status.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return AuthCheckBinary.Output(stdout: stdout, stderr: stderr, status: code)
    }

    /// Writes `output` as the expected output of case `name`, in the source folder.
    static func record(_ name: String, _ output: AuthCheckBinary.Output) throws {
        let directory = sourceDirectory
        try Data(output.stdout.utf8).write(to: directory.appendingPathComponent("\(name).stdout"))
        try Data(output.stderr.utf8).write(to: directory.appendingPathComponent("\(name).stderr"))
        try Data("\(output.status)\n".utf8).write(to: directory.appendingPathComponent("\(name).status"))
    }
}

/// A line diff for failure messages: only changed lines carry `-` (expected) or `+` (actual).
enum LineDiff {
    /// The diff of `expected` and `actual`, with up to `context` unchanged lines around each change.
    static func render(expected: String, actual: String, context: Int = 2) -> String {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Longest common subsequence table, from the ends.
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var lines: [(mark: Character, text: String)] = []
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                lines.append((" ", a[i])); i += 1; j += 1
            } else if j < b.count, i == a.count || lcs[i][j + 1] >= lcs[i + 1][j] {
                lines.append(("+", b[j])); j += 1
            } else {
                lines.append(("-", a[i])); i += 1
            }
        }
        let changed = lines.indices.filter { lines[$0].mark != " " }
        var shown = Set<Int>()
        for index in changed {
            for k in max(0, index - context)...min(lines.count - 1, index + context) { shown.insert(k) }
        }
        var out = ["(- expected, + actual)"]
        var previous = -1
        for index in shown.sorted() {
            if previous >= 0, index > previous + 1 { out.append("  …") }
            out.append("\(lines[index].mark) \(lines[index].text)")
            previous = index
        }
        return out.joined(separator: "\n")
    }
}
