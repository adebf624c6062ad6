@testable import AuthFlowChecker
import Testing

/// The walk's table is bounded whatever the flow: a worker keeps at most ``FrameTable/defaultCapacity`` configurations
/// (raised only to what one stack of the depth needs) and empties and refills its table past that. Holding every
/// configuration of Amplify's authenticator (121,824) cost 13 MB more per worker and no time (`Benchmarks/results.md`);
/// emptying changes no result (``WalkTableTests``).
@Suite struct FrameTableCapacityTests {
    @Test func aDefaultTableIsBoundedWhateverTheFlow() throws {
        let model = try Version2Tests.load(Version2Tests.fixture())
        let table = FrameTable(model: model, depth: 12)
        #expect(table.capacity == FrameTable.defaultCapacity)
        #expect(table.moveCapacity == FrameTable.movesPerConfiguration * FrameTable.defaultCapacity)
        // About 3 MB of configurations, their moves and checks per worker.
        #expect(FrameTable.defaultCapacity <= 1 << 13)
        // A deep walk needs more for one stack: the floor raises the capacity, so emptying the table always makes room.
        let deep = FrameTable(model: model, depth: 5_000)
        #expect(deep.capacity >= 2 * (5_000 + 3) * (deep.maximumMoves + 1))
    }
}
