import AuthFlow
import AuthFlowChecker
import Foundation

/// `authcheck traces SPEC FILE...`: replays recorded sessions against the spec, and shows where users went and left.
enum TracesCommand: Subcommand {
    static let name = "traces"
    static let abstract = "recorded sessions replayed against the spec; the funnel"
    static let argumentsSynopsis = "SPEC FILE..."
    static let argumentsHelp = [
        (name: "SPEC", help: "the spec the sessions ran (JSON)"),
        (name: "FILE...", help: "tracker records, JSON Lines as FlowTracker writes them; - reads standard input. Several files are read in order as one stream: a session may continue from one into the next"),
    ]
    static let format = CommonOptions.format(TracesFormat.self, help:
        "output format (default text); json the same report for CI, dot and mermaid the funnel drawn on the flow's graph")
    static let maxListed = Option("--max-listed", value: "N", help:
        "list at most N violations and N unreadable records (default 100); all are counted", default: 100) { text, name throws(UsageError) in
        try ValueParsers.integer(text, option: name, in: 0...Int.max)
    }
    static let sessionTimeout = Option<Double?>("--session-timeout", value: "SECONDS", help:
        "close a session after this long without a record, by the records' timestamps (default 1800; 0 keeps every session open to the end)",
        default: 1800) { text, name throws(UsageError) in
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let seconds = Double(text), seconds.isFinite,
              seconds <= 1e9 else {
            throw .invalidValue(option: name, value: text, reason: "expected a number of seconds, such as 1800, or 0 to keep sessions open")
        }
        return seconds == 0 ? nil : seconds
    }
    static let strict = Option(flag: "--strict", help:
        "records that cannot be read or are out of place also make the verdict violated (exit 1)")
    /// `--timeout`: loading, opening the inputs and the model's search stop at it; records stream to the end of their input.
    static let timeout = Option<Double?>("--timeout", value: "SECONDS", help:
        "stop as incomplete (exit 3) if loading the spec or waiting for a FILE takes longer than this (default \(Int(CommonOptions.defaultTimeout))); "
        + "the model's search for the funnel stops there too, and the report says so. Records are read to the end of their input",
        default: CommonOptions.defaultTimeout) { text, name throws(UsageError) in
        try ValueParsers.seconds(text, option: name)
    }
    static let options = [format.spec, maxListed.spec, sessionTimeout.spec, strict.spec, timeout.spec, CommonOptions.variant.spec]
    static let discussion = [
        (title: "CHECKS", body: """
            Each session (records grouped by sessionID) is replayed from the flow's start
            through the spec's own moves, as 'check' explores them:
              illegal-transition  a transition the spec does not allow from where the
                                  session is: an event the step does not emit or offer,
                                  one the table has no row for, or a row that goes elsewhere
              forbidden-back      a back at the start, from a terminal state, or from a
                                  step that says back: false (a refused back is fine)
              undo-mismatch       a back that did not land on the screen before
              unmet-requirement   a screen entered without a key it requires, by the names
                                  each transition recorded as added and cleared
              assurance           a screen that asks for an assurance level (authflow/2
                                  section 6) entered with factor keys below it, by the
                                  same names
            Records without those names (an older tracker) still read; the requirement
            check is skipped for them and the report says so. Values are never needed and
            never printed. authflow/2 records name the values of non-secret valued keys,
            which pick the branch; a session is accepted if any variant explains it
            (--variant: any of the variants chosen).
            """),
        (title: "RECORDS", body: """
            A record that cannot be read is reported at its file:line and skipped, and the
            rest of the file is read: malformed (not a record), truncated (cut off),
            interleaved (parts of several records on one line), duplicate (the same
            record again), out-of-order (older than its session's last), out-of-sequence
            (does not start where its session is) and mid-flow (a session whose start is
            not in the input). Memory follows the sessions open at once, not the file's
            length: a session closes after --session-timeout without a record.
            """),
        (title: "FORMATS", body: """
            text     each violation at its file:line with its session, records not read,
                     how sessions ended, then the funnel: per state the sessions that
                     entered it, entries, exits, backs, refused attempts and drop-off; per
                     declared transition how often it was taken; the transitions the spec
                     reaches that no session took
            json     the same, keys in a fixed order
            dot      the funnel on the coverage graph: edges weighted by how often they
                     were taken, drop-off per state, never-taken transitions dashed,
                     moves the spec does not have in red:
                     traces --format dot SPEC FILE | dot -Tsvg > funnel.svg
            mermaid  the same as a stateDiagram-v2
            """),
        (title: "EXIT STATUS", body: """
            0  no session breaks the spec
            1  a session breaks the spec (or, under --strict, a record could not be read
               or was out of place)
            2  an invalid spec, a FILE that cannot be read, or wrong usage
            """),
    ]

    struct Settings: CommandSettings {
        var format: TracesFormat
        var maxListed: Int
        var sessionTimeout: Double?
        var strict: Bool
        var timeout: Double?
        var variants: [String: Set<String>]
        var spec: String
        var files: [String]

        init(_ parsed: ParsedArguments) throws(UsageError) {
            format = try parsed.value(of: TracesCommand.format)
            maxListed = try parsed.value(of: TracesCommand.maxListed)
            sessionTimeout = try parsed.value(of: TracesCommand.sessionTimeout)
            strict = try parsed.value(of: TracesCommand.strict)
            timeout = try parsed.value(of: TracesCommand.timeout)
            variants = try parsed.value(of: CommonOptions.variant)
            guard let spec = parsed.positionals.first else { throw .missingArgument("SPEC") }
            if spec == SpecRunner.standardInput {
                throw .invalidValue(option: "SPEC", value: spec, reason: "the spec must be a file: '-' reads the records (FILE) from standard input")
            }
            self.spec = spec
            files = Array(parsed.positionals.dropFirst())
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        if settings.files.isEmpty { throw .missingArgument("FILE") }
        let start = context.environment.clock.now()
        let model: FlowModel
        let checkOptions = CheckOptions(variants: settings.variants)
        let deadline = Deadline(timeout: settings.timeout ?? CommonOptions.defaultTimeout)
        switch SpecRunner.load(settings.spec, options: checkOptions, deadline: deadline) {
        case let .invalid(report):
            switch settings.format {
            case .text: SpecRunner.reportInvalid(report, json: false, context: context)
            case .json: SpecRunner.reportInvalid(report, json: true, context: context)
            case .dot, .mermaid: SpecRunner.diagnose(report, stdout: .nothing, console: context.console)
            }
            return report.exitCode
        case let .model(loaded):
            model = loaded
        }
        // Every input is opened before any is read: one that cannot be is a usage problem, reported alone.
        var inputs: [TraceInput] = []
        for (i, file) in settings.files.enumerated() {
            if file == SpecRunner.standardInput {
                if settings.files[..<i].contains(SpecRunner.standardInput) {
                    throw .invalidValue(option: "FILE", value: file, reason: "standard input can be read once")
                }
                inputs.append(TraceInput(context.console.standardInput()))
                continue
            }
            do {
                inputs.append(try TraceInput.file(file, deadline: deadline))
            } catch {
                context.console.err("error: \(error)")
                return 2
            }
        }

        var options = TraceReplay.Options()
        options.maxListed = settings.maxListed
        options.sessionTimeout = settings.sessionTimeout
        let progress = TraceProgress()
        var replay = TraceReplay(model: model, spec: settings.spec, options: options, progress: progress, deadline: deadline)
        var failure: String?
        withProgress(progress, console: context.console) {
            for input in inputs {
                do {
                    try replay.read(input)
                } catch {
                    failure = "error: \(error)"
                    return
                }
            }
        }
        var report = replay.finish()
        report.seconds = context.environment.clock.seconds(since: start)
        if let failure {
            context.console.err(failure)
            return 2
        }

        switch settings.format {
        case .json:
            context.console.out(TracesJSON.render(report, strict: settings.strict).rendered(pretty: true))
        case .dot, .mermaid:
            let (check, coverage) = FlowChecker.coverage(model, source: settings.spec, options: checkOptions,
                                                         normalise: context.environment.makeNormaliser(model),
                                                         start: start, clock: context.environment.clock)
            let graph = CoverageReport(spec: settings.spec, name: model.name, coverage: coverage, check: check, funnel: report)
            context.console.out(settings.format == .dot ? CoverageDot.render(graph) : CoverageMermaid.render(graph))
        case .text:
            context.console.out(TracesText.render(report, strict: settings.strict, style: context.style))
        }
        return TracesText.exitStatus(report, strict: settings.strict)
    }

    /// Runs `body` with a progress line on stderr when it is a terminal: records read, their rate, sessions open.
    static func withProgress(_ progress: TraceProgress, console: Console, _ body: () -> Void) {
        guard console.stderrIsTerminal else { return body() }
        let line = ProgressLine(console: console) { elapsed in
            let snapshot = progress.snapshot
            let rate = elapsed > 0 ? Int(Double(snapshot.records) / elapsed) : 0
            return "\(ProgressLine.grouped(snapshot.records)) records · \(ProgressLine.grouped(rate))/s · "
                + "\(ProgressLine.grouped(snapshot.open)) sessions open · \(String(format: "%.1f", elapsed)) s"
        }
        defer { line.stop() }
        body()
    }
}
