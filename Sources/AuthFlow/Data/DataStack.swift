/// The aggregated data of a flow (key → value), one frame per step, with exact undo.
///
/// Each ``push(_:)`` adds a frame: the values a step produced, overwriting earlier values of the
/// same keys. ``pop()`` removes the top frame and restores exactly the values (and absences) that
/// were there before it, however often a key was overwritten. Frames are stored as an undo log,
/// so a push costs O(keys in the frame) and allocates nothing once the stack has warmed up.
/// When `Key` is the model's ``KeyID``, the values live in an array indexed by key instead of a
/// dictionary, so reads and writes hash nothing; the behaviour is the same.
///
/// ```swift
/// var data = DataStack<String, FlowValue>()
/// data.push([("email", "a@b.c")])
/// data.push([("email", "x@y.z")])
/// try data.pop()      // data["email"] == "a@b.c" again
/// ```
public struct DataStack<Key: Hashable, Value: Equatable> {
    /// The aggregated data by key, unless ``dense``.
    @usableFromInline var values: [Key: Value] = [:]
    /// The aggregated data by key index, when ``dense``.
    @usableFromInline var denseValues: [Value?] = []
    /// How many keys have a value, when ``dense``.
    @usableFromInline var denseCount = 0
    /// Whether the values are kept in ``denseValues`` (keys are dense ids with small indices).
    @usableFromInline var dense: Bool
    /// The undo log: each frame's writes with the value each key had before, the frame's first at its ``frameStarts`` entry.
    /// Only the first ``logCount`` entries are live; the slots above them hold `nil` and are reused, so a pop removes nothing
    /// from the array (removing runs the element destructor through the runtime, one call per entry).
    @usableFromInline var log: [(key: Key, previous: Value?)] = []
    @usableFromInline var logCount = 0
    @usableFromInline var frameStarts: [Int] = []
    /// Keys set outside any frame's changes (``overwrite(_:with:)``, ``reset(keeping:)``): ``current`` lists them too when ``dense``.
    @usableFromInline var loose: [Key] = []

    /// Creates an empty data stack (the root frame, with no data).
    public init() {
        dense = _DenseIndex.applies(to: Key.self)
    }

    /// The aggregated data: every key's latest value.
    @inlinable public var current: [Key: Value] {
        guard dense else { return values }
        var result: [Key: Value] = [:]
        for entry in log[..<logCount] {
            if result[entry.key] == nil, let value = self[entry.key] { result[entry.key] = value }
        }
        for key in loose where result[key] == nil {
            if let value = self[key] { result[key] = value }
        }
        return result
    }

    /// The number of keys that have a value.
    @inlinable public var count: Int { dense ? denseCount : values.count }

    /// The number of frames pushed above the root.
    @inlinable public var depth: Int { frameStarts.count }

    /// The latest value of `key`, or `nil` when no frame set it.
    @inlinable public subscript(key: Key) -> Value? {
        if dense {
            guard let index = _DenseIndex.index(key), index < denseValues.count else { return nil }
            return denseValues[index]
        }
        return values[key]
    }

    /// Whether the value of `key` is `value`, compared where it is stored (nothing is copied out).
    @inlinable @inline(__always)
    package func holds(_ value: Value, for key: Key) -> Bool {
        if dense {
            guard let index = _DenseIndex.index(key), index < denseValues.count else { return false }
            switch denseValues[index] {
            case let stored?: return stored == value
            case nil: return false
            }
        }
        switch values[key] {
        case let stored?: return stored == value
        case nil: return false
        }
    }

    /// Sets `key` to `value` and returns the value it had.
    @inlinable @inline(__always)
    mutating func set(_ key: Key, to value: __owned Value?) -> Value? {
        if dense {
            if let index = _DenseIndex.index(key) {
                if index >= denseValues.count {
                    denseValues.append(contentsOf: repeatElement(nil, count: index + 1 - denseValues.count))
                }
                var slot = value
                let change = Self.exchange(&slot, &denseValues[index])
                denseCount &+= change
                return slot
            }
            leaveDenseMode()
        }
        if let value { return values.updateValue(value, forKey: key) }
        return values.removeValue(forKey: key)
    }

    /// Moves `value` into a key's dense `slot` and the slot's old value out into `value`, and returns what that does to ``denseCount``.
    ///
    /// The one rule for a dense slot, kept by ``set(_:to:)``, ``write(_:_:)`` and ``pop()``: a swap in place, so no value is
    /// copied or destroyed; the count gains one when a value arrives where there was none and loses one when a value leaves
    /// for none (−1, 0 or +1).
    @inlinable @inline(__always)
    static func exchange(_ value: inout Value?, _ slot: inout Value?) -> Int {
        let arriving = value != nil
        swap(&value, &slot)
        return (arriving ? 1 : 0) &- (value == nil ? 0 : 1)
    }

    /// Moves the values into the dictionary for good (a key id too large or negative for an array).
    @usableFromInline mutating func leaveDenseMode() {
        for key in log[..<logCount].map(\.key) + loose {
            if values[key] == nil, let value = self[key] { values[key] = value }
        }
        dense = false
        denseValues = []
        denseCount = 0
    }

    /// Pushes a frame holding `entries`; later entries for the same key win within the frame.
    /// - Complexity: O(entries).
    @inlinable public mutating func push<S: Sequence>(_ entries: S) where S.Element == (Key, Value) {
        frameStarts.append(logCount)
        for (key, value) in entries {
            let previous = set(key, to: value)
            appendLog(key, previous)
        }
    }

    /// Pushes a frame setting each of `keys` to `value(key)`, without building an intermediate collection.
    @inlinable @inline(__always) public mutating func push(keys: [Key], value: (Key) -> Value) {
        frameStarts.append(logCount)
        for key in keys {
            let previous = set(key, to: value(key))
            appendLog(key, previous)
        }
    }

    /// Starts a frame that ``write(_:_:)`` fills: a push without building a list of changes first.
    @inlinable @inline(__always) public mutating func beginFrame() {
        frameStarts.append(logCount)
    }

    /// Sets `key` to `value`, or removes it for `nil`, in the frame ``beginFrame()`` started; ``pop()`` restores it.
    @inlinable @inline(__always) public mutating func write(_ key: Key, _ value: __owned Value?) {
        if dense, let index = _DenseIndex.index(key), value == nil, index >= denseValues.count || denseValues[index] == nil {
            // A key that stays absent changes nothing, so nothing is logged: neither this write nor the frame's pop moves a
            // value (a runtime clears every key a move may change, most of them already absent). What the stack answers is
            // the same, ``frame(at:)`` included: a frame lists no key it left absent.
            return
        }
        if dense, logCount < log.count, let index = _DenseIndex.index(key), index < denseValues.count {
            // Both slots exist: the new value moves into the key's slot, the old one into the log's reused slot (whose
            // `nil` comes out), each by a swap in place: no value copied or destroyed.
            var moving = value
            let change = denseValues.withUnsafeMutableBufferPointer { Self.exchange(&moving, &$0[index]) }
            denseCount &+= change
            let slot = logCount
            log.withUnsafeMutableBufferPointer { entries in
                entries[slot].key = key
                swap(&entries[slot].previous, &moving)
            }
            logCount &+= 1
            return
        }
        let previous = set(key, to: value)
        appendLog(key, previous)
    }

    /// Logs that `key` held `previous` before the top frame wrote it.
    @inlinable @inline(__always) mutating func appendLog(_ key: Key, _ previous: __owned Value?) {
        if logCount < log.count { log[logCount] = (key, previous) } else { log.append((key, previous)) }
        logCount &+= 1
    }

    /// Pushes a frame holding the pairs of `entries`.
    @inlinable public mutating func push(_ entries: [Key: Value]) {
        push(entries.lazy.map { ($0.key, $0.value) })
    }

    /// Removes the top frame and restores exactly the data that was there before it.
    /// - Throws: ``DataStackError/nothingToPop`` at the root; nothing changes.
    /// - Complexity: O(entries in the frame).
    @inlinable @inline(__always) public mutating func pop() throws(DataStackError) {
        if frameStarts.isEmpty { throw .nothingToPop }
        let start = frameStarts.removeLast()
        let end = logCount
        logCount = start
        guard end > start else { return }
        if dense {
            // Every key in the log was set in dense mode, so it has a slot: swap the old value back in, drop the new one.
            var change = 0
            log.withUnsafeMutableBufferPointer { entries in
                denseValues.withUnsafeMutableBufferPointer { slots in
                    var i = end
                    while i > start {
                        i &-= 1
                        guard let index = _DenseIndex.index(entries[i].key), index < slots.count else { continue }
                        change &+= Self.exchange(&entries[i].previous, &slots[index])
                        entries[i].previous = nil
                    }
                }
            }
            denseCount &+= change
            return
        }
        var i = end
        while i > start {
            i -= 1
            let (key, previous) = log[i]
            log[i].previous = nil
            _ = set(key, to: previous)
        }
    }

    /// The keys and values the frame at `index` (0 = first pushed) set, in push order (keys it cleared left out).
    public func frame(at index: Int) -> [(key: Key, value: Value)] {
        guard index >= 0, index < frameStarts.count else { return [] }
        let start = frameStarts[index]
        let end = index + 1 < frameStarts.count ? frameStarts[index + 1] : logCount
        // The value a frame set is what the next write of that key (or the current data) holds.
        return (start..<end).compactMap { position in
            let key = log[position].key
            if let later = log[(position + 1)..<logCount].first(where: { $0.key == key }) {
                return later.previous.map { (key, $0) }
            }
            return self[key].map { (key, $0) }
        }
    }

    /// Sets `key` to `value` (removes it for `nil`) outside any frame's changes: what the user's back carries over
    /// (section 5's server-side keys), which no later pop undoes by itself.
    @usableFromInline package mutating func overwrite(_ key: Key, with value: Value?) {
        if dense && value != nil && !loose.contains(key) { loose.append(key) }
        _ = set(key, to: value)
    }

    /// Removes every frame: back to the root, holding only `entries` (what a reset row keeps), which no pop removes.
    @usableFromInline package mutating func reset<S: Sequence>(keeping entries: S) where S.Element == (Key, Value) {
        reset()
        for (key, value) in entries {
            if dense && !loose.contains(key) { loose.append(key) }
            _ = set(key, to: value)
        }
    }

    /// Removes every frame: back to the root with no data.
    public mutating func reset() {
        values.removeAll(keepingCapacity: true)
        for index in denseValues.indices { denseValues[index] = nil }
        denseCount = 0
        log.removeAll(keepingCapacity: true)
        logCount = 0
        frameStarts.removeAll(keepingCapacity: true)
        loose.removeAll(keepingCapacity: true)
    }
}

/// Why a data stack refused a request.
public enum DataStackError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``DataStack/pop()`` at the root: there is no frame to remove.
    case nothingToPop

    public var description: String { "nothing to pop: the data stack is at its root" }
}
