import AuthFlow
import Foundation

/// The error a CI gate throws when a flow does not hold: its description is the whole report, counterexamples included.
///
/// A flow whose properties hold still fails the gate on lint that is almost always a bug (a step
/// no path reaches, a row that never fires), listed in ``unaccepted`` above the report, and on an
/// acceptance that matched no finding, listed in ``stale``.
public struct FlowCheckFailure: Error, CustomStringConvertible, Sendable {
    /// The report of the failed check.
    public var report: CheckReport
    /// The lint findings that failed the gate, none of them accepted (empty when a property failed it).
    public var unaccepted: [GateFinding]
    /// The accepted findings the check did not find: the flow changed, and the acceptance should go.
    public var stale: [GateFinding]
    /// Whether every lint finding counted (`CheckOptions(strict: true)`), not only those that fail by default.
    public var strict: Bool
    /// The line of the spec each finding is about, where the spec is a file.
    var lines: [GateFinding: Int] = [:]

    /// A failure for `report`, so a team's own gate helpers can throw the same error `FlowGate` does.
    public init(report: CheckReport) {
        self.init(report: report, unaccepted: [], stale: [])
    }

    /// A failure for lint findings the gate does not accept, in a report whose properties may all hold.
    public init(report: CheckReport, unaccepted: [GateFinding], stale: [GateFinding], strict: Bool = false) {
        self.report = report
        self.unaccepted = unaccepted
        self.stale = stale
        self.strict = strict
    }

    public var description: String {
        let text = ReportRenderer.text(report)
        guard !unaccepted.isEmpty || !stale.isEmpty else { return text }
        var out: [String] = []
        let spec = TerminalText.escaped(report.spec)
        if !unaccepted.isEmpty {
            let count = unaccepted.count
            let what = strict ? "\(ReportRenderer.counted(count, "lint finding")) under strict"
                : "\(ReportRenderer.counted(count, "finding")) that \(count == 1 ? "is" : "are") almost always a bug"
            out.append("\(spec): fails the gate — \(what)")
            for finding in unaccepted {
                out.append("   " + TerminalText.escaped(finding.description) + (lines[finding].map { " (line \($0))" } ?? ""))
            }
            out.append("   a known one passes with accepting: [" + unaccepted.map { TerminalText.escaped($0.swiftLiteral) }.joined(separator: ", ") + "]")
        } else {
            out.append("\(spec): fails the gate — \(ReportRenderer.counted(stale.count, "accepted finding")) no longer found")
        }
        for finding in stale {
            out.append("   accepted, but not found: \(TerminalText.escaped(finding.description)) — remove it from accepting")
        }
        return out.joined(separator: "\n") + "\n\n" + text
    }
}

/// One-call checks that fail a `swift test` with the counterexample printed step by step.
///
/// Works from XCTest and Swift Testing alike, because it reports by throwing: a test that calls
/// it with `try` fails with the error's description, which is the full text report (numbered
/// steps, data after each, the breaking step marked, secrets redacted, the replay command).
///
/// ```swift
/// @Test func signInFlowHolds() throws {
///     try FlowGate.assertHolds(file: "Specs/email-first.json")
/// }
/// ```
public enum FlowGate {
    /// Checks the spec at `path` and throws unless every property holds and no lint finding that is almost always a bug is left.
    ///
    /// A relative `path` is looked up the way a test that names `Specs/…` means it, whatever
    /// directory the test runs in (Xcode runs tests elsewhere than `swift test` does): first in
    /// the working directory, then beside the calling test file and in each directory above it,
    /// so `"Specs/sign-in.json"` from `Tests/AppTests/FlowTests.swift` finds the package's
    /// `Specs/`. A spec shipped as a test resource can be passed as `Bundle.module.url(…)!.path`.
    /// When no candidate exists the report is `invalid` and names every absolute path tried.
    ///
    /// Where `authcheck check` only notes lint (the contract fixes its exit codes), the gate fails on
    /// a step no path reaches and on a row that never fires, each named at its line with the Swift
    /// that accepts it: `accepting: [.unreachable("guest")]` lets a known one pass. Unused data and
    /// the other lint stay notes unless `options.strict`, which makes every finding fail unless accepted.
    /// An accepted finding the check does not find fails too, so no acceptance outlives its finding.
    ///
    /// `options.variants` restricts the check to those `authflow/2` variants, as `--variant` does (a
    /// selection that does not fit the flow makes the report `invalid`); a screen or a row that only a
    /// variant left out reaches is then no finding, since the whole flow reaches it.
    /// - Parameters:
    ///   - path: the spec file, absolute or relative.
    ///   - options: what to check and within which limits.
    ///   - accepting: the lint findings known and kept, as the failure names them.
    ///   - callerFile: the calling source file, by default the test that calls the gate.
    /// - Returns: the report, for further assertions.
    /// - Throws: ``FlowCheckFailure`` when the verdict is not `holds`, or a finding is not accepted.
    @discardableResult
    public static func assertHolds(file path: String, options: CheckOptions = CheckOptions(), accepting: [GateFinding] = [],
                                   callerFile: StaticString = #filePath) throws(FlowCheckFailure) -> CheckReport {
        var lenient = options
        lenient.strict = false
        switch resolve(path, callerFile: "\(callerFile)") {
        case let .found(resolved):
            let whole: FlowModel
            do {
                whole = try SpecLoader.load(file: resolved)
            } catch {
                throw FlowCheckFailure(report: .invalid(spec: resolved, error: error, options: options))
            }
            let model = try selecting(options, of: whole, spec: resolved)
            let report = FlowChecker.check(model, source: resolved, options: lenient)
            return try judge(report, options: options, accepting: accepting, whole: whole) { $0.line(in: model) }
        case let .missing(tried):
            let message = "no such file; tried " + tried.joined(separator: ", ")
            throw FlowCheckFailure(report: .invalid(spec: path, error: InvalidSpecError(file: path, issues: [SpecIssue(path: SpecIssue.wholeFile, message: message)]),
                                                    options: options))
        }
    }

    /// `model` restricted to the variants `options` chooses, as `--variant` restricts the command's.
    /// - Throws: ``FlowCheckFailure`` with an invalid report when the selection does not fit the flow.
    static func selecting(_ options: CheckOptions, of model: FlowModel, spec: String) throws(FlowCheckFailure) -> FlowModel {
        do {
            return try model.selectingVariants(options.variants)
        } catch {
            let chosen = options.variants.sorted { $0.key < $1.key }.flatMap { key, values in values.sorted().map { "\(key)=\($0)" } }
            let issue = SpecIssue(path: "$.config", location: model.location(ofMember: "config"),
                                  message: "variants \(chosen.joined(separator: ", ")): \(error)")
            throw FlowCheckFailure(report: .invalid(spec: spec, error: InvalidSpecError(file: spec, issues: [issue]), options: options))
        }
    }

    /// The gate's verdict on `report`, checked without `strict`: it throws unless every property holds
    /// and every lint finding `options` counts is accepted.
    /// - Parameter whole: the flow before `options.variants` restricted it; under a restriction only the
    ///   findings its every variant has count (a screen another variant reaches is not unreachable).
    static func judge(_ report: CheckReport, options: CheckOptions, accepting: [GateFinding], whole: FlowModel,
                      line: (GateFinding) -> Int?) throws(FlowCheckFailure) -> CheckReport {
        guard report.verdict == .holds else { throw FlowCheckFailure(report: report) }
        let wholeFlow = options.variants.isEmpty ? nil : ModelChecker.verify(whole, limits: options.limits).lint
        let judgement = GateJudgement(report.lint, strict: options.strict, accepting: accepting, wholeFlow: wholeFlow)
        guard judgement.unaccepted.isEmpty && judgement.stale.isEmpty else {
            var failure = FlowCheckFailure(report: report, unaccepted: judgement.unaccepted, stale: judgement.stale, strict: options.strict)
            for finding in judgement.unaccepted { failure.lines[finding] = line(finding) }
            throw failure
        }
        return report
    }

    /// Where a spec path leads: the file, or every absolute path tried.
    enum Resolution: Equatable {
        case found(String)
        case missing(tried: [String])
    }

    /// Resolves `path` against the working directory, then the directory of `callerFile` and its ancestors.
    static func resolve(_ path: String, callerFile: String, workingDirectory: String = FileManager.default.currentDirectoryPath)
        -> Resolution {
        let fileManager = FileManager.default
        if path.hasPrefix("/") {
            return fileManager.fileExists(atPath: path) ? .found(path) : .missing(tried: [path])
        }
        var tried: [String] = []
        func attempt(_ base: URL) -> String? {
            let candidate = base.appendingPathComponent(path).standardizedFileURL.path
            guard !tried.contains(candidate) else { return nil }
            tried.append(candidate)
            return fileManager.fileExists(atPath: candidate) ? candidate : nil
        }
        if let found = attempt(URL(fileURLWithPath: workingDirectory, isDirectory: true)) { return .found(found) }
        var directory = URL(fileURLWithPath: callerFile).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if let found = attempt(directory) { return .found(found) }
            directory.deleteLastPathComponent()
        }
        return .missing(tried: tried)
    }

    /// Checks a flow declared in Swift and throws unless every property holds and no lint finding
    /// that is almost always a bug is left, as ``assertHolds(file:options:accepting:callerFile:)`` does.
    @discardableResult
    public static func assertHolds<S, E, K>(_ flow: FlowDefinition<S, E, K>, options: CheckOptions = CheckOptions(),
                                            accepting: [GateFinding] = []) throws(FlowCheckFailure) -> CheckReport {
        var lenient = options
        lenient.strict = false
        let whole: FlowModel
        do {
            whole = try flow.model()
        } catch {
            throw FlowCheckFailure(report: .invalid(spec: flow.name ?? "flow", name: flow.name, error: error, options: options))
        }
        let model = try selecting(options, of: whole, spec: flow.name ?? "flow")
        let report = FlowChecker.check(model, source: flow.name ?? "flow", options: lenient)
        return try judge(report, options: options, accepting: accepting, whole: whole) { _ in nil }
    }
}
