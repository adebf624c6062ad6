@testable import AuthFlowChecker
import Foundation
import Testing

/// ``PlayedBackend``'s waits: each user action returns once it finished or waits on the backend, whatever earlier actions do meanwhile.
@Suite struct PlayedBackendTests {
    /// A flag set from one task and read from another.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// An app that cancels a request when the user goes back: the cancelled request's action ends while the
    /// next action runs, and must not end that action's wait (the checks would read the app mid-action).
    @Test func aCancelledActionEndingLateDoesNotEndTheNextActionsWait() async {
        let played = PlayedBackend<Int>()
        let (firstEnded, ended) = AsyncStream<Void>.makeStream()
        let (secondStarted, started) = AsyncStream<Void>.makeStream()
        let (gate, open) = AsyncStream<Void>.makeStream()
        await played.run {
            _ = await played.answer()
            ended.yield()
        }
        let returned = Flag()
        let second = Task {
            await played.run {
                started.yield()
                for await _ in gate { break }
            }
            returned.set()
        }
        for await _ in secondStarted { break }
        played.cancel()   // the first action's request is let go: it ends now, while the second runs
        for await _ in firstEnded { break }
        for _ in 0..<200 where !returned.isSet { await Task.yield() }
        #expect(!returned.isSet, "the second action's wait ended when the first action did")
        open.yield()
        await second.value
        #expect(returned.isSet)
    }

    /// An answer to a call an earlier action made (an app that did not cancel it) is handled, and its wait ends.
    @Test func anAnswerToAnEarlierActionsCallEndsItsWait() async {
        let played = PlayedBackend<Int>()
        let handled = Flag()
        await played.run {
            if await played.answer() != nil { handled.set() }
        }
        await played.run {}
        #expect(await played.deliver(1))
        #expect(handled.isSet)
    }
}
