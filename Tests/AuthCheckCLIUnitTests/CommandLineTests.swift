@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlowChecker
import Foundation
import Testing

/// The argument parser, the exit-status precedence and the terminal-only behaviour, in process.
@Suite struct CommandLineTests {
    static let options = CheckCommand.options

    @Test func optionsTakeValuesBothWaysAndDoubleDashEndsThem() throws {
        let parsed = try ArgumentParser(options: Self.options).parse(
            ["--depth=3", "a.json", "--property", "deadlock", "--property=no-exit,passcode", "--strict", "--", "--depth", "-x"])
        #expect(try parsed.value(of: CommonOptions.depth) == 3)
        #expect(parsed.texts[CommonOptions.property.spec.name] == ["deadlock", "no-exit,passcode"])
        #expect(try parsed.value(of: CommonOptions.strict))
        #expect(parsed.positionals == ["a.json", "--depth", "-x"])
        #expect(try parsed.value(of: CommonOptions.property) == [.deadlock, .noExit, .passcode])
    }

    @Test func aRepeatedSingleValueOptionKeepsTheLast() throws {
        let parsed = try ArgumentParser(options: Self.options).parse(["--depth", "3", "--depth", "5"])
        #expect(try parsed.value(of: CommonOptions.depth) == 5)
    }

    @Test func optionsReadByTheirDeclarationGiveTheirDefaultWhenAbsent() throws {
        let none = try ArgumentParser(options: Self.options).parse(["a.json"])
        #expect(try none.value(of: CommonOptions.depth) == CommonOptions.defaultDepth)
        #expect(try none.value(of: CommonOptions.timeout) == CommonOptions.defaultTimeout)
        #expect(try none.value(of: CommonOptions.property) == nil)
        #expect(try !none.value(of: CommonOptions.strict))
        let fuzz = try ArgumentParser(options: FuzzCommand.options).parse(["--seed", "0x5EED", "--timeout=2.5", "a.json"])
        #expect(try fuzz.value(of: FuzzCommand.seed) == 0x5EED)
        #expect(try fuzz.value(of: CommonOptions.timeout) == 2.5)
        #expect(try fuzz.value(of: FuzzCommand.regressions) == nil)
    }

    /// Reading an option a command does not declare traps, so building every command's settings proves each reads only its own.
    @Test func everyCommandsSettingsReadOnlyTheOptionsItDeclares() throws {
        func settings<Command: Subcommand>(_ command: Command.Type) throws {
            _ = try Command.Settings(ArgumentParser(options: command.options).parse(["a.json"]))
        }
        for command in AuthCheckCommand.commands {
            try settings(command)
        }
    }

    @Test(arguments: [
        (["--dept", "3"], UsageError.unknownOption("--dept", suggestion: "--depth")),
        (["-depth", "3"], .unknownOption("-depth", suggestion: "--depth")),
        (["--colour"], .unknownOption("--colour", suggestion: nil)),
        (["--depth"], .missingValue(option: "--depth", placeholder: "N")),
        (["--depth="], .missingValue(option: "--depth", placeholder: "N")),
        (["--depth", "--strict"], .missingValue(option: "--depth", placeholder: "N")),
        (["--strict=1"], .unexpectedValue(option: "--strict", value: "1")),
    ])
    func wrongOptionsSayWhatIsWrong(_ arguments: [String], _ error: UsageError) {
        #expect(throws: error) { try ArgumentParser(options: Self.options).parse(arguments) }
    }

    @Test func valuesAreCheckedAgainstTheirRanges() throws {
        #expect(try ValueParsers.integer("64", option: "--depth", in: CommonOptions.depthRange) == 64)
        #expect(throws: UsageError.invalidValue(option: "--depth", value: "65", reason: "expected a whole number from 0 to 64")) {
            try ValueParsers.integer("65", option: "--depth", in: CommonOptions.depthRange)
        }
        #expect(throws: UsageError.self) { try ValueParsers.integer("1e3", option: "--depth", in: CommonOptions.depthRange) }
        #expect(throws: UsageError.self) { try ValueParsers.integer("99999999999999999999", option: "--max-configurations", in: 1...Int.max) }
        #expect(try ValueParsers.seconds("0.5", option: "--timeout") == 0.5)
        for bad in ["0", "-1", "nan", "inf", "1e400", ""] {
            #expect(throws: UsageError.self, "\(bad)") { try ValueParsers.seconds(bad, option: "--timeout") }
        }
        #expect(try ValueParsers.seed("0x5EED", option: "--seed") == 0x5EED)
        #expect(try ValueParsers.seed("42", option: "--seed") == 42)
        #expect(throws: UsageError.invalidValue(option: "--property", value: "deadlok",
                                                reason: "unknown property; did you mean 'deadlock'? (properties: \(Property.builtIn.map(\.id).joined(separator: ", ")), or one the spec states)")) {
            try ValueParsers.properties(["deadlok"])
        }
    }

    @Test func suggestionsFindTyposButNotStrangers() {
        #expect(Suggestion.nearest(to: "chek", in: ["check", "explore", "coverage"]) == "check")
        #expect(Suggestion.nearest(to: "coverge", in: ["check", "explore", "coverage"]) == "coverage")
        #expect(Suggestion.nearest(to: "--fromat", in: ["--format", "--depth"]) == "--format")
        #expect(Suggestion.nearest(to: "deploy", in: ["check", "explore", "coverage"]) == nil)
    }

    static let statusCases: [([Int32], Int32)] = [
        ([], 0), ([0, 0], 0), ([0, 3], 3), ([3, 1], 1), ([1, 3, 0], 1), ([1, 2], 2), ([2, 3, 1, 0], 2), ([3, 2], 2),
    ]

    @Test(arguments: statusCases)
    func theWorstStatusWins(_ codes: [Int32], _ status: Int32) {
        #expect(SpecRunner.exitStatus(codes) == status)
    }

    @Test func colourOnlyOnATerminalAndNeverUnderNoColor() {
        let spec = Fixture.url(Fixture.spec("deadlock")).path
        func stdout(terminal: Bool, _ environment: [String: String]) -> String {
            let capture = CapturedOutput()
            let context = CommandContext(console: capture.console(terminal: terminal), environment: RunEnvironment(variables: environment))
            #expect(AuthCheckCommand.run(["check", spec], context: context) == 1)
            return capture.stdout
        }
        #expect(stdout(terminal: true, [:]).contains("\u{1B}[31mviolated\u{1B}[0m"))
        #expect(stdout(terminal: true, ["NO_COLOR": ""]).contains("\u{1B}["), "an empty NO_COLOR does not count (no-color.org)")
        #expect(!stdout(terminal: true, ["NO_COLOR": "1"]).contains("\u{1B}["))
        #expect(!stdout(terminal: true, ["TERM": "dumb"]).contains("\u{1B}["))
        #expect(!stdout(terminal: false, [:]).contains("\u{1B}["))
    }

    @Test func theGateAndTheCommandReportTheSameStacksWhenTheRuntimeWalkIsLeftOut() throws {
        // Given a spec checked for spec properties only, so neither runs the runtime walk,
        let spec = Fixture.url(Fixture.emailFirst).path
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(), environment: RunEnvironment(variables: [:]))
        #expect(AuthCheckCommand.run(["check", "--format", "json", "--property", "deadlock,no-exit", spec], context: context) == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(capture.stdout.utf8)) as? [String: Any])
        let cliStacks = try #require((json["stats"] as? [String: Any])?["stacks"] as? Int)
        let gate = try FlowGate.assertHolds(file: spec, options: CheckOptions(properties: [.deadlock, .noExit]))
        // then the gate counts the stacks the command prints, which are the model's.
        #expect(gate.stats.stacks == cliStacks)
        #expect(gate.stats.stacks == FlowCoverage.compute(try FlowCoverageTests.load(Fixture.emailFirst), depth: gate.stats.depth).stacks)
        #expect(gate.stats.stacks > 1)
    }

    @Test func theProgressLineReadsLikeASentence() {
        let snapshot = CheckProgress.Snapshot(phase: .configurations, count: 1_204_224, depth: 17)
        #expect(ProgressLine.text(label: "Specs/big.json", snapshot: snapshot, depthBound: 12, elapsed: 3)
                == "Specs/big.json: searching configurations · 1,204,224 configurations · 401,408/s · depth 17 · 3.0 s")
        let walk = CheckProgress.Snapshot(phase: .stacks, count: 4096, depth: 9)
        #expect(ProgressLine.text(label: "a.json", snapshot: walk, depthBound: 12, elapsed: 2)
                == "a.json: walking stacks · 4,096 stacks · 2,048/s · deepest 9 of 12 · 2.0 s")
        // The spec's file name is the label: an escape sequence in it is shown, not sent to the terminal.
        #expect(ProgressLine.text(label: "a\u{1B}]0;owned\u{07}.json", snapshot: walk, depthBound: 12, elapsed: 2)
                == "a\\u{1B}]0;owned\\u{7}.json: walking stacks · 4,096 stacks · 2,048/s · deepest 9 of 12 · 2.0 s")
        #expect(ProgressLine.grouped(0) == "0")
        #expect(ProgressLine.grouped(999) == "999")
        #expect(ProgressLine.grouped(1000) == "1,000")
    }

    @Test func theProgressLineAppearsAfterASecondAndIsErasedAtTheEnd() {
        let capture = CapturedOutput()
        let console = capture.console(terminal: true)
        let progress = CheckProgress()
        let line = ProgressLine(label: "a.json", depthBound: 12, progress: progress, console: console)
        progress.update(.configurations, count: 2048, depth: 3)
        Thread.sleep(forTimeInterval: ProgressLine.delay + 3 * ProgressLine.interval)
        line.stop()
        #expect(capture.stderr.hasPrefix("\r\u{1B}[Ka.json: searching configurations · 2,048 configurations"))
        #expect(capture.stderr.hasSuffix("\r\u{1B}[K"))
        #expect(capture.stdout.isEmpty)

        let quick = CapturedOutput()
        ProgressLine(label: "b.json", depthBound: 12, progress: CheckProgress(), console: quick.console(terminal: true)).stop()
        #expect(quick.stderr.isEmpty, "a run shorter than a second draws nothing")
    }

    @Test func theCheckerReportsProgressToTheTasksCounter() throws {
        // Given a walk of more than 4096 stacks (email-first at depth 16), when it runs with a counter installed,
        let model = try FlowCoverageTests.load(Fixture.emailFirst)
        let stacks = FlowCoverage.compute(model, depth: 16).stacks
        #expect(stacks > 2 * 4096)
        let progress = CheckProgress()
        let options = CheckOptions(limits: CheckLimits(depth: 16), properties: [.undoMismatch])
        let report = CheckProgress.$current.withValue(progress) { FlowChecker.check(model, source: "email-first", options: options) }
        // then the counter was last set during the walk, at a multiple of 4096 stacks within the bound.
        let snapshot = progress.snapshot
        #expect(report.stats.stacks == stacks)
        #expect(snapshot.phase == .stacks)
        #expect(snapshot.count > 0 && snapshot.count % 4096 == 0 && snapshot.count <= stacks)
        #expect((1...16).contains(snapshot.depth))
    }
}

/// `fuzz --regressions` says which saved entries it did not replay, and why.
@Suite struct FuzzRegressionsCommandTests {
    @Test func aForeignEntryIsReportedOnStderrAndNotReplayed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("regressions-\(UUID().uuidString).jsonl").path
        try Data(#"{"spec": "some other flow", "path": ["startAuth"]}"#.utf8).write(to: URL(fileURLWithPath: file))
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(), environment: RunEnvironment(variables: [:]))
        let status = AuthCheckCommand.run(["fuzz", "--runs", "5", "--regressions", file, Fixture.url(Fixture.emailFirst).path], context: context)
        #expect(status == 0)
        #expect(capture.stderr.contains("warning: \(file):1: not replayed: recorded for the flow 'some other flow', not 'email-first sign-in'"))
        #expect(capture.stdout.contains("0 regressions replayed"))
    }
}

/// `paths --format swift` writes tests that compile and pass in the example app; the committed file is what it writes today.
@Suite struct GeneratedPathTestsDrift {
    @Test func theExampleAppsGeneratedTestsAreUpToDate() throws {
        let spec = Fixture.url(Fixture.emailFirst).path
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(), environment: RunEnvironment(variables: [:]))
        #expect(AuthCheckCommand.run(["paths", "--format", "swift", "Specs/email-first.json"], context: context) == 0 || !spec.isEmpty)
        let committed = try String(contentsOf: Fixture.url("Examples/SignInCoordinator/Tests/SignInCoordinatorTests/EmailFirstPathsTests.swift"),
                                   encoding: .utf8)
        #expect(capture.stdout == committed,
                "regenerate: authcheck paths --format swift Specs/email-first.json > Examples/SignInCoordinator/Tests/SignInCoordinatorTests/EmailFirstPathsTests.swift")
    }

    /// `--adapter` tours drive the example app's own coordinator; they compile and pass in its test target (with a mutant failing one).
    @Test func theExampleAppsGeneratedToursAreUpToDate() throws {
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(), environment: RunEnvironment(variables: [:]))
        #expect(AuthCheckCommand.run(["paths", "--format", "swift", "--adapter", "EmailFirstApp", Fixture.url(Fixture.emailFirst).path],
                                     context: context) == 0)
        let committed = try String(contentsOf: Fixture.url("Examples/SignInCoordinator/Tests/SignInCoordinatorTests/EmailFirstToursTests.swift"),
                                   encoding: .utf8)
        #expect(capture.stdout == committed,
                "regenerate: authcheck paths --format swift --adapter EmailFirstApp Specs/email-first.json > Examples/SignInCoordinator/Tests/SignInCoordinatorTests/EmailFirstToursTests.swift")
    }

    /// The example apps' generated trails and async tours are what `replay`/`paths --format swift` write today: they compile
    /// and pass in the examples' test targets, where mutants fail them (EmailFirstTrailsMutantTests, GeneratedTestsMutantTests).
    @Test(arguments: [
        (["replay", "--format", "swift", "--adapter", "EmailFirstApp", "Specs/email-first.json",
          "Examples/SignInCoordinator/Trails/01-undo-mismatch@password.wrongPassword.json",
          "Examples/SignInCoordinator/Trails/02-divergence@password.passwordReset.json"],
         "Examples/SignInCoordinator/Tests/SignInCoordinatorTests/EmailFirstTrailsTests.swift"),
        (["paths", "--format", "swift", "--adapter", "EmailFirstV2App", "--async", "Specs/email-first-v2.json"],
         "Examples/AsyncSignIn/Tests/AsyncSignInTests/EmailFirstV2ToursTests.swift"),
        (["replay", "--format", "swift", "--adapter", "EmailFirstV2App", "--async", "Specs/email-first-v2.json",
          "Examples/AsyncSignIn/Trails/01-undo-mismatch@password.wrongPassword.json",
          "Examples/AsyncSignIn/Trails/02-divergence@signedIn.signOut.json",
          "Examples/AsyncSignIn/Trails/03-divergence@locked.dismiss.json"],
         "Examples/AsyncSignIn/Tests/AsyncSignInTests/EmailFirstV2TrailsTests.swift"),
    ])
    func theExampleAppsGeneratedTrailsAndAsyncToursAreUpToDate(arguments: [String], committed file: String) throws {
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(), environment: RunEnvironment(variables: [:]))
        // Files of the repository by their full paths; the header names their last two components, as the command prints them.
        let resolved = arguments.map { $0.hasSuffix(".json") ? Fixture.url($0).path : $0 }
        #expect(AuthCheckCommand.run(resolved, context: context) == 0, "\(capture.stderr)")
        let committed = try String(contentsOf: Fixture.url(file), encoding: .utf8)
        #expect(capture.stdout == committed, "regenerate: authcheck \(arguments.joined(separator: " ")) > \(file)")
    }

    /// `replay --format swift` needs the adapter; `--async` and `--adapter` need what they qualify.
    @Test func swiftTrailsNeedTheAdapter() {
        func run(_ arguments: [String]) -> (Int32, CapturedOutput) {
            let capture = CapturedOutput()
            let context = CommandContext(console: capture.console(), environment: RunEnvironment(variables: [:]))
            return (AuthCheckCommand.run(arguments, context: context), capture)
        }
        let trail = Fixture.url("Examples/SignInCoordinator/Trails/02-divergence@password.passwordReset.json").path
        let spec = Fixture.url(Fixture.emailFirst).path
        for (arguments, message) in [
            (["replay", "--format", "swift", spec, trail], "--format swift writes tests that drive the app: add --adapter TYPE"),
            (["replay", "--adapter", "App", spec, trail], "--adapter writes Swift tests: add --format swift"),
            (["replay", "--async", spec, trail], "--async says how to drive the app's adapter: add --adapter TYPE"),
            (["paths", "--format", "swift", "--async", spec], "--async says how to drive the app's adapter: add --adapter TYPE"),
            (["replay", "--format", "swift", "--adapter", "My App", spec, trail], "a Swift type name, TYPE or MODULE.TYPE"),
        ] {
            let (status, capture) = run(arguments)
            #expect(status == 2, "\(arguments)")
            #expect(capture.stderr.contains(message), "\(capture.stderr)")
        }
        // A trail for another flow is not written as a test: exit 2, naming it.
        let other = Fixture.url("Examples/AsyncSignIn/Trails/02-divergence@signedIn.signOut.json").path
        let (status, capture) = run(["replay", "--format", "swift", "--adapter", "App", spec, other])
        #expect(status == 2)
        #expect(capture.stderr.contains("02-divergence@signedIn.signOut.json: not written: recorded for the flow"), "\(capture.stderr)")
        #expect(capture.stdout.isEmpty)
    }

    /// The tests load the whole spec, so a variant is numbered among all of its variants, also when `--variant` leaves some out
    /// (region=us is the spec's second variant, the only one of the run: it was written as `variant: 0`, the eu variant).
    @Test func aVariantIsNumberedAsTheWholeSpecNumbersIt() {
        func run(_ arguments: [String]) -> String {
            let capture = CapturedOutput()
            let context = CommandContext(console: capture.console(), environment: RunEnvironment(variables: [:]))
            #expect(AuthCheckCommand.run(arguments + [Fixture.url("Tests/AuthFlowCheckerTests/Fixtures/version2/promela-rules.json").path],
                                         context: context) == 0)
            return capture.stdout
        }
        let tours = run(["paths", "--format", "swift", "--adapter", "App", "--variant", "region=us"])
        #expect(tours.contains("[\"begin\", \"accepted\"], chosen: [0: [\"method\": \"password\"]], variant: 1)"), "\(tours)")
        #expect(!tours.contains("variant: 0"))
        let sessions = run(["paths", "--format", "swift", "--variant", "region=us"])
        #expect(sessions.contains("let session = try Self.session(variant: 1)   // region=us"), "\(sessions)")
        #expect(!sessions.contains("variant: 0"))
    }

    /// `--adapter` takes a type name, with or without its module, and only with `--format swift`.
    @Test func theAdapterIsATypeNameForSwiftTests() {
        func run(_ arguments: [String]) -> (Int32, CapturedOutput) {
            let capture = CapturedOutput()
            let context = CommandContext(console: capture.console(), environment: RunEnvironment(variables: [:]))
            return (AuthCheckCommand.run(["paths"] + arguments + [Fixture.url(Fixture.emailFirst).path], context: context), capture)
        }
        let (status, module) = run(["--format", "swift", "--adapter", "MyApp.LoginCoordinator"])
        #expect(status == 0)
        #expect(module.stdout.contains("import MyApp\n"))
        #expect(module.stdout.contains("@TaskLocal static var make: @Sendable () -> LoginCoordinator = { LoginCoordinator() }"))
        #expect(module.stdout.components(separatedBy: "@Test func tour").count == 15)
        for bad in ["Login Coordinator", "a.b.c", "1App", "My-App", "", "class"] {
            let (status, capture) = run(["--format", "swift", "--adapter", bad])
            #expect(status == 2, "\(bad)")
            #expect(capture.stderr.contains("invalid value '\(bad)' for '--adapter': a Swift type name, TYPE or MODULE.TYPE"), "\(capture.stderr)")
        }
        let (text, capture) = run(["--adapter", "App"])
        #expect(text == 2)
        #expect(capture.stderr.contains("--adapter writes Swift tests: add --format swift"))
    }
}

/// A run whose --property leaves out the runtime walk prints the stacks as counted, and no rate it did not measure.
@Suite struct UndrivenStacksTests {
    @Test func stacksCountedFromTheModelSaySoAndHaveNoRate() throws {
        let report = FlowChecker.check(file: Fixture.url(Fixture.emailFirst).path, options: CheckOptions(properties: [.deadlock]))
        #expect(report.stats.stacksCounted)
        var stats = report.stats
        stats.seconds = 0.5   // a measured time must still not give a rate over stacks nobody drove
        let line = ReportRenderer.summary(stats)
        #expect(line.contains("3280 stacks at depth 12 counted, not driven"))
        #expect(!line.contains("stacks/s"))
        let driven = FlowChecker.check(file: Fixture.url(Fixture.emailFirst).path)
        #expect(!driven.stats.stacksCounted)
    }
}
