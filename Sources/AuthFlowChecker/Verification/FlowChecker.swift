import AuthFlow
import Foundation

/// What to check and within which limits.
public struct CheckOptions: Hashable, Sendable {
    /// Depth bound of the runtime walk, and the limits on the whole run.
    public var limits: CheckLimits
    /// Only these properties are checked; `nil` checks all.
    public var properties: Set<Property>?
    /// Lint findings fail the check.
    public var strict: Bool
    /// How many generated inputs the `passcode` property tries (besides a fixed corpus).
    public var passcodeCases: Int
    /// How many worker threads share the runtime walk (1: single-threaded).
    public var workers: Int
    /// The `authflow/2` variants to check: config key → the values allowed (empty: every variant).
    /// Applied when the spec is loaded (``FlowModel/selectingVariants(_:)``).
    public var variants: [String: Set<String>]

    public init(limits: CheckLimits = CheckLimits(), properties: Set<Property>? = nil, strict: Bool = false,
                passcodeCases: Int = 2_000, workers: Int = 1, variants: [String: Set<String>] = [:]) {
        self.variants = variants
        self.limits = limits
        self.properties = properties
        self.strict = strict
        self.passcodeCases = passcodeCases
        self.workers = workers
    }

    /// Whether `property` is to be checked.
    public func includes(_ property: Property) -> Bool { properties?.contains(property) ?? true }
}

/// Everything one check of one spec found: the verdict, the violations, lint and figures.
public struct CheckReport: Sendable {
    /// The spec's file path, or its name for a flow declared in Swift.
    public var spec: String
    /// The flow's name, if it has one.
    public var name: String?
    /// The outcome.
    public var verdict: Verdict
    /// One violation per site, each with its shortest counterexample.
    public var violations: [Violation]
    /// Findings that fail only with `--strict`.
    public var lint: Lint
    /// Counts and time.
    public var stats: Stats
    /// The limit that stopped the run, when the verdict is `incomplete` (or a violation came first).
    public var stoppedBy: StopReason?
    /// Why the spec could not be checked, when the verdict is `invalid`.
    public var error: InvalidSpecError?
    /// Spec warnings (identical duplicate transitions and the like).
    public var warnings: [SpecIssue]
    /// Whether `--strict` was on.
    public var strict: Bool
    /// The data keys whose values are never printed.
    public var secrets: Set<String>
    /// The spec's own properties (`properties`), in declaration order: reports list them after the built-in ones.
    public var userProperties: [Property] = []
    /// What the runtime walk found for each of the spec's own `always`/`never` properties it checked, on
    /// every frame it drove (empty when the walk did not run): whether some frame broke it.
    ///
    /// A rule the complete checker finds broken is reported once, with the checker's counterexample
    /// (the shortest); a rule only the runtime breaks is reported with the walk's.
    public var runtimeRules: [Property: RuntimeRuleResult] = [:]
    /// `[.assurance]` when some step of the spec declares `assurance` (``Property/assuranceProperties(of:)``), else empty.
    public var assuranceProperties: [Property] = []
    /// Section 6: for each step that asks for an assurance level and each success state, in step order,
    /// every way in, weakest first; `nil` for a spec that uses no section-6 key (nor an invalid one).
    public var waysIn: [ProtectedStep]?

    /// Every property the report speaks of: the built-in ones, `assurance` where it applies, then the spec's own.
    public var properties: [Property] { Property.builtIn + assuranceProperties + userProperties }

    /// The report of a spec that could not be checked: verdict `invalid`, every problem in `error`.
    public static func invalid(spec: String, name: String? = nil, error: InvalidSpecError, options: CheckOptions,
                               seconds: Double = 0) -> CheckReport {
        CheckReport(spec: spec, name: name, verdict: .invalid, violations: [], lint: Lint(),
                    stats: Stats(depth: options.limits.depth, seconds: seconds), stoppedBy: nil, error: error,
                    warnings: [], strict: options.strict, secrets: [])
    }

    /// The report of a spec whose loading `--timeout` stopped: verdict `incomplete`, as any phase stopped by the deadline.
    ///
    /// The spec was not found invalid (that would be exit 2, and a lie): it was not read whole in time.
    public static func stoppedLoading(spec: String, timeout: Double, options: CheckOptions, seconds: Double = 0) -> CheckReport {
        CheckReport(spec: spec, name: nil, verdict: .incomplete, violations: [], lint: Lint(),
                    stats: Stats(depth: options.limits.depth, seconds: seconds), stoppedBy: .timeout(seconds: timeout), error: nil,
                    warnings: [], strict: options.strict, secrets: [])
    }

    /// The process exit code for this report alone.
    public var exitCode: Int32 { verdict.exitCode }
}

/// Where a check reads the time, so a report's seconds can be measured, or fixed for byte-stable output.
///
/// Every figure of a report comes from the library; a caller that needs the same text on every
/// run (golden tests) passes a fixed clock instead of editing the seconds afterwards.
///
/// ```swift
/// let report = FlowChecker.check(file: "Specs/email-first.json", clock: .fixed())
/// report.stats.seconds   // 0
/// ```
public struct CheckClock: Sendable {
    /// The current time by this clock.
    public var now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The wall clock.
    public static let system = CheckClock { Date() }

    /// A clock that always says `date`: every duration it measures is zero.
    public static func fixed(at date: Date = Date(timeIntervalSince1970: 0)) -> CheckClock {
        CheckClock { date }
    }

    /// Seconds from `start` to now.
    public func seconds(since start: Date) -> Double { now().timeIntervalSince(start) }
}

/// Checks flows: validates, decides every property completely, then drives the runtime through every stack up to the depth.
///
/// ```swift
/// let report = FlowChecker.check(file: "Specs/email-first.json")
/// print(report.verdict)   // holds
/// ```
public enum FlowChecker {
    /// Loads and checks the spec at `path`; an invalid spec gives a report with verdict `invalid`.
    public static func check(file path: String, options: CheckOptions = CheckOptions(), clock: CheckClock = .system) -> CheckReport {
        let start = clock.now()
        do {
            let model = try SpecLoader.load(file: path)
            return check(model, source: path, options: options, start: start, clock: clock)
        } catch {
            return .invalid(spec: path, error: error, options: options, seconds: clock.seconds(since: start))
        }
    }

    /// Checks a flow declared in Swift; an invalid one gives a report with verdict `invalid`.
    public static func check<S, E, K>(_ flow: FlowDefinition<S, E, K>, options: CheckOptions = CheckOptions(),
                                      clock: CheckClock = .system) -> CheckReport {
        let start = clock.now()
        let source = flow.name ?? "flow"
        do {
            return check(try flow.model(), source: source, options: options, start: start, clock: clock)
        } catch {
            return .invalid(spec: source, name: flow.name, error: error, options: options)
        }
    }

    /// Checks a validated model.
    ///
    /// The report's stack count is the same whichever properties are checked: when `options`
    /// leave out both runtime properties and the spec's own `always`/`never` rules (which the walk
    /// checks on every frame the runtime holds), the runtime walk does not run and the stacks it
    /// would drive are counted from the model instead (``FlowCoverage``).
    /// - Parameters:
    ///   - model: the flow.
    ///   - source: how reports name it (its file path).
    ///   - driver: the runtime to drive; `nil` drives a fresh ``FlowSession`` built from the model.
    ///   - normalise: the passcode normaliser to check; `nil` checks ``PasscodeNormaliser`` with the spec's policy.
    ///   - start: when the run started (the report's seconds count from it); `nil` for now by `clock`.
    ///   - clock: where the time is read, for the seconds and the time left of the timeout.
    public static func check(_ model: FlowModel, source: String, options: CheckOptions = CheckOptions(),
                             driver: (any FlowDriver)? = nil, normalise: ((String) -> String)? = nil,
                             start: Date? = nil, clock: CheckClock = .system) -> CheckReport {
        run(model, source: source, options: options, driver: driver, normalise: normalise,
            start: start ?? clock.now(), clock: clock).report
    }

    /// Checks the spec properties of a validated model and counts its coverage: the figures `authcheck coverage` prints.
    ///
    /// Coverage does not drive the runtime, so `undo-mismatch` and `divergence` are left out of
    /// `options`; the report's stacks are the coverage's, and a limit that stops the count makes
    /// a run that otherwise holds incomplete.
    public static func coverage(_ model: FlowModel, source: String, options: CheckOptions = CheckOptions(),
                                normalise: ((String) -> String)? = nil,
                                start: Date? = nil, clock: CheckClock = .system) -> (report: CheckReport, coverage: FlowCoverage) {
        var options = options
        options.properties = (options.properties ?? Set(Property.all(of: model))).subtracting([.undoMismatch, .divergence])
        let result = run(model, source: source, options: options, driver: nil, normalise: normalise,
                         start: start ?? clock.now(), clock: clock, walks: false)
        guard let coverage = result.coverage else { preconditionFailure("a run without the runtime walk counts coverage") }
        return (result.report, coverage)
    }

    /// The check, and the coverage count when the runtime walk did not run.
    ///
    /// The runtime walk runs when a runtime property is checked, or one of the spec's own `always`/`never`
    /// rules (which the runtime can break where the spec keeps them), unless `walks` is false (coverage).
    static func run(_ model: FlowModel, source: String, options: CheckOptions, driver: (any FlowDriver)?,
                    normalise: ((String) -> String)?, start: Date, clock: CheckClock,
                    walks: Bool = true) -> (report: CheckReport, coverage: FlowCoverage?) {
        let limits = options.limits
        // One search of the configuration graph serves the spec properties and, without the runtime walk, the stack count.
        // Limits run on the wall clock from when the check began, whatever clock the report's seconds come from.
        let wallStart = Date().addingTimeInterval(-clock.seconds(since: start))
        let rules = RuleCheck(model: model).properties.filter(options.includes)
        let runtimeWalk = walks && (options.includes(.undoMismatch) || options.includes(.divergence) || !rules.isEmpty)
        let deadline = Deadline(start: wallStart, timeout: limits.timeout)
        let analysis = FlowAnalysis(model: model, limits: limits, edges: !runtimeWalk)
        let verification = ModelChecker.verify(analysis, deadline: deadline)
        var violations = verification.violations.filter { options.includes($0.property) }
        var stoppedBy = verification.stoppedBy
        var stats = Stats(states: verification.states, configurations: verification.configurations, depth: limits.depth)
        var coverage: FlowCoverage?
        var runtimeRules: [Property: RuntimeRuleResult] = [:]
        /// The user's limit for a stop by timeout, not the time left of it when the stage began.
        func userLimit(_ reason: StopReason?) -> StopReason? {
            if case .timeout? = reason, let timeout = limits.timeout { return .timeout(seconds: timeout) }
            return reason
        }

        let remaining = limits.timeout.map { max(0, $0 - clock.seconds(since: start)) }
        if runtimeWalk && deadline.hasPassed {
            // Past the deadline already (a long load, search or site pass): the walk is not begun, so no rule is said to hold.
            stoppedBy = stoppedBy ?? deadline.stopReason
        } else if runtimeWalk {
            let exploration: RuntimeExploration
            if let driver {
                exploration = RuntimeExplorer(model: model, analysis: analysis).explore(driver, depth: limits.depth, timeout: remaining)
            } else if options.workers > 1 {
                exploration = ParallelExplorer(model: model, workers: options.workers, analysis: analysis)
                    .explore(depth: limits.depth, timeout: remaining)
            } else {
                exploration = RuntimeExplorer(model: model, analysis: analysis)
                    .explore(SessionDriver(model: model), depth: limits.depth, timeout: remaining)
            }
            // A property the walk checks on every frame it drives as the checker does on every configuration (the team's
            // rules, `assurance`) keeps the checker's counterexample where the checker decided it, the shortest: one rule,
            // by site (a rule's site is the rule; an `assurance` site is its step).
            let decided = Set(violations.map(\.site))
            let found = exploration.violations.filter { options.includes($0.property) }
            violations += found.filter { !decided.contains($0.site) }
            for rule in rules {
                let site = Site(property: rule, state: nil)
                runtimeRules[rule] = !found.contains { $0.property == rule } ? .holds : decided.contains(site) ? .violated : .violatedByRuntime
            }
            stats.stacks = exploration.stacks
            stoppedBy = stoppedBy ?? userLimit(exploration.stoppedBy)
        } else {
            // No runtime walk: count the stacks it would drive from the model, so every caller reports the same figure.
            let progress = CheckProgress.current
            let count = FlowCoverage(analysis: analysis, depth: limits.depth, timeout: limits.timeout, start: wallStart) { configurations, depth in
                progress?.update(.counting, count: configurations, depth: depth)
            }
            stats.stacks = count.stacks
            stats.stacksCounted = true
            coverage = count
        }
        if options.includes(.passcode) && deadline.hasPassed {
            // Past the deadline (a long load or search): the passcode is left unchecked, and the run is incomplete.
            stoppedBy = stoppedBy ?? deadline.stopReason
        } else if options.includes(.passcode) {
            if let normalise {
                violations += PasscodeCheck.run(normalise, policy: model.passcode, generatedCases: options.passcodeCases)
            } else {
                violations += PasscodeCheck.run(policy: model.passcode, generatedCases: options.passcodeCases)
            }
        }

        stats.seconds = clock.seconds(since: start)
        let verdict: Verdict
        if !violations.isEmpty || (options.strict && !verification.lint.isEmpty) {
            verdict = .violated
        } else if stoppedBy != nil || coverage?.stoppedBy != nil {
            verdict = .incomplete
            stoppedBy = stoppedBy ?? userLimit(coverage?.stoppedBy)
        } else {
            verdict = .holds
        }
        let report = CheckReport(spec: source, name: model.name, verdict: verdict, violations: violations,
                                 lint: verification.lint, stats: stats, stoppedBy: stoppedBy, error: nil,
                                 warnings: model.warnings + UnemittedRows.warnings(model), strict: options.strict,
                                 secrets: Set(model.names(of: model.secrets)), userProperties: Property.userProperties(of: model),
                                 runtimeRules: runtimeRules, assuranceProperties: Property.assuranceProperties(of: model),
                                 waysIn: verification.waysIn)
        return (report, coverage)
    }
}

/// What the runtime walk found for one of the spec's own `always`/`never` properties (``CheckReport/runtimeRules``).
public enum RuntimeRuleResult: String, Hashable, Sendable {
    /// No frame the runtime held on the walk breaks it.
    case holds
    /// Some frame the runtime held on the walk breaks it, and so does the spec: the report shows the complete checker's counterexample.
    case violated
    /// Some frame the runtime held on the walk breaks it, where the spec keeps it: the report shows the walk's counterexample.
    case violatedByRuntime = "violated-by-runtime"
}
