/// The identity of one case of a run: the run's seed, the case's index and its size.
///
/// The choices of case `index` come from a seed derived from the run seed and the index alone, so
/// a case replays by itself with ``forAll(_:case:maxShrinkSteps:_:)``, without the cases before it.
public struct CaseID: Hashable, Sendable, CustomStringConvertible {
    /// The seed of the run the case belongs to.
    public var seed: UInt64
    /// The position of the case in its run, counting discarded cases.
    public var index: Int
    /// The size the case was generated with.
    public var size: Int

    /// Creates a case identity.
    public init(seed: UInt64, index: Int, size: Int) {
        self.seed = seed
        self.index = index
        self.size = size
    }

    /// The seed of this case's own ``SeededGenerator``: SplitMix64 of the run seed and the index.
    public var caseSeed: UInt64 {
        SplitMix64.mix(seed ^ SplitMix64.mix(UInt64(truncatingIfNeeded: index) &+ 0x9E37_79B9_7F4A_7C15))
    }

    /// Swift source that rebuilds this value, for replay instructions.
    public var description: String {
        "CaseID(seed: \(hexLiteral(seed)), index: \(index), size: \(size))"
    }
}

/// `0x` and 16 uppercase hexadecimal digits.
func hexLiteral(_ value: UInt64) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
}
