/// Shrinks a failing choice sequence to a smaller one that still fails.
///
/// The shrinker knows nothing about generators: it edits the sequence and asks `isFailing` about
/// each candidate. It runs passes until none improves: delete chunks of 8, 7, … 1 choices
/// (from the end backwards), zero chunks of the same sizes, lower each choice (0 first, then a
/// binary search for the smallest value that still fails), move value from a choice to one of the
/// next four, and swap out-of-order neighbours. A candidate is tried only if it is smaller in
/// *shortlex* order (shorter first, then lexicographically smaller), so the result is never larger
/// than the input and every accepted step makes progress.
///
/// ```swift
/// let smallest = shrink(choices: failing) { candidate in
///     var source = ChoiceSource(replaying: candidate, size: 50)
///     return !pathIsSafe(walk(&source))
/// }
/// ```
///
/// - Parameters:
///   - choices: a sequence for which `isFailing` returns `true`.
///   - maxSteps: the most calls to `isFailing`.
///   - isFailing: whether a candidate sequence still shows the failure; it must be deterministic.
/// - Returns: the smallest failing sequence found; `choices` itself if nothing smaller fails.
/// - Complexity: each pass makes O(*n*) calls for *n* choices, plus O(log *v*) per value *v* lowered;
///   passes repeat while one improves, within `maxSteps` calls overall.
public func shrink(
    choices: [UInt64],
    maxSteps: Int = 10_000,
    isFailing: ([UInt64]) -> Bool
) -> [UInt64] {
    shrink(choices: choices, maxSteps: maxSteps) { candidate in
        isFailing(candidate) ? candidate : nil
    }.choices
}

/// Shrinks a failing choice sequence, letting each replay report the choices it really consumed.
///
/// Like ``shrink(choices:maxSteps:isFailing:)``, but `replay` returns the choices a failing run
/// actually used (``ChoiceSource/values`` after the run), or `nil` when the candidate passes. The
/// shrinker keeps whichever of the candidate and the consumed choices is smaller, so choices a
/// run never read are dropped at once instead of one deletion at a time.
///
/// - Parameters:
///   - choices: a sequence that fails.
///   - maxSteps: the most calls to `replay`.
///   - replay: runs a candidate; the consumed choices if it fails, `nil` if it passes.
/// - Returns: the shrunk sequence with the number of improvements and of calls made.
/// - Complexity: as ``shrink(choices:maxSteps:isFailing:)``.
public func shrink(
    choices: [UInt64],
    maxSteps: Int = 10_000,
    replay: ([UInt64]) -> [UInt64]?
) -> ShrinkResult {
    withoutActuallyEscaping(replay) { replay in
        var shrinker = ChoiceShrinker(choices: choices, maxEvaluations: maxSteps, replay: replay)
        shrinker.run()
        return ShrinkResult(
            choices: shrinker.current,
            steps: shrinker.improvements,
            evaluations: shrinker.evaluations
        )
    }
}

/// The outcome of shrinking a choice sequence.
public struct ShrinkResult: Hashable, Sendable {
    /// The smallest failing sequence found.
    public var choices: [UInt64]
    /// How many candidates were accepted as improvements.
    public var steps: Int
    /// How many candidates were run.
    public var evaluations: Int

    /// Creates a result.
    public init(choices: [UInt64], steps: Int, evaluations: Int) {
        self.choices = choices
        self.steps = steps
        self.evaluations = evaluations
    }
}

/// Whether `lhs` comes before `rhs` in shortlex order: shorter first, then lexicographically smaller.
func shortlexPrecedes(_ lhs: [UInt64], _ rhs: [UInt64]) -> Bool {
    lhs.count != rhs.count ? lhs.count < rhs.count : lhs.lexicographicallyPrecedes(rhs)
}

/// The greedy pass-based shrinker behind ``shrink(choices:maxSteps:replay:)``.
struct ChoiceShrinker {
    /// The smallest failing sequence so far.
    private(set) var current: [UInt64]
    /// Accepted candidates.
    private(set) var improvements = 0
    /// Calls to `replay`.
    private(set) var evaluations = 0
    private let maxEvaluations: Int
    private let replay: ([UInt64]) -> [UInt64]?
    private var tried: Set<[UInt64]> = []

    init(choices: [UInt64], maxEvaluations: Int, replay: @escaping ([UInt64]) -> [UInt64]?) {
        self.current = choices
        self.maxEvaluations = maxEvaluations
        self.replay = replay
    }

    private var hasBudget: Bool { evaluations < maxEvaluations }

    /// Runs all passes until a whole round improves nothing or the budget is spent.
    mutating func run() {
        while hasBudget {
            let before = current
            deleteChunks()
            zeroChunks()
            lowerValues()
            redistributeValues()
            swapNeighbours()
            if current == before { break }
        }
    }

    /// Tries `candidate`; if it is smaller and still fails, makes it (or what it consumed) current.
    @discardableResult
    private mutating func consider(_ candidate: [UInt64]) -> Bool {
        guard hasBudget, shortlexPrecedes(candidate, current), tried.insert(candidate).inserted else {
            return false
        }
        evaluations += 1
        guard let consumed = replay(candidate) else { return false }
        current = shortlexPrecedes(consumed, candidate) ? consumed : candidate
        improvements += 1
        return true
    }

    /// Deletes chunks of 8, 7, … 1 choices, scanning from the end toward the start.
    ///
    /// Every length up to 8 is tried, not only powers of two: an array element drawn as a
    /// "one more?" flag plus a two-draw integer spans three choices, and only deleting all three
    /// at once removes the element without garbling the ones after it.
    private mutating func deleteChunks() {
        for length in stride(from: 8, through: 1, by: -1) {
            var start = current.count - length
            while start >= 0, hasBudget {
                var candidate = current
                candidate.removeSubrange(start..<start + length)
                consider(candidate)
                start = Swift.min(start - 1, current.count - length)
            }
        }
    }

    /// Replaces chunks of 8, 4, 2 and 1 choices with zeros.
    private mutating func zeroChunks() {
        for length in [8, 4, 2, 1] {
            var start = current.count - length
            while start >= 0, hasBudget {
                if current[start..<start + length].contains(where: { $0 != 0 }) {
                    var candidate = current
                    candidate.replaceSubrange(start..<start + length, with: repeatElement(0, count: length))
                    consider(candidate)
                }
                start = Swift.min(start - 1, current.count - length)
            }
        }
    }

    /// Lowers each choice: tries 0, then binary-searches the smallest value that still fails.
    private mutating func lowerValues() {
        var index = 0
        while index < current.count, hasBudget {
            lowerValue(at: index)
            index += 1
        }
    }

    private mutating func lowerValue(at index: Int) {
        guard current[index] > 0, !consider(replacing(index, with: 0)) else { return }
        // Invariant: `low` passed (or was never a candidate), `current[index]` fails.
        var low: UInt64 = 0
        while index < current.count, hasBudget {
            let high = current[index]
            guard high > low + 1 else { return }
            let middle = low + (high - low) / 2
            if !consider(replacing(index, with: middle)) {
                low = middle
            }
        }
    }

    /// Moves value from a choice onto one of the next four choices: all of it, or as much as still fails.
    ///
    /// This turns `[5, 7]` into `[0, 12]`, keeping sums and similar totals, so that the zeroed
    /// choice can then be deleted. When moving everything passes (say the target would exceed its
    /// bound) but moving 1 still fails, a binary search finds the largest amount that still fails.
    private mutating func redistributeValues() {
        var index = 0
        while index < current.count, hasBudget {
            for target in index + 1..<Swift.min(index + 5, current.count) {
                guard index < current.count, target < current.count, current[index] > 0 else { break }
                if moveValue(from: index, to: target) { break }
            }
            index += 1
        }
    }

    /// Moves value from `source` to `target`; whether the whole value moved.
    private mutating func moveValue(from source: Int, to target: Int) -> Bool {
        let original = current
        func moving(_ amount: UInt64) -> [UInt64]? {
            let (sum, overflow) = original[target].addingReportingOverflow(amount)
            guard !overflow else { return nil }
            var candidate = original
            candidate[source] -= amount
            candidate[target] = sum
            return candidate
        }
        let value = original[source]
        if let all = moving(value), consider(all) { return true }
        guard value > 1, let one = moving(1), consider(one) else { return false }
        // Invariant: moving `low` fails (and is current), moving `high` does not fail.
        var low: UInt64 = 1
        var high = value
        while high - low > 1, hasBudget {
            let middle = low + (high - low) / 2
            guard let candidate = moving(middle) else {
                high = middle
                continue
            }
            if consider(candidate) {
                low = middle
                // A shorter replay changes the sequence's shape; the amounts no longer apply.
                guard current.count == original.count else { return false }
            } else {
                high = middle
            }
        }
        return false
    }

    /// Swaps adjacent choices that are out of order.
    private mutating func swapNeighbours() {
        var index = 0
        while index + 1 < current.count, hasBudget {
            if current[index] > current[index + 1] {
                var candidate = current
                candidate.swapAt(index, index + 1)
                consider(candidate)
            }
            index += 1
        }
    }

    private func replacing(_ index: Int, with value: UInt64) -> [UInt64] {
        var candidate = current
        candidate[index] = value
        return candidate
    }
}
