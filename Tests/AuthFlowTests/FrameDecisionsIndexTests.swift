@testable import AuthFlow
import Testing

/// The index a session keeps over the frames it has decided: every frame inserted is found at its
/// position, across the index's growth, and no other frame is.
@Suite struct FrameDecisionsIndexTests {
    typealias Decisions = SessionMoves.FrameDecisions

    @Test func everyFrameIsFoundAtItsPositionAndNoOtherIs() {
        var decisions = Decisions()
        // Frames that differ in one word only, and in the low bits the slot is taken from: the worst case for a weak mix.
        var frames: [Decisions.Key] = []
        for i in 0..<3000 {
            frames.append(Decisions.Key(state: i % 7, keys: UInt64(i / 7), values: UInt64(i % 3) << 40))
        }
        for (d, frame) in frames.enumerated() {
            decisions.insert(frame, at: Int32(d))
            // Found right after it is inserted (the index may have just grown).
            #expect(decisions.find(frame) == Int32(d))
        }
        #expect(decisions.index.slotCount >= 2 * frames.count)
        for (d, frame) in frames.enumerated() { #expect(decisions.find(frame) == Int32(d)) }
        #expect(decisions.find(Decisions.Key(state: 7, keys: 0, values: 0)) == nil)
        #expect(decisions.find(Decisions.Key(state: 0, keys: 0, values: 1)) == nil)
        #expect(Decisions().find(frames[0]) == nil)
    }
}
