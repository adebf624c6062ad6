#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The fast path for reading a tracker record: one pass over the bytes of a plain line, no allocation.
///
/// It reads what ``FlowTracker/jsonLines()`` writes, and any line like it (whitespace, keys in any
/// order), but only when every string is printable ASCII without escapes and no key is an
/// extension (`x-…`). Anything else, and every error, makes ``scan(_:)`` return `false`: the
/// caller then reads the line with ``FlowTracker/event(fromJSONLine:line:)``, the one definition of
/// the format, which also says what is wrong and where. So the two never disagree on a line the
/// fast path accepts (the tests compare them on generated and mangled lines).
package struct _TrackedLineScanner {
    /// A range of the scanned line's bytes: a string's contents, without its quotes.
    package struct Span: Equatable {
        package var start: Int
        package var end: Int
        package var count: Int { end - start }
    }

    package var kind: TrackedKind = .transition
    package var sessionID = Span(start: 0, end: 0)
    package var timestamp: Int64 = 0
    package var from = Span(start: 0, end: 0)
    /// `nil` when absent or `null`.
    package var event: Span?
    package var to: Span?
    /// Whether the line has `added` (an array; `null` counts as absent), and its names.
    package var hasAdded = false
    package var added: UnsafeBufferPointer<Span> { UnsafeBufferPointer(start: store.added, count: addedCount) }
    package var hasCleared = false
    package var cleared: UnsafeBufferPointer<Span> { UnsafeBufferPointer(start: store.cleared, count: clearedCount) }
    /// Whether the line has `values` (an object; `null` counts as absent), and its pairs.
    package var hasValues = false
    package var valueKeys: UnsafeBufferPointer<Span> { UnsafeBufferPointer(start: store.keys, count: valueCount) }
    package var valueValues: UnsafeBufferPointer<Span> { UnsafeBufferPointer(start: store.values, count: valueCount) }

    private var addedCount = 0
    private var clearedCount = 0
    private var valueCount = 0
    /// Room for the spans of one line, allocated once: a line with more names takes the full reader.
    private let store = _SpanStore()

    /// The spans' storage: fixed, so scanning a line allocates nothing.
    final class _SpanStore {
        static let capacity = 64
        let added = UnsafeMutablePointer<Span>.allocate(capacity: capacity)
        let cleared = UnsafeMutablePointer<Span>.allocate(capacity: capacity)
        let keys = UnsafeMutablePointer<Span>.allocate(capacity: capacity)
        let values = UnsafeMutablePointer<Span>.allocate(capacity: capacity)
        deinit {
            added.deallocate()
            cleared.deallocate()
            keys.deallocate()
            values.deallocate()
        }
    }

    package init() {}

    /// A position in the line being read; its methods move it past what they read.
    struct Cursor {
        let line: UnsafeBufferPointer<UInt8>
        var i = 0

        @inline(__always) var atEnd: Bool { i >= line.count }
        @inline(__always) func at(_ byte: UInt8) -> Bool { i < line.count && line[i] == byte }

        @inline(__always) mutating func skipSpace() {
            while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        }

        /// Consumes `byte` (after spaces); false when something else is there.
        @inline(__always) mutating func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard at(byte) else { return false }
            i += 1
            return true
        }

        /// Reads a plain string at `i` (its opening quote); nil for escapes, control or non-ASCII bytes.
        @inline(__always) mutating func string() -> Span? {
            guard at(UInt8(ascii: "\"")) else { return nil }
            i += 1
            let start = i
            let n = line.count
            while i < n {
                let byte = line[i]
                if byte == UInt8(ascii: "\"") {
                    i += 1
                    return Span(start: start, end: i - 1)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x7F { return nil }
                i += 1
            }
            return nil
        }

        @inline(__always) mutating func literalNull() -> Bool {
            guard i + 4 <= line.count, line[i] == UInt8(ascii: "n"), line[i + 1] == UInt8(ascii: "u"),
                  line[i + 2] == UInt8(ascii: "l"), line[i + 3] == UInt8(ascii: "l") else { return false }
            i += 4
            return true
        }

        /// A string or `null` (`.some(nil)`); nil when neither.
        @inline(__always) mutating func stringOrNull() -> Span?? {
            if at(UInt8(ascii: "n")) { return literalNull() ? .some(nil) : nil }
            guard let span = string() else { return nil }
            return .some(span)
        }

        /// An array of plain strings into `list`; false when the value is anything else or too long.
        mutating func names(into list: UnsafeMutablePointer<Span>, count: inout Int) -> Bool {
            guard at(UInt8(ascii: "[")) else { return false }
            i += 1
            skipSpace()
            if at(UInt8(ascii: "]")) { i += 1; return true }
            while true {
                skipSpace()
                guard count < _SpanStore.capacity, let span = string() else { return false }
                list[count] = span
                count += 1
                skipSpace()
                if at(UInt8(ascii: ",")) { i += 1; continue }
                if at(UInt8(ascii: "]")) { i += 1; return true }
                return false
            }
        }

        /// An object of plain strings into `keys` and `values`; false for anything else, or a key twice.
        mutating func pairs(keys: UnsafeMutablePointer<Span>, values: UnsafeMutablePointer<Span>, count: inout Int) -> Bool {
            guard at(UInt8(ascii: "{")) else { return false }
            i += 1
            skipSpace()
            if at(UInt8(ascii: "}")) { i += 1; return true }
            while true {
                skipSpace()
                guard count < _SpanStore.capacity, let key = string() else { return false }
                // A repeated key is an error the full reader names.
                for index in 0..<count where keys[index].count == key.count {
                    if memcmp(line.baseAddress! + keys[index].start, line.baseAddress! + key.start, key.count) == 0 { return false }
                }
                guard expect(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard let value = string() else { return false }
                keys[count] = key
                values[count] = value
                count += 1
                skipSpace()
                if at(UInt8(ascii: ",")) { i += 1; continue }
                if at(UInt8(ascii: "}")) { i += 1; return true }
                return false
            }
        }
    }

    /// Reads `line` into the fields; `false` when the line needs the full reader (or is not a record).
    package mutating func scan(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        event = nil
        to = nil
        hasAdded = false
        hasCleared = false
        hasValues = false
        addedCount = 0
        clearedCount = 0
        valueCount = 0
        let store = self.store
        var cursor = Cursor(line: line)
        guard cursor.expect(UInt8(ascii: "{")) else { return false }
        var seen: UInt16 = 0
        cursor.skipSpace()
        if cursor.at(UInt8(ascii: "}")) { return false }
        while true {
            cursor.skipSpace()
            guard let key = cursor.string() else { return false }
            let field = Self.field(line, key)
            guard field >= 0, seen & (1 << field) == 0 else { return false }
            seen |= 1 << field
            guard cursor.expect(UInt8(ascii: ":")) else { return false }
            cursor.skipSpace()
            switch field {
            case 0:
                guard let span = cursor.string(), let kind = Self.kind(line, span) else { return false }
                self.kind = kind
            case 1:
                guard let span = cursor.string() else { return false }
                sessionID = span
            case 2:
                guard let span = cursor.string(),
                      let ms = _Timestamp.milliseconds(utf8: UnsafeBufferPointer(rebasing: line[span.start..<span.end]))
                else { return false }
                timestamp = ms
            case 3:
                guard let span = cursor.string() else { return false }
                from = span
            case 4:
                guard let value = cursor.stringOrNull() else { return false }
                event = value
            case 5:
                guard let value = cursor.stringOrNull() else { return false }
                to = value
            case 6:
                guard cursor.stringOrNull() != nil else { return false }
            case 7:
                if cursor.at(UInt8(ascii: "n")) {
                    guard cursor.literalNull() else { return false }
                } else {
                    guard cursor.names(into: store.added, count: &addedCount) else { return false }
                    hasAdded = true
                }
            case 8:
                if cursor.at(UInt8(ascii: "n")) {
                    guard cursor.literalNull() else { return false }
                } else {
                    guard cursor.names(into: store.cleared, count: &clearedCount) else { return false }
                    hasCleared = true
                }
            default:
                if cursor.at(UInt8(ascii: "n")) {
                    guard cursor.literalNull() else { return false }
                } else {
                    guard cursor.pairs(keys: store.keys, values: store.values, count: &valueCount) else { return false }
                    hasValues = true
                }
            }
            cursor.skipSpace()
            if cursor.at(UInt8(ascii: ",")) { cursor.i += 1; continue }
            if cursor.at(UInt8(ascii: "}")) { cursor.i += 1; break }
            return false
        }
        cursor.skipSpace()
        // kind, sessionID, timestamp and from are required.
        return cursor.atEnd && seen & 0b1111 == 0b1111
    }

    /// The index of a record key in ``FlowTracker/recordKeys``, or -1 (an unknown or extension key).
    @inline(__always)
    static func field(_ line: UnsafeBufferPointer<UInt8>, _ span: Span) -> Int {
        func equals(_ text: StaticString) -> Bool {
            guard text.utf8CodeUnitCount == span.count else { return false }
            let pointer = text.utf8Start
            for k in 0..<span.count where pointer[k] != line[span.start + k] { return false }
            return true
        }
        switch span.count {
        case 2: return equals("to") ? 5 : -1
        case 4: return equals("kind") ? 0 : equals("from") ? 3 : -1
        case 5: return equals("event") ? 4 : equals("added") ? 7 : -1
        case 6: return equals("reason") ? 6 : equals("values") ? 9 : -1
        case 7: return equals("cleared") ? 8 : -1
        case 9: return equals("sessionID") ? 1 : equals("timestamp") ? 2 : -1
        default: return -1
        }
    }

    @inline(__always)
    static func kind(_ line: UnsafeBufferPointer<UInt8>, _ span: Span) -> TrackedKind? {
        switch (span.count, line[span.start]) {
        case (10, UInt8(ascii: "t")): return matches(line, span, "transition") ? .transition : nil
        case (9, UInt8(ascii: "r")): return matches(line, span, "rejection") ? .rejection : nil
        case (4, UInt8(ascii: "u")): return matches(line, span, "undo") ? .undo : nil
        case (5, UInt8(ascii: "r")): return matches(line, span, "reset") ? .reset : nil
        default: return nil
        }
    }

    @inline(__always)
    static func matches(_ line: UnsafeBufferPointer<UInt8>, _ span: Span, _ text: StaticString) -> Bool {
        guard text.utf8CodeUnitCount == span.count else { return false }
        let pointer = text.utf8Start
        for k in 0..<span.count where pointer[k] != line[span.start + k] { return false }
        return true
    }
}
