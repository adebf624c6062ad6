/// How a frame holds a flow's data in two words: one bit per present key, and the values packed.
///
/// `keys` has bit `k` set when key `k` is present (a presence key, or a valued key that has a
/// value); counters are always defined and have no presence bit. `values` holds, for each valued
/// key, the index of its value in the key's domain, and for each counter its count, each in a field
/// of its own (``shift`` and ``width``). A `/1` flow has only presence keys, so its `values` is
/// always 0 and its frames are exactly the `/1` key sets.
///
/// - Complexity: reading or writing one key is O(1) bit arithmetic.
@usableFromInline package struct DataLayout: Hashable, Sendable {
    /// What a key holds.
    @usableFromInline package enum Kind: Hashable, Sendable {
        /// Absent or present.
        case presence
        /// Absent, or one of `count` values (indices into the key's domain).
        case valued(count: Int)
        /// A count from 0 to `max`.
        case counter(max: Int)
    }

    /// Per key: what it holds.
    @usableFromInline package let kinds: [Kind]
    /// Per key: the domain of a valued key (empty for the others).
    @usableFromInline package let domains: [[String]]
    /// Per key: where its field starts in `values` (0 for presence keys).
    @usableFromInline package let shift: [UInt8]
    /// Per key: the width of its field in bits (0 for presence keys).
    @usableFromInline package let width: [UInt8]
    /// Per key: whether it is a configuration key (read-only, fixed per variant).
    package let isConfig: [Bool]
    /// The presence bits of the configuration keys: a frame's data shows them in its variant, not in its data.
    package let configKeys: UInt64
    /// The fields of the configuration keys in `values`.
    package let configValues: UInt64
    /// Section 5: per key, whether it is server-side (the user's back and a reset leave it as it is).
    package let isServer: [Bool]
    /// The presence bits and the fields in `values` of the server-side keys: what back carries over from the frame it leaves.
    @usableFromInline package let serverKeys: UInt64
    @usableFromInline package let serverValues: UInt64
    /// Whether some key is server-side: then back can reach configurations no forward move reaches.
    package let hasServerKeys: Bool
    /// Per key: its field and where its domain's values lie among every domain's values one after another
    /// (`domains.joined()`): what the runtime and the walk read per key, one record each.
    @usableFromInline package let fields: [Field]

    /// Where a key's field lies in a frame's packed values, and where its domain's values are in `domains.joined()`.
    @usableFromInline package struct Field: Hashable, Sendable {
        /// The field's first bit (below 64), and the mask of its width (0 for a presence key).
        @usableFromInline package let shift: UInt64
        @usableFromInline package let mask: UInt64
        /// A valued key's values are `start ..< end` (empty for other keys).
        @usableFromInline package let start: Int
        @usableFromInline package let end: Int
        /// The key's field in the packed `values`: a valued key's value index, a counter's count.
        @inlinable @inline(__always) package func field(in values: UInt64) -> Int {
            Int(truncatingIfNeeded: (values &>> shift) & mask)
        }
    }

    /// The most bits the valued keys and counters of one flow may take together.
    package static let valueBits = 64

    /// A layout for keys of these kinds; `nil` when their fields need more than ``valueBits`` bits.
    package init?(kinds: [Kind], domains: [[String]], isConfig: [Bool], isServer: [Bool] = []) {
        var shift: [UInt8] = []
        var width: [UInt8] = []
        var used = 0
        for kind in kinds {
            let bits: Int
            switch kind {
            case .presence: bits = 0
            case let .valued(count): bits = Self.bits(for: count - 1)
            case let .counter(max): bits = Self.bits(for: max)
            }
            shift.append(UInt8(bits == 0 ? 0 : used))
            width.append(UInt8(bits))
            used += bits
        }
        guard used <= Self.valueBits else { return nil }
        self.kinds = kinds
        self.domains = domains
        self.shift = shift
        self.width = width
        self.isConfig = isConfig
        var configKeys: UInt64 = 0, configValues: UInt64 = 0
        for k in isConfig.indices where isConfig[k] {
            configKeys |= 1 << UInt64(k)
            configValues |= width[k] == 0 ? 0 : ((1 << UInt64(width[k])) - 1) << UInt64(shift[k])
        }
        self.configKeys = configKeys
        self.configValues = configValues
        self.isServer = kinds.indices.map { isServer.indices.contains($0) && isServer[$0] }
        var serverKeys: UInt64 = 0, serverValues: UInt64 = 0
        for k in self.isServer.indices where self.isServer[k] {
            serverKeys |= 1 << UInt64(k)
            serverValues |= width[k] == 0 ? 0 : ((1 << UInt64(width[k])) - 1) << UInt64(shift[k])
        }
        self.serverKeys = serverKeys
        self.serverValues = serverValues
        self.hasServerKeys = self.isServer.contains(true)
        var fields: [Field] = [], start = 0
        for k in kinds.indices {
            fields.append(Field(shift: UInt64(shift[k]), mask: width[k] == 0 ? 0 : (1 << UInt64(width[k])) - 1,
                                start: start, end: start + domains[k].count))
            start += domains[k].count
        }
        self.fields = fields
    }

    /// The frame below `(keys, values)` as back leaves it: its client-side data, with the server-side data of the frame
    /// back leaves (`serverKeys`, `serverValues`), which back never undoes.
    @inline(__always) @inlinable package func back(to keys: UInt64, _ values: UInt64, server fromKeys: UInt64, _ fromValues: UInt64)
        -> (keys: UInt64, values: UInt64) {
        ((keys & ~serverKeys) | (fromKeys & serverKeys), (values & ~serverValues) | (fromValues & serverValues))
    }

    /// The bits a field holding 0…`maximum` needs.
    static func bits(for maximum: Int) -> Int {
        maximum <= 0 ? 1 : Int.bitWidth - maximum.leadingZeroBitCount
    }

    /// The bits the valued keys and counters of these kinds need together.
    package static func bitsNeeded(_ kinds: [Kind]) -> Int {
        kinds.reduce(0) { total, kind in
            switch kind {
            case .presence: return total
            case let .valued(count): return total + bits(for: count - 1)
            case let .counter(max): return total + bits(for: max)
            }
        }
    }

    /// The mask of key `k`'s field in `values`.
    @inline(__always) @inlinable package func mask(_ k: Int) -> UInt64 {
        width[k] == 0 ? 0 : ((1 << UInt64(width[k])) - 1) << UInt64(shift[k])
    }

    /// Key `k`'s field: a valued key's value index, or a counter's count.
    @inline(__always) @inlinable package func field(_ k: Int, in values: UInt64) -> Int {
        Int((values & mask(k)) >> UInt64(shift[k]))
    }

    /// `values` with key `k`'s field set to `value`.
    @inline(__always) @inlinable package func setting(_ k: Int, to value: Int, in values: UInt64) -> UInt64 {
        (values & ~mask(k)) | (UInt64(value) << UInt64(shift[k]) & mask(k))
    }

    /// Whether key `k` is a counter.
    @inlinable package func isCounter(_ k: Int) -> Bool {
        if case .counter = kinds[k] { return true }
        return false
    }

    /// Whether key `k` is valued.
    @inlinable package func isValued(_ k: Int) -> Bool {
        if case .valued = kinds[k] { return true }
        return false
    }

    /// Where a frame holds one key, read with no lookup in the layout: for loops that compare keys across frames.
    package struct KeyCode: Sendable {
        let bit: UInt64
        let shift: UInt64
        let mask: UInt64
        let isCounter: Bool

        /// The key's code in a frame: 0 absent (a counter at 0), 1 a present presence key, a valued key's value
        /// index + 1, a counter's count.
        @inline(__always) package func code(keys: UInt64, values: UInt64) -> Int {
            if mask == 0 { return keys & bit != 0 ? 1 : 0 }
            let field = Int((values >> shift) & mask)
            if isCounter { return field }
            return keys & bit != 0 ? field + 1 : 0
        }
    }

    /// Where a frame holds key `k`.
    package func keyCode(_ k: Int) -> KeyCode {
        KeyCode(bit: 1 << UInt64(k), shift: UInt64(shift[k]),
                mask: width[k] == 0 ? 0 : (1 << UInt64(width[k])) - 1, isCounter: isCounter(k))
    }

    /// Whether the flow has only presence keys (every `/1` flow).
    package var presenceOnly: Bool { width.allSatisfy { $0 == 0 } }

    /// Key `k`'s value as a report shows it, or `nil` when absent: a valued key's value, a counter's count, `present`.
    @usableFromInline package func shown(_ k: Int, keys: UInt64, values: UInt64) -> String? {
        switch kinds[k] {
        case .counter: return String(field(k, in: values))
        case .valued:
            guard keys & (1 << UInt64(k)) != 0 else { return nil }
            let index = field(k, in: values)
            return index < domains[k].count ? domains[k][index] : "?"
        case .presence:
            return keys & (1 << UInt64(k)) != 0 ? "present" : nil
        }
    }
}
