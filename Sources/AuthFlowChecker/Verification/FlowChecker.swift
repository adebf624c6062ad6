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

    public init(limits: CheckLimits = CheckLimits(), properties: Set<Property>? = nil, strict: Bool = false,
                passcodeCases: Int = 2_000, workers: Int = 1) {
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

    /// The report of a spec that could not be checked: verdict `invalid`, every problem in `error`.
    public static func invalid(spec: String, name: String? = nil, error: InvalidSpecError, options: CheckOptions,
                               seconds: Double = 0) -> CheckReport {
        CheckReport(spec: spec, name: name, verdict: .invalid, violations: [], lint: Lint(),
                    stats: Stats(depth: options.limits.depth, seconds: seconds), stoppedBy: nil, error: error,
                    warnings: [], strict: options.strict, secrets: [])
    }

    /// The process exit code for this report alone.
    public var exitCode: Int32 { verdict.exitCode }
}

/// Checks flows: validates, decides every property completely, then drives the runtime through every stack up to the depth.
///
/// ```swift
/// let report = FlowChecker.check(file: "Specs/email-first.json")
/// print(report.verdict)   // holds
/// ```
public enum FlowChecker {
    /// Loads and checks the spec at `path`; an invalid spec gives a report with verdict `invalid`.
    public static func check(file path: String, options: CheckOptions = CheckOptions()) -> CheckReport {
        let start = Date()
        do {
            let model = try SpecLoader.load(file: path)
            return check(model, source: path, options: options, start: start)
        } catch {
            return .invalid(spec: path, error: error, options: options, seconds: Date().timeIntervalSince(start))
        }
    }

    /// Checks a flow declared in Swift; an invalid one gives a report with verdict `invalid`.
    public static func check<S, E, K>(_ flow: FlowDefinition<S, E, K>, options: CheckOptions = CheckOptions()) -> CheckReport {
        let start = Date()
        let source = flow.name ?? "flow"
        do {
            return check(try flow.model(), source: source, options: options, start: start)
        } catch {
            return .invalid(spec: source, name: flow.name, error: error, options: options)
        }
    }

    /// Checks a validated model.
    /// - Parameters:
    ///   - model: the flow.
    ///   - source: how reports name it (its file path).
    ///   - driver: the runtime to drive; `nil` drives a fresh ``FlowSession`` built from the model.
    ///   - normalise: the passcode normaliser to check; `nil` checks ``PasscodeNormaliser`` with the spec's policy.
    public static func check(_ model: FlowModel, source: String, options: CheckOptions = CheckOptions(),
                             driver: (any FlowDriver)? = nil, normalise: ((String) -> String)? = nil,
                             start: Date = Date()) -> CheckReport {
        let limits = options.limits
        let verification = ModelChecker.verify(model, limits: limits)
        var violations = verification.violations.filter { options.includes($0.property) }
        var stoppedBy = verification.stoppedBy
        var stats = Stats(states: verification.states, configurations: verification.configurations, depth: limits.depth)

        if options.includes(.undoMismatch) || options.includes(.divergence) {
            let remaining = limits.timeout.map { max(0, $0 - Date().timeIntervalSince(start)) }
            let exploration: RuntimeExploration
            if let driver {
                exploration = RuntimeExplorer(model: model).explore(driver, depth: limits.depth, timeout: remaining)
            } else if options.workers > 1 {
                exploration = ParallelExplorer(model: model, workers: options.workers).explore(depth: limits.depth, timeout: remaining)
            } else {
                exploration = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: limits.depth, timeout: remaining)
            }
            violations += exploration.violations.filter { options.includes($0.property) }
            stats.stacks = exploration.stacks
            if case .timeout? = exploration.stoppedBy, let timeout = limits.timeout {
                stoppedBy = stoppedBy ?? .timeout(seconds: timeout)   // the user's limit, not the time left of it
            } else {
                stoppedBy = stoppedBy ?? exploration.stoppedBy
            }
        }
        if options.includes(.passcode) {
            if let normalise {
                violations += PasscodeCheck.run(normalise, policy: model.passcode, generatedCases: options.passcodeCases)
            } else {
                violations += PasscodeCheck.run(policy: model.passcode, generatedCases: options.passcodeCases)
            }
        }

        stats.seconds = Date().timeIntervalSince(start)
        let verdict: Verdict
        if !violations.isEmpty || (options.strict && !verification.lint.isEmpty) {
            verdict = .violated
        } else if stoppedBy != nil {
            verdict = .incomplete
        } else {
            verdict = .holds
        }
        return CheckReport(spec: source, name: model.name, verdict: verdict, violations: violations,
                           lint: verification.lint, stats: stats, stoppedBy: stoppedBy, error: nil,
                           warnings: model.warnings, strict: options.strict,
                           secrets: Set(model.names(of: model.secrets)))
    }
}
