import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The specs of `docs/tutorial.md`, in `Examples/tutorial/`: each step holds with no lint, and the
/// planted mistake breaks exactly the rule the tutorial reads, on the path it prints.
@Suite struct TutorialSpecsTests {
    static func spec(_ name: String) -> String { Files.root.appendingPathComponent("Examples/tutorial/\(name).json").path }

    /// `(file, states, configurations)`, as the tutorial's `authcheck check` lines print them.
    static let steps: [(String, Int, Int)] = [
        ("1-email-password", 4, 4),
        ("2-mfa", 5, 6),
        ("3-lockout", 8, 23),
        ("4-sign-out", 8, 23),
        ("sign-in", 8, 24),
    ]

    @Test(arguments: steps)
    func eachStepHoldsWithNoLint(_ name: String, _ states: Int, _ configurations: Int) throws {
        let model = try Files.model(Self.spec(name))
        #expect(model.format == 2)
        let report = FlowChecker.check(model, source: name, options: CheckOptions(limits: CheckLimits(depth: 12), passcodeCases: 10))
        #expect(report.verdict == .holds, "\(name): \(report.violations.map(\.message))")
        #expect(report.lint.isEmpty, "\(name): \(report.lint.lines)")
        #expect(report.warnings.isEmpty, "\(name)")
        #expect(report.stats.states == states && report.stats.configurations == configurations, "\(name)")
    }

    @Test func thePlantedMistakeLetsALockedAccountReachHome() throws {
        let model = try Files.model(Self.spec("5-try-again"))
        let report = FlowChecker.check(model, source: "5-try-again", options: CheckOptions(limits: CheckLimits(depth: 12), passcodeCases: 10))
        #expect(report.violations.map(\.property.id) == ["no-sign-in-after-lockout"])
        let path = try #require(report.violations.first).path.map(\.event)
        #expect(path == [nil, "continue", "wrongPassword", "wrongPassword", "wrongPassword", "tryAgain", "passwordAccepted"])
    }
}
