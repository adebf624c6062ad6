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
