@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
import Testing

/// Section 3 of `authflow/2` as the command meets it: an invalid `/2` file is exit 2 with its path and
/// line:column on every command, a search past `--max-configurations` is `incomplete` (exit 3), and
/// `--variant` restricts every command that runs a flow, not only `check`.
@Suite struct Version2CommandTests {
    /// Runs `authcheck ARGUMENTS FILE` in process with `spec` written to FILE (not every command reads standard input).
    static func run(_ arguments: [String], _ spec: String) -> (stdout: String, status: Int32) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("authcheck-v2-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        do { try spec.write(to: file, atomically: true, encoding: .utf8) } catch { return ("cannot write \(file.path): \(error)", -1) }
        let output = FirstContactTests.run(arguments + [file.path])
        return (output.stdout.replacingOccurrences(of: file.path, with: "SPEC"), output.status)
    }

    // MARK: exit 2, with path and line:column

    static let invalid = VariantOptionTests.spec.replacingOccurrences(of: #""recovery": ["code", "link"]"#, with: #""recovery": ["code", "code"]"#)

    @Test(arguments: ["check", "explore", "coverage", "paths"])
    func anInvalidVersion2FileIsExitTwoWithWhereAndWhy(_ command: String) {
        let output = Self.run([command], Self.invalid)
        #expect(output.status == 2, "\(output.stdout)")
        #expect(output.stdout.hasPrefix("SPEC: invalid — 1 problem\n   6:27: $.config.recovery: the value 'code' is listed twice\n"),
                "\(output.stdout)")
    }

    @Test(arguments: ["fuzz", "export"])
    func theOtherCommandsRefuseItWithExitTwo(_ command: String) {
        #expect(Self.run([command], Self.invalid).status == 2)
    }

    @Test func theJSONReportGivesEveryProblemsPathLineAndColumn() throws {
        let output = Self.run(["check", "--format", "json"], Self.invalid)
        #expect(output.status == 2)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(report["verdict"] as? String == "invalid")
        let issues = try #require((report["error"] as? [String: Any])?["issues"] as? [[String: Any]])
        #expect(issues.count == 1)
        #expect(issues.first?["path"] as? String == "$.config.recovery")
        #expect(issues.first?["line"] as? Int == 6)
        #expect(issues.first?["column"] as? Int == 27)
        #expect(issues.first?["message"] as? String == "the value 'code' is listed twice")
    }

    // MARK: --max-configurations: incomplete, exit 3

    /// A counter up to 200 makes 402 configurations: start and done for each count.
    static let counting = """
    { "format": "authflow/2", "initial": "start", "success": ["done"], "abort": [],
      "data": { "n": { "max": 200 } },
      "steps": { "start": { "emits": { "bump": { "increment": ["n"] }, "go": [] } }, "done": {} },
      "transitions": [ { "from": "start", "on": "bump", "to": "start" }, { "from": "start", "on": "go", "to": "done" } ] }
    """

    @Test(arguments: ["check", "explore", "coverage"])
    func aVersion2FlowPastMaxConfigurationsIsIncomplete(_ command: String) {
        let stopped = Self.run([command, "--max-configurations", "5", "--depth", "3"], Self.counting)
        #expect(stopped.status == 3, "\(stopped.stdout)")
        let first = stopped.stdout.prefix { $0 != "\n" }
        // Five configurations: start with n = 0, 1, 2 and done with n = 0, 1.
        let expected = command == "coverage" ? "SPEC: coverage at depth 3: 2 of 2 states reached, 2 of 2 transitions fired"
                                             : "SPEC: incomplete — --max-configurations 5 reached before the check was complete"
        #expect(first == expected, "\(stopped.stdout)")
        if command == "coverage" { #expect(stopped.stdout.contains("\nstopped: --max-configurations 5 reached; the counts are lower bounds\n")) }
        // The whole flow fits in 402: the same command holds.
        #expect(Self.run([command, "--max-configurations", "402", "--depth", "3"], Self.counting).status == 0)
    }

    @Test func theJSONReportOfAStoppedVersion2CheckSaysIncompleteAndWhy() {
        let stopped = Self.run(["check", "--format", "json", "--max-configurations", "5"], Self.counting)
        #expect(stopped.status == 3)
        #expect(stopped.stdout.contains(#""verdict": "incomplete""#))
        #expect(stopped.stdout.contains(#""stoppedBy": "--max-configurations 5 reached""#), "\(stopped.stdout)")
        #expect(stopped.stdout.contains(#""violations": []"#), "\(stopped.stdout)")
    }

    // MARK: --variant on every command that runs a flow

    @Test func exploreAndFuzzRunOnlyTheChosenVariants() {
        // By hand (VariantOptionTests.spec): the link variants deadlock at link, the code variants hold.
        for command in ["explore", "fuzz"] {
            #expect(Self.run([command, "--variant", "recovery=code"], VariantOptionTests.spec).status == 0, "\(command)")
            let link = Self.run([command, "--variant", "recovery=link"], VariantOptionTests.spec)
            #expect(link.status == 1, "\(command)")
            #expect(link.stdout.contains("deadlock at link"), "\(command): \(link.stdout)")
        }
    }

    @Test func coverageAndTheExportHoldOnlyTheChosenVariants() {
        let coverage = Self.run(["coverage", "--format", "json", "--variant", "recovery=link"], VariantOptionTests.spec).stdout
        #expect(coverage.contains(#""variant": "recovery=link, mfa=off""#) && coverage.contains(#""variant": "recovery=link, mfa=on""#))
        #expect(!coverage.contains(#""variant": "recovery=code"#), "\(coverage)")
        let export = Self.run(["export", "--format", "promela", "--variant", "recovery=link", "--variant", "mfa=on"],
                              VariantOptionTests.spec).stdout
        #expect(export.contains("/* the root frame: (signIn, {recovery=link, mfa=on}) */"), "\(export)")
        #expect(!export.contains("recovery=code") && !export.contains("mfa=off"), "\(export)")
    }
}
