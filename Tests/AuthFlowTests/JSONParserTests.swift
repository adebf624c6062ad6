import PropertyTesting
import Testing
@testable import AuthFlow

// Swift Testing has a `SourceLocation` of its own.
private typealias SourceLocation = AuthFlow.SourceLocation

/// A malformed or hostile document and the exact error it must give.
struct MalformedJSON: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var error: JSONParseError
    var testDescription: String { name }

    init(_ name: String, _ text: String, _ location: String, _ message: String) {
        self.init(name, Array(text.utf8), location, message)
    }

    init(_ name: String, _ bytes: [UInt8], _ location: String, _ message: String) {
        let parts = location.split(separator: ":").map { Int($0)! }
        self.name = name
        self.bytes = bytes
        self.error = JSONParseError(message: message, location: SourceLocation(line: parts[0], column: parts[1]))
    }
}

@Suite struct JSONParserTests {
    private func at(_ line: Int, _ column: Int) -> SourceLocation { SourceLocation(line: line, column: column) }

    private func number(_ literal: String, _ int: Int?, _ double: Double?) -> JSONValue {
        .number(JSONNumber(literal: literal, int: int, double: double))
    }

    @Test func locationsOfNestedValuesAndKeys() throws {
        // Given a multi-line document with a two-byte character before some values
        let text = """
            {"é": [1, {"b": null}],
              "t": true, "s": "x"}
            """
        // When it is parsed
        let root = try JSONParser.parse(text)
        // Then every value and key carries its line and column, counted in Unicode scalars
        let expected = JSONNode(value: .object([
            JSONMember(key: "é", keyLocation: at(1, 2), value: JSONNode(value: .array([
                JSONNode(value: number("1", 1, 1), location: at(1, 8)),
                JSONNode(value: .object([
                    JSONMember(key: "b", keyLocation: at(1, 12), value: JSONNode(value: .null, location: at(1, 17))),
                ]), location: at(1, 11)),
            ]), location: at(1, 7))),
            JSONMember(key: "t", keyLocation: at(2, 3), value: JSONNode(value: .bool(true), location: at(2, 8))),
            JSONMember(key: "s", keyLocation: at(2, 14), value: JSONNode(value: .string("x"), location: at(2, 19))),
        ]), location: at(1, 1))
        #expect(root == expected)
    }

    @Test func membersKeepDocumentOrderAndSubscriptFindsThem() throws {
        let root = try JSONParser.parse(#"{"z": 1, "a": 2, "m": 3}"#)
        guard case .object(let members) = root.value else {
            Issue.record("expected an object, got \(root.value.typeName)")
            return
        }
        #expect(members.map(\.key) == ["z", "a", "m"])
        #expect(root["a"] == JSONNode(value: number("2", 2, 2), location: at(1, 15)))
        #expect(root["missing"] == nil)
    }

    @Test func typeNames() throws {
        let root = try JSONParser.parse(#"[null, false, 0, "", [], {}]"#)
        guard case .array(let elements) = root.value else { return #expect(Bool(false)) }
        #expect(elements.map(\.value.typeName) == ["null", "boolean", "number", "string", "array", "object"])
    }

    @Test func lineEndingsLFCRLFAndLoneCR() throws {
        let root = try JSONParser.parse("[\r\n1,\r2,\n 3]")
        guard case .array(let elements) = root.value else { return #expect(Bool(false)) }
        #expect(elements.map(\.location) == [at(2, 1), at(3, 1), at(4, 2)])
    }

    @Test func utf8ByteOrderMarkIsSkippedAndNotCounted() throws {
        let root = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
        #expect(root.location == at(1, 1))
        #expect(root["a"]?.location == at(1, 7))
    }

    @Test(arguments: [
        // literal, int, double
        ("0", 0, 0.0),
        ("-0", 0, -0.0),
        ("42", 42, 42.0),
        ("-17", -17, -17.0),
        ("1.5", nil, 1.5),
        ("0.004", nil, 0.004),
        ("1e2", 100, 100.0),
        ("100.0", 100, 100.0),
        ("1E+2", 100, 100.0),
        ("2500e-2", 25, 25.0),
        ("1e-1", nil, 0.1),
        ("9223372036854775807", Int.max, 9223372036854775807.0),
        ("-9223372036854775808", Int.min, -9223372036854775808.0),
        ("9223372036854775808", nil, 9223372036854775808.0),
        ("123456789012345678901234567890", nil, 1.2345678901234568e29),
        ("1e30", nil, 1e30),
        ("1e999", nil, nil),
        ("-1e999", nil, nil),
        ("1e-999", nil, 0.0),
        ("1e99999999999999999999", nil, nil),
        ("0.000000000000000000000000000000000000000001e42", 1, 1.0),
    ] as [(String, Int?, Double?)])
    func numbersKeepTheirLiteral(literal: String, int: Int?, double: Double?) throws {
        let root = try JSONParser.parse(literal)
        #expect(root.value == number(literal, int, double))
        if let double { #expect(root.value == number(literal, int, double) && double.sign == (literal.hasPrefix("-") ? .minus : .plus)) }
    }

    @Test(arguments: [
        (#""""#, ""),
        (#""plain""#, "plain"),
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
        (#""\u0041\u00e9\u00E9""#, "Aéé"),
        (#""\u0000""#, "\u{0}"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""😀 naïve 日本""#, "😀 naïve 日本"),
        ("\"\u{7F}\"", "\u{7F}"),
        (#""mixed é\n""#, "mixed é\n"),
    ])
    func stringsDecodeEscapes(source: String, decoded: String) throws {
        #expect(try JSONParser.parse(source).value == .string(decoded))
    }

    static let malformed: [MalformedJSON] = [
        MalformedJSON("empty input", "", "1:1", "empty document"),
        MalformedJSON("whitespace only", "  \n\t ", "2:3", "empty document"),
        MalformedJSON("truncated after {", "{", "1:2", "expected a string key or '}' in object, found end of input"),
        MalformedJSON("truncated after key", #"{"a""#, "1:5", "expected ':' after object key, found end of input"),
        MalformedJSON("truncated after colon", #"{"a":"#, "1:6", "expected a value after ':' in object member, found end of input"),
        MalformedJSON("truncated after member", #"{"a":1"#, "1:7", "expected ',' or '}' after object member, found end of input"),
        MalformedJSON("truncated array", "[1,\n 2", "2:3", "expected ',' or ']' after array element, found end of input"),
        MalformedJSON("junk after member", #"{"a":1 x}"#, "1:8", "expected ',' or '}' after object member, found 'x'"),
        MalformedJSON("missing comma in array", "[1 2]", "1:4", "expected ',' or ']' after array element, found '2'"),
        MalformedJSON("trailing comma in array", "[1,\n  2,\n  ]", "2:4",
                      "trailing comma before ']': JSON allows no comma after the last element of an array; remove it"),
        MalformedJSON("trailing comma in object", #"{"a":1,}"#, "1:7",
                      "trailing comma before '}': JSON allows no comma after the last member of an object; remove it"),
        MalformedJSON("comma then a spaced }", "{\"a\":1,\n}", "1:7",
                      "trailing comma before '}': JSON allows no comma after the last member of an object; remove it"),
        MalformedJSON("two commas in an object", #"{"a":1,,}"#, "1:8", "expected a string key after ',' in object, found ','"),
        MalformedJSON("unquoted key", "{a: 1}", "1:2", "expected a string key or '}' in object, found 'a'"),
        MalformedJSON("single-quoted key", "{'a': 1}", "1:2", "expected a string key or '}' in object, found \"'\""),
        MalformedJSON("array closed by }", "[1}", "1:3", "expected ',' or ']' after array element, found '}'"),
        MalformedJSON("truncated literal", "tru", "1:1", "expected 'true', found 'tru'"),
        MalformedJSON("truncated null in array", "[nul]", "1:2", "expected 'null', found 'nul'"),
        MalformedJSON("capitalised literal", "True", "1:1", "expected a JSON value, found 'True'"),
        MalformedJSON("literal with suffix", "[falsey]", "1:2", "expected a value or ']', found 'falsey'"),
        MalformedJSON("NaN", "NaN", "1:1", "expected a JSON value, found 'NaN'"),
        MalformedJSON("plus sign", "+1", "1:1", "expected a JSON value, found '+'"),
        MalformedJSON("leading dot", "[.5]", "1:2", "expected a value or ']', found '.'"),
        MalformedJSON("leading zero", "01", "1:1", "leading zeros are not allowed, found '01'"),
        MalformedJSON("negative leading zero", #"{"n": -007}"#, "1:7", "leading zeros are not allowed, found '-007'"),
        MalformedJSON("lone minus", "-", "1:2", "expected a digit after '-', found end of input"),
        MalformedJSON("minus letter", "-x", "1:2", "expected a digit after '-', found 'x'"),
        MalformedJSON("dot without digits", "1.", "1:3", "expected a digit after '.', found end of input"),
        MalformedJSON("exponent without digits", "1e+", "1:4", "expected a digit in the exponent, found end of input"),
        MalformedJSON("trailing content", "{} {}", "1:4", "trailing content after the JSON value, found '{'"),
        MalformedJSON("vertical tab is not whitespace", "[1]\u{0B}", "1:4", "trailing content after the JSON value, found U+000B"),
        MalformedJSON("smart quotes", "[“x”]", "1:2", "expected a value or ']', found '“' (U+201C)"),
        MalformedJSON("column counts scalars", #"{"é": 1 x"#, "1:9", "expected ',' or '}' after object member, found 'x'"),
        MalformedJSON("CRLF lines", "\r\n\r\n x", "3:2", "expected a JSON value, found 'x'"),
        MalformedJSON("lone CR lines", "[\r1\rx", "3:1", "expected ',' or ']' after array element, found 'x'"),
        MalformedJSON("unterminated string", #"["abc"#, "1:2", "unterminated string: the input ends before its closing '\"'"),
        MalformedJSON("unterminated after backslash", #""\"#, "1:1", "unterminated string: the input ends before its closing '\"'"),
        MalformedJSON("bad escape", #""a\qb""#, "1:3",
                      #"invalid escape '\q' in string; expected \" \\ \/ \b \f \n \r \t or \u and 4 hex digits"#),
        MalformedJSON("escaped newline", "\"\\\n\"", "1:2",
                      #"invalid escape '\' followed by U+000A in string; expected \" \\ \/ \b \f \n \r \t or \u and 4 hex digits"#),
        MalformedJSON("bad hex", #""\u12G4""#, "1:6", #"expected 4 hex digits after \u, found 'G'"#),
        MalformedJSON("truncated hex", #""\u12"#, "1:6", #"expected 4 hex digits after \u, found end of input"#),
        MalformedJSON("lone high surrogate", #"["\uD800"]"#, "1:3", #"lone surrogate \uD800"#),
        MalformedJSON("lone low surrogate", #""x\udc00""#, "1:3", #"lone surrogate \uDC00"#),
        MalformedJSON("high surrogate then non-low", #""\uD800\u0041""#, "1:2", #"lone surrogate \uD800"#),
        MalformedJSON("raw newline in string", "\"a\nb\"", "1:3", "control character U+000A in string must be escaped"),
        MalformedJSON("raw tab in string", "[\"é\t\"]", "1:4", "control character U+0009 in string must be escaped"),
        MalformedJSON("raw NUL in string", [0x22, 0x00, 0x22], "1:1",
                      "the file must be UTF-8, but it has NUL bytes between characters, as UTF-16 or UTF-32 text does"),
        MalformedJSON("raw NUL later in string", [0x20, 0x20, 0x22, 0x61, 0x00, 0x22], "1:5",
                      "control character U+0000 in string must be escaped"),
        MalformedJSON("invalid byte 0xFF in string", [0x22, 0xFF, 0x22], "1:2", "invalid UTF-8 byte 0xFF"),
        MalformedJSON("invalid byte outside strings", [0x5B, 0xFF, 0x5D], "1:2", "invalid UTF-8 byte 0xFF"),
        MalformedJSON("stray continuation byte", [0x22, 0x61, 0x80, 0x22], "1:3", "invalid UTF-8 byte 0x80"),
        MalformedJSON("overlong encoding of '/'", [0x22, 0xC0, 0xAF, 0x22], "1:2", "invalid UTF-8 byte 0xC0"),
        MalformedJSON("truncated sequence", [0x22, 0xE2, 0x82, 0x22], "1:2", "invalid UTF-8 sequence starting with byte 0xE2"),
        MalformedJSON("encoded surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], "1:2", "invalid UTF-8 sequence starting with byte 0xED"),
        MalformedJSON("beyond U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "1:2", "invalid UTF-8 sequence starting with byte 0xF4"),
        MalformedJSON("UTF-16 LE BOM", [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], "1:1",
                      "the file must be UTF-8, but it starts with a UTF-16 (little-endian) byte-order mark"),
        MalformedJSON("UTF-16 BE BOM", [0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D], "1:1",
                      "the file must be UTF-8, but it starts with a UTF-16 (big-endian) byte-order mark"),
        MalformedJSON("UTF-32 LE BOM", [0xFF, 0xFE, 0x00, 0x00, 0x5B, 0x00, 0x00, 0x00], "1:1",
                      "the file must be UTF-8, but it starts with a UTF-32 (little-endian) byte-order mark"),
        MalformedJSON("UTF-32 BE BOM", [0x00, 0x00, 0xFE, 0xFF], "1:1",
                      "the file must be UTF-8, but it starts with a UTF-32 (big-endian) byte-order mark"),
        MalformedJSON("UTF-16 without BOM", [0x7B, 0x00, 0x7D, 0x00], "1:1",
                      "the file must be UTF-8, but it has NUL bytes between characters, as UTF-16 or UTF-32 text does"),
        MalformedJSON("UTF-8 BOM then UTF-16 text", [0xEF, 0xBB, 0xBF, 0x00, 0x5B], "1:1",
                      "the file must be UTF-8, but it has NUL bytes between characters, as UTF-16 or UTF-32 text does"),
        MalformedJSON("BOM only", [0xEF, 0xBB, 0xBF], "1:1", "empty document"),
        MalformedJSON("duplicate key", #"{"a":1,"a":2}"#, "1:8", #"duplicate key "a" (first at 1:2)"#),
        MalformedJSON("duplicate key on another line", "{\n  \"x\": 1,\n  \"y\": {},\n  \"x\": 2\n}", "4:3",
                      #"duplicate key "x" (first at 2:3)"#),
        MalformedJSON("duplicate key via escape", #"{"ab": 1, "\u0061b": 2}"#, "1:11", #"duplicate key "ab" (first at 1:2)"#),
        MalformedJSON("keys that differ only by normalisation", "{\"\u{E9}\": 1, \"e\u{301}\": 2}", "1:10",
                      "keys \"e\u{301}\" and \"\u{E9}\" (at 1:2) differ only by Unicode normalisation (U+0065 U+0301 here, U+00E9 there): "
                        + "they look the same but are different keys; write both the same way"),
        MalformedJSON("the Kelvin sign and K", "{\"K\": 1, \"\u{212A}\": 2}", "1:10",
                      "keys \"\u{212A}\" and \"K\" (at 1:2) differ only by Unicode normalisation (U+212A here, U+004B there): "
                        + "they look the same but are different keys; write both the same way"),
        MalformedJSON("the Kelvin sign and K in a large object",
                      "{" + (0..<20).map { "\"k\($0)\": 0, " }.joined() + "\"K\": 1, \"\u{212A}\": 2}", "1:200",
                      "keys \"\u{212A}\" and \"K\" (at 1:192) differ only by Unicode normalisation (U+212A here, U+004B there): "
                        + "they look the same but are different keys; write both the same way"),
        MalformedJSON("same key in sibling objects is fine, in one object not", #"[{"a":1},{"a":1,"a":1}]"#, "1:17",
                      #"duplicate key "a" (first at 1:11)"#),
        MalformedJSON("10,000 nested arrays", String(repeating: "[", count: 10_000), "1:201", "nesting deeper than 200"),
        MalformedJSON("10,000 nested objects", String(repeating: #"{"a":"#, count: 10_000), "1:1001", "nesting deeper than 200"),
        MalformedJSON("empty container past the depth limit",
                      String(repeating: "[", count: 200) + "[]" + String(repeating: "]", count: 200), "1:201",
                      "nesting deeper than 200"),
    ]

    @Test(arguments: malformed)
    func malformedInputIsRefusedWithLocationAndMessage(_ example: MalformedJSON) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(example.bytes) }
        #expect(error.message == example.error.message && error.location == example.error.location, "\(error)")
        // Keys that differ only by normalisation are well-formed JSON, refused all the same; the loader does not call them malformed.
        #expect(error.isMalformed == !error.message.contains("differ only by Unicode normalisation"))
    }

    @Test func errorDescriptionIsLineColonColumnThenMessage() {
        let error = JSONParseError(message: "empty document", location: SourceLocation(line: 3, column: 14))
        #expect(error.description == "3:14: empty document")
        #expect(SourceLocation(line: 3, column: 14).description == "3:14")
    }

    @Test func nestingUpToTheLimitParses() throws {
        let text = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        var node = try JSONParser.parse(text)
        var depth = 1
        while case .array(let elements) = node.value, let first = elements.first {
            node = first
            depth += 1
        }
        #expect(depth == 200)
        #expect(node == JSONNode(value: .array([]), location: SourceLocation(line: 1, column: 200)))
    }

    @Test func aRaisedDepthLimitIsCappedAtTheSupportedDepth() throws {
        // Given a limit far above what a parsed tree can safely be destroyed or compared at
        let limits = JSONLimits(maxDepth: 1_000_000)
        // Then 10,000 levels are still refused, at the supported depth
        let tooDeep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError(message: "nesting deeper than 1000", location: at(1, 1_001))) {
            try JSONParser.parse(tooDeep, limits: limits)
        }
        // And 1,000 levels parse, convert, render and read back
        let depth = JSONLimits.maxSupportedDepth
        let text = String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth)
        let root = try JSONParser.parse(text, limits: limits)
        var node = root
        var levels = 0
        while case .array(let elements) = node.value {
            node = elements[0]
            levels += 1
        }
        #expect(levels == depth)
        #expect(node.value == number("7", 7, 7))
        let rendered = JSON(root).rendered(pretty: false)
        #expect(rendered == text)
        #expect(try JSONParser.parse(rendered, limits: limits) == root)
    }

    @Test func sizeLimits() {
        #expect(throws: JSONParseError(message: "document is 11 bytes, larger than the limit of 10 bytes", location: at(1, 1))) {
            try JSONParser.parse(#"["abcdefg"]"#, limits: JSONLimits(maxBytes: 10))
        }
        #expect(throws: JSONParseError(message: "string longer than the limit of 4 bytes", location: at(1, 2))) {
            try JSONParser.parse(#"["abcde"]"#, limits: JSONLimits(maxStringBytes: 4))
        }
        #expect(throws: JSONParseError(message: "string longer than the limit of 4 bytes", location: at(1, 2))) {
            try JSONParser.parse(#"["ab\ncd"]"#, limits: JSONLimits(maxStringBytes: 4))
        }
        #expect(throws: Never.self) { try JSONParser.parse(#"["abcd", "ab\nc"]"#, limits: JSONLimits(maxStringBytes: 4)) }
    }

    @Test func duplicateKeysInLargeObjectsAreFound() {
        let members = (0..<100).map { #""k\#($0)": \#($0)"# } + [#""k57": 0"#]
        let text = "{" + members.joined(separator: ",\n") + "}"
        #expect(throws: JSONParseError(message: #"duplicate key "k57" (first at 58:1)"#, location: at(101, 1))) {
            try JSONParser.parse(text)
        }
    }

    @Test func aLargeDocumentParsesInOnePass() throws {
        let steps = (0..<5_000).map { #""s\#($0)": {"emits": {"e": ["k"]}, "back": \#($0 % 2 == 0)}"# }
        let text = #"{"steps": {"# + steps.joined(separator: ", ") + "}}"
        let root = try JSONParser.parse(text)
        guard case .object(let members)? = root["steps"]?.value else { return #expect(Bool(false)) }
        #expect(members.count == 5_000)
        #expect(members[4_999].value["back"]?.value == .bool(false))
    }

    /// Seeded random corruption of a valid spec: every result must be a value or an error, never a trap.
    @Test func randomCorruptionNeverTraps() throws {
        let spec = Array("""
            {"format": "authflow/1", "initial": "start", "success": ["ok"], "abort": [],
             "steps": {"start": {"back": false, "emits": {"go": ["k\\u00e9y"]}}, "ok": {"requires": ["k"]}},
             "transitions": [{"from": "start", "on": "go", "to": "ok"}], "n": -1.5e3}
            """.utf8)
        let seed: UInt64 = 0x5EED_0001
        var rng = SplitMix64(seed: seed)
        let insertable = Array(#"{}[]",:\0e-"#.utf8)
        var parsed = 0, refused = 0
        for _ in 0..<3_000 {
            var bytes = spec
            for _ in 0..<Int(rng.next() % 4 + 1) {
                let index = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: index)
                default: bytes.insert(insertable[Int(rng.next() % UInt64(insertable.count))], at: index)
                }
            }
            do {
                _ = try JSONParser.parse(bytes)
                parsed += 1
            } catch {
                refused += 1
                #expect(error.location.line >= 1 && error.location.column >= 1, "seed \(seed): \(error)")
            }
        }
        #expect(parsed + refused == 3_000)
        #expect(refused > 0)
    }
}
