import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The conformance gate on a spec with section 5's history keys: refused with the construct and its place, not walked wrongly.
@Suite struct Section5ConformanceTests {
    /// An app that never moves: the gate must refuse the spec before driving it.
    final class StillApp: FlowUnderTest {
        var state = "start"
        var data: [String: String] { [:] }
        func send(_ event: String, data: [String: String]) -> Bool { false }
        func back() -> Bool { false }
    }

    static func write(_ json: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("section5-\(UUID().uuidString).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test(arguments: [
        (Section5HistoryTests.lockout, "$.data.attempts.server", "checking an app's own coordinator against a server-side key"),
        (Section5HistoryTests.lockout.replacingOccurrences(of: ", \"server\": true", with: "")
            .replacingOccurrences(of: "{\"server\": true}", with: "{}"), "$.transitions[2].history",
         "checking an app's own coordinator against a row that updates the screen in place"),
    ])
    func theGateNamesTheConstructAndItsPlace(_ fixture: (String, String, String)) throws {
        let path = try Self.write(fixture.0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try FlowGate.assertConforms(spec: path, depth: 3, runs: 5) { StillApp() }
            Issue.record("the gate walked a spec it does not model")
        } catch {
            let issue = try #require(error.report.error?.issues.first)
            #expect(issue.path == fixture.1)
            #expect(issue.message.hasPrefix(fixture.2), "\(issue.message)")
            #expect(issue.location != nil, "no line:column")
        }
    }
}
