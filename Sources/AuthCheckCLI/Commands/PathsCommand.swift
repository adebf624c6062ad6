import AuthFlow
import AuthFlowChecker

/// `authcheck paths SPEC`: a small set of event paths from the start that together take every reachable transition.
enum PathsCommand: Subcommand {
    static let name = "paths"
    static let abstract = "event paths from the start that take every reachable transition"
    static let argumentsSynopsis = "SPEC"
    static let argumentsHelp = [(name: "SPEC", help: "one spec file (JSON, authflow/1 or authflow/2), or - for standard input")]
    static let format = CommonOptions.format(PathsFormat.self, help: "output format (default text)")
    static let cover = Option("--cover", value: CoverTarget.allCases.map(\.rawValue).joined(separator: "|"),
                              help: "what the paths must cover together (default transitions)",
                              default: CoverTarget.transitions) { text, name throws(UsageError) in
        CoverTarget(rawValue: try ValueParsers.choice(text, option: name, in: CoverTarget.allCases.map(\.rawValue)))!
    }
    static let adapter = Option<String?>("--adapter", value: "TYPE",
                                         help: "with --format swift: drive the app's FlowUnderTest adapter TYPE (or MODULE.TYPE, imported) instead of a FlowSession",
                                         default: nil) { text, name throws(UsageError) in try AdapterSuite.typeName(text, option: name) }
    static let options = [cover.spec, format.spec, adapter.spec, AdapterSuite.asyncFlag.spec, CommonOptions.maxConfigurations.spec, CommonOptions.timeout.spec,
                          CommonOptions.variant.spec]
    static let discussion = [
        (title: "OUTPUT", body: """
            Paths of forward events from the initial state, for UI or snapshot tests to drive
            step by step: together they take every reachable transition (--cover transitions),
            enter every reachable state (states) or every reachable (state, data keys)
            configuration (configurations). A greedy tour: each path extends along the
            shortest way to the nearest transition not yet taken, and ends where nothing new
            is reachable. The summary gives the total steps against a lower bound (each step
            takes at most one new transition).
            An authflow/2 flow is toured variant by variant: every row that fires in a
            variant is taken in it, each path names its variant ([recovery=code]), and each
            step the values the system chose for the valued keys it adds
            (submitted(nextStep=done)); JSON gives each path's "variant" and each step's
            "chosen" values and the "values" after it.
            A limit (--max-configurations, --timeout) that stops the search or the tour
            makes the run incomplete (exit 3): the paths built so far are printed, under a
            first line that says what stopped them (JSON: "verdict": "incomplete" and
            "stoppedBy"; swift: a comment at the top).
            --format swift writes a Swift Testing suite, one test per path, that loads the
            spec (found from the test file's folder upwards), drives a FlowSession through
            the path (in its variant, sending the chosen values) and checks the state, the
            data keys and the values after every step:
              authcheck paths --format swift Specs/sign-in.json > Tests/AppTests/SignInPaths.swift
            With --adapter TYPE the tests drive the app instead: one test per tour makes a
            TYPE() (a FlowUnderTest, usually the adapter of the app's coordinator) and checks
            its state and data against the spec's frame after every step
            (FlowConformance.problem(tour:)); MODULE.TYPE also imports MODULE:
              authcheck paths --format swift --adapter MyApp.LoginCoordinator Specs/sign-in.json
            With --async, TYPE is an AsyncFlowUnderTest (a @MainActor model awaiting its
            backend): TYPE() is made on the main actor and each test is async, awaiting
            AsyncFlowConformance.problem(tour:). 'authcheck replay --format swift' writes
            the same kind of test for each counterexample trail.
            """),
        (title: "EXIT STATUS", body: HelpFormatter.exitStatus(writing: "the paths were") + "\n3  a limit (--max-configurations, --timeout) stopped the search or the tour"),
    ]

    struct Settings: CommandSettings {
        var cover: CoverTarget
        var format: PathsFormat
        var adapter: String?
        var isAsync: Bool
        var spec: String
        var variants: [String: Set<String>] = [:]
        var maxConfigurations: Int
        var timeout: Double?

        init(_ parsed: ParsedArguments) throws(UsageError) {
            cover = try parsed.value(of: PathsCommand.cover)
            format = try parsed.value(of: PathsCommand.format)
            adapter = try parsed.value(of: PathsCommand.adapter)
            if adapter != nil && format != .swift { throw UsageError.conflict("--adapter writes Swift tests: add --format swift") }
            isAsync = try parsed.value(of: AdapterSuite.asyncFlag)
            if isAsync && adapter == nil { throw UsageError.conflict("--async says how to drive the app's adapter: add --adapter TYPE") }
            maxConfigurations = try parsed.value(of: CommonOptions.maxConfigurations)
            timeout = try parsed.value(of: CommonOptions.timeout)
            variants = try parsed.value(of: CommonOptions.variant)
            spec = try parsed.single("SPEC", reason: "paths takes one SPEC")
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        // The time spent loading counts towards --timeout.
        let deadline = Deadline(timeout: settings.timeout)
        switch SpecRunner.load(settings.spec, options: CheckOptions(variants: settings.variants), input: context.console, deadline: deadline) {
        case let .invalid(report):
            // The report goes where the paths would (swift gets the text report, as a person reads it).
            SpecRunner.reportInvalid(report, json: settings.format == .json, context: context)
            return report.exitCode
        case let .model(model):
            let cover = CoveringPaths(model: model, target: settings.cover,
                                      limits: CheckLimits(maxConfigurations: settings.maxConfigurations, timeout: settings.timeout),
                                      deadline: deadline)
            switch settings.format {
            case .json: context.console.out(PathsJSON.render(cover, spec: settings.spec))
            case .swift:
                if let stop = cover.stoppedBy { context.console.err("warning: \(SpecRunner.displayName(settings.spec)): \(incompleteText(cover, stop))") }
                if let adapter = settings.adapter {
                    context.console.out(appTests(cover, spec: settings.spec, name: model.name, model: model,
                                                 suite: AdapterSuite(adapter: adapter, isAsync: settings.isAsync, spec: settings.spec)))
                } else {
                    context.console.out(PathsSwift.render(cover, spec: settings.spec, name: model.name, model: model))
                }
            case .text: context.console.out(text(cover, spec: settings.spec))
            }
            return cover.stoppedBy == nil ? 0 : Verdict.incomplete.exitCode
        }
    }

    /// `incomplete — --timeout 2 s reached before the paths were complete: 3 paths take 44 transitions`.
    static func incompleteText(_ cover: CoveringPaths, _ stop: StopReason) -> String {
        "incomplete — \(stop) before the paths were complete: \(ReportRenderer.counted(cover.paths.count, "path")) take "
            + "\(cover.covered) of the \(cover.reachable) \(noun(cover.target))s found; others may be reachable"
    }

    /// One line per path, `1. startAuth → email, knownEmail → password …`, then the summary.
    ///
    /// A tour a limit stopped says so first, and counts only what it saw.
    static func text(_ cover: CoveringPaths, spec: String) -> String {
        var lines: [String]
        if let stop = cover.stoppedBy {
            lines = ["\(SpecRunner.displayName(spec)): \(incompleteText(cover, stop))"]
        } else {
            lines = ["\(SpecRunner.displayName(spec)): \(ReportRenderer.counted(cover.paths.count, "path")) covering every reachable \(noun(cover.target))"]
        }
        for (i, path) in cover.paths.enumerated() {
            lines.append("\(i + 1). \(variantPrefix(path))\(stepsText(path))")
        }
        if cover.stoppedBy != nil {
            lines.append("total: \(ReportRenderer.counted(cover.length, "step")) for \(cover.covered) \(noun(cover.target))s taken before the stop")
        } else {
            lines.append("total: \(ReportRenderer.counted(cover.length, "step")) for \(cover.reachable) reachable \(noun(cover.target))s; "
                         + "lower bound \(cover.lowerBound)")
        }
        return lines.joined(separator: "\n")
    }

    /// `[recovery=code] ` for a path of an `authflow/2` variant, empty for a flow without `config`.
    static func variantPrefix(_ path: CoveringPaths.Path) -> String {
        (path.variant ?? []).isEmpty ? "" : "[" + (path.variant ?? []).map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + "] "
    }

    /// `begin → signIn, submitted(nextStep=done) → signedIn`: each event with the values it chose, and the state after it.
    static func stepsText(_ path: CoveringPaths.Path) -> String {
        let (events, states, chosenValues) = (path.events, path.states, path.chosen)
        return events.indices.map { i in
            let chosen = chosenValues.indices.contains(i) ? chosenValues[i] : []
            let values = chosen.isEmpty ? "" : "(" + chosen.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
            return "\(events[i])\(values) → \(states[i])"
        }.joined(separator: ", ")
    }

    static func noun(_ target: CoverTarget) -> String {
        switch target {
        case .transitions: return "transition"
        case .states: return "state"
        case .configurations: return "configuration"
        }
    }
}
