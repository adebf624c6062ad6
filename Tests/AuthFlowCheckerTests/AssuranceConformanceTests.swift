import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Conformance of an app's own coordinator checks `assurance` (section 6) on the frame the app holds: an app that skips
/// the second factor is at home below the level home asks for, and the walk says so, besides the divergence.
@Suite struct AssuranceConformanceTests {
    static let spec = """
    {
      "format": "authflow/2",
      "initial": "signIn",
      "success": ["home"],
      "abort": [],
      "factors": { "password": { "kind": "knowledge" }, "otp": { "kind": "possession" } },
      "steps": {
        "signIn": { "emits": { "submit": ["password"] } },
        "mfa": { "requires": ["password"], "emits": { "verify": ["otp"] } },
        "home": { "assurance": "aal2" }
      },
      "transitions": [
        { "from": "signIn", "on": "submit", "to": "mfa" },
        { "from": "mfa", "on": "verify", "to": "home" }
      ]
    }
    """

    /// The coordinator; `skipsMFA` is its bug: a submitted password goes straight home.
    final class Coordinator: FlowUnderTest {
        let skipsMFA: Bool
        var state = "signIn"
        var data: [String: String] = [:]
        var history: [(state: String, data: [String: String])] = []
        init(skipsMFA: Bool) { self.skipsMFA = skipsMFA }

        func send(_ event: String, data: [String: String]) -> Bool {
            let next: String
            switch (state, event) {
            case ("signIn", "submit"): next = skipsMFA ? "home" : "mfa"
            case ("mfa", "verify"): next = "home"
            default: return false
            }
            history.append((state, self.data))
            state = next
            self.data.merge(data) { _, new in new }
            return true
        }

        func back() -> Bool {
            guard state == "mfa", let last = history.popLast() else { return false }
            (state, data) = (last.state, last.data)
            return true
        }
    }

    @Test func anAppThatSkipsTheSecondFactorIsCaughtBelowTheLevel() throws {
        let model = try SpecLoader.load(json: Self.spec)
        let walk = FlowConformance(model: model) { Coordinator(skipsMFA: true) }.explore(depth: 4)
        let assurance = try #require(walk.violations.first { $0.property == .assurance }, "\(walk.violations.map(\.site))")
        #expect(assurance.state == "home")
        #expect(assurance.message == "home asks for aal2, but is reached with only password (aal1)")
        #expect(walk.violations.contains { $0.property == .divergence })
        // The correct coordinator conforms.
        #expect(FlowConformance(model: model) { Coordinator(skipsMFA: false) }.explore(depth: 4).violations.isEmpty)
    }
}
