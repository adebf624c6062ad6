/// Shrinks a failing path of events and backs to a shorter one that fails at the same site.
///
/// Every candidate is replayed through the runtime under test; a candidate counts only when the
/// replay fails at the same site, so the failure is reproduced by running, never assumed. Rounds
/// repeat while one improves, each in three passes:
/// 1. delete contiguous segments, the longest first (half the path), halving down to single steps;
/// 2. drop each forward event immediately undone by back;
/// 3. replace the values an event typed by the simple default values.
///
/// A replay stops at the first violation, so a candidate can come back shorter than it went in:
/// the shrinker keeps what the replay really walked.
///
/// ```swift
/// let shrunk = PathShrinker(maxReplays: 20_000).shrink(outcome) { fuzzer.replay($0) }
/// shrunk.outcome.actions   // the shortest failing path found
/// ```
struct PathShrinker {
    /// The most replays shrinking may spend.
    var maxReplays: Int

    /// A shrunk failure and what it cost.
    struct Result {
        /// The failure at the end of the shrunk path.
        var outcome: FuzzOutcome
        /// Replays spent.
        var replays: Int
    }

    /// Shrinks `outcome`'s path; `replay` runs a candidate and returns its first violation, or nil.
    /// - Complexity: O(n) replays per pass for a path of n actions (about n / k per segment
    ///   length k), passes repeating while one improves, within `maxReplays` overall.
    func shrink(_ outcome: FuzzOutcome, replay: ([FuzzAction]) -> FuzzOutcome?) -> Result {
        var best = outcome
        var replays = 0
        func attempt(_ candidate: [FuzzAction]) -> Bool {
            guard replays < maxReplays else { return false }
            replays += 1
            guard let found = replay(candidate), found.site == outcome.site else { return false }
            if found.actions.count < best.actions.count || (found.actions.count == best.actions.count && found.actions != best.actions) {
                best = found
                return true
            }
            return false
        }
        var improved = true
        while improved && replays < maxReplays {
            improved = false
            // Delete segments, longest first, then single steps.
            var size = max(1, best.actions.count / 2)
            while size >= 1 {
                var i = 0
                while i + size <= best.actions.count {
                    var candidate = best.actions
                    candidate.removeSubrange(i..<(i + size))
                    if attempt(candidate) { improved = true } else { i += 1 }
                }
                size /= 2
            }
            // Drop forward/back pairs wherever they sit.
            var i = 0
            while i + 1 < best.actions.count {
                if case .event = best.actions[i], best.actions[i + 1] == .back {
                    var candidate = best.actions
                    candidate.removeSubrange(i...(i + 1))
                    if attempt(candidate) { improved = true; continue }
                }
                i += 1
            }
            // Simplify values.
            for j in best.actions.indices {
                if case let .event(name, _?) = best.actions[j] {
                    var candidate = best.actions
                    candidate[j] = .event(name, values: nil)
                    if attempt(candidate) { improved = true }
                }
            }
        }
        return Result(outcome: best, replays: replays)
    }
}
