/// Shrinks a failing sequence of items by deleting segments and single items while it still fails.
///
/// Use it to shrink something that is already a list of meaningful steps, such as the events of
/// a path through a state machine, without going through choices. It first tries the empty
/// sequence; then each round tries deleting the halves, then the quarters, and so on down to
/// single items, scanning from the end toward the start; rounds repeat until one deletes nothing.
/// Items are never changed, only removed.
///
/// ```swift
/// let shortest = shrinkSequence(path) { events in machine.replay(events).violatesInvariant }
/// ```
///
/// - Parameters:
///   - items: a sequence for which `isFailing` returns `true`.
///   - maxSteps: the most calls to `isFailing`.
///   - isFailing: whether a candidate still shows the failure; it must be deterministic.
/// - Returns: the shortest failing subsequence found; `items` if no deletion keeps it failing.
/// - Complexity: O(*n*) calls per round for *n* items (about *n*/*k* per segment length *k*),
///   at most *n* rounds, within `maxSteps` calls overall.
public func shrinkSequence<Element>(
    _ items: [Element],
    maxSteps: Int = 10_000,
    isFailing: ([Element]) -> Bool
) -> [Element] {
    var current = items
    var calls = 0
    if !items.isEmpty, maxSteps > 0 {
        calls += 1
        if isFailing([]) { return [] }
    }
    var improved = true
    while improved, calls < maxSteps {
        improved = false
        var length = Swift.max(current.count / 2, 1)
        while length >= 1, calls < maxSteps, !current.isEmpty {
            // Segments [end - length, end) from the end backwards; the first one may be shorter.
            var end = current.count
            while end > 0, calls < maxSteps {
                let start = Swift.max(end - length, 0)
                var candidate = current
                candidate.removeSubrange(start..<end)
                calls += 1
                if isFailing(candidate) {
                    current = candidate
                    improved = true
                    end = Swift.min(start, current.count)
                } else {
                    end = start
                }
            }
            length /= 2
        }
    }
    return current
}
