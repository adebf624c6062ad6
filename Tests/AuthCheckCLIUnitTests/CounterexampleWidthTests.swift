@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Testing

/// A counterexample fits a screen: each step shows what changed, the breaking step the whole frame, no line past 120 columns.
///
/// The wide case is a `/2` sign-in with three counters whose accepted code forgets to clear two of them: before, every
/// step repeated every key and the breaking step's line ran to 245 columns.
@Suite struct CounterexampleWidthTests {
    static let countersKept = Fixture.url(Fixture.spec("counters-kept")).path

    /// The numbered step lines of a text report (` ✗  8. codeAccepted  → …`), as their numbers.
    static func stepNumbers(_ lines: [String]) -> [Int] {
        lines.compactMap { line in
            let chars = Array(line)
            guard chars.count > 6, chars[0] == " ", chars[1] == " " || chars[1] == "✗", chars[2] == " " else { return nil }
            let number = String(chars[3..<5]).trimmingCharacters(in: .whitespaces)
            guard chars[5] == ".", let value = Int(number) else { return nil }
            return value
        }
    }

    @Test func theWideFlowsReportFitsInOneHundredTwentyColumnsAndShowsChanges() throws {
        // Read from standard input, so the lines that name the spec do not grow with where the package is checked out.
        let spec = try String(contentsOfFile: Self.countersKept, encoding: .utf8)
        let output = CIFormatTests.run(["check", "-", "--property", "signed-in-counts-afresh"], input: spec)
        #expect(output.status == 1)
        let lines = output.stdout.components(separatedBy: "\n")
        let wide = lines.filter { TerminalText.width($0) > 120 }
        #expect(wide.isEmpty, "lines over 120 columns: \(wide)")
        // One legend per report.
        #expect(lines.filter { $0.contains(CounterexampleRenderer.legend) }.count == 1)
        // Each step shows what changed.
        #expect(lines.contains { $0.hasSuffix("→ enterCredentials  -password, failedPasswords 0→1") })
        #expect(lines.contains { $0.hasSuffix("→ confirmCode       failedCodes 0→1") })
        #expect(lines.contains { $0.hasSuffix("→ signingIn         +username, +password") })
        // The start in full, once; the breaking step's whole frame under its change.
        #expect(lines.contains { $0.hasPrefix("       (start)") && $0.hasSuffix("{failedPasswords=0, failedCodes=0, resends=0}") })
        let breaking = try #require(lines.firstIndex { $0.hasPrefix(" ✗") })
        #expect(lines[breaking].hasSuffix("+session, -nextStep   ← signed-in-counts-afresh"))
        let frame = lines[(breaking + 1)...].prefix { !$0.hasPrefix("   replay:") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(frame == "{username, password, session, failedPasswords=1, failedCodes=1, resends=1}")
        // The header counts the numbered steps.
        #expect(lines.contains { $0.hasSuffix("— 8 steps") })
        #expect(Self.stepNumbers(lines) == Array(1...8))
    }

    @Test func anIllegalTransitionsHeaderCountsTheRefusedEvent() {
        let output = CIFormatTests.run(["check", Fixture.url(Fixture.spec("illegal-transition")).path])
        #expect(output.status == 1)
        let lines = output.stdout.components(separatedBy: "\n")
        #expect(lines.contains { $0.hasSuffix("— 2 steps") })
        #expect(Self.stepNumbers(lines) == [1, 2])
    }

    @Test func aLongDeltaWrapsUnderTheDataColumnWithoutLosingAKey() throws {
        let keys = (1...30).map { "key\($0)" }
        let path: FlowPath = [PathStep(event: nil, state: "start", data: []), PathStep(event: "go", state: "next", data: keys),
                    PathStep(event: "stop", state: "end", data: keys)]
        let violation = Violation(property: .deadlock, state: "end", message: "stuck", path: path)
        let lines = CounterexampleRenderer.render(violation, number: 1, replay: nil).components(separatedBy: "\n")
        #expect(lines.allSatisfy { TerminalText.width($0) <= 120 }, "\(lines)")
        let tokens = Set(lines.joined(separator: " ").split { $0 == " " || $0 == "," }.map(String.init))
        #expect(keys.allSatisfy { tokens.contains("+\($0)") })
        let column = lines[3].distance(from: lines[3].startIndex, to: try #require(lines[3].range(of: "+key1,")).lowerBound)
        let continued = lines[4]
        #expect(continued.prefix(column).allSatisfy { $0 == " " } && continued.dropFirst(column).hasPrefix("+key"))
    }
}
