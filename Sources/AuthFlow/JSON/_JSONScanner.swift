/// The byte-level machinery behind ``JSONParser``: one pass, an explicit stack, no recursion.
///
/// Only valid while the buffer it reads is alive; ``JSONParser/parse(_:limits:)`` scopes it.
struct _JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    private let maxDepth: Int
    private var pos = 0

    // Location tracking: the current line, where it starts, and a cache of the column at
    // `columnPos` so that computing locations left to right is linear on long lines.
    private var line = 1
    private var lineStart = 0
    private var columnPos = 0
    private var columnValue = 1

    init(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
        self.maxDepth = min(limits.maxDepth, JSONLimits.maxSupportedDepth)
    }

    // MARK: - Document

    /// Where a value is expected, so that "expected a value" errors can say after what.
    private enum ValueContext {
        case document, arrayStart, afterArrayComma, afterColon

        var expectation: String {
            switch self {
            case .document: "expected a JSON value"
            case .arrayStart: "expected a value or ']'"
            case .afterArrayComma: "expected a value after ',' in array"
            case .afterColon: "expected a value after ':' in object member"
            }
        }
    }

    /// An array or object whose closing bracket has not been read yet.
    private struct Frame {
        var isObject: Bool
        var location: SourceLocation
        var elements: [JSONNode] = []
        var members: [JSONMember] = []
        var pendingKey = ""
        var pendingKeyLocation = SourceLocation(line: 0, column: 0)
        /// Key → location, built once an object is too large for a linear duplicate scan.
        var keyIndex: [String: (key: String, location: SourceLocation)]? = nil
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONNode {
        if bytes.count > limits.maxBytes {
            throw JSONParseError(
                message: "document is \(bytes.count) bytes, larger than the limit of \(limits.maxBytes) bytes",
                location: SourceLocation(line: 1, column: 1))
        }
        try checkEncoding()
        skipWhitespace()
        if pos >= bytes.count {
            throw error("empty document", at: pos)
        }

        var frames: [Frame] = []
        var context = ValueContext.document

        var values = 0
        valueLoop: while true {
            // Here `pos` is at the first byte of a value (whitespace already skipped).
            let start = pos
            values &+= 1
            if values & 4095 == 0, limits.deadline.hasPassed {
                var stop = JSONParseError(message: "\(limits.deadline.stopReasonText) while parsing", location: self.location(at: start))
                stop.timedOut = true
                throw stop
            }
            let location = self.location(at: start)
            var value: JSONNode
            guard start < bytes.count else {
                throw unexpected(context.expectation, at: start)
            }
            switch bytes[start] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[start] == UInt8(ascii: "{")
                if frames.count >= maxDepth {
                    throw JSONParseError(message: "nesting deeper than \(maxDepth)", location: location)
                }
                pos += 1
                skipWhitespace()
                if isObject {
                    if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
                        pos += 1
                        value = JSONNode(value: .object([]), location: location)
                    } else {
                        frames.append(Frame(isObject: true, location: location))
                        try readKeyAndColon(into: &frames[frames.count - 1], expectation: "expected a string key or '}' in object")
                        context = .afterColon
                        continue valueLoop
                    }
                } else {
                    if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
                        pos += 1
                        value = JSONNode(value: .array([]), location: location)
                    } else {
                        frames.append(Frame(isObject: false, location: location))
                        context = .arrayStart
                        continue valueLoop
                    }
                }
            case UInt8(ascii: "\""):
                value = JSONNode(value: .string(try readString()), location: location)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = JSONNode(value: .number(try readNumber()), location: location)
            default:
                value = JSONNode(value: try readLiteral(context), location: location)
            }

            // A value is complete: attach it to the enclosing containers, closing those that end here.
            while !frames.isEmpty {
                skipWhitespace()
                let top = frames.count - 1
                let next: UInt8? = pos < bytes.count ? bytes[pos] : nil
                if frames[top].isObject {
                    frames[top].members.append(JSONMember(
                        key: frames[top].pendingKey, keyLocation: frames[top].pendingKeyLocation, value: value))
                    if next == UInt8(ascii: ",") {
                        let comma = self.location(at: pos)
                        pos += 1
                        skipWhitespace()
                        try refuseTrailingComma(at: comma, before: UInt8(ascii: "}"))
                        try readKeyAndColon(into: &frames[top], expectation: "expected a string key after ',' in object")
                        context = .afterColon
                        continue valueLoop
                    } else if next == UInt8(ascii: "}") {
                        pos += 1
                        let frame = frames.removeLast()
                        value = JSONNode(value: .object(frame.members), location: frame.location)
                    } else {
                        throw unexpected("expected ',' or '}' after object member", at: pos)
                    }
                } else {
                    frames[top].elements.append(value)
                    if next == UInt8(ascii: ",") {
                        let comma = self.location(at: pos)
                        pos += 1
                        skipWhitespace()
                        try refuseTrailingComma(at: comma, before: UInt8(ascii: "]"))
                        context = .afterArrayComma
                        continue valueLoop
                    } else if next == UInt8(ascii: "]") {
                        pos += 1
                        let frame = frames.removeLast()
                        value = JSONNode(value: .array(frame.elements), location: frame.location)
                    } else {
                        throw unexpected("expected ',' or ']' after array element", at: pos)
                    }
                }
            }

            skipWhitespace()
            if pos < bytes.count {
                throw unexpected("trailing content after the JSON value", at: pos)
            }
            return value
        }
    }

    /// Refuses UTF-16 and UTF-32 text and skips a UTF-8 byte-order mark.
    private mutating func checkEncoding() throws(JSONParseError) {
        let start = SourceLocation(line: 1, column: 1)
        func starts(with prefix: [UInt8]) -> Bool {
            bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 }
        }
        let mark: String? =
            if starts(with: [0x00, 0x00, 0xFE, 0xFF]) { "a UTF-32 (big-endian)" }
            else if starts(with: [0xFF, 0xFE, 0x00, 0x00]) { "a UTF-32 (little-endian)" }
            else if starts(with: [0xFE, 0xFF]) { "a UTF-16 (big-endian)" }
            else if starts(with: [0xFF, 0xFE]) { "a UTF-16 (little-endian)" }
            else { nil }
        if let mark {
            throw JSONParseError(
                message: "the file must be UTF-8, but it starts with \(mark) byte-order mark", location: start)
        }
        if starts(with: [0xEF, 0xBB, 0xBF]) {
            pos = 3
            lineStart = 3
            columnPos = 3
        }
        if bytes.count - pos >= 2, bytes[pos] == 0 || bytes[pos + 1] == 0 {
            throw JSONParseError(
                message: "the file must be UTF-8, but it has NUL bytes between characters, as UTF-16 or UTF-32 text does",
                location: start)
        }
    }

    /// Refuses a comma at `comma` that the closing `bracket` follows, where JSON allows none:
    /// the error points at the comma and says to remove it, not what a key or value would have been.
    /// - Parameter comma: the comma's location, taken before the whitespace after it moved the line on.
    private func refuseTrailingComma(at comma: SourceLocation, before bracket: UInt8) throws(JSONParseError) {
        guard pos < bytes.count, bytes[pos] == bracket else { return }
        let what = bracket == UInt8(ascii: "}") ? "member of an object" : "element of an array"
        throw JSONParseError(message: "trailing comma before '\(Character(Unicode.Scalar(bracket)))': JSON allows no comma after the last \(what); remove it",
                             location: comma)
    }

    // MARK: - Keys, strings

    /// Reads `"key" :` into `frame`, refusing a key the object already has.
    private mutating func readKeyAndColon(into frame: inout Frame, expectation: String) throws(JSONParseError) {
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else {
            throw unexpected(expectation, at: pos)
        }
        let keyLocation = location(at: pos)
        let key = try readString()
        if let first = firstLocation(of: key, in: &frame) {
            // String's == found it: the same key, or one that differs only by Unicode normalisation.
            if !TextScalars.same(first.key, key) {
                let (here, there) = TextScalars.normalisationDifference(key, first.key)
                var error = JSONParseError(
                    message: "keys \(JSON.quoted(key)) and \(JSON.quoted(first.key)) (at \(first.location)) differ only by Unicode "
                        + "normalisation (\(here) here, \(there) there): they look the same but are different keys; write both the same way",
                    location: keyLocation)
                error.isMalformed = false
                throw error
            }
            throw JSONParseError(
                message: "duplicate key \(JSON.quoted(key)) (first at \(first.location))", location: keyLocation)
        }
        frame.pendingKey = key
        frame.pendingKeyLocation = keyLocation
        skipWhitespace()
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else {
            throw unexpected("expected ':' after object key", at: pos)
        }
        pos += 1
        skipWhitespace()
    }

    /// The key the object being read already has that `key` equals as Swift compares strings
    /// (canonically equivalent: the same key, or one written in another normalisation), and where it is.
    ///
    /// The parser refuses both, so an object never holds two keys `String`'s `==` cannot tell
    /// apart, and at most one such key is ever found.
    private func firstLocation(of key: String, in frame: inout Frame) -> (key: String, location: SourceLocation)? {
        let linearScanLimit = 16
        if frame.members.count < linearScanLimit {
            return frame.members.first { $0.key == key }.map { ($0.key, $0.keyLocation) }
        }
        if frame.keyIndex == nil {
            frame.keyIndex = Dictionary(frame.members.map { ($0.key, ($0.key, $0.keyLocation)) }, uniquingKeysWith: { a, _ in a })
        } else if let last = frame.members.last {
            frame.keyIndex![last.key] = (last.key, last.keyLocation)
        }
        return frame.keyIndex![key]
    }

    /// Reads a string whose opening quote is at `pos`, decoding escapes and validating UTF-8.
    private mutating func readString() throws(JSONParseError) -> String {
        let quote = pos
        let contentStart = pos + 1
        // Fast path: plain ASCII up to the closing quote.
        var i = contentStart
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { break }
            i += 1
        }
        if i - contentStart > limits.maxStringBytes {
            throw tooLong(quote)
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            pos = i + 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<i]), as: UTF8.self)
        }

        var out: [UInt8] = []
        out.reserveCapacity(i - contentStart + 16)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<i]))
        pos = i
        while true {
            guard pos < bytes.count else {
                throw error("unterminated string: the input ends before its closing '\"'", at: quote)
            }
            let c = bytes[pos]
            switch c {
            case UInt8(ascii: "\""):
                pos += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(into: &out, quote: quote)
            case 0..<0x20:
                throw error("control character \(Self.scalarName(UInt32(c))) in string must be escaped", at: pos)
            case 0x80...:
                let length = try utf8SequenceLength(at: pos)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pos..<pos + length]))
                pos += length
            default:
                out.append(c)
                pos += 1
            }
            if out.count > limits.maxStringBytes {
                throw tooLong(quote)
            }
        }
    }

    private mutating func tooLong(_ quote: Int) -> JSONParseError {
        error("string longer than the limit of \(limits.maxStringBytes) bytes", at: quote)
    }

    /// Reads the escape sequence at `pos` (a backslash) and appends what it stands for.
    private mutating func readEscape(into out: inout [UInt8], quote: Int) throws(JSONParseError) {
        let backslash = pos
        guard pos + 1 < bytes.count else {
            throw error("unterminated string: the input ends before its closing '\"'", at: quote)
        }
        let simple: UInt8?
        switch bytes[pos + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        case let e:
            let shown = (0x21..<0x7F).contains(e) ? "'\\\(Character(Unicode.Scalar(e)))'" : "'\\' followed by \(describe(at: pos + 1))"
            throw error(
                "invalid escape \(shown) in string; expected \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and 4 hex digits",
                at: backslash)
        }
        if let simple {
            out.append(simple)
            pos += 2
            return
        }
        pos += 2
        var scalar = UInt32(try readHex4())
        if (0xDC00...0xDFFF).contains(scalar) {
            throw error("lone surrogate \(Self.escapeText(scalar))", at: backslash)
        }
        if (0xD800...0xDBFF).contains(scalar) {
            guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                throw error("lone surrogate \(Self.escapeText(scalar))", at: backslash)
            }
            pos += 2
            let low = UInt32(try readHex4())
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("lone surrogate \(Self.escapeText(scalar))", at: backslash)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        // `scalar` is now a valid Unicode scalar value: append its UTF-8 encoding.
        switch scalar {
        case ..<0x80:
            out.append(UInt8(scalar))
        case ..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case ..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// Reads the four hex digits of a `\u` escape at `pos`.
    private mutating func readHex4() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            let digit: UInt16
            switch pos < bytes.count ? bytes[pos] : 0xFF {
            case let c where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c): digit = UInt16(c - UInt8(ascii: "0"))
            case let c where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c): digit = UInt16(c - UInt8(ascii: "a") + 10)
            case let c where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(c): digit = UInt16(c - UInt8(ascii: "A") + 10)
            default:
                throw unexpected("expected 4 hex digits after \\u", at: pos)
            }
            value = value << 4 | digit
            pos += 1
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), or an error there.
    private mutating func utf8SequenceLength(at i: Int) throws(JSONParseError) -> Int {
        if let length = wellFormedLength(at: i) { return length }
        let lead = bytes[i]
        if lead < 0xC2 || lead > 0xF4 {
            throw error("invalid UTF-8 byte \(Self.hex(lead))", at: i)
        }
        throw error("invalid UTF-8 sequence starting with byte \(Self.hex(lead))", at: i)
    }

    private func wellFormedLength(at i: Int) -> Int? {
        let lead = bytes[i]
        func continuation(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            i + k < bytes.count && range.contains(bytes[i + k])
        }
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return continuation(1) ? 2 : nil
        case 0xE0...0xEF:
            let second: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
            return continuation(1, second) && continuation(2) ? 3 : nil
        case 0xF0...0xF4:
            let second: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
            return continuation(1, second) && continuation(2) && continuation(3) ? 4 : nil
        default: return nil
        }
    }

    // MARK: - Numbers and literals

    private static func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    /// Reads a number at `pos` per the RFC grammar `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    private mutating func readNumber() throws(JSONParseError) -> JSONNumber {
        let start = pos
        let negative = bytes[pos] == UInt8(ascii: "-")
        if negative { pos += 1 }
        let intStart = pos
        guard pos < bytes.count, Self.isDigit(bytes[pos]) else {
            throw unexpected("expected a digit after '-'", at: pos)
        }
        if bytes[pos] == UInt8(ascii: "0"), pos + 1 < bytes.count, Self.isDigit(bytes[pos + 1]) {
            var end = pos
            while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
            let shown = end - start > 24 ? text(start..<start + 24) + "…" : text(start..<end)
            throw error("leading zeros are not allowed, found '\(shown)'", at: start)
        }
        while pos < bytes.count, Self.isDigit(bytes[pos]) { pos += 1 }
        let intEnd = pos
        var fracStart = pos, fracEnd = pos
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard pos < bytes.count, Self.isDigit(bytes[pos]) else {
                throw unexpected("expected a digit after '.'", at: pos)
            }
            fracStart = pos
            while pos < bytes.count, Self.isDigit(bytes[pos]) { pos += 1 }
            fracEnd = pos
        }
        var exponent = 0
        var hasExponent = false
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            hasExponent = true
            pos += 1
            var exponentNegative = false
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") {
                exponentNegative = bytes[pos] == UInt8(ascii: "-")
                pos += 1
            }
            guard pos < bytes.count, Self.isDigit(bytes[pos]) else {
                throw unexpected("expected a digit in the exponent", at: pos)
            }
            while pos < bytes.count, Self.isDigit(bytes[pos]) {
                exponent = min(exponent * 10 + Int(bytes[pos] - UInt8(ascii: "0")), 1_000_000_000)
                pos += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let literal = text(start..<pos)

        let int: Int?
        if fracStart == fracEnd && !hasExponent && intEnd - intStart <= 18 {
            // Fast path: at most 18 digits cannot overflow.
            var v = 0
            for i in intStart..<intEnd { v = v * 10 + Int(bytes[i] - UInt8(ascii: "0")) }
            int = negative ? -v : v
        } else {
            int = exactInteger(negative: negative, digits: [intStart..<intEnd, fracStart..<fracEnd],
                               exponent: exponent - (fracEnd - fracStart))
        }
        let double: Double?
        if let int, !(int == 0 && negative) {
            double = Double(int)
        } else if let parsed = Double(literal), parsed.isFinite {
            double = parsed
        } else {
            double = nil
        }
        return JSONNumber(literal: literal, int: int, double: double)
    }

    /// The integer `±digits × 10^exponent`, when it is an integer that fits in `Int`.
    private func exactInteger(negative: Bool, digits ranges: [Range<Int>], exponent: Int) -> Int? {
        var significant: [UInt8] = []
        for range in ranges {
            for i in range {
                let d = bytes[i] - UInt8(ascii: "0")
                if significant.isEmpty && d == 0 { continue }
                significant.append(d)
            }
        }
        var exponent = exponent
        while let last = significant.last, last == 0 {
            significant.removeLast()
            exponent += 1
        }
        if significant.isEmpty { return 0 }
        guard exponent >= 0, significant.count + exponent <= 19 else { return nil }
        // Accumulate negatively so that Int.min is reachable.
        var value = 0
        for d in significant + repeatElement(0, count: exponent) {
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = shifted.subtractingReportingOverflow(Int(d))
            if o1 || o2 { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    /// Reads `true`, `false` or `null`; anything else where a value belongs is an error naming the word found.
    private mutating func readLiteral(_ context: ValueContext) throws(JSONParseError) -> JSONValue {
        let start = pos
        var end = pos
        func isWordByte(_ c: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                || Self.isDigit(c) || c == UInt8(ascii: "_")
        }
        while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
        guard end > start else {
            throw unexpected(context.expectation, at: start)
        }
        let word = Array(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        let literals: [(text: String, value: JSONValue)] = [("true", .bool(true)), ("false", .bool(false)), ("null", .null)]
        for literal in literals {
            let expected = Array(literal.text.utf8)
            if word == expected {
                pos = end
                return literal.value
            }
            if word.count < expected.count, expected.starts(with: word) {
                throw error("expected '\(literal.text)', found '\(text(start..<end))'", at: start)
            }
        }
        let shown = end - start > 24 ? text(start..<start + 24) + "…" : text(start..<end)
        throw error("\(context.expectation), found '\(shown)'", at: start)
    }

    // MARK: - Whitespace and locations

    private mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09:
                pos += 1
            case 0x0A:
                pos += 1
                startLine()
            case 0x0D:
                pos += 1
                if pos < bytes.count, bytes[pos] == 0x0A { pos += 1 }
                startLine()
            default:
                return
            }
        }
    }

    private mutating func startLine() {
        line += 1
        lineStart = pos
        columnPos = pos
        columnValue = 1
    }

    /// The location of byte offset `p`, which must be on the current line (always true:
    /// line breaks only occur in whitespace, which is skipped before any location is taken).
    private mutating func location(at p: Int) -> SourceLocation {
        let p = min(max(p, lineStart), bytes.count)
        if p < columnPos {
            columnPos = lineStart
            columnValue = 1
        }
        var column = columnValue
        var i = columnPos
        while i < p {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        columnPos = p
        columnValue = column
        return SourceLocation(line: line, column: column)
    }

    // MARK: - Errors

    private mutating func error(_ message: String, at p: Int) -> JSONParseError {
        JSONParseError(message: message, location: location(at: p))
    }

    /// "expected …, found …" at `p`; a byte that cannot start UTF-8 text gets the UTF-8 message instead.
    private mutating func unexpected(_ expectation: String, at p: Int) -> JSONParseError {
        if p < bytes.count, bytes[p] >= 0x80, wellFormedLength(at: p) == nil {
            let lead = bytes[p]
            if lead < 0xC2 || lead > 0xF4 {
                return error("invalid UTF-8 byte \(Self.hex(lead))", at: p)
            }
            return error("invalid UTF-8 sequence starting with byte \(Self.hex(lead))", at: p)
        }
        return error("\(expectation), found \(describe(at: p))", at: p)
    }

    /// What is at `p`, for "found …": `end of input`, `'x'`, `U+000B`, or `'é' (U+00E9)`.
    private func describe(at p: Int) -> String {
        guard p < bytes.count else { return "end of input" }
        let c = bytes[p]
        switch c {
        case 0..<0x20, 0x7F:
            return Self.scalarName(UInt32(c))
        case UInt8(ascii: "'"):
            return "\"'\""
        case 0x20..<0x80:
            return "'\(Character(Unicode.Scalar(c)))'"
        default:
            guard let length = wellFormedLength(at: p) else { return "byte \(Self.hex(c))" }
            let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[p..<p + length]), as: UTF8.self)
                .unicodeScalars.first!
            return "'\(scalar)' (\(Self.scalarName(scalar.value)))"
        }
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    static func hex(_ byte: UInt8) -> String {
        "0x" + TextScalars.hex(byte, minimumDigits: 2)
    }

    static func scalarName(_ value: UInt32) -> String {
        TextScalars.codePoint(value)
    }

    static func escapeText(_ unit: UInt32) -> String {
        "\\u" + TextScalars.hex(unit, minimumDigits: 4)
    }
}
