@testable import AuthFlow
import Testing

/// The per-step stack a machine and a session keep their history in: the same answers as an array, through growth,
/// with values that need releasing, and every element released exactly once.
@Suite struct OwnedStackTests {
    /// Counts live instances, to see that the stack releases what it held exactly once (only this suite makes them).
    final class Tracked {
        nonisolated(unsafe) static var live = 0
        let id: Int
        init(_ id: Int) {
            self.id = id
            Self.live += 1
        }
        deinit { Self.live -= 1 }
    }

    @Test func pushesAndPopsAsAnArrayDoesThroughGrowth() {
        var stack = _OwnedStack<Int>(capacity: 1)
        defer { stack.destroy() }
        var mirror: [Int] = []
        var generator = SystemRandomNumberGenerator()
        for step in 0..<2_000 {
            if mirror.isEmpty || Int.random(in: 0..<3, using: &generator) > 0 {
                stack.append(step)
                mirror.append(step)
            } else {
                #expect(stack.removeLast() == mirror.removeLast())
            }
            #expect(stack.count == mirror.count)
            if let last = mirror.last { #expect(stack.last == last) }
        }
        #expect(stack.elements == mirror)
        #expect((0..<mirror.count).allSatisfy { stack[$0] == mirror[$0] })
        stack.last = -1
        #expect(stack.elements.last == -1)
        stack.removeAll()
        #expect(stack.isEmpty && stack.elements.isEmpty)
    }

    @Test func releasesEveryElementOnce() {
        let before = Tracked.live
        do {
            var stack = _OwnedStack<Tracked>(capacity: 2)
            for i in 0..<100 { stack.append(Tracked(i)) }
            #expect(Tracked.live == before + 100)
            for _ in 0..<40 { _ = stack.removeLast() }
            #expect(Tracked.live == before + 60)
            #expect(stack.last.id == 59)
            stack.removeAll()
            #expect(Tracked.live == before)
            for i in 0..<10 { stack.append(Tracked(i)) }
            stack.destroy()
        }
        #expect(Tracked.live == before)
    }

    @Test func aMachineAndASessionKeepTheirHistoryThroughManySteps() throws {
        let machine = try StateMachine<String, String>(initial: "a", transitions: [
            Transition(from: "a", on: "next", to: "b"), Transition(from: "b", on: "next", to: "a"),
        ])
        for _ in 0..<1_000 { try machine.send("next") }
        #expect(machine.historyCount == 1_001)
        #expect(machine.history.prefix(3) == ["a", "b", "a"])
        for _ in 0..<999 { try machine.undo() }
        #expect(machine.history == ["a", "b"])
        machine.reset()
        #expect(machine.history == ["a"] && machine.state == "a")
    }
}
