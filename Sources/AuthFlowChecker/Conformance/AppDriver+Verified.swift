import AuthFlow

extension AppDriver {
    /// The app's data found to match a frame: the dictionary itself (kept, so the app cannot change its storage in
    /// place: a change copies it), that storage's address, and the frame it matched.
    ///
    /// A refused event or the walk's probes leave the app's dictionary as it was, and a back or
    /// undo that restores a saved dictionary gives back the very storage matched at that height
    /// before: comparing its address and the frame replaces comparing every key. An app whose
    /// `data` builds a new dictionary per call never hits, and pays one address compare.
    @usableFromInline struct Verified {
        @usableFromInline var data: [Flow.Key: Flow.Value]
        @usableFromInline var storage: UInt
        @usableFromInline var keys: UInt64
        @usableFromInline var packed: UInt64

        @inlinable init(data: [Flow.Key: Flow.Value], storage: UInt, keys: UInt64, packed: UInt64) {
            self.data = data
            self.storage = storage
            self.keys = keys
            self.packed = packed
        }
    }

    /// The address of `data`'s storage, where a dictionary is one reference (nil elsewhere: nothing is then remembered).
    @inlinable @inline(__always)
    static func storage(of data: [Flow.Key: Flow.Value]) -> UInt? {
        guard MemoryLayout<[Flow.Key: Flow.Value]>.size == MemoryLayout<UInt>.size else { return nil }
        return withUnsafeBytes(of: data) { $0.load(as: UInt.self) }
    }

    /// Whether `data` is the dictionary that matched the frame `expected` (with `values` and `packed`) at `height`.
    @inlinable @inline(__always)
    func isVerified(_ data: [Flow.Key: Flow.Value], height: Int, _ expected: KeySet, values: UnsafePointer<Int>, packed: UInt64) -> Bool {
        guard height < verified.count, let known = verified[height], let storage = Self.storage(of: data),
              known.storage == storage, known.keys == expected.bits, known.packed == packed else { return false }
        let base = height &* tables.model.keys.count
        for key in expected where verifiedTokens[base &+ key.index] != values[key.index] { return false }
        return true
    }

    /// Remembers that `data` matched the frame `expected` at `height`.
    @inlinable
    func verify(_ data: [Flow.Key: Flow.Value], height: Int, _ expected: KeySet, values: UnsafePointer<Int>, packed: UInt64) {
        guard let storage = Self.storage(of: data) else { return }
        let keyCount = tables.model.keys.count
        if height >= verified.count {
            verified.append(contentsOf: repeatElement(nil, count: height + 1 - verified.count))
            verifiedTokens.append(contentsOf: repeatElement(0, count: (height + 1) * keyCount - verifiedTokens.count))
        }
        let base = height &* keyCount
        for key in expected { verifiedTokens[base &+ key.index] = values[key.index] }
        verified[height] = Verified(data: data, storage: storage, keys: expected.bits, packed: packed)
    }
}
