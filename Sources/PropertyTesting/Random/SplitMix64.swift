/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded generator, the same on every platform.
///
/// It seeds ``SeededGenerator``'s xoshiro state and derives per-case seeds; on its own it is the
/// generator for anything that must turn a seed into the same sequence everywhere (generated
/// flows, random test inputs). For property tests prefer ``SeededGenerator``.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = Int.random(in: 1...6, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The current state; it advances by the golden-ratio increment on every output.
    var state: UInt64

    /// A generator whose first output is `mix(seed &+ 0x9E3779B97F4A7C15)`.
    public init(seed: UInt64) { state = seed }

    /// Returns the next output and advances the state.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// The SplitMix64 finaliser: a bijective scramble of one word.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
