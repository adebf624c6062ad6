/// The stream of random choices a generator draws from: recorded from a seed, or replayed from a list.
///
/// Every generator in this module draws all of its randomness through a `ChoiceSource`, one bounded
/// integer at a time. In *recording* mode the choices come from a ``SeededGenerator`` and are written
/// down; in *replay* mode they are read back from a given `[UInt64]`. Shrinking edits the recorded
/// list (deleting, zeroing, lowering choices) and replays it, so a smaller list means a simpler value
/// whatever the generator does with it: 0 is always the simplest choice.
///
/// When a replayed value exceeds the bound of the draw that reads it, it is reduced modulo
/// `max + 1`. When the list runs out, every further draw returns 0 and ``isExhausted`` becomes true.
/// A recording source also stops drawing (returning 0) after ``maxChoices`` draws, so recursive
/// generators always terminate.
///
/// ```swift
/// var source = ChoiceSource(seed: 7, size: 20)
/// let index = source.draw(below: 3)            // recorded
/// var again = ChoiceSource(replaying: source.values, size: 20)
/// assert(again.draw(below: 3) == index)        // replayed
/// ```
public struct ChoiceSource: Sendable {
    /// One draw: the value chosen and the largest value it could have been.
    public struct Choice: Hashable, Sendable {
        /// The value drawn, in `0...max`.
        public var value: UInt64
        /// The inclusive upper bound of the draw.
        public var max: UInt64

        /// Creates a choice.
        public init(value: UInt64, max: UInt64) {
            self.value = value
            self.max = max
        }
    }

    private enum Mode: Sendable {
        case recording(SeededGenerator)
        case replaying([UInt64])
    }

    private var mode: Mode

    /// How large the values should be; generators such as ``Gen/array(of:)`` read it.
    ///
    /// ``forAll(_:cases:seed:maxShrinkSteps:_:)`` grows it from 0 to 100 over a run, so the first
    /// cases are small and the last ones large.
    public var size: Int

    /// The most draws this source makes before it returns only zeros.
    public let maxChoices: Int

    /// Every draw made so far, in order, with the value actually used (after any reduction).
    public private(set) var choices: [Choice] = []

    /// Whether a draw ran past the replayed list or past ``maxChoices`` and was answered with 0.
    public private(set) var isExhausted = false

    /// Creates a recording source drawing from `SeededGenerator(seed: seed)`.
    /// - Parameters:
    ///   - seed: the seed of the underlying generator.
    ///   - size: the size hint for sized generators.
    ///   - maxChoices: the most draws before the source answers only 0.
    public init(seed: UInt64, size: Int = 100, maxChoices: Int = 10_000) {
        self.mode = .recording(SeededGenerator(seed: seed))
        self.size = size
        self.maxChoices = maxChoices
    }

    /// Creates a source that replays `values`, then answers 0 once they run out.
    /// - Parameters:
    ///   - values: the choices to replay, usually the ``values`` of an earlier source.
    ///   - size: the size hint; use the size of the run that recorded `values`.
    ///   - maxChoices: the most draws before the source answers only 0.
    public init(replaying values: [UInt64], size: Int = 100, maxChoices: Int = 10_000) {
        self.mode = .replaying(values)
        self.size = size
        self.maxChoices = maxChoices
    }

    /// Whether this source replays a list rather than drawing fresh randomness.
    public var isReplaying: Bool {
        if case .replaying = mode { return true }
        return false
    }

    /// The values of ``choices``: the sequence that replays this run exactly.
    public var values: [UInt64] {
        choices.map(\.value)
    }

    /// Draws a value in `0...max`; 0 is the simplest choice and shrinking moves toward it.
    public mutating func draw(through max: UInt64) -> UInt64 {
        let value = nextValue(through: max) { generator in generator.draw(through: max) }
        choices.append(Choice(value: value, max: max))
        return value
    }

    /// Draws a value in `0..<n`; `n` must be positive.
    public mutating func draw(below n: UInt64) -> UInt64 {
        precondition(n > 0, "draw(below:) needs a positive bound")
        return draw(through: n - 1)
    }

    /// Draws a yes-or-no choice that is `true` with the given probability when recording.
    ///
    /// The choice is recorded as 1 (`true`) or 0 (`false`), so shrinking moves it toward `false`.
    /// Replay ignores `probability` and reads the recorded bit.
    public mutating func drawBool(probability: Double) -> Bool {
        let value = nextValue(through: 1) { generator in generator.bool(probability: probability) ? 1 : 0 }
        choices.append(Choice(value: value, max: 1))
        return value == 1
    }

    /// Draws an integer in `range`, which may be all of `Int.min...Int.max`; it shrinks toward 0.
    ///
    /// If `range` holds only values of one sign, one draw picks the distance from the bound nearest
    /// zero. If it holds both negative and non-negative values, a first draw picks the sign (1 =
    /// negative, weighted so every value is equally likely) and a second the magnitude; shrinking
    /// then lowers the magnitude without flipping the sign, and zeroes the sign on its own.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let lower = range.lowerBound
        let upper = range.upperBound
        if lower >= 0 {
            let width = UInt64(truncatingIfNeeded: upper &- lower)
            return lower &+ Int(truncatingIfNeeded: draw(through: width))
        }
        if upper < 0 {
            let width = UInt64(truncatingIfNeeded: upper &- lower)
            return upper &- Int(truncatingIfNeeded: draw(through: width))
        }
        let negatives = UInt64(truncatingIfNeeded: 0 &- lower)  // exact even for Int.min
        let nonNegatives = UInt64(upper) + 1
        let negativeShare = Double(negatives) / (Double(negatives) + Double(nonNegatives))
        if drawBool(probability: negativeShare) {
            let magnitude = draw(through: negatives - 1) + 1
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        return Int(truncatingIfNeeded: draw(through: nonNegatives - 1))
    }

    /// Returns the next raw value: from the generator, from the list (reduced), or 0 when exhausted.
    private mutating func nextValue(
        through max: UInt64,
        fresh: (inout SeededGenerator) -> UInt64
    ) -> UInt64 {
        let index = choices.count
        guard index < maxChoices else {
            isExhausted = true
            return 0
        }
        switch mode {
        case .recording(var generator):
            let value = fresh(&generator)
            mode = .recording(generator)
            return value
        case .replaying(let values):
            guard index < values.count else {
                isExhausted = true
                return 0
            }
            let value = values[index]
            return max == .max || value <= max ? value : value % (max + 1)
        }
    }
}
