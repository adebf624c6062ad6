import AuthFlow
import AuthFlowChecker
import Foundation

/// `authcheck replay SPEC TRAIL...`: runs each trail `explore --trail` wrote through the runtime, step by step.
enum ReplayCommand: Subcommand {
    static let name = "replay"
    static let abstract = "run saved trails through the runtime step by step"
    static let argumentsSynopsis = "SPEC TRAIL..."
    static let argumentsHelp = [
        (name: "SPEC", help: "the spec file (JSON) the trails were recorded for, or - for standard input"),
        (name: "TRAIL", help: "a trail file written by 'authcheck explore --trail DIR' (or Violation.trail(for:)); with --format swift also a 'fuzz --regressions' file"),
    ]
    static let format = CommonOptions.format(ReplayFormat.self, help:
        "output format (default text); swift writes a Swift Testing suite, one test per trail, that drives the app's adapter (--adapter)")
    static let adapter = Option<String?>("--adapter", value: "TYPE",
                                         help: "with --format swift: the app's FlowUnderTest adapter TYPE (or MODULE.TYPE, imported) the tests drive",
                                         default: nil) { text, name throws(UsageError) in try AdapterSuite.typeName(text, option: name) }
    static let options: [OptionSpec] = [format.spec, adapter.spec, AdapterSuite.asyncFlag.spec, CommonOptions.timeout.spec,
                                        CommonOptions.variant.spec]
    static let discussion = [
        (title: "OUTPUT", body: """
            For each trail: the frame after each step (state and data, values as the
            runtime holds them, secrets as <redacted>), then how it ended: reproduced (the
            trail's violation happened again), fixed (every step was taken without it), off
            the trail (the flow was not in the state or did not hold the keys or values the
            trail recorded), or a divergence of the runtime from the spec.
            An authflow/2 trail runs in the variant it names (printed under the file when
            the flow has config), and each step sends the values the trail chose for the
            valued keys it adds (the system's answer). A trail recorded against another
            version of the table (the spec changed since) is replayed with a note on
            stderr, as 'fuzz --regressions' replays its entries: replaying it after a fix
            is what it is for.
            --format swift writes the trails as tests instead, one per trail (or per entry
            of a 'fuzz --regressions' file), each driving the app's adapter TYPE through
            the trail's typed steps (.event("submitted", values: ["nextStep": "done"]),
            .reset("signOut"), .back) and checking that after every step its state and
            data equal the spec's frame and the trail's violation does not happen
            (FlowConformance.problem(trail:site:)): a conformance bug the gate found stays
            a regression test. With --async, TYPE is an AsyncFlowUnderTest and the tests
            await it:
              authcheck replay --format swift --adapter MyApp.LoginModel --async \\
                Specs/sign-in.json trails/*.json > Tests/AppTests/SignInTrails.swift
            """),
        (title: "EXIT STATUS", body: """
            0  no trail reproduces its violation (fixed)
            1  a trail reproduces its violation, or the runtime diverged from the spec
            2  wrong usage, an invalid spec, a trail that cannot be read, or a trail
               recorded for another flow or variant, naming an unknown event, or that
               the flow does not follow
            3  a limit stopped the run before a trail could be called fixed: --timeout
               passed loading the spec or reading a trail, or the search of an
               authflow/2 flow's moves stopped short of a deadlock or no-exit site
            With --format swift: 0 the tests were written, 2 as above.
            """),
    ]

    struct Settings: CommandSettings {
        var spec: String
        var trails: [String]
        var variants: [String: Set<String>]
        var timeout: Double?
        var format: ReplayFormat
        var adapter: String?
        var isAsync: Bool

        init(_ parsed: ParsedArguments) throws(UsageError) {
            format = try parsed.value(of: ReplayCommand.format)
            adapter = try parsed.value(of: ReplayCommand.adapter)
            isAsync = try parsed.value(of: AdapterSuite.asyncFlag)
            if adapter != nil && format != .swift { throw UsageError.conflict("--adapter writes Swift tests: add --format swift") }
            if format == .swift && adapter == nil {
                throw UsageError.conflict("--format swift writes tests that drive the app: add --adapter TYPE (its FlowUnderTest adapter)")
            }
            if isAsync && adapter == nil { throw UsageError.conflict("--async says how to drive the app's adapter: add --adapter TYPE") }
            variants = try parsed.value(of: CommonOptions.variant)
            timeout = try parsed.value(of: CommonOptions.timeout)
            guard let spec = parsed.positionals.first else { throw .missingArgument("SPEC") }
            self.spec = spec
            trails = Array(parsed.positionals.dropFirst())
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        if settings.trails.isEmpty { throw .missingArgument("TRAIL") }
        let model: FlowModel
        let deadline = Deadline(timeout: settings.timeout ?? CommonOptions.defaultTimeout)
        switch SpecRunner.load(settings.spec, options: CheckOptions(variants: settings.variants), input: context.console, deadline: deadline) {
        case let .invalid(report):
            context.console.err(SpecRunner.invalidLine(report))
            return report.exitCode
        case let .model(loaded):
            model = loaded
        }
        if let adapter = settings.adapter {
            return swiftTests(settings, model: model, suite: AdapterSuite(adapter: adapter, isAsync: settings.isAsync, spec: settings.spec),
                              deadline: deadline, context: context)
        }
        // One search of the flow's moves serves every trail.
        let analysis = FlowAnalysis(model: model, limits: .supporting)
        var codes: [Int32] = []
        for file in settings.trails {
            codes.append(replay(file, model: model, analysis: analysis, deadline: deadline, context: context))
        }
        return SpecRunner.exitStatus(codes)
    }

    /// Replays the trail in `file`, printing its frames and ending; its exit status.
    static func replay(_ file: String, model: FlowModel, analysis: FlowAnalysis, deadline: Deadline, context: CommandContext) -> Int32 {
        guard let entries = readTrailFile(file, deadline: deadline, context: context) else { return 2 }
        guard entries.count == 1, let entry = entries.first else {
            context.console.err("error: \(file): a trail holds one entry; this file holds \(entries.count)")
            return 2
        }
        if let refusal = FlowTrail.refusal(entry, model: model) {
            context.console.err("error: \(file): not replayed: \(refusal)")
            return 2
        }
        if let note = FlowTrail.tableNote(entry, model: model) { context.console.err("note: \(file): \(note)") }
        let driver = context.environment.makeDriver(model) ?? SessionDriver(model: model)
        let replay = FlowTrail.replay(entry, model: model, driver: driver, analysis: analysis, deadline: deadline)
        let style = context.style
        let secrets = Set(model.names(of: model.secrets))
        var lines = ["\(TerminalText.escaped(file)): \(TerminalText.escaped(entry.site ?? "")) — \(ReportRenderer.counted(entry.actions.count, "step"))"]
        if model.roots.count > 1, let variant = FlowTrail.variantIndex(entry.variant ?? [:], model: model) {
            lines.append("  variant: \(model.variantNames[variant])")
        }
        // The start in full, then what each step changed, and the last frame in full: the counterexample's form.
        let marked: Bool
        switch replay.ending {
        case .reproduced, .diverged: marked = true
        case .fixed, .leftTrail: marked = false
        }
        lines.append("   " + CounterexampleRenderer.legend)
        lines += CounterexampleRenderer.stepLines(replay.steps, refused: nil, refusedFrom: "", property: entry.site ?? "",
                                                  secrets: secrets, style: style, marked: marked)
        let status: Int32
        switch replay.ending {
        case let .reproduced(step):
            lines += Self.outcome("reproduced", style.bad, "at step \(step): \(replay.violation?.message ?? "")")
            status = 1
        case .fixed:
            let property = entry.site.flatMap { FlowTrail.parseSite($0, model: model) }?.property
            if let stop = analysis.stoppedBy, property == .deadlock || property == .noExit {
                // The frames the search did not reach are never called stuck: a deadlock or no-exit may be there still.
                lines += Self.outcome("incomplete", style.warn, ": every step was taken, but the search of the flow's moves stopped "
                                      + "(\(stop.supportingDescription)) before \(entry.site ?? "the site") could be ruled out")
                status = 3
            } else {
                lines += Self.outcome("fixed", style.good, ": every step was taken and \(entry.site ?? "the site") was not violated")
                status = 0
            }
        case let .leftTrail(step, reason):
            lines += Self.outcome("off the trail", style.warn, "at step \(step): \(reason)")
            context.console.err("error: \(file): the flow does not follow the trail at step \(step)")
            status = 2
        case let .diverged(step):
            lines += Self.outcome("diverged", style.bad, "at step \(step): \(replay.violation?.message ?? "")")
            if let mismatch = replay.violation?.mismatch {
                lines += CounterexampleRenderer.frameDiff(mismatch, step: step, style: style)
            }
            status = 1
        }
        context.console.out(lines.joined(separator: "\n"))
        return status
    }

    /// The entries of the trail file `file`, or nil when it cannot be read, having said why on stderr (exit 2).
    ///
    /// The text replay and `--format swift` both read trails here. The file is read first, so a file that is there
    /// but cannot be opened says why (a loop of links, a directory, a path through a plain file); only a file that
    /// reads as no entries because it is not there is `no such file` (``FuzzRegressions/read(_:deadline:)`` takes a
    /// missing regressions file as an empty one).
    static func readTrailFile(_ file: String, deadline: Deadline, context: CommandContext) -> [FuzzRegressions.Entry]? {
        let entries: [FuzzRegressions.Entry]
        do {
            entries = try FuzzRegressions.read(file, deadline: deadline)
        } catch {
            context.console.err("error: \(error)")
            return nil
        }
        guard !entries.isEmpty || FileManager.default.fileExists(atPath: file) else {
            context.console.err("error: \(file): no such file")
            return nil
        }
        return entries
    }

    /// The trail's outcome, `reproduced at step 4: …`, its word styled, wrapped at spaces within 120 columns.
    /// - Parameter text: what follows the word: `: …` joins it, anything else follows a space.
    static func outcome(_ word: String, _ style: (String) -> String, _ text: String) -> [String] {
        let joined = text.hasPrefix(":") ? word + text : word + " " + text
        var lines = CounterexampleRenderer.wrappedText(joined, first: "", rest: "   ")
        lines[0] = style(word) + lines[0].dropFirst(word.count)
        return lines
    }
}

/// Writing `explore --trail DIR`: one trail file per violation.
enum TrailFiles {
    /// Writes the trail of each of `violations` into `directory` (created), listing them on stderr; a failure's message, or nil.
    static func write(_ violations: [Violation], model: FlowModel, to directory: String, context: CommandContext) -> String? {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // A violated reachable rule has no path to replay: no configuration shows it; a path the report cut is not at hand.
            let analysis = FlowAnalysis(model: model, limits: .supporting)
            for (i, violation) in violations.filter({ $0.unsatisfiedIn == nil && $0.cutLength == nil }).enumerated() {
                let driver = context.environment.makeDriver(model) ?? SessionDriver(model: model)
                let entry = FlowTrail.entry(for: violation, model: model, driver: driver, analysis: analysis)
                let path = (directory as NSString).appendingPathComponent(FlowTrail.fileName(number: i + 1, site: violation.site))
                try Data((FuzzRegressions.line(for: entry, model: model) + "\n").utf8).write(to: URL(fileURLWithPath: path))
                context.console.err("trail: \(path)")
            }
            return nil
        } catch {
            return "cannot write the trails to \(directory): \(error.localizedDescription)"
        }
    }

}
