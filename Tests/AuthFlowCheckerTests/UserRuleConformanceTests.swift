import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The conformance checks of an app's own coordinator check the spec's own `always`/`never` rules on
/// every frame the app holds: an app that skips the MFA screen breaks the team's rule, and the walk says so
/// by the rule's id, besides the divergence from the spec.
@Suite struct UserRuleConformanceTests {
    /// The app's coordinator for the MFA flow of `UserRuleWalkTests.mfaKept`; `skipsMFA` is its bug: a submitted
    /// sign-in goes straight to the home screen, with the challenge in its data and no code accepted.
    final class Coordinator: FlowUnderTest {
        enum State: String, FlowName { case start, signIn, mfa, home, cancelled }
        enum Event: String, FlowName { case begin, submit, cancel, verify }

        let skipsMFA: Bool
        var state = State.start
        var data: [String: String] = [:]
        var history: [(state: State, data: [String: String])] = []
        init(skipsMFA: Bool) { self.skipsMFA = skipsMFA }

        func send(_ event: Event, data: [String: String]) -> Bool {
            let next: State
            switch (state, event) {
            case (.start, .begin): next = .signIn
            case (.signIn, .submit): next = skipsMFA ? .home : .mfa
            case (.signIn, .cancel): next = .cancelled
            case (.mfa, .verify): next = .home
            default: return false
            }
            history.append((state, self.data))
            state = next
            self.data.merge(data) { _, new in new }
            return true
        }

        func back() -> Bool {
            guard state == .signIn || state == .mfa, let last = history.popLast() else { return false }
            (state, data) = (last.state, last.data)
            return true
        }
    }

    static let model = try! Version2Tests.load(UserRuleWalkTests.mfaKept)

    @Test func aCoordinatorThatSkipsMFAIsCaughtAsTheTeamsRule() throws {
        #expect(Self.model.isStatic, "a coordinator is checked against a flow whose moves the state alone decides")
        let walk = FlowConformance(model: Self.model) { Coordinator(skipsMFA: true) }.explore(depth: 6)
        let rule = try #require(walk.violations.first { $0.property.isUserDefined })
        #expect(rule.site == Site(property: Property(id: "mfa-before-session"), state: nil))
        #expect(rule.state == "home")
        #expect(rule.message == "mfa-before-session says never at home ∧ has mfaChallenge ∧ no mfaPassed, "
                + "but the implementation is at home with the data {mfaChallenge}, where it holds")
        #expect(rule.path.map(\.event) == [nil, "begin", "submit"])
        // Besides the rule, the frame the app is in is not the spec's.
        #expect(walk.violations.map(\.site.description) == ["divergence@mfa.submit", "mfa-before-session"])
    }

    @Test func theGateFailsWithTheRuleInItsReport() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("walk16-mfa-kept-\(UUID().uuidString).json")
        try UserRuleWalkTests.mfaKept.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: ConformanceFailure.self) { try FlowGate.assertConforms(spec: file.path, depth: 6, runs: 50) { Coordinator(skipsMFA: true) } }
        do {
            try FlowGate.assertConforms(spec: file.path, depth: 6, runs: 50) { Coordinator(skipsMFA: true) }
        } catch {
            #expect(error.report.walk?.violations.contains { $0.property.id == "mfa-before-session" } == true)
            #expect(error.description.contains("mfa-before-session"), "\(error.description)")
        }
        // The coordinator as the spec says it: every stack conforms, and no frame breaks a rule.
        let report = try FlowGate.assertConforms(spec: file.path, depth: 6, runs: 200) { Coordinator(skipsMFA: false) }
        #expect(report.verdict == .holds)
    }

    @Test func theRandomPathsFindTheRuleWhenItIsWhatIsChecked() throws {
        let rule = Property.userProperties(of: Self.model)[0]
        let conformance = FlowConformance(model: Self.model) { Coordinator(skipsMFA: true) }
        let report = conformance.fuzz(FuzzOptions(runs: 200, seed: 4, properties: [rule]))
        let failure = try #require(report.failure)
        #expect(failure.site == Site(property: rule, state: nil))
        #expect(failure.shrunk.map(\.name) == ["begin", "submit"], "\(failure.shrunk)")
        #expect(failure.violation.message.contains("but the implementation is at home with the data {mfaChallenge"), "\(failure.violation.message)")
    }
}
