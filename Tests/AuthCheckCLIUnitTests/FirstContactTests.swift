import AuthFlowChecker
import Foundation
import Testing

/// What a user meets first: the summary line's rate.
@Suite struct FirstContactTests {
    @Test func theSummaryRateCountsStacksAndSaysSo() {
        // 3280 stacks in 0.042 s, with more configurations than stacks: the rate is the stacks'.
        let stats = Stats(states: 13, configurations: 5000, depth: 12, stacks: 3280, seconds: 0.042)
        #expect(ReportRenderer.summary(stats) == "13 states, 5000 configurations, 3280 stacks at depth 12, 0.042 s (78.1 k stacks/s)")
    }
}
