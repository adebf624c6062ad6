/// A seedable random number generator whose outputs for a given seed never change between toolchains.
///
/// `SeededGenerator` runs xoshiro256** (Blackman and Vigna, 2018) from a state filled by SplitMix64,
/// so every `UInt64`, including 0, is a good seed. Its mappings from raw bits to ranges are defined
/// here rather than borrowed from the standard library, whose `random(in:using:)` algorithms may
/// change between releases: a seed written in a bug report today replays the same values tomorrow.
///
/// ```swift
/// var generator = SeededGenerator(seed: 42)
/// let die = generator.int(in: 1...6)
/// let coin = generator.bool(probability: 0.5)
/// ```
public struct SeededGenerator: RandomNumberGenerator, Hashable, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Creates a generator whose whole output is determined by `seed`.
    ///
    /// The four words of xoshiro256** state are the first four outputs of SplitMix64 started at
    /// `seed`, as the xoshiro authors recommend.
    public init(seed: UInt64) {
        var splitMix = SplitMix64(seed: seed)
        s0 = splitMix.next()
        s1 = splitMix.next()
        s2 = splitMix.next()
        s3 = splitMix.next()
    }

    /// Creates a generator from raw xoshiro256** state, for checking against the reference vectors.
    init(state: (UInt64, UInt64, UInt64, UInt64)) {
        precondition(state != (0, 0, 0, 0), "xoshiro256** state must not be all zero")
        (s0, s1, s2, s3) = state
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, by: 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, by: 45)
        return result
    }

    /// Returns a uniformly distributed value in `0..<n`.
    ///
    /// Uses Lemire's multiply-and-shift method with rejection ("Fast Random Integer Generation in an
    /// Interval", 2019), so there is no modulo bias; it consumes one word except on rare rejections.
    ///
    /// - Parameter n: the exclusive upper bound; must be positive.
    public mutating func draw(below n: UInt64) -> UInt64 {
        precondition(n > 0, "draw(below:) needs a positive bound")
        var product = next().multipliedFullWidth(by: n)
        if product.low < n {
            let threshold = (0 &- n) % n
            while product.low < threshold {
                product = next().multipliedFullWidth(by: n)
            }
        }
        return product.high
    }

    /// Returns a uniformly distributed value in `0...max`; `max` may be `UInt64.max`.
    public mutating func draw(through max: UInt64) -> UInt64 {
        max == .max ? next() : draw(below: max + 1)
    }

    /// Returns a uniformly distributed integer in `range`, which may be all of `Int.min...Int.max`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        // The true width always fits in a UInt64; the wrapping subtraction yields its bit pattern.
        let width = UInt64(truncatingIfNeeded: range.upperBound &- range.lowerBound)
        return range.lowerBound &+ Int(truncatingIfNeeded: draw(through: width))
    }

    /// Returns a uniformly distributed `Double` in `0..<1` with 53 random bits.
    public mutating func double01() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Returns `true` with the given probability; always consumes exactly one word.
    ///
    /// - Parameter probability: the chance of `true`; 0 or less never, 1 or more always.
    public mutating func bool(probability: Double = 0.5) -> Bool {
        double01() < probability
    }

    public static func == (lhs: SeededGenerator, rhs: SeededGenerator) -> Bool {
        (lhs.s0, lhs.s1, lhs.s2, lhs.s3) == (rhs.s0, rhs.s1, rhs.s2, rhs.s3)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(s0)
        hasher.combine(s1)
        hasher.combine(s2)
        hasher.combine(s3)
    }
}

@inline(__always)
private func rotateLeft(_ x: UInt64, by k: UInt64) -> UInt64 {
    (x << k) | (x >> (64 - k))
}
