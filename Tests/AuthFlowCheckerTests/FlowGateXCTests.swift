import AuthFlowChecker
import XCTest

/// The CI gate from XCTest: the same call a Swift Testing test makes, failing with the counterexample.
final class FlowGateXCTests: XCTestCase {
    func testEverySpecPassesTheGate() throws {
        for spec in Files.specs {
            try FlowGate.assertHolds(file: spec)
        }
    }

    func testABrokenFlowFailsTheGateWithItsCounterexample() {
        XCTAssertThrowsError(try FlowGate.assertHolds(file: Files.broken("mfa-bypass"))) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("unmet-requirement at authenticated — 4 steps"), text)
            XCTAssertTrue(text.contains("✗  4. skip"), text)
        }
    }

    /// An app's own coordinator through the conformance gate, from XCTest: it passes, and its broken twin fails with the frame diff.
    func testAnAppsCoordinatorThroughTheConformanceGate() throws {
        let spec = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).json")
        try ConformanceTests.spec.write(to: spec, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: spec) }
        let report = try FlowGate.assertConforms(spec: spec.path, depth: 6, runs: 100) { ConformanceTests.Coordinator() }
        XCTAssertEqual(report.verdict, .holds)
        XCTAssertEqual(report.walk?.stacks, RuntimeExplorer(model: ConformanceTests.model).countStacks(depth: 6))
        XCTAssertThrowsError(try FlowGate.assertConforms(spec: spec.path, depth: 6) { ConformanceTests.Coordinator(forgetsData: true) }) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("1) undo-mismatch at code on submit — 3 steps"), text)
            XCTAssertTrue(text.contains(" ✗  3. back"), text)
            XCTAssertTrue(text.contains("     + email  #2"), text)
        }
    }

    /// A team's own helper can throw the gate's error: its initialiser is public (this file imports without @testable).
    func testATeamsOwnHelperCanThrowTheGatesError() throws {
        let report = FlowChecker.check(file: Files.broken("mfa-bypass"))
        func teamGate(_ report: CheckReport) throws(FlowCheckFailure) {
            if report.verdict != .holds { throw FlowCheckFailure(report: report) }
        }
        XCTAssertThrowsError(try teamGate(report)) { error in
            XCTAssertTrue(String(describing: error).contains("unmet-requirement at authenticated"))
        }
    }
}
