/// SplitMix64 (Steele, Lea and Flood, 2014): seeds xoshiro and derives per-case seeds.
struct SplitMix64: Sendable {
    /// The current state; it advances by the golden-ratio increment on every output.
    var state: UInt64

    /// Returns the next output and advances the state.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// The SplitMix64 finaliser: a bijective scramble of one word.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
