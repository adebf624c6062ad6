/// The aggregated data of a flow (key → value), one frame per step, with exact undo.
///
/// Each ``push(_:)`` adds a frame: the values a step produced, overwriting earlier values of the
/// same keys. ``pop()`` removes the top frame and restores exactly the values (and absences) that
/// were there before it, however often a key was overwritten. Frames are stored as an undo log,
/// so a push costs O(keys in the frame) and allocates nothing once the stack has warmed up.
/// When `Key` is the model's ``KeyID``, the values live in slots indexed by key instead of a
/// dictionary, so reads and writes hash nothing; the behaviour is the same. The slots, the log and
/// the frame starts are one block of memory the stack owns: a copy of the stack shares it until one
/// of the two changes, and a change checks that once (a checker sends and undoes millions of steps).
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
    /// Whether the values are kept in the buffers' slots by key index (keys are dense ids with small indices).
    @usableFromInline var dense: Bool
    /// The slots, the undo log and the frame starts, in memory the stack owns: shared by copies of the stack until
    /// one of them changes (copy on write), with one check of that per change instead of one per array touched.
    @usableFromInline var buffers: _DataBuffers<Key, Value>
    /// Keys set outside any frame's changes (``overwrite(_:with:)``, ``reset(keeping:)``): ``current`` lists them too when ``dense``.
    @usableFromInline var loose: [Key] = []

    /// Creates an empty data stack (the root frame, with no data).
    public init() {
        dense = _DenseIndex.applies(to: Key.self)
        buffers = _DataBuffers()
    }

    /// The buffers for reading.
    @inlinable var stored: _DataContents<Key, Value> {
        @inline(__always) _read { yield buffers.contents.pointee }
    }

    /// The buffers for a change, copied first when another stack shares them.
    @inlinable var mutableContents: UnsafeMutablePointer<_DataContents<Key, Value>> {
        @inline(__always) mutating get {
            if !isKnownUniquelyReferenced(&buffers) { buffers = _DataBuffers(copying: buffers) }
            return buffers.contents
        }
    }

    /// The aggregated data: every key's latest value.
    @inlinable public var current: [Key: Value] {
        guard dense else { return values }
        var result: [Key: Value] = [:]
        let c = buffers.contents
        for position in 0..<c.pointee.log.count {
            let key = c.pointee.log[position].key
            if result[key] == nil, let value = self[key] { result[key] = value }
        }
        for key in loose where result[key] == nil {
            if let value = self[key] { result[key] = value }
        }
        return result
    }

    /// The number of keys that have a value.
    @inlinable public var count: Int { dense ? stored.denseCount : values.count }

    /// The number of frames pushed above the root.
    @inlinable public var depth: Int { stored.frameStarts.count }

    /// The latest value of `key`, or `nil` when no frame set it.
    @inlinable public subscript(key: Key) -> Value? {
        if dense {
            guard let index = _DenseIndex.index(key), index < stored.slotCount else { return nil }
            return stored.slots[index]
        }
        return values[key]
    }

    /// Whether the value of `key` is `value`, compared where it is stored (nothing is copied out).
    @inlinable @inline(__always)
    package func holds(_ value: Value, for key: Key) -> Bool {
        if dense {
            let c = buffers.contents
            guard let index = _DenseIndex.index(key), index < c.pointee.slotCount else { return false }
            switch c.pointee[slot: index] {
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
                let c = mutableContents
                if index >= c.pointee.slotCount { c.pointee.growSlots(to: index + 1) }
                var slot = value
                c.pointee.denseCount &+= Self.exchange(&slot, &c.pointee.slots[index])
                return slot
            }
            leaveDenseMode()
        }
        if let value { return values.updateValue(value, forKey: key) }
        return values.removeValue(forKey: key)
    }

    /// Moves `value` into a key's dense `slot` and the slot's old value out into `value`, and returns what that does to the count.
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
        let c = mutableContents
        var keys = (0..<c.pointee.log.count).map { c.pointee.log[$0].key }
        keys += loose
        for key in keys {
            if values[key] == nil, let value = self[key] { values[key] = value }
        }
        dense = false
        c.pointee.clearSlots()
    }

    /// Pushes a frame holding `entries`; later entries for the same key win within the frame.
    /// - Complexity: O(entries).
    @inlinable public mutating func push<S: Sequence>(_ entries: S) where S.Element == (Key, Value) {
        beginFrame()
        for (key, value) in entries {
            let previous = set(key, to: value)
            appendLog(key, previous)
        }
    }

    /// Pushes a frame setting each of `keys` to `value(key)`, without building an intermediate collection.
    @inlinable @inline(__always) public mutating func push(keys: [Key], value: (Key) -> Value) {
        beginFrame()
        for key in keys {
            let previous = set(key, to: value(key))
            appendLog(key, previous)
        }
    }

    /// Starts a frame that ``write(_:_:)`` fills: a push without building a list of changes first.
    @inlinable @inline(__always) public mutating func beginFrame() {
        let c = mutableContents
        c.pointee.frameStarts.append(c.pointee.log.count)
    }

    /// Sets `key` to `value`, or removes it for `nil`, in the frame ``beginFrame()`` started; ``pop()`` restores it.
    @inlinable @inline(__always) public mutating func write(_ key: Key, _ value: __owned Value?) {
        if dense, let index = _DenseIndex.index(key) {
            if value == nil {
                // A key that stays absent changes nothing, so nothing is logged: neither this write nor the frame's pop
                // moves a value (a runtime clears every key a move may change, most of them already absent). What the
                // stack answers is the same, ``frame(at:)`` included: a frame lists no key it left absent.
                let c = buffers.contents
                if index >= c.pointee.slotCount || c.pointee.slots[index] == nil { return }
            }
            let c = mutableContents
            if index < c.pointee.slotCount {
                // The new value moves into the key's slot and the old one into the log, each by a swap or a move: no
                // value copied or destroyed.
                var moving = value
                c.pointee.denseCount &+= Self.exchange(&moving, &c.pointee.slots[index])
                c.pointee.log.append(_DataLogEntry(key: key, previous: consume moving))
                return
            }
        }
        let previous = set(key, to: value)
        appendLog(key, previous)
    }

    /// Logs that `key` held `previous` before the top frame wrote it.
    @inlinable @inline(__always) mutating func appendLog(_ key: Key, _ previous: __owned Value?) {
        mutableContents.pointee.log.append(_DataLogEntry(key: key, previous: previous))
    }

    /// Pushes a frame holding the pairs of `entries`.
    @inlinable public mutating func push(_ entries: [Key: Value]) {
        push(entries.lazy.map { ($0.key, $0.value) })
    }

    /// Removes the top frame and restores exactly the data that was there before it.
    /// - Throws: ``DataStackError/nothingToPop`` at the root; nothing changes.
    /// - Complexity: O(entries in the frame).
    @inlinable @inline(__always) public mutating func pop() throws(DataStackError) {
        if stored.frameStarts.isEmpty { throw .nothingToPop }
        let c = mutableContents
        let start = c.pointee.frameStarts.removeLast()
        if dense {
            // Every key in the log was set in dense mode, so it has a slot: the old value moves back in, the new one out.
            var change = 0
            while c.pointee.log.count > start {
                var entry = c.pointee.log.removeLast()
                guard let index = _DenseIndex.index(entry.key), index < c.pointee.slotCount else { continue }
                change &+= Self.exchange(&entry.previous, &c.pointee.slots[index])
            }
            c.pointee.denseCount &+= change
            return
        }
        while c.pointee.log.count > start {
            let entry = c.pointee.log.removeLast()
            _ = set(entry.key, to: entry.previous)
        }
    }

    /// The keys and values the frame at `index` (0 = first pushed) set, in push order (keys it cleared left out).
    public func frame(at index: Int) -> [(key: Key, value: Value)] {
        let c = buffers.contents.pointee
        guard index >= 0, index < c.frameStarts.count else { return [] }
        let start = c.frameStarts[index]
        let logCount = c.log.count
        let end = index + 1 < c.frameStarts.count ? c.frameStarts[index + 1] : logCount
        // The value a frame set is what the next write of that key (or the current data) holds.
        return (start..<end).compactMap { position in
            let key = c.log[position].key
            if let later = ((position + 1)..<logCount).first(where: { c.log[$0].key == key }) {
                return c.log[later].previous.map { (key, $0) }
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
        let c = mutableContents
        c.pointee.clearSlots()
        c.pointee.log.removeAll()
        c.pointee.frameStarts.removeAll()
        loose.removeAll(keepingCapacity: true)
    }
}

/// One write of a frame: the key and the value it held before (`nil`: absent).
@usableFromInline
struct _DataLogEntry<Key, Value> {
    @usableFromInline var key: Key
    @usableFromInline var previous: Value?
    @inlinable init(key: Key, previous: __owned Value?) {
        self.key = key
        self.previous = previous
    }
}

/// What a ``DataStack`` keeps besides its dictionary: a slot per dense key index, the undo log and where each frame starts.
@usableFromInline
struct _DataContents<Key, Value> {
    /// The value of each dense key index (`nil`: absent), `slotCount` of them.
    @usableFromInline var slots: UnsafeMutablePointer<Value?>
    @usableFromInline var slotCount: Int
    /// How many slots hold a value.
    @usableFromInline var denseCount = 0
    /// Each frame's writes, the frame's first at its ``frameStarts`` entry.
    @usableFromInline var log = _OwnedStack<_DataLogEntry<Key, Value>>()
    @usableFromInline var frameStarts = _OwnedStack<Int>()

    init() {
        slotCount = 0
        slots = .allocate(capacity: 1)
    }

    /// A copy of `other`'s contents in memory of its own.
    init(copying other: _DataContents) {
        slotCount = other.slotCount
        slots = .allocate(capacity: max(1, slotCount))
        slots.initialize(from: other.slots, count: slotCount)
        denseCount = other.denseCount
        log = other.log.copy()
        frameStarts = other.frameStarts.copy()
    }

    /// The value of slot `index`, borrowed where it lies.
    @inlinable subscript(slot index: Int) -> Value? {
        _read { yield slots[index] }
    }

    /// Frees everything; the contents must not be used after.
    func destroy() {
        slots.deinitialize(count: slotCount)
        slots.deallocate()
        log.destroy()
        frameStarts.destroy()
    }

    /// Makes room for `count` slots at least, the new ones empty.
    @usableFromInline mutating func growSlots(to count: Int) {
        let capacity = max(count, 2 * slotCount, 8)
        let larger = UnsafeMutablePointer<Value?>.allocate(capacity: capacity)
        larger.moveInitialize(from: slots, count: slotCount)
        (larger + slotCount).initialize(repeating: nil, count: capacity - slotCount)
        slots.deallocate()
        slots = larger
        slotCount = capacity
    }

    /// Empties every slot.
    @usableFromInline mutating func clearSlots() {
        for index in 0..<slotCount { slots[index] = nil }
        denseCount = 0
    }
}

/// The memory of a ``DataStack``'s contents: one owner at a time, copied by the stack before a change when shared.
@usableFromInline
final class _DataBuffers<Key, Value> {
    /// Read and changed in place through the pointer, so no change pays a dynamic exclusivity check.
    @usableFromInline let contents: UnsafeMutablePointer<_DataContents<Key, Value>>

    init() {
        contents = .allocate(capacity: 1)
        contents.initialize(to: _DataContents())
    }

    @usableFromInline init(copying other: _DataBuffers) {
        contents = .allocate(capacity: 1)
        contents.initialize(to: _DataContents(copying: other.contents.pointee))
    }

    deinit {
        contents.pointee.destroy()
        contents.deinitialize(count: 1)
        contents.deallocate()
    }
}

/// Why a data stack refused a request.
public enum DataStackError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``DataStack/pop()`` at the root: there is no frame to remove.
    case nothingToPop

    public var description: String { "nothing to pop: the data stack is at its root" }
}
