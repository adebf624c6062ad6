/// The aggregated data of a flow (key → value), one frame per step, with exact undo.
///
/// Each ``push(_:)`` adds a frame: the values a step produced, overwriting earlier values of the
/// same keys. ``pop()`` removes the top frame and restores exactly the values (and absences) that
/// were there before it, however often a key was overwritten. Frames are stored as an undo log,
/// so a push costs O(keys in the frame) and allocates nothing once the stack has warmed up.
///
/// ```swift
/// var data = DataStack<String, FlowValue>()
/// data.push([("email", "a@b.c")])
/// data.push([("email", "x@y.z")])
/// try data.pop()      // data["email"] == "a@b.c" again
/// ```
public struct DataStack<Key: Hashable, Value: Equatable> {
    @usableFromInline var values: [Key: Value] = [:]
    @usableFromInline var log: [(key: Key, previous: Value?)] = []
    @usableFromInline var frameStarts: [Int] = []

    /// Creates an empty data stack (the root frame, with no data).
    public init() {}

    /// The aggregated data: every key's latest value.
    @inlinable public var current: [Key: Value] { values }

    /// The number of keys that have a value.
    @inlinable public var count: Int { values.count }

    /// The number of frames pushed above the root.
    @inlinable public var depth: Int { frameStarts.count }

    /// The latest value of `key`, or `nil` when no frame set it.
    @inlinable public subscript(key: Key) -> Value? { values[key] }

    /// Pushes a frame holding `entries`; later entries for the same key win within the frame.
    /// - Complexity: O(entries).
    @inlinable public mutating func push<S: Sequence>(_ entries: S) where S.Element == (Key, Value) {
        frameStarts.append(log.count)
        for (key, value) in entries {
            let previous = values.updateValue(value, forKey: key)
            log.append((key, previous))
        }
    }

    /// Pushes a frame setting each of `keys` to `value(key)`, without building an intermediate collection.
    @inlinable public mutating func push(keys: [Key], value: (Key) -> Value) {
        frameStarts.append(log.count)
        for key in keys {
            let previous = values.updateValue(value(key), forKey: key)
            log.append((key, previous))
        }
    }

    /// Pushes a frame holding the pairs of `entries`.
    @inlinable public mutating func push(_ entries: [Key: Value]) {
        push(entries.lazy.map { ($0.key, $0.value) })
    }

    /// Removes the top frame and restores exactly the data that was there before it.
    /// - Throws: ``DataStackError/nothingToPop`` at the root; nothing changes.
    /// - Complexity: O(entries in the frame).
    @inlinable public mutating func pop() throws(DataStackError) {
        guard let start = frameStarts.popLast() else { throw .nothingToPop }
        while log.count > start {
            let (key, previous) = log.removeLast()
            if let previous {
                values[key] = previous
            } else {
                values.removeValue(forKey: key)
            }
        }
    }

    /// The keys and values the frame at `index` (0 = first pushed) set, in push order.
    public func frame(at index: Int) -> [(key: Key, value: Value)] {
        guard index >= 0, index < frameStarts.count else { return [] }
        let start = frameStarts[index]
        let end = index + 1 < frameStarts.count ? frameStarts[index + 1] : log.count
        // The value a frame set is what the next write of that key (or the current data) holds.
        return (start..<end).map { position in
            let key = log[position].key
            if let later = log[(position + 1)...].first(where: { $0.key == key }) {
                return (key, later.previous!)
            }
            return (key, values[key]!)
        }
    }

    /// Removes every frame: back to the root with no data.
    public mutating func reset() {
        values.removeAll(keepingCapacity: true)
        log.removeAll(keepingCapacity: true)
        frameStarts.removeAll(keepingCapacity: true)
    }
}

/// Why a data stack refused a request.
public enum DataStackError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``DataStack/pop()`` at the root: there is no frame to remove.
    case nothingToPop

    public var description: String { "nothing to pop: the data stack is at its root" }
}
