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

    /// Sign-out starts again and keeps what the server remembers: the device is still trusted at the start of the new run.
    @Test func aResetKeepsTheTrustedDevice() throws {
        let json = Self.spec
            .replacingOccurrences(of: #""home": { "assurance": "aal1" }"#, with: #""home": { "assurance": "aal1", "emits": { "signOut": [] } }"#)
            .replacingOccurrences(of: #"{ "from": "passwordScreen", "on": "submit", "to": "home" }"#,
                                  with: #"{ "from": "passwordScreen", "on": "submit", "to": "home" }, { "from": "home", "on": "signOut", "to": "start", "reset": true }"#)
        let model = try SpecLoader.load(json: json)
        let graph = ConfigurationGraph(model: model)
        let device = try #require(model.key(named: "device")).index
        let password = try #require(model.key(named: "password")).index
        let home = try #require(model.state(named: "home")).rawValue
        let signedIn = try #require(graph.configurations.first { $0.state == home && $0.keys & (1 << UInt64(device)) != 0 })
        var successors: [FlowModel.Successor] = []
        model.successors(state: Int(home), keys: signedIn.keys, values: signedIn.values, into: &successors)
        let signOut = try #require(successors.first { model.events[$0.event.index] == "signOut" })
        guard case let .reset(keys, _) = signOut.outcome else {
            Issue.record("signOut does not reset: \(signOut.outcome)")
            return
        }
        // The new run starts with the device and without the password (a client-side key the reset drops).
        #expect(keys & (1 << UInt64(device)) != 0)
        #expect(keys & (1 << UInt64(password)) == 0)
    }

    @Test func withTheDeviceOnTheClientBackForgetsIt() throws {
        let json = Self.spec.replacingOccurrences(of: #""device": { "server": true }"#, with: #""device": {}"#)
        let report = FlowChecker.check(try SpecLoader.load(json: json), source: "device", options: CheckOptions(limits: CheckLimits(depth: 8)))
        let home = try #require(report.waysIn?.first { $0.state == "home" })
        #expect(home.ways.map(\.factors) == [["password"]])
    }
}
