import AuthFlow

/// The ids of configurations numbered in the order they were first met, and the configurations by id: open addressing
/// over the list it keeps instead of a `Dictionary`, whose seeded hashing was a quarter of the walk of a flow with a
/// hundred thousand configurations.
///
/// The slots hold ids only and the configurations are kept once, in ``configurations``, which a
/// ``ConfigurationGraph`` lists as its own: a separate key store (a ``TripleIndex``) held every configuration a second
/// time, 3 MB of the 121,824 configurations of an authenticator with every factor.
///
/// ```swift
/// var index = ConfigurationIndex()
/// index.append(Configuration(state: 2, keys: 0b11))   // id 0
/// index[Configuration(state: 2, keys: 0b11)]            // 0
/// index.configurations[0]                               // Configuration(state: 2, keys: 0b11)
/// ```
struct ConfigurationIndex: Sendable {
    /// The configurations by id.
    private(set) var configurations: [Configuration] = []
    /// Ids by slot (-1: empty), at most half full.
    private var slots = [Int32](repeating: -1, count: 64)

    /// How many configurations it holds: the id the next one gets.
    var count: Int { configurations.count }

    /// The slot `configuration`'s probe starts at: ``TripleIndex``'s hash of its three words.
    @inline(__always)
    private static func slot(_ configuration: Configuration, mask: Int) -> Int {
        TripleIndex.slot(UInt64(UInt32(bitPattern: configuration.state)), configuration.keys, configuration.values, mask: mask)
    }

    /// The id of `configuration`, or `nil`.
    @inline(__always)
    subscript(configuration: Configuration) -> Int32? {
        let mask = slots.count - 1
        var i = Self.slot(configuration, mask: mask)
        while true {
            let id = slots[i]
            if id < 0 { return nil }
            let known = configurations[Int(id)]
            if known.state == configuration.state && known.keys == configuration.keys && known.values == configuration.values { return id }
            i = (i + 1) & mask
        }
    }

    /// Gives `configuration`, which it does not hold, the next id (``count``) and returns it.
    @discardableResult
    mutating func append(_ configuration: Configuration) -> Int32 {
        let id = Int32(configurations.count)
        configurations.append(configuration)
        if configurations.count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            for (id, known) in configurations.enumerated() { place(known, id: Int32(id)) }
        } else {
            place(configuration, id: id)
        }
        return id
    }

    /// Forgets every configuration, keeping the room it had.
    mutating func removeAll() {
        configurations.removeAll(keepingCapacity: true)
        for i in slots.indices { slots[i] = -1 }
    }

    private mutating func place(_ configuration: Configuration, id: Int32) {
        let mask = slots.count - 1
        var i = Self.slot(configuration, mask: mask)
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = id
    }
}
