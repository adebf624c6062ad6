/// Names interned by their UTF-8 bytes: a record's state, event or key name to its dense id, with no `String` made.
///
/// Open addressing with linear probing over a power-of-two table at most half full; a look-up
/// hashes the bytes once and compares them with the candidates'.
/// - Complexity: O(length of the name) per look-up.
struct TraceNameTable {
    private var names: [[UInt8]] = []
    private var slots: [Int32]
    private let mask: Int

    /// A table of `names`, each getting its index as its id.
    init(_ names: [String]) {
        var size = 8
        while size < names.count * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        for (index, name) in names.enumerated() {
            let bytes = Array(name.utf8)
            self.names.append(bytes)
            var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    /// The id of the name in `bytes`, or -1 when the table has no such name.
    @inline(__always)
    func id(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
        while true {
            let candidate = slots[slot]
            if candidate < 0 { return -1 }
            let name = names[Int(candidate)]
            if name.count == bytes.count && name.withUnsafeBufferPointer({ memcmpEqual($0, bytes) }) { return candidate }
            slot = (slot + 1) & mask
        }
    }

    /// The id of `name`, or -1.
    func id(_ name: String) -> Int32 {
        var name = name
        return name.withUTF8 { id($0) }
    }

    /// FNV-1a over the bytes, then mixed so the low bits spread.
    @inline(__always)
    static func hash<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return h ^ (h >> 29)
    }
}

/// Whether two buffers hold the same bytes (names are short: compared in place, longer ones with `memcmp`).
@inline(__always)
func memcmpEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    if a.count == 0 { return true }
    if a.count <= 16 {
        for k in 0..<a.count where a[k] != b[k] { return false }
        return true
    }
    return memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
