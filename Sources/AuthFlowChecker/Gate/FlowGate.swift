import AuthFlow

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
    /// - Returns: the report, for further assertions.
    /// - Throws: ``FlowCheckFailure`` when the verdict is not `holds`.
    @discardableResult
    public static func assertHolds(file path: String, options: CheckOptions = CheckOptions()) throws(FlowCheckFailure) -> CheckReport {
        let report = FlowChecker.check(file: path, options: options)
        guard report.verdict == .holds else { throw FlowCheckFailure(report: report) }
        return report
    }

    /// Checks a flow declared in Swift and throws unless every property holds.
    @discardableResult
    public static func assertHolds<S, E, K>(_ flow: FlowDefinition<S, E, K>, options: CheckOptions = CheckOptions()) throws(FlowCheckFailure) -> CheckReport {
        let report = FlowChecker.check(flow, options: options)
        guard report.verdict == .holds else { throw FlowCheckFailure(report: report) }
        return report
    }
}
