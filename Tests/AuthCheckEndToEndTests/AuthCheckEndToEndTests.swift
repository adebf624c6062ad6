import AuthCheckTestSupport
import Foundation
import Testing

/// Runs the built command and compares stdout, stderr and the exit status with `Expected/`.
///
/// Record again with `AUTHCHECK_RECORD=1 swift test --filter AuthCheckEndToEndTests` and read the
/// diff: the expected files are the specification of the command's output.
@Suite struct AuthCheckEndToEndTests {
    @Test(arguments: EndToEndCase.all)
    func outputMatchesExpected(_ testCase: EndToEndCase) throws {
        let actual = try testCase.executable.run(testCase.arguments, environment: testCase.environment, stdin: testCase.stdin)
        if ExpectedOutput.recording {
            try ExpectedOutput.record(testCase.name, actual)
            return
        }
        guard let expected = ExpectedOutput.load(testCase.name) else {
            Issue.record("no expected output for \(testCase); record it with AUTHCHECK_RECORD=1")
            return
        }
        #expect(actual.status == expected.status, "exit status of \(testCase)")
        #expect(actual.stdout == expected.stdout, "stdout of \(testCase)\n\(LineDiff.render(expected: expected.stdout, actual: actual.stdout))")
        #expect(actual.stderr == expected.stderr, "stderr of \(testCase)\n\(LineDiff.render(expected: expected.stderr, actual: actual.stderr))")
    }

    @Test func everyExpectedFileBelongsToACase() throws {
        let names = Set(EndToEndCase.all.map(\.name))
        #expect(names.count == EndToEndCase.all.count, "two cases share a name")
        let files = try FileManager.default.contentsOfDirectory(atPath: ExpectedOutput.sourceDirectory.path)
        let orphans = files.filter { !["specs", "trails", "traces"].contains($0) && !names.contains(($0 as NSString).deletingPathExtension) }
        #expect(orphans.isEmpty, "expected files without a case: \(orphans.sorted())")
    }

    @Test func eachRealSpecHolds() throws {
        let specs = try FileManager.default.contentsOfDirectory(atPath: Fixture.url("Specs").path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(specs.map { "Specs/\($0)" } == Fixture.realSpecs, "a spec in Specs/ has no end-to-end case")
        for spec in specs {
            let output = try AuthCheckBinary.shipped.run(["check", "Specs/\(spec)"])
            #expect(output.status == 0, "Specs/\(spec): \(output.stdout)")
        }
    }

    @Test func severalSpecsExitWithTheWorstStatus() throws {
        // 2 > 1 > 3 > 0, whatever the order the specs come in.
        let holds = Fixture.emailFirst
        let violated = Fixture.spec("deadlock")
        let invalid = Fixture.spec("malformed")
        let cases: [([String], Int32)] = [
            ([holds, holds], 0),
            ([violated, holds], 1),
            ([holds, violated], 1),
            ([invalid, violated], 2),
            ([violated, invalid, holds], 2),
        ]
        for (specs, status) in cases {
            #expect(try AuthCheckBinary.shipped.run(["check"] + specs).status == status, "check \(specs)")
        }
        // An incomplete run (3) ranks below a violation (1) and above holds (0).
        #expect(try AuthCheckBinary.shipped.run(["check", "--max-configurations", "30", holds]).status == 3)
        #expect(try AuthCheckBinary.shipped.run(["check", "--max-configurations", "30", holds, violated]).status == 1)
    }

    @Test func theShippedCommandTakesNoTestHooksFromTheEnvironment() throws {
        // Given the variables authcheck-testing reads, when the shipped command runs with them,
        let hooks = ["AUTHCHECK_TEST_FAULT": "undo-refused:otp", "AUTHCHECK_FIXED_TIME": "1"]
        let shipped = try AuthCheckBinary.shipped.run(["check", Fixture.spec("secrets")], environment: hooks)
        // then it drives the real runtime (which holds) and prints the time it took,
        #expect(shipped.status == 0, "\(shipped.stdout)")
        #expect(!shipped.stdout.contains(", 0.000 s"), "\(shipped.stdout)")
        // while the test executable breaks the runtime as asked.
        #expect(try AuthCheckBinary.testing.run(["check", Fixture.spec("secrets")], environment: hooks).status == 1)
    }

    @Test func pipesNeverGetColour() throws {
        let output = try AuthCheckBinary.shipped.run(["check", Fixture.spec("deadlock"), Fixture.emailFirst], environment: ["TERM": "xterm-256color"])
        #expect(!output.stdout.contains("\u{1B}["))
        #expect(!output.stderr.contains("\u{1B}["))
    }
}
