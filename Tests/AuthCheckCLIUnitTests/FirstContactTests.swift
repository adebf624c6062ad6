@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
import Testing

/// What a user meets first: the summary line's rate, a spec on standard input, `--version`.
@Suite struct FirstContactTests {
    /// Runs `authcheck ARGUMENTS` in process with `input` on stdin; returns stdout and the status.
    static func run(_ arguments: [String], input: String? = nil) -> (stdout: String, status: Int32) {
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(input: input), environment: .testing(variables: [:], fault: nil))
        let status = AuthCheckCommand.run(arguments, context: context)
        return (capture.stdout, status)
    }

    @Test func theSummaryRateCountsStacksAndSaysSo() {
        // 3280 stacks in 0.042 s, with more configurations than stacks: the rate is the stacks'.
        let stats = Stats(states: 13, configurations: 5000, depth: 12, stacks: 3280, seconds: 0.042)
        #expect(ReportRenderer.summary(stats) == "13 states, 5000 configurations, 3280 stacks at depth 12, 0.042 s (78.1 k stacks/s)")
    }

    @Test func aDashReadsTheSpecFromStandardInputOnce() throws {
        let text = try String(contentsOf: Fixture.url(Fixture.spec("deadlock")), encoding: .utf8)
        let output = Self.run(["check", "-", "-"], input: text)
        #expect(output.status == 1)
        #expect(output.stdout.components(separatedBy: "<stdin>: violated — 1 violation").count == 3, "read once, checked twice")
        #expect(output.stdout.contains("replay: authcheck explore - --property deadlock --depth 12"))
    }

    @Test func replayLinesStartAsTheRunWasInvoked() {
        // Given the command plugin's run, where no `authcheck` is on PATH,
        let capture = CapturedOutput()
        let environment = RunEnvironment.testing(variables: ["AUTHCHECK_INVOKED_AS": "swift package authcheck"], fault: nil)
        let status = AuthCheckCommand.run(["check", Fixture.spec("deadlock")], context: CommandContext(console: capture.console(), environment: environment))
        // then the replay line runs through the plugin too; a control character in the name is not trusted.
        #expect(status == 1)
        #expect(capture.stdout.contains("replay: swift package authcheck explore "))
        let odd = CapturedOutput()
        _ = AuthCheckCommand.run(["check", Fixture.spec("deadlock")],
                                 context: CommandContext(console: odd.console(), environment: .testing(variables: ["AUTHCHECK_INVOKED_AS": "x\u{1B}]0;y"], fault: nil)))
        #expect(odd.stdout.contains("replay: authcheck explore "))
    }

    @Test func aSpecOnStandardInputMeetsTheLoadersEncodingChecks() throws {
        // Given a UTF-16 spec on standard input, as its bytes,
        let text = try String(contentsOf: Fixture.url(Fixture.spec("deadlock")), encoding: .utf8)
        let utf16 = [UInt8](try #require(text.data(using: .utf16LittleEndian)))
        let console = Console(stdoutIsTerminal: false, stderrIsTerminal: false, stdinIsTerminal: false,
                              out: { _ in }, err: { _ in }, inputBytes: { [0xFF, 0xFE] + utf16 })
        // when it is checked, then the loader names the encoding, as it does for a file.
        let report = SpecRunner.check("-", options: CheckOptions(), context: CommandContext(console: console, environment: .testing(variables: [:], fault: nil))).report
        #expect(report.verdict == .invalid)
        #expect(report.error?.first.message.contains("UTF-16 (little-endian) byte-order mark") == true, "\(String(describing: report.error))")
    }

    @Test func versionNamesTheSpecFormatsItReads() {
        let output = Self.run(["--version"])
        #expect(output.stdout == "authcheck \(AuthCheckCommand.version)\nspec formats: \(SpecLoader.formats.joined(separator: ", "))\n")
        #expect(SpecLoader.formats.contains("authflow/1"))
    }
}
