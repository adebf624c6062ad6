import AuthFlow
import Foundation

/// One thing a change to a flow is allowed to do, for ``FlowGate/assertDiff(old:new:allows:limits:callerFile:)``.
///
/// A kind of difference anywhere (`.kind(.addedMove)`), a difference at one site
/// (`.site(.addedMove, state: "email", event: "skip")`), or violations only the new version has.
/// Lists for the usual policies: ``additions`` ("this change may only add paths") and
/// ``allButRemovals`` ("this change may not remove any move"); no allowance at all means the
/// change must not alter what the user can do.
public struct FlowDiffAllowance: Hashable, Sendable, CustomStringConvertible {
    /// The kind of difference allowed; `nil` for ``newViolations``.
    public var kind: FlowDiffReport.Kind?
    /// The screen and event the allowance is limited to; `nil` allows the kind anywhere.
    public var state: String?
    public var event: String?
    /// Whether violations only the new version has are allowed.
    public var violations: Bool

    /// `kind` anywhere in the flow.
    public static func kind(_ kind: FlowDiffReport.Kind) -> FlowDiffAllowance {
        FlowDiffAllowance(kind: kind, state: nil, event: nil, violations: false)
    }

    /// `kind` at the screen `state` on `event` (`back` for back) only, whatever the variant or the values chosen.
    public static func site(_ kind: FlowDiffReport.Kind, state: String, event: String) -> FlowDiffAllowance {
        FlowDiffAllowance(kind: kind, state: state, event: event, violations: false)
    }

    /// Violations only the new version has (by default a gate fails on them, whatever differences it allows).
    public static let newViolations = FlowDiffAllowance(kind: nil, state: nil, event: nil, violations: true)

    /// New moves and back newly allowed: the user can do everything they could before, and more.
    public static let additions: [FlowDiffAllowance] = [.kind(.addedMove), .kind(.addedBack)]

    /// Every kind of difference except a move or back taken away.
    public static let allButRemovals: [FlowDiffAllowance] = FlowDiffReport.Kind.allCases
        .filter { $0 != .removedMove && $0 != .removedBack }.map(kind)

    /// Whether this allowance covers `difference`.
    public func covers(_ difference: FlowDiffReport.Difference) -> Bool {
        guard let kind, kind == difference.kind else { return false }
        guard let state else { return true }
        return difference.state == state && difference.event == event
    }

    /// `added-move`, `added-move at email on skip`, `new violations`.
    public var description: String {
        guard let kind else { return "new violations" }
        guard let state else { return kind.rawValue }
        return "\(kind.rawValue) at \(state) on \(event ?? "?")"
    }
}

/// The error ``FlowGate/assertDiff(old:new:allows:limits:callerFile:)`` throws: its description
/// lists the differences the change was not allowed to make, each as the user's steps, old against new.
public struct FlowDiffFailure: Error, CustomStringConvertible, Sendable {
    /// The whole comparison.
    public var report: FlowDiffReport
    /// The differences no allowance covers, in the report's order.
    public var offending: [FlowDiffReport.Difference]
    /// The violations only the new version has, when they were not allowed.
    public var newViolations: [Site]
    /// The versions as the report names them.
    public var old: String
    public var new: String
    /// What was allowed.
    public var allowed: [FlowDiffAllowance]

    public var description: String {
        if offending.isEmpty, newViolations.isEmpty, let stop = report.stoppedBy {
            return "\(TerminalText.escaped(old)) → \(TerminalText.escaped(new)): incomplete — \(stop) before the comparison was complete"
        }
        var shown = report
        shown.differences = offending
        shown.properties = FlowDiffReport.PropertyChanges()
        shown.properties.new = newViolations
        let permitted = allowed.isEmpty ? "nothing (the behaviour must stay the same)"
            : allowed.map(\.description).joined(separator: ", ")
        return DiffText.render(shown, old: old, new: new) + "\nallowed: \(TerminalText.escaped(permitted))"
    }
}

extension FlowGate {
    /// Compares two versions of a spec and throws when the change does something `allows` does not cover.
    ///
    /// ```swift
    /// @Test func theRedesignOnlyAddsPaths() throws {
    ///     try FlowGate.assertDiff(old: "Specs/v1.json", new: "Specs/v2.json", allows: FlowDiffAllowance.additions)
    /// }
    /// ```
    /// With no allowance the change must keep the behaviour the same (a renamed description or
    /// reordered rows pass). Violations only the new version has fail the gate unless
    /// ``FlowDiffAllowance/newViolations`` is allowed; fixed violations and rules added or dropped
    /// never do. A comparison a limit stopped fails, as it decides nothing. Paths are resolved as
    /// ``assertHolds(file:options:callerFile:)`` resolves them; an invalid or missing file fails
    /// with its problems.
    /// - Returns: the report, for further assertions.
    /// - Throws: ``FlowDiffFailure`` listing the offending differences; ``FlowCheckFailure`` for an invalid spec.
    @discardableResult
    public static func assertDiff(old: String, new: String, allows: [FlowDiffAllowance] = [], limits: CheckLimits = CheckLimits(),
                                  callerFile: StaticString = #filePath) throws -> FlowDiffReport {
        let oldModel = try model(old, callerFile: "\(callerFile)", limits: limits)
        let newModel = try model(new, callerFile: "\(callerFile)", limits: limits)
        return try assertDiff(old: oldModel, new: newModel, allows: allows, limits: limits, names: (old, new))
    }

    /// Compares two loaded versions of a flow and throws when the change does something `allows` does not cover.
    /// - Parameter names: how the failure names the two versions.
    /// - Throws: ``FlowDiffFailure`` listing the offending differences.
    @discardableResult
    public static func assertDiff(old: FlowModel, new: FlowModel, allows: [FlowDiffAllowance] = [], limits: CheckLimits = CheckLimits(),
                                  names: (old: String, new: String) = ("old", "new")) throws(FlowDiffFailure) -> FlowDiffReport {
        let report = FlowDiff.compare(old, new, limits: limits, deadline: Deadline(timeout: limits.timeout))
        let offending = report.differences.filter { difference in !allows.contains { $0.covers(difference) } }
        let violations = allows.contains(.newViolations) ? [] : report.properties.new
        guard offending.isEmpty, violations.isEmpty, report.stoppedBy == nil else {
            throw FlowDiffFailure(report: report, offending: offending, newViolations: violations, old: names.old, new: names.new,
                                  allowed: allows)
        }
        return report
    }

    /// The model at `path`, resolved as the gate resolves spec paths.
    static func model(_ path: String, callerFile: String, limits: CheckLimits) throws(FlowCheckFailure) -> FlowModel {
        let options = CheckOptions(limits: limits)
        switch resolve(path, callerFile: callerFile) {
        case let .found(resolved):
            do {
                return try SpecLoader.load(file: resolved)
            } catch {
                throw FlowCheckFailure(report: .invalid(spec: path, error: error, options: options))
            }
        case let .missing(tried):
            let message = "no such file; tried " + tried.joined(separator: ", ")
            throw FlowCheckFailure(report: .invalid(spec: path, error: InvalidSpecError(file: path, issues: [SpecIssue(path: SpecIssue.wholeFile, message: message)]),
                                                    options: options))
        }
    }
}
