import AuthFlow

/// The ids of configurations numbered in the order they were first met: an open-addressing ``TripleIndex`` over
/// `(state, keys, values)` instead of a `Dictionary`, whose seeded hashing was a quarter of the walk of a flow
/// with a hundred thousand configurations.
///
/// ```swift
/// var index = ConfigurationIndex()
/// index.append(Configuration(state: 2, keys: 0b11))   // id 0
/// index[Configuration(state: 2, keys: 0b11)]            // 0
/// ```
struct ConfigurationIndex: Sendable {
    private var ids = TripleIndex()

    /// How many configurations it holds: the id the next one gets.
    var count: Int { ids.count }

    /// The id of `configuration`, or `nil`.
    @inline(__always)
    subscript(configuration: Configuration) -> Int32? {
        ids.find(UInt64(UInt32(bitPattern: configuration.state)), configuration.keys, configuration.values)
    }

    /// Gives `configuration`, which it does not hold, the next id (``count``) and returns it.
    @discardableResult
    mutating func append(_ configuration: Configuration) -> Int32 {
        let id = Int32(ids.count)
        ids.insert(UInt64(UInt32(bitPattern: configuration.state)), configuration.keys, configuration.values)
        return id
    }

    /// Forgets every configuration, keeping the room it had.
    mutating func removeAll() { ids.removeAll() }
}
