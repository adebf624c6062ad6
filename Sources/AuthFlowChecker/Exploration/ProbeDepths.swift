/// The stack height at which the walk last probed each configuration: a `[Configuration: Int]` that hashes by one multiplication.
///
/// The walk asks it when a configuration's entry in the ``FrameTable`` does not know (``Walk/firstProbe(_:_:)``),
/// and it outlives an emptied table: open addressing with linear probing over a power of two, a
/// Fibonacci hash of the packed configuration, no `Hasher`. It only grows.
///
/// ```swift
/// var depths = ProbeDepths()
/// depths[Configuration(state: 3, keys: 0b101)] = 2
/// depths[Configuration(state: 3, keys: 0b101)]   // 2
/// ```
struct ProbeDepths {
    private var slots: [Configuration]
    /// Per slot: the height stored there, 0 for an empty slot (heights are at least 1).
    private var heights: [Int]
    private var count = 0

    init() {
        slots = Array(repeating: Configuration(state: 0, keys: 0), count: 64)
        heights = Array(repeating: 0, count: 64)
    }

    @inline(__always)
    private func start(_ configuration: Configuration) -> Int {
        let packed = (configuration.keys &+ (configuration.values &* 0xFF51_AFD7_ED55_8CCD))
            ^ (UInt64(UInt32(bitPattern: configuration.state)) << 40)
        return Int(truncatingIfNeeded: (packed &* 0x9E37_79B9_7F4A_7C15) >> 32) & (slots.count - 1)
    }

    /// The slot holding `configuration`, or the empty slot where it would go.
    @inline(__always)
    private func slot(of configuration: Configuration) -> Int {
        var i = start(configuration)
        while heights[i] != 0 && slots[i] != configuration { i = (i &+ 1) & (slots.count - 1) }
        return i
    }

    /// The height recorded for `configuration` (nil when none); setting nil is not supported: entries are never removed.
    subscript(configuration: Configuration) -> Int? {
        get {
            let i = slot(of: configuration)
            return heights[i] == 0 ? nil : heights[i]
        }
        set {
            guard let height = newValue else { preconditionFailure("a probe depth is never removed") }
            precondition(height > 0, "a probe depth is a stack height, at least 1")
            if (count + 1) * 2 > slots.count { grow() }
            let i = slot(of: configuration)
            if heights[i] == 0 { count += 1 }
            slots[i] = configuration
            heights[i] = height
        }
    }

    private mutating func grow() {
        let old = (slots, heights)
        slots = Array(repeating: Configuration(state: 0, keys: 0), count: old.0.count * 2)
        heights = Array(repeating: 0, count: old.0.count * 2)
        count = 0
        for (configuration, height) in zip(old.0, old.1) where height != 0 { self[configuration] = height }
    }
}
