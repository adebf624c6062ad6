import AuthFlow
import Foundation

/// The error a CI gate throws when a flow does not hold: its description is the whole report, counterexamples included.
public struct FlowCheckFailure: Error, CustomStringConvertible, Sendable {
    /// The report of the failed check.
    public var report: CheckReport

    /// A failure for `report`, so a team's own gate helpers can throw the same error `FlowGate` does.
    public init(report: CheckReport) {
        self.report = report
    }

    public var description: String { ReportRenderer.text(report) }
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
    /// Checks the spec at `path` and throws unless every property holds.
    ///
    /// A relative `path` is looked up the way a test that names `Specs/…` means it, whatever
    /// directory the test runs in (Xcode runs tests elsewhere than `swift test` does): first in
    /// the working directory, then beside the calling test file and in each directory above it,
    /// so `"Specs/sign-in.json"` from `Tests/AppTests/FlowTests.swift` finds the package's
    /// `Specs/`. A spec shipped as a test resource can be passed as `Bundle.module.url(…)!.path`.
    /// When no candidate exists the report is `invalid` and names every absolute path tried.
    /// - Parameters:
    ///   - path: the spec file, absolute or relative.
    ///   - options: what to check and within which limits.
    ///   - callerFile: the calling source file, by default the test that calls the gate.
    /// - Returns: the report, for further assertions.
    /// - Throws: ``FlowCheckFailure`` when the verdict is not `holds`.
    @discardableResult
    public static func assertHolds(file path: String, options: CheckOptions = CheckOptions(),
                                   callerFile: StaticString = #filePath) throws(FlowCheckFailure) -> CheckReport {
        let report: CheckReport
        switch resolve(path, callerFile: "\(callerFile)") {
        case let .found(resolved):
            report = FlowChecker.check(file: resolved, options: options)
        case let .missing(tried):
            let message = "no such file; tried " + tried.joined(separator: ", ")
            report = .invalid(spec: path, error: InvalidSpecError(file: path, issues: [SpecIssue(path: SpecIssue.wholeFile, message: message)]),
                              options: options)
        }
        guard report.verdict == .holds else { throw FlowCheckFailure(report: report) }
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

    /// Checks a flow declared in Swift and throws unless every property holds.
    @discardableResult
    public static func assertHolds<S, E, K>(_ flow: FlowDefinition<S, E, K>, options: CheckOptions = CheckOptions()) throws(FlowCheckFailure) -> CheckReport {
        let report = FlowChecker.check(flow, options: options)
        guard report.verdict == .holds else { throw FlowCheckFailure(report: report) }
        return report
    }
}
