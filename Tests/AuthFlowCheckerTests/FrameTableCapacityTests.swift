@testable import AuthFlowChecker
import Testing

/// The walk over frames keeps every configuration of a real flow in its table, so it never empties and refills it.
@Suite struct FrameTableCapacityTests {
    @Test func aDefaultTableHoldsAFlowOfThirtyThousandConfigurations() throws {
        let model = try Version2Tests.load(Version2Tests.fixture())
        let table = FrameTable(model: model, depth: 12)
        // A 48-step authenticator has 30,948 configurations, with up to 8 moves each.
        #expect(table.capacity >= 30_948 + table.maximumMoves)
        #expect(table.moveCapacity >= 8 * 30_948 + table.maximumMoves)
    }
}
