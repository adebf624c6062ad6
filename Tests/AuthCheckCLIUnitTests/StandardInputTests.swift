@testable import AuthCheckCLI
import AuthCheckTestSupport
import Foundation
import Testing

/// `-` as the SPEC of every command that takes one: the spec is read from standard input, reports name
/// it `<stdin>`, and a replay command line gives `-` again.
@Suite struct StandardInputTests {
    /// A command line with `SPEC` where the spec goes, and the spec it reads.
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var spec: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let trail = Fixture.url("Tests/AuthCheckEndToEndTests/Expected/trails/no-exit-help.json").path

    static let cases: [Case] = [
        Case(arguments: ["check", "SPEC"], spec: Fixture.spec("deadlock")),
        Case(arguments: ["explore", "SPEC", "--depth", "6"], spec: Fixture.spec("deadlock")),
        Case(arguments: ["coverage", "SPEC"], spec: Fixture.spec("deadlock")),
        Case(arguments: ["coverage", "SPEC", "--format", "json"], spec: Fixture.spec("deadlock")),
        Case(arguments: ["paths", "SPEC"], spec: Fixture.emailFirst),
        Case(arguments: ["paths", "SPEC", "--format", "json"], spec: Fixture.emailFirst),
        Case(arguments: ["fuzz", "SPEC", "--seed", "1"], spec: Fixture.spec("deadlock")),
        Case(arguments: ["fuzz", "SPEC", "--seed", "1", "--format", "json"], spec: "Tests/AuthFlowCheckerTests/Fixtures/version2/broken/passkey-variant.json"),
        Case(arguments: ["export", "SPEC"], spec: Fixture.spec("deadlock")),
        Case(arguments: ["replay", "SPEC", trail], spec: Fixture.spec("no-exit")),
    ]

    /// Runs `arguments` with `SPEC` replaced by `spec`, with `input` on stdin; stdout, stderr and the status.
    static func run(_ arguments: [String], spec: String, input: String? = nil) -> (stdout: String, stderr: String, status: Int32) {
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(input: input), environment: .testing(variables: [:], fault: nil))
        let status = AuthCheckCommand.run(arguments.map { $0 == "SPEC" ? spec : $0 }, context: context)
        return (capture.stdout, capture.stderr, status)
    }

    @Test(arguments: cases)
    func aDashReadsTheSpecFromStandardInput(_ test: Case) throws {
        // Given a spec as a file, and the same spec on standard input,
        let path = Fixture.url(test.spec).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // when the command runs on each,
        let file = Self.run(test.arguments, spec: path)
        let stdin = Self.run(test.arguments, spec: "-", input: text)
        // then the two agree but for the spec's name: <stdin> in reports, - in the command that replays it.
        // A replay command too long for a line goes on with ` \` (a shorter `-` may not need to), and a verdict line
        // too long for a full path goes on under its ` —`: each compared as one line.
        func timeless(_ text: String) -> String {
            text.replacingOccurrences(of: " \\\n     ", with: " ").replacingOccurrences(of: " —\n   ", with: " — ").replacingOccurrences(of: #"\d+\.\d+ s\b|"seconds" : [0-9.e-]+|\([0-9.]+ k? ?stacks/s\)"#, with: "…", options: .regularExpression)
        }
        let expected = file.stdout.replacingOccurrences(of: "authcheck \(test.arguments[0]) \(path)", with: "authcheck \(test.arguments[0]) -")
            .replacingOccurrences(of: "authcheck explore \(path)", with: "authcheck explore -")
            .replacingOccurrences(of: path, with: "<stdin>")
        #expect(stdin.status == file.status)
        #expect(file.status != 2, "\(file.stderr)")
        #expect(timeless(stdin.stdout) == timeless(expected))
        #expect(stdin.stderr == file.stderr.replacingOccurrences(of: path, with: "<stdin>"))
    }
}
