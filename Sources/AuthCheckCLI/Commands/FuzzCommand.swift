import AuthFlow
import AuthFlowChecker

/// `authcheck fuzz SPEC`: random paths (with back) through the runtime, shrinking any failure.
enum FuzzCommand: Subcommand {
    static let name = "fuzz"
    static let abstract = "random paths with back through the runtime, shrunk"
    static let argumentsSynopsis = "SPEC"
    static let argumentsHelp = [(name: "SPEC", help: "one spec file (JSON, authflow/1 or authflow/2), or - for standard input")]
    static let defaultRuns = 1_000
    static let defaultMaxSteps = 60
    static let defaultSeed: UInt64 = 1
    static let runs = Option("--runs", value: "N", help: "how many random paths to walk (1...100000000; default \(defaultRuns))",
                             default: defaultRuns) { text, name throws(UsageError) in
        try ValueParsers.integer(text, option: name, in: 1...100_000_000)
    }
    static let seed = Option("--seed", value: "SEED", help: "the random seed, decimal or 0x-hex (default \(defaultSeed)); the same seed walks the same paths",
                             default: defaultSeed) { text, name throws(UsageError) in
        try ValueParsers.seed(text, option: name)
    }
    static let maxSteps = Option("--max-steps", value: "N", help: "the most actions (events and backs) in one path (1...100000; default \(defaultMaxSteps))",
                                 default: defaultMaxSteps) { text, name throws(UsageError) in
        try ValueParsers.integer(text, option: name, in: 1...100_000)
    }
    static let format = CommonOptions.format(FuzzFormat.self)
    static let regressions = Option<String?>("--regressions", value: "FILE",
                                             help: "replay the paths saved in FILE first, and append a new failure's shrunk path to it",
                                             default: nil) { text, _ throws(UsageError) in text }
    static let options = [runs.spec, seed.spec, maxSteps.spec, format.spec, CommonOptions.property.spec, regressions.spec, CommonOptions.timeout.spec,
                          CommonOptions.variant.spec]
    static let discussion = [
        (title: "OUTPUT", body: """
            A failure prints the shrunk path step by step with the data values after each
            (secrets as <redacted>), and the seed and run that replay it. Then the coverage of
            the runs: states, transitions and (state, event) pairs hit, and after how many runs
            everything reachable was covered.
            """),
        (title: "HOW IT WALKS", body: """
            Each run starts at the root and takes up to --max-steps actions: an event the
            current step emits (one with no transition is sent too, and must be rejected with
            no change), or back where the spec allows it, with random values for the data each
            event adds. Three runs in four leave out a random subset of events (swarm testing),
            so deep paths are walked too. Every property is checked after every step. A failure
            is shrunk by deleting segments and single steps, dropping forward/back pairs and
            simplifying values, replaying each candidate.
            """),
        (title: "EXIT STATUS", body: """
            0  no run failed
            1  a run failed (the shrunk counterexample is printed)
            2  an invalid spec, or wrong usage
            3  --timeout stopped the runs before they were all walked
            """),
    ]

    /// The fuzzer's settings, validated.
    struct Settings: CommandSettings {
        var spec: String
        var variants: [String: Set<String>] = [:]
        var runs: Int
        var seed: UInt64
        var maxSteps: Int
        var format: FuzzFormat
        var properties: Set<Property>?
        var timeout: Double?
        var regressions: String?

        init(_ parsed: ParsedArguments) throws(UsageError) {
            runs = try parsed.value(of: FuzzCommand.runs)
            seed = try parsed.value(of: FuzzCommand.seed)
            maxSteps = try parsed.value(of: FuzzCommand.maxSteps)
            format = try parsed.value(of: FuzzCommand.format)
            properties = try parsed.value(of: CommonOptions.property)
            timeout = try parsed.value(of: CommonOptions.timeout)
            regressions = try parsed.value(of: FuzzCommand.regressions)
            variants = try parsed.value(of: CommonOptions.variant)
            spec = try parsed.single("SPEC", reason: "fuzz takes one SPEC")
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        let model: FlowModel
        // One deadline from here: loading, the fuzzer's graph, the runs and the shrinking all count towards --timeout.
        let deadline = Deadline(timeout: settings.timeout ?? CommonOptions.defaultTimeout)
        switch SpecRunner.load(settings.spec, options: CheckOptions(variants: settings.variants), input: context.console, deadline: deadline) {
        case let .invalid(report):
            SpecRunner.reportInvalid(report, json: settings.format == .json, context: context)
            return report.exitCode
        case let .model(loaded):
            model = loaded
        }
        var saved: [[FuzzAction]] = []
        if let file = settings.regressions {
            do {
                let entries = try FuzzRegressions.read(file, deadline: .after(settings.timeout ?? CommonOptions.defaultTimeout))
                let (replay, notes) = FuzzRegressions.partition(entries, for: model)
                saved = replay
                for note in notes { context.console.err("\(note.skipped ? "warning" : "note"): \(file):\(note.line): \(note.text)") }
            } catch {
                context.console.err("error: \(error)")
                return 2
            }
        }
        let options = FuzzOptions(runs: settings.runs, maxSteps: settings.maxSteps, seed: settings.seed,
                                  properties: settings.properties, timeout: settings.timeout)
        // A long fuzz is not silent on a terminal: runs done, their rate, the time.
        let report = ProgressLine.aroundFuzz(label: SpecRunner.displayName(settings.spec), runs: settings.runs, console: context.console) {
            FlowFuzzer(model: model, makeDriver: context.environment.driverFactory(for: model), deadline: deadline)
                .run(options, regressions: saved, clock: context.environment.clock, start: deadline.start)
        }
        if let failure = report.failure, failure.run >= 0, let file = settings.regressions {
            do {
                try FuzzRegressions.append(failure, model: model, to: file)
            } catch {
                context.console.err("warning: could not save the failing path to \(file): \(error.localizedDescription)")
            }
        }
        switch settings.format {
        case .json:
            context.console.out(FuzzReportRenderer.json(report, spec: SpecRunner.displayName(settings.spec), model: model, options: options).rendered(pretty: true))
        case .text:
            context.console.out(FuzzReportRenderer.text(report, spec: SpecRunner.displayName(settings.spec), model: model, options: options, style: context.style))
        }
        return report.verdict.exitCode
    }
}
