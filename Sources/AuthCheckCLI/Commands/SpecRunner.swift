import Foundation
import AuthFlow
import AuthFlowChecker

/// What `check`, `explore` and `coverage` share: loading and checking a spec, and turning reports into an exit status.
enum SpecRunner {
    /// A spec loaded for checking, or the report that says why it is invalid (or, verdict `incomplete`, that `--timeout` stopped loading it).
    enum Loaded {
        case model(FlowModel)
        /// The report instead of a model: `invalid` (exit 2), or `incomplete` (exit 3) when the deadline came before the model.
        case invalid(CheckReport)
    }

    /// The argument that names standard input as the spec: `authcheck check -`.
    static let standardInput = "-"

    /// How reports name the spec at `path`: itself, or ``ReportRenderer/standardInputName`` for `-`.
    static func displayName(_ path: String) -> String {
        path == standardInput ? ReportRenderer.standardInputName : path
    }

    /// Loads the spec at `path`; an invalid one comes back as its `invalid` report.
    ///
    /// Reading waits no longer than the run's `--timeout` (``CommonOptions/defaultTimeout`` without one),
    /// so a FIFO with no writer ends as an invalid spec that says so, and stops at the loader's size limit.
    /// Parsing and building the model stop at the same deadline: a spec too large to load in time comes
    /// back as an `incomplete` report (exit 3), the shape every phase stopped by `--timeout` reports in.
    /// - Parameters:
    ///   - input: where `-` reads the spec from (all of it, once); `nil` reads a file called `-`.
    ///   - deadline: the run's deadline, when it began before loading; `nil` starts one now with the run's `--timeout`.
    static func load(_ path: String, options: CheckOptions, input: Console? = nil, deadline: Deadline? = nil) -> Loaded {
        let name = displayName(path)
        let timeout = options.limits.timeout ?? CommonOptions.defaultTimeout
        let deadline = deadline ?? Deadline(timeout: timeout)
        do throws(InvalidSpecError) {
            if let input, path == standardInput {
                let bytes: [UInt8]
                do {
                    bytes = try input.readAllBytes(limit: SpecLoader.defaultMaxBytes, deadline: deadline)
                } catch {
                    throw InvalidSpecError(file: name, issues: [SpecIssue(path: SpecIssue.wholeFile, message: error.reason)])
                }
                return try selected(SpecLoader.load(bytes: bytes, file: name, deadline: deadline), options: options, name: name)
            }
            return try selected(SpecLoader.load(file: path, deadline: deadline), options: options, name: name)
        } catch {
            if let timeout = error.timedOut {
                return .invalid(.stoppedLoading(spec: name, timeout: timeout, options: options,
                                                seconds: Date().timeIntervalSince(deadline.start)))
            }
            return .invalid(.invalid(spec: name, error: error, options: options))
        }
    }

    /// `model` restricted to the variants `--variant` chose; a choice that does not fit it is a problem of the spec's `config`.
    ///
    /// A `--property` id that is neither built in nor stated by the spec is a problem of its `properties` too:
    /// the run would otherwise check nothing under that name and say it holds.
    static func selected(_ model: FlowModel, options: CheckOptions, name: String) throws(InvalidSpecError) -> Loaded {
        let stated = model.properties.map(\.id)
        if let unknown = options.properties?.map(\.id).sorted().first(where: { Property(builtInID: $0) == nil && !stated.contains($0) }) {
            let hint = Suggestion.nearest(to: unknown, in: stated).map { "; did you mean '\($0)'?" } ?? ""
            let listed = stated.isEmpty ? "the spec states none" : "the spec states \(stated.joined(separator: ", "))"
            throw InvalidSpecError(file: name, issues: [SpecIssue(path: "$.properties", location: model.location(ofMember: "properties"),
                                                                  message: "--property \(unknown): no built-in property or property of this spec has that id\(hint) (\(listed))")])
        }
        // `assurance` is built in, but only a spec some step of which asks for a level has it to check.
        if options.properties?.contains(.assurance) == true && !model.assurance.protectsSomeStep {
            throw InvalidSpecError(file: name, issues: [SpecIssue(path: "$.steps", location: model.location(ofMember: "steps"),
                                                                  message: "--property assurance: no step of this spec declares assurance; "
                                                                      + "give a protected screen \"assurance\": \"aal1\", \"aal2\" or \"aal3\"")])
        }
        do {
            return .model(try model.selectingVariants(options.variants))
        } catch {
            let variants = options.variants.sorted { $0.key < $1.key }.flatMap { key, values in values.sorted().map { "\(key)=\($0)" } }
            throw InvalidSpecError(file: name, issues: [SpecIssue(path: "$.config", location: model.location(ofMember: "config"),
                                                                  message: "--variant \(variants.joined(separator: " --variant ")): \(error)")])
        }
    }

    /// Loads and checks the spec at `path` (`-`: standard input), with a progress line on a terminal.
    ///
    /// The time spent loading counts towards `--timeout`: the check's clock starts before the spec is read.
    static func check(_ path: String, options: CheckOptions, context: CommandContext) -> LocatedReport {
        let start = context.environment.clock.now()
        switch load(path, options: options, input: context.console) {
        case let .invalid(report):
            return LocatedReport(report: report, model: nil)
        case let .model(model):
            return LocatedReport(report: check(model, path: displayName(path), options: options, context: context, start: start), model: model)
        }
    }

    /// Checks a loaded model, with a progress line on a terminal; the environment's hooks choose the runtime, the normaliser and the clock.
    /// - Parameter start: when the run began by the environment's clock (before loading); `nil` for now.
    static func check(_ model: FlowModel, path: String, options: CheckOptions, context: CommandContext, start: Date? = nil) -> CheckReport {
        ProgressLine.around(label: path, depthBound: options.limits.depth, console: context.console) {
            FlowChecker.check(model, source: path, options: options,
                              driver: context.environment.makeDriver(model),
                              normalise: context.environment.makeNormaliser(model),
                              start: start, clock: context.environment.clock)
        }
    }

    /// The exit status of several results: the worst by precedence 2 > 1 > 3 > 0.
    static func exitStatus<S: Sequence>(_ codes: S) -> Int32 where S.Element == Int32 {
        func rank(_ code: Int32) -> Int {
            switch code {
            case 0: return 0
            case 3: return 1
            case 1: return 2
            default: return 3
            }
        }
        return codes.max { rank($0) < rank($1) } ?? 0
    }

    /// What a command prints on stdout for an invalid spec, which decides what goes to stderr.
    enum InvalidOutput {
        /// The text report, which lists every problem: nothing on stderr, so no problem prints twice.
        case textReport
        /// A JSON, SARIF or JUnit document, which holds the problems for a program: one `error:` line on stderr for the person watching.
        case document
        /// Nothing (a graph, a model or codes that cannot be made): an `error:` line per problem on stderr, the only place they print.
        case nothing
    }

    /// Prints an invalid spec's report on stdout (JSON when `json`, else text) and its diagnostics by the one rule: for commands whose output is not a report.
    static func reportInvalid(_ report: CheckReport, json: Bool, context: CommandContext) {
        diagnose(report, stdout: json ? .document : .textReport, console: context.console)
        context.console.out(json ? ReportRenderer.json(report).rendered(pretty: true) : ReportRenderer.text(report, style: context.style))
    }

    /// Prints an invalid spec's diagnostics on stderr, by what stdout holds: every command's one rule.
    static func diagnose(_ report: CheckReport, stdout: InvalidOutput, console: Console) {
        if report.verdict == .incomplete {
            // Loading stopped by --timeout: a text or JSON report says so on stdout; with nothing there, stderr does.
            if case .nothing = stdout { console.err(invalidLine(report)) }
            return
        }
        switch stdout {
        case .textReport:
            break
        case .document:
            console.err(invalidLine(report))
        case .nothing:
            let issues = report.error?.issues ?? []
            if issues.isEmpty { console.err(invalidLine(report)) }
            for issue in issues { console.err("error: \(report.spec): \(issue)") }
        }
    }

    /// The one-line diagnostic for an invalid spec: `error: SPEC: 3:5: $.x: message (and 2 more problems)`.
    static func invalidLine(_ report: CheckReport) -> String {
        if report.verdict == .incomplete {
            return "\(report.spec): incomplete — \(report.stoppedBy.map { "\($0)" } ?? "a limit was reached") before the spec was loaded"
        }
        let issues = report.error?.issues ?? []
        guard let first = issues.first else { return "error: \(report.spec): invalid spec" }
        let more = issues.count > 1 ? " (and \(issues.count - 1) more problem\(issues.count == 2 ? "" : "s"))" : ""
        return "error: \(report.spec): \(first)\(more)"
    }

    /// `3 specs: 2 hold, 1 invalid (exit 2)`: the closing line of a text run over several specs.
    static func summary(_ reports: [CheckReport]) -> String {
        let order: [Verdict] = [.holds, .violated, .incomplete, .invalid]
        let parts = order.compactMap { verdict -> String? in
            let count = reports.filter { $0.verdict == verdict }.count
            guard count > 0 else { return nil }
            return "\(count) \(verdict == .holds && count > 1 ? "hold" : verdict.rawValue)"
        }
        return "\(reports.count) specs: \(parts.joined(separator: ", ")) (exit \(exitStatus(reports.map(\.exitCode))))"
    }
}
