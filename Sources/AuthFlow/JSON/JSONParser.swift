/// The limits that keep parsing bounded, whatever the input.
///
/// A document that exceeds one of them is refused with a ``JSONParseError``, never a crash.
package struct JSONLimits: Sendable {
    /// The deepest nesting any parse allows, whatever ``maxDepth`` says.
    ///
    /// The parser itself uses an explicit stack, but a parsed tree is destroyed, compared and
    /// converted to ``JSON`` recursively, one call per level; past a few thousand levels that
    /// could overflow a thread's stack. No real spec nests deeper than a dozen levels.
    package static let maxSupportedDepth = 1_000

    /// The deepest nesting of arrays and objects allowed; `[]` is depth 1, `[[]]` depth 2.
    ///
    /// Values above ``maxSupportedDepth`` act as ``maxSupportedDepth``.
    package var maxDepth: Int
    /// The largest document accepted, in bytes (byte-order mark included).
    package var maxBytes: Int
    /// The longest string value or key accepted, in UTF-8 bytes after decoding escapes.
    package var maxStringBytes: Int
    /// When parsing stops with an error whose ``JSONParseError/timedOut`` is set: read every few thousand values.
    package var deadline: Deadline

    /// Creates limits; the defaults (depth 200, 16 MiB documents, 1 MiB strings, no deadline) fit any real spec.
    package init(maxDepth: Int = 200, maxBytes: Int = 16 << 20, maxStringBytes: Int = 1 << 20, deadline: Deadline = .none) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.maxStringBytes = maxStringBytes
        self.deadline = deadline
    }
}

/// Why a document is not valid JSON, and where: the message says what was expected and what was found.
///
/// ```swift
/// do { _ = try JSONParser.parse(Array(#"{"a" 1}"#.utf8)) }
/// catch { print(error) }  // 1:6: expected ':' after object key, found '1'
/// ```
package struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong, e.g. `expected ',' or '}' after object member, found 'x'`.
    package var message: String
    /// Where it was found.
    package var location: SourceLocation
    /// Whether the document is not JSON at all; false for well-formed JSON the parser still
    /// refuses: an object with two keys that differ only by Unicode normalisation.
    package var isMalformed = true
    /// Whether parsing was stopped by ``JSONLimits/deadline``, not by anything wrong with the document.
    package var timedOut = false

    /// Creates an error.
    package init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// The error as `line:column: message`.
    package var description: String { "\(location): \(message)" }
}

/// A strict RFC 8259 JSON parser that keeps the source location of every value.
///
/// The parser is total: every input either parses or throws a ``JSONParseError`` that names
/// its line and column; none traps, recurses or takes more than linear time. Decisions beyond
/// the RFC:
///
/// - A UTF-8 byte-order mark (`EF BB BF`) at the very start is skipped and not counted as a column.
///   A UTF-16 or UTF-32 byte-order mark, or text with NUL bytes between characters, is refused:
///   the file must be UTF-8.
/// - Duplicate keys in an object are refused, at the second key, naming where the first one is.
///   Keys that differ only by Unicode normalisation (`"é"` precomposed and decomposed, `"K"` and
///   U+212A KELVIN SIGN) are different keys that look the same, and would collide in any
///   `Dictionary` (Swift's `==` treats them as equal): they are refused too, with a message that
///   says so and names the code points that differ (``JSONParseError/isMalformed`` is false).
/// - Numbers keep their literal text and are never refused for size: ``JSONNumber/int`` and
///   ``JSONNumber/double`` are `nil` when they cannot hold the value.
/// - Lines end at LF, CR LF or a lone CR; columns count Unicode scalars (see ``SourceLocation``).
///
/// ```swift
/// let root = try JSONParser.parse(Array(#"{"initial": "start"}"#.utf8))
/// root["initial"]?.location  // 1:13
/// ```
package enum JSONParser {
    /// Parses one JSON document from UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - bytes: the document, UTF-8, optionally starting with a byte-order mark.
    ///   - limits: the bounds on size, nesting and string length.
    /// - Returns: the document's root value, with the location of every value and key.
    /// - Throws: ``JSONParseError`` at the first error, with its line and column.
    /// - Complexity: O(*n*) in the size of the document.
    package static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONNode {
        let result: Result<JSONNode, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = _JSONScanner(buffer, limits: limits)
            do throws(JSONParseError) {
                return .success(try scanner.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON document from a string; see the byte-array overload.
    package static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONParseError) -> JSONNode {
        try parse(Array(text.utf8), limits: limits)
    }
}
