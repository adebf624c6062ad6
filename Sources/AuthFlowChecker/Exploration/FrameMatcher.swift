import AuthFlow

/// A flow's keys as the walk reads and writes their values, in flat tables built once: where each
/// key's field lies in the packed values, and each valued key's domain, as text and as values.
///
/// One record per key, in memory the table owns (freed in `deinit`): the frame comparison after every push
/// and every undo reads a key's field and domain with one look, where four arrays cost four bounds checks.
/// Both the matcher and the walk's sender hold the one table.
final class FrameValueTable {
    /// Bits of the counters and of the valued keys.
    let counterBits: UInt64
    let valuedBits: UInt64
    /// Per key, its field and where its domain's texts are (the layout's own records).
    let fields: UnsafeMutableBufferPointer<DataLayout.Field>
    /// The domain texts of every valued key, one after another: key `k`'s value `i` is `texts[fields[k].start + i]`.
    let texts: [String]
    /// The same texts as values (sent as they are, and compared where the built-in runtime stores them).
    let textValues: UnsafeMutableBufferPointer<FlowValue>

    init(layout: DataLayout, keyCount: Int) {
        let keys = 0..<keyCount
        counterBits = keys.reduce(0) { layout.isCounter($1) ? $0 | 1 << UInt64($1) : $0 }
        valuedBits = keys.reduce(0) { layout.isValued($1) ? $0 | 1 << UInt64($1) : $0 }
        let texts = Array(layout.domains[..<keyCount].joined())
        self.texts = texts
        self.fields = .allocate(capacity: keyCount)
        _ = self.fields.initialize(from: layout.fields[..<keyCount])
        self.textValues = .allocate(capacity: texts.count)
        _ = self.textValues.initialize(from: texts.map(FlowValue.string))
    }

    deinit {
        fields.deallocate()
        textValues.deinitialize().deallocate()
    }

    /// Key `k`'s field in the packed `values`: a valued key's value index, a counter's count.
    @inline(__always) func field(_ k: Int, in values: UInt64) -> Int {
        fields[k].field(in: values)
    }

    /// Where valued key `k`'s value in the packed `values` is in ``texts`` and ``textValues`` (`nil` outside its domain).
    @inline(__always) func position(_ k: Int, in values: UInt64) -> Int? {
        let field = fields[k]
        let position = field.start &+ field.field(in: values)
        return position < field.end ? position : nil
    }
}

/// Whether the runtime is exactly at a frame of the model: state, history height (when read), and
/// the value of every data key, read through the driver's own API.
///
/// A presence key must hold the token the walk sent for it (``Walk``'s expected tokens), a
/// valued key the text of its value in the key's domain, a counter above 0 its count; no other key
/// may hold a value. The key layout is read from flat tables built once, and the matcher is a
/// reference, so the walk calls it at every node without copying anything.
final class FrameMatcher<Driver: FlowDriver> {
    let driver: Driver
    /// Whether the driver's history height is compared.
    let readsInternals: Bool
    /// The token each presence key must hold (-1: none), owned by the walk.
    let expected: UnsafeMutablePointer<Int>
    /// The keys' fields and domains.
    let table: FrameValueTable
    /// The built-in runtime's session when the driver is one: its data is compared where it is stored.
    let session: FlowSession<StateID, EventID, KeyID, FlowValue>?
    /// An app: compared in one call, which answers faster than key by key and compares in the app's own values.
    let app: ErasedAppDriver?
    /// Whether the flow has only presence keys.
    let presenceOnly: Bool
    /// What the runtime holds for a presence key an effect added (``FrameTable/presentText``).
    let present = FlowValue.string(FrameTable.presentText)

    init(table: FrameValueTable, driver: Driver, readsInternals: Bool, expected: UnsafeMutablePointer<Int>) {
        self.driver = driver
        self.readsInternals = readsInternals
        self.expected = expected
        self.table = table
        self.session = (driver as? SessionDriver)?.session
        self.presenceOnly = table.valuedBits | table.counterBits == 0
        self.app = !readsInternals ? driver as? ErasedAppDriver : nil
    }

    /// Whether the runtime is at `state`, with `height` frames of history (when read), holding exactly the data keys `data` with the frame's `values`.
    @inline(__always)
    func matches(state: Int32, values: UInt64, data: UInt64, height: Int) -> Bool {
        matches(state: state, values: values, data: data, count: data.nonzeroBitCount, height: height)
    }

    /// Whether the runtime is at the frame of table entry `entry`, with `height` frames of history (when read).
    @inline(__always)
    func matches(_ entry: FrameTable.Entry, height: Int) -> Bool {
        matches(state: entry.state, values: entry.values, data: entry.data, count: Int(entry.dataCount), height: height)
    }

    /// ``matches(state:values:data:height:)`` with the number of keys in `data` already counted.
    @inline(__always)
    func matches(state: Int32, values: UInt64, data: UInt64, count: Int, height: Int) -> Bool {
        if let app { return app.isAt(StateID(state), keys: KeySet(bits: data), values: UnsafePointer(expected), packed: values) }
        if driver.state.rawValue != state || (readsInternals && driver.height != height) || driver.dataCount != count {
            return false
        }
        return matchesData(values: values, bits: data)
    }

    /// Whether the runtime's values of the data keys `bits` equal the frame's `values` (the count is compared by the caller), without building the values.
    @inline(__always)
    func matchesData(values: UInt64, bits: UInt64) -> Bool {
        if let session { return sessionMatchesData(session, values: values, bits: bits) }
        if let app { return app.holds(KeySet(bits: bits), values: UnsafePointer(expected), packed: values) }
        var rest = bits
        while rest != 0 {
            let k = rest.trailingZeroBitCount
            rest &= rest &- 1
            let bit: UInt64 = 1 << UInt64(k)
            switch driver.value(of: KeyID(Int32(k))) {
            case let .int(number)?:
                if table.counterBits & bit != 0 {
                    if number != table.field(k, in: values) { return false }
                } else if table.valuedBits & bit != 0 || number != expected[k] {
                    return false
                }
            case let .string(text)? where table.valuedBits & bit == 0:
                // A presence key an effect added: the runtime holds the text the model shows for it.
                guard expected[k] == FrameTable.addedByEffect, text == FrameTable.presentText else { return false }
            case let .string(text)?:
                guard table.valuedBits & bit != 0, let position = table.position(k, in: values), text == table.texts[position] else { return false }
            default:
                return false
            }
        }
        return true
    }

    /// ``matchesData(values:bits:)`` for the built-in runtime: the same comparisons, each value compared where the session stores it.
    @inline(__always)
    func sessionMatchesData(_ session: FlowSession<StateID, EventID, KeyID, FlowValue>, values: UInt64, bits: UInt64) -> Bool {
        if presenceOnly {
            // Every key holds the token the walk sent (a flow with no valued keys or counters, every `/1` flow).
            var rest = bits
            while rest != 0 {
                let k = rest.trailingZeroBitCount
                rest &= rest &- 1
                let token = expected[k]
                // An integer is compared with no copy of a text value: building one per key cost a retain and a release.
                if token == FrameTable.addedByEffect {
                    guard session.dataHolds(present, for: KeyID(Int32(k))) else { return false }
                } else {
                    guard session.dataHolds(.int(token), for: KeyID(Int32(k))) else { return false }
                }
            }
            return true
        }
        var rest = bits
        while rest != 0 {
            let k = rest.trailingZeroBitCount
            rest &= rest &- 1
            let bit: UInt64 = 1 << UInt64(k)
            let key = KeyID(Int32(k))
            if table.valuedBits & bit != 0 {
                guard let position = table.position(k, in: values), session.dataHolds(table.textValues[position], for: key) else { return false }
            } else {
                let number = table.counterBits & bit != 0 ? table.field(k, in: values) : expected[k]
                if number == FrameTable.addedByEffect && table.counterBits & bit == 0 {
                    guard session.dataHolds(present, for: key) else { return false }
                } else {
                    guard session.dataHolds(.int(number), for: key) else { return false }
                }
            }
        }
        return true
    }
}
