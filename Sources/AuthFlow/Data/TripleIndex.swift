/// Ids numbered 0, 1, 2… found by a key of three words, by open addressing with a multiplicative hash.
///
/// The session's decisions per frame (``SessionMoves``) and the checker's search over backs ask where a
/// frame is hundreds of thousands of times for a few thousand of them: a `Dictionary`'s seeded hashing
/// cost more than the rest of each question. Three rounds of multiply-and-xor mix the words, so keys
/// that differ in one word or in the low bits still spread; the slots stay at most half full.
///
/// ```swift
/// var index = TripleIndex()
/// index.insert(3, 0b101, 0)        // id 0
/// index.find(3, 0b101, 0)          // 0
/// index.find(3, 0b100, 0)          // nil
/// ```
@usableFromInline
package struct TripleIndex: Sendable {
    @usableFromInline var keys: [(UInt64, UInt64, UInt64)] = []
    /// Ids by slot (-1: empty), at most half full.
    @usableFromInline var slots = [Int32](repeating: -1, count: 64)

    package init() {}

    /// How many keys it holds: the id the next one gets.
    @inlinable package var count: Int { keys.count }

    /// How many slots it has (at least twice ``count``).
    package var slotCount: Int { slots.count }

    /// The slot the probe for key `(a, b, c)` starts at, of `mask + 1` (a power of two); the checker's configuration index
    /// probes by it too.
    @inlinable @inline(__always)
    package static func slot(_ a: UInt64, _ b: UInt64, _ c: UInt64, mask: Int) -> Int {
        var h = a &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ b) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ c) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: h ^ (h >> 31)) & mask
    }

    /// The id of the key `(a, b, c)`, or `nil`.
    @inlinable @inline(__always)
    package func find(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> Int32? {
        let mask = slots.count - 1
        var i = Self.slot(a, b, c, mask: mask)
        while true {
            let id = slots[i]
            if id < 0 { return nil }
            let key = keys[Int(id)]
            if key.0 == a && key.1 == b && key.2 == c { return id }
            i = (i + 1) & mask
        }
    }

    /// Gives the key `(a, b, c)`, which it does not hold, the next id (``count``).
    package mutating func insert(_ a: UInt64, _ b: UInt64, _ c: UInt64) {
        keys.append((a, b, c))
        if keys.count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            for (id, key) in keys.enumerated() { place(key.0, key.1, key.2, id: Int32(id)) }
        } else {
            place(a, b, c, id: Int32(keys.count - 1))
        }
    }

    /// Forgets every key, keeping the room it had.
    package mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        for i in slots.indices { slots[i] = -1 }
    }

    private mutating func place(_ a: UInt64, _ b: UInt64, _ c: UInt64, id: Int32) {
        let mask = slots.count - 1
        var i = Self.slot(a, b, c, mask: mask)
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = id
    }
}
