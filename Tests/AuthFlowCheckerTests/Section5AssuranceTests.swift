import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Section 6 with section 5: a factor the server remembers (a trusted device) survives back, so a way in can need a back.
@Suite struct Section5AssuranceTests {
    /// Trusting the device is a screen of its own with nothing to do but go back; the device is remembered on the server.
    static let spec = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": ["home"],
      "abort": [],
      "factors": { "password": { "kind": "knowledge" }, "device": { "kind": "possession" } },
      "data": { "password": {}, "device": { "server": true } },
      "steps": {
        "start": { "emits": { "trustDevice": { "adds": ["device"], "by": "system" }, "signIn": [] } },
        "trusted": { "backOnly": true, "emits": {} },
        "passwordScreen": { "emits": { "submit": ["password"] } },
        "home": { "assurance": "aal1" }
      },
      "transitions": [
        { "from": "start", "on": "trustDevice", "to": "trusted" },
        { "from": "start", "on": "signIn", "to": "passwordScreen" },
        { "from": "passwordScreen", "on": "submit", "to": "home" }
      ]
    }
    """

    @Test func theTwoFactorWayInGoesBackFromTheTrustedDeviceScreen() throws {
        let report = FlowChecker.check(try SpecLoader.load(json: Self.spec), source: "device", options: CheckOptions(limits: CheckLimits(depth: 8)))
        #expect(report.verdict == .holds, "\(report.violations.map(\.message))")
        let home = try #require(report.waysIn?.first { $0.state == "home" })
        #expect(home.ways.map(\.factors) == [["password"], ["device", "password"]])
        #expect(home.ways.map(\.level) == [.aal1, .aal2])
        #expect(home.ways.map(\.length) == [2, 4])
        // Forward moves alone never hold both: the trusted-device screen is left by back only, and the server keeps the device.
        #expect(home.ways[1].path.compactMap(\.event) == ["trustDevice", "back", "signIn", "submit"])
    }

    @Test func withTheDeviceOnTheClientBackForgetsIt() throws {
        let json = Self.spec.replacingOccurrences(of: #""device": { "server": true }"#, with: #""device": {}"#)
        let report = FlowChecker.check(try SpecLoader.load(json: json), source: "device", options: CheckOptions(limits: CheckLimits(depth: 8)))
        let home = try #require(report.waysIn?.first { $0.state == "home" })
        #expect(home.ways.map(\.factors) == [["password"]])
    }
}
