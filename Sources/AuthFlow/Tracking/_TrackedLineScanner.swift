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
    package var added: [Span] = []
    package var hasCleared = false
    package var cleared: [Span] = []
    /// Whether the line has `values` (an object; `null` counts as absent), and its pairs.
    package var hasValues = false
    package var valueKeys: [Span] = []
    package var valueValues: [Span] = []

    package init() {
        added.reserveCapacity(16)
        cleared.reserveCapacity(16)
        valueKeys.reserveCapacity(8)
        valueValues.reserveCapacity(8)
    }

    /// Reads `line` into the fields; `false` when the line needs the full reader (or is not a record).
    package mutating func scan(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        event = nil
        to = nil
        hasAdded = false
        hasCleared = false
        hasValues = false
        added.removeAll(keepingCapacity: true)
        cleared.removeAll(keepingCapacity: true)
        valueKeys.removeAll(keepingCapacity: true)
        valueValues.removeAll(keepingCapacity: true)
        let n = line.count
        var i = 0
        @inline(__always) func skipSpace() {
            while i < n, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        }
        /// Reads a plain string at `i` (its opening quote); nil for escapes, control or non-ASCII bytes.
        @inline(__always) func string() -> Span? {
            guard i < n, line[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            let start = i
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
        @inline(__always) func literalNull() -> Bool {
            guard i + 4 <= n, line[i] == UInt8(ascii: "n"), line[i + 1] == UInt8(ascii: "u"),
                  line[i + 2] == UInt8(ascii: "l"), line[i + 3] == UInt8(ascii: "l") else { return false }
            i += 4
            return true
        }
        /// A string or `null` (returned as `.some(nil)`); nil when neither.
        @inline(__always) func stringOrNull() -> Span?? {
            if i < n, line[i] == UInt8(ascii: "n") { return literalNull() ? .some(nil) : nil }
            guard let span = string() else { return nil }
            return .some(span)
        }
        func names(into list: inout [Span]) -> Bool {
            guard i < n, line[i] == UInt8(ascii: "[") else { return false }
            i += 1
            skipSpace()
            if i < n, line[i] == UInt8(ascii: "]") { i += 1; return true }
            while true {
                skipSpace()
                guard let span = string() else { return false }
                list.append(span)
                skipSpace()
                guard i < n else { return false }
                if line[i] == UInt8(ascii: ",") { i += 1; continue }
                if line[i] == UInt8(ascii: "]") { i += 1; return true }
                return false
            }
        }
        func pairs() -> Bool {
            guard i < n, line[i] == UInt8(ascii: "{") else { return false }
            i += 1
            skipSpace()
            if i < n, line[i] == UInt8(ascii: "}") { i += 1; return true }
            while true {
                skipSpace()
                guard let key = string() else { return false }
                // A repeated key is an error the full reader names.
                let length = key.count
                for seen in valueKeys where seen.count == length {
                    var same = true
                    for k in 0..<length where line[seen.start + k] != line[key.start + k] { same = false; break }
                    if same { return false }
                }
                skipSpace()
                guard i < n, line[i] == UInt8(ascii: ":") else { return false }
                i += 1
                skipSpace()
                guard let value = string() else { return false }
                valueKeys.append(key)
                valueValues.append(value)
                skipSpace()
                guard i < n else { return false }
                if line[i] == UInt8(ascii: ",") { i += 1; continue }
                if line[i] == UInt8(ascii: "}") { i += 1; return true }
                return false
            }
        }

        skipSpace()
        guard i < n, line[i] == UInt8(ascii: "{") else { return false }
        i += 1
        var seen: UInt16 = 0
        skipSpace()
        if i < n, line[i] == UInt8(ascii: "}") { return false }
        while true {
            skipSpace()
            guard let key = string() else { return false }
            let field = Self.field(line, key)
            guard field >= 0, seen & (1 << field) == 0 else { return false }
            seen |= 1 << field
            skipSpace()
            guard i < n, line[i] == UInt8(ascii: ":") else { return false }
            i += 1
            skipSpace()
            switch field {
            case 0:
                guard let span = string(), let kind = Self.kind(line, span) else { return false }
                self.kind = kind
            case 1:
                guard let span = string() else { return false }
                sessionID = span
            case 2:
                guard let span = string() else { return false }
                guard let ms = _Timestamp.milliseconds(utf8: UnsafeBufferPointer(rebasing: line[span.start..<span.end])) else { return false }
                timestamp = ms
            case 3:
                guard let span = string() else { return false }
                from = span
            case 4:
                guard let value = stringOrNull() else { return false }
                event = value
            case 5:
                guard let value = stringOrNull() else { return false }
                to = value
            case 6:
                guard stringOrNull() != nil else { return false }
            case 7, 8:
                if i < n, line[i] == UInt8(ascii: "n") {
                    guard literalNull() else { return false }
                } else if field == 7 {
                    guard names(into: &added) else { return false }
                    hasAdded = true
                } else {
                    guard names(into: &cleared) else { return false }
                    hasCleared = true
                }
            default:
                if i < n, line[i] == UInt8(ascii: "n") {
                    guard literalNull() else { return false }
                } else {
                    guard pairs() else { return false }
                    hasValues = true
                }
            }
            skipSpace()
            guard i < n else { return false }
            if line[i] == UInt8(ascii: ",") { i += 1; continue }
            if line[i] == UInt8(ascii: "}") { i += 1; break }
            return false
        }
        skipSpace()
        // kind, sessionID, timestamp and from are required.
        return i == n && seen & 0b1111 == 0b1111
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
