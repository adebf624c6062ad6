@testable import AuthFlow
import Foundation
import Testing

/// One hostile input for the spec loader and the exact first problem it must be reported with.
///
/// The bytes are built when the case runs (some are megabytes), never read from the repository.
struct HostileSpec: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: @Sendable () -> [UInt8]
    /// The first issue, whole: path, location and message.
    var first: SpecIssue

    init(_ name: String, _ text: @autoclosure @escaping @Sendable () -> String, _ path: String, _ location: (Int, Int)?, _ message: String) {
        self.init(name, bytes: Array(text().utf8), path, location, message)
    }

    init(_ name: String, bytes: @autoclosure @escaping @Sendable () -> [UInt8], _ path: String, _ location: (Int, Int)?, _ message: String) {
        self.name = name
        self.bytes = bytes
        self.first = SpecIssue(path: path, location: location.map { AuthFlow.SourceLocation(line: $0.0, column: $0.1) }, message: message)
    }

    var testDescription: String { name }
}

/// Builders for hostile specs around one small valid flow.
enum Hostile {
    /// A valid flow on one line: `a --go--> b`, `b` a success state.
    static let minimal =
        #"{"format":"authflow/1","initial":"a","success":["b"],"abort":[],"steps":{"a":{"emits":{"go":[]}},"b":{}},"transitions":[{"from":"a","on":"go","to":"b"}]}"#

    /// `minimal` with one replacement, which must apply exactly once.
    static func minimal(replacing target: String, with replacement: String) -> String {
        precondition(minimal.components(separatedBy: target).count == 2, "'\(target)' is not in the minimal spec exactly once")
        return minimal.replacingOccurrences(of: target, with: replacement)
    }

    /// A flow whose steps are `steps` (JSON members), with `s0` initial and no terminal states.
    static func flow(steps: String, transitions: String = "", extra: String = "") -> String {
        #"{"format":"authflow/1","initial":"s0","success":[],"abort":[],"steps":{\#(steps)},"transitions":[\#(transitions)]\#(extra)}"#
    }

    /// A flow with `count` data keys `k0…`, each required by a step of its own.
    static func keys(_ count: Int) -> String {
        flow(steps: (0..<count).map { #""s\#($0)":{"requires":["k\#($0)"]}"# }.joined(separator: ","))
    }

    static func repeated(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

    static let longName = String(repeating: "s", count: SpecLimits.maxNameBytes + 1)
    static let longShown = String(repeating: "s", count: SpecLimits.shownNameLength) + "…(\(SpecLimits.maxNameBytes + 1) bytes)"
    static let invisible = "names may not contain control or invisible formatting characters"
    static let tooLong = "is \(SpecLimits.maxNameBytes + 1) bytes long; names may be at most \(SpecLimits.maxNameBytes) bytes"
    static let ignorable = "a default-ignorable character, drawn as nothing"
    static let lookAlike = "the two look the same but are different names; write both the same way"

    /// Why a passcode alphabet's characters are refused, as the loader and `--alphabet` say it.
    static func neverOutputs(_ which: String, _ them: String) -> String {
        "the normaliser never outputs \(which) (it uppercases letters, folds compatibility forms, makes every script's digits ASCII, "
            + "and removes whitespace, dashes, invisible characters and combining marks), so no code could hold \(them)"
    }
}

/// The spec loader on hostile input: every malformed, oversized or absurd document is refused
/// with a located message, and none traps, hangs or takes memory out of proportion.
///
/// Each case asserts the whole first issue. The end-to-end half (the binary, files, limits,
/// memory) is `HostileInputTests` in the end-to-end target.
@Suite struct HostileSpecTests {
    static let malformedJSON: [HostileSpec] = [
        HostileSpec("empty document", "", "$", (1, 1), "malformed JSON: empty document"),
        HostileSpec("only whitespace", " \n\t\n  ", "$", (3, 3), "malformed JSON: empty document"),
        HostileSpec("truncated after a key", #"{"format": "authflow/1", "initial""#, "$", (1, 35),
                    "malformed JSON: expected ':' after object key, found end of input"),
        HostileSpec("truncated inside a string", #"{"format": "authf"#, "$", (1, 12),
                    #"malformed JSON: unterminated string: the input ends before its closing '"'"#),
        HostileSpec("truncated inside an escape", #"{"a": "x\u12"#, "$", (1, 13),
                    #"malformed JSON: expected 4 hex digits after \u, found end of input"#),
        HostileSpec("unclosed array", "[1, 2", "$", (1, 6), "malformed JSON: expected ',' or ']' after array element, found end of input"),
        HostileSpec("trailing comma in an object", #"{"a": 1,}"#, "$", (1, 8),
                    "malformed JSON: trailing comma before '}': JSON allows no comma after the last member of an object; remove it"),
        HostileSpec("trailing comma in an array", "[1,]", "$", (1, 3),
                    "malformed JSON: trailing comma before ']': JSON allows no comma after the last element of an array; remove it"),
        HostileSpec("two documents", "{} {}", "$", (1, 4), "malformed JSON: trailing content after the JSON value, found '{'"),
        HostileSpec("single quotes", "{'format': 1}", "$", (1, 2), #"malformed JSON: expected a string key or '}' in object, found "'""#),
        HostileSpec("unquoted key", "{format: 1}", "$", (1, 2), "malformed JSON: expected a string key or '}' in object, found 'f'"),
        HostileSpec("a comment", "// spec\n{}", "$", (1, 1), "malformed JSON: expected a JSON value, found '/'"),
        HostileSpec("NaN", #"{"a": NaN}"#, "$", (1, 7), "malformed JSON: expected a value after ':' in object member, found 'NaN'"),
        HostileSpec("negative Infinity", "[-Infinity]", "$", (1, 3), "malformed JSON: expected a digit after '-', found 'I'"),
        HostileSpec("leading zeros", #"{"a": 007}"#, "$", (1, 7), "malformed JSON: leading zeros are not allowed, found '007'"),
        HostileSpec("a hundred thousand leading zeros", "[" + Hostile.repeated("0", 100_000) + "]", "$", (1, 2),
                    "malformed JSON: leading zeros are not allowed, found '\(Hostile.repeated("0", 24))…'"),
        HostileSpec("a lone surrogate", #"["\uD800"]"#, "$", (1, 3), #"malformed JSON: lone surrogate \uD800"#),
        HostileSpec("an invalid escape", #"["\x41"]"#, "$", (1, 3),
                    #"malformed JSON: invalid escape '\x' in string; expected \" \\ \/ \b \f \n \r \t or \u and 4 hex digits"#),
        HostileSpec("a raw tab in a string", "{\"a\": \"x\ty\"}", "$", (1, 9), "malformed JSON: control character U+0009 in string must be escaped"),
        HostileSpec("a NUL byte where a value belongs", "{\"a\":\u{0} 1}", "$", (1, 6),
                    "malformed JSON: expected a value after ':' in object member, found U+0000"),
        HostileSpec("lines ending in CR", "{\r\"a\"\r1}", "$", (3, 1), "malformed JSON: expected ':' after object key, found '1'"),
        HostileSpec("a duplicate key", #"{"format": "authflow/1", "format": "authflow/1"}"#, "$", (1, 26),
                    #"malformed JSON: duplicate key "format" (first at 1:2)"#),
        HostileSpec("step names that differ only by normalisation, one decomposed",
                    Hostile.minimal(replacing: #""b":{}"#, with: "\"\u{E9}\":{},\"e\u{301}\":{}"), "$", (1, 105),
                    "keys \"e\u{301}\" and \"\u{E9}\" (at 1:98) differ only by Unicode normalisation (U+0065 U+0301 here, U+00E9 there): "
                        + "they look the same but are different keys; write both the same way"),
        HostileSpec("a string over 1 MiB", "[\"" + Hostile.repeated("x", (1 << 20) + 1) + "\"]", "$", (1, 2),
                    "malformed JSON: string longer than the limit of 1048576 bytes"),
    ]

    static let encoding: [HostileSpec] = [
        HostileSpec("an invalid UTF-8 byte in a string", bytes: Array(#"[""#.utf8) + [0xFF] + Array(#""]"#.utf8), "$", (1, 3),
                    "malformed JSON: invalid UTF-8 byte 0xFF"),
        HostileSpec("a truncated UTF-8 sequence", bytes: Array(#"[""#.utf8) + [0xC3] + Array(#""]"#.utf8), "$", (1, 3),
                    "malformed JSON: invalid UTF-8 sequence starting with byte 0xC3"),
        HostileSpec("an overlong UTF-8 encoding", bytes: Array(#"[""#.utf8) + [0xC0, 0xAF] + Array(#""]"#.utf8), "$", (1, 3),
                    "malformed JSON: invalid UTF-8 byte 0xC0"),
        HostileSpec("a UTF-8-encoded surrogate", bytes: Array(#"[""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]"#.utf8), "$", (1, 3),
                    "malformed JSON: invalid UTF-8 sequence starting with byte 0xED"),
        HostileSpec("a continuation byte outside strings", bytes: [0x80] + Array("{}".utf8), "$", (1, 1),
                    "malformed JSON: invalid UTF-8 byte 0x80"),
        HostileSpec("a UTF-16 byte-order mark", bytes: [0xFF, 0xFE] + Array("{}".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), "$", (1, 1),
                    "malformed JSON: the file must be UTF-8, but it starts with a UTF-16 (little-endian) byte-order mark"),
        HostileSpec("a UTF-32 byte-order mark", bytes: [0xFF, 0xFE, 0x00, 0x00, 0x7B, 0, 0, 0], "$", (1, 1),
                    "malformed JSON: the file must be UTF-8, but it starts with a UTF-32 (little-endian) byte-order mark"),
        HostileSpec("UTF-16 without a byte-order mark", bytes: [0x00, 0x7B, 0x00, 0x7D], "$", (1, 1),
                    "malformed JSON: the file must be UTF-8, but it has NUL bytes between characters, as UTF-16 or UTF-32 text does"),
        HostileSpec("a byte-order mark, then a wrong type", bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"format": 1}"#.utf8), "$.format", (1, 12),
                    "format must be a string, found number"),
        HostileSpec("two byte-order marks", bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("{}".utf8), "$", (1, 1),
                    "malformed JSON: expected a JSON value, found '\u{FEFF}' (U+FEFF)"),
    ]

    static let nesting: [HostileSpec] = [
        HostileSpec("100,000 nested arrays", Hostile.repeated("[", 100_000), "$", (1, 201), "malformed JSON: nesting deeper than 200"),
        HostileSpec("300 nested objects", Hostile.repeated(#"{"a":"#, 300), "$", (1, 1001), "malformed JSON: nesting deeper than 200"),
        HostileSpec("an extension nested one level too deep",
                    Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"x-deep":"# + Hostile.repeated("[", 200) + Hostile.repeated("]", 200)),
                    "$", (1, 273), "malformed JSON: nesting deeper than 200"),
    ]

    static let types: [HostileSpec] = [
        HostileSpec("an array for a spec", "[]", "$", (1, 1), "a spec must be an object, found array"),
        HostileSpec("null for a spec", "null", "$", (1, 1), "a spec must be an object, found null"),
        HostileSpec("a string for a spec", #""authflow/1""#, "$", (1, 1), "a spec must be an object, found string"),
        HostileSpec("an infinite number for a spec", "1e999999999", "$", (1, 1), "a spec must be an object, found number"),
        HostileSpec("an empty object", "{}", "$.format", (1, 1), "missing required key 'format'"),
        HostileSpec("format as a number", Hostile.minimal(replacing: #""format":"authflow/1""#, with: #""format":1"#), "$.format", (1, 11),
                    "format must be a string, found number"),
        HostileSpec("name as a number", Hostile.minimal(replacing: #""initial""#, with: #""name":7,"initial""#), "$.name", (1, 31),
                    "name must be a string, found number"),
        HostileSpec("steps as an array", Hostile.minimal(replacing: #""steps":{"a":{"emits":{"go":[]}},"b":{}}"#, with: #""steps":[]"#),
                    "$.steps", (1, 73), "steps must be an object mapping each state to its step, found array"),
        HostileSpec("transitions as an object", Hostile.minimal(replacing: #"[{"from":"a","on":"go","to":"b"}]"#, with: "{}"),
                    "$.transitions", (1, 120), "transitions must be an array of {from, on, to} objects, found object"),
        HostileSpec("a transition as a string", Hostile.minimal(replacing: #"{"from":"a","on":"go","to":"b"}"#, with: #""a->b""#),
                    "$.transitions[0]", (1, 121), "a transition must be an object, found string"),
        HostileSpec("a number in requires", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{"requires":[1]}"#),
                    "$.steps.b.requires[0]", (1, 115), "requires must contain only strings, found number"),
        HostileSpec("an object for an event's keys", Hostile.minimal(replacing: #""go":[]"#, with: #""go":{}"#),
                    "$.steps.a.emits.go", (1, 93), "an emission written as an object is authflow/2; in authflow/1 it is the list of keys the event adds"),
        HostileSpec("a number for an event's keys", Hostile.minimal(replacing: #""go":[]"#, with: #""go":3"#),
                    "$.steps.a.emits.go", (1, 93), "the data keys of event 'go' must be an array of strings, found number"),
        HostileSpec("back as null", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{"back":null}"#),
                    "$.steps.b.back", (1, 110), "back must be true or false, found null"),
        HostileSpec("a misspelt step key", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{"requries":[]}"#),
                    "$.steps.b.requries", (1, 103),
                    "unknown key 'requries' (did you mean 'requires'?); allowed: requires, emits, back, or any key starting with 'x-'"),
        HostileSpec("maxLength 1e999", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":{"maxLength":1e999}"#),
                    "$.passcode.maxLength", (1, 89), "maxLength must be a whole number from 0 to 4096, found 1e999"),
        HostileSpec("maxLength past Int", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":{"maxLength":99999999999999999999}"#),
                    "$.passcode.maxLength", (1, 89), "maxLength must be a whole number from 0 to 4096, found 99999999999999999999"),
        HostileSpec("maxLength of 100,000 digits",
                    Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":{"maxLength":"# + Hostile.repeated("9", 100_000) + "}"),
                    "$.passcode.maxLength", (1, 89),
                    "maxLength must be a whole number from 0 to 4096, found \(Hostile.repeated("9", 64))…(100000 bytes)"),
        HostileSpec("a negative maxLength", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":{"maxLength":-1}"#),
                    "$.passcode.maxLength", (1, 89), "maxLength must be a whole number from 0 to 4096, found -1"),
        HostileSpec("a fractional maxLength", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":{"maxLength":6.5}"#),
                    "$.passcode.maxLength", (1, 89), "maxLength must be a whole number from 0 to 4096, found 6.5"),
        HostileSpec("an empty alphabet", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":{"alphabet":""}"#),
                    "$.passcode.alphabet", (1, 88), "alphabet must not be empty"),
        HostileSpec("passcode as null", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":null"#),
                    "$.passcode", (1, 76), "passcode must be an object, found null"),
    ]

    static let limits: [HostileSpec] = [
        HostileSpec("65 data keys", Hostile.keys(65), "$.steps.s64.requires[0]", (1, 1799),
                    "a flow may use at most 64 distinct data keys; 'k64' is one too many"),
        HostileSpec("65 entries in one requires list", Hostile.flow(steps: #""s0":{"requires":["# + Array(repeating: #""k""#, count: 65).joined(separator: ",") + "]}"),
                    "$.steps.s0.requires", (1, 89), "requires lists 65 data keys; a flow may use at most 64 distinct data keys"),
        HostileSpec("a million entries in one requires list, under a long step name",
                    Hostile.flow(steps: #""\#(Hostile.longName)":{"requires":["# + Array(repeating: #""k""#, count: 1_000_000).joined(separator: ",") + "]}"),
                    "$.steps.\(Hostile.longName)", (1, 72), "state name '\(Hostile.longShown)' \(Hostile.tooLong)"),
        HostileSpec("100 secrets", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"secrets":["# + Array(repeating: #""k""#, count: 100).joined(separator: ",") + "]"),
                    "$.secrets", (1, 75), "secrets lists 100 data keys; a flow may use at most 64 distinct data keys"),
        HostileSpec("a state name over the limit", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{},"\#(Hostile.longName)":{}"#),
                    "$.steps.\(Hostile.longName)", (1, 105), "state name '\(Hostile.longShown)' \(Hostile.tooLong)"),
        HostileSpec("an event name over the limit", Hostile.minimal(replacing: #""go":[]"#, with: #""go":[],"\#(Hostile.longName)":[]"#),
                    "$.steps.a.emits.\(Hostile.longName)", (1, 96), "event name '\(Hostile.longShown)' \(Hostile.tooLong)"),
        HostileSpec("a data key over the limit", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{"requires":["\#(Hostile.longName)"]}"#),
                    "$.steps.b.requires[0]", (1, 115), "data key '\(Hostile.longShown)' \(Hostile.tooLong)"),
        HostileSpec("a transition target over the limit", Hostile.minimal(replacing: #""to":"b""#, with: #""to":"\#(Hostile.longName)""#),
                    "$.transitions[0].to", (1, 148), "state name '\(Hostile.longShown)' \(Hostile.tooLong)"),
        HostileSpec("an initial state over the limit", Hostile.minimal(replacing: #""initial":"a""#, with: #""initial":"\#(Hostile.longName)""#),
                    "$.initial", (1, 34), "state name '\(Hostile.longShown)' \(Hostile.tooLong)"),
    ]

    static let semantics: [HostileSpec] = [
        HostileSpec("an initial state that is not a step", Hostile.minimal(replacing: #""initial":"a""#, with: #""initial":"zz""#),
                    "$.initial", (1, 34), "initial state 'zz' is not a step (steps: a, b)"),
        HostileSpec("no steps", #"{"format":"authflow/1","steps":{},"initial":"a","success":[],"abort":[],"transitions":[]}"#,
                    "$.steps", (1, 32), "a flow needs at least one step"),
        HostileSpec("a non-deterministic table",
                    Hostile.minimal(replacing: #"{"from":"a","on":"go","to":"b"}"#, with: #"{"from":"a","on":"go","to":"b"},{"from":"a","on":"go","to":"a"}"#),
                    "$.transitions[1]", (1, 153), "non-deterministic: a --go--> a conflicts with transitions[0] (line 1), which goes to b"),
        HostileSpec("back in a transition", Hostile.minimal(replacing: #""on":"go""#, with: #""on":"back""#),
                    "$.transitions[0].on", (1, 138), "'back' is reserved for undo; it cannot be used in a transition"),
        HostileSpec("a terminal-escape name", Hostile.minimal(replacing: #""to":"b""#, with: #""to":"\u001b[2J""#),
                    "$.transitions[0].to", (1, 148), #"state name '\u{1B}[2J' contains U+001B, a control character; \#(Hostile.invisible)"#),
        HostileSpec("a bidi override in a name", Hostile.minimal(replacing: #""initial":"a""#, with: #""initial":"a\u202Eb""#),
                    "$.initial", (1, 34), #"state name 'a\u{202E}b' contains U+202E, an invisible formatting character; \#(Hostile.invisible)"#),
        HostileSpec("a bidi override in a step name", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{},"a\u202Eb":{"requires":[1]}"#),
                    #"$.steps["a\u202eb"]"#, (1, 105), #"state name 'a\u{202E}b' contains U+202E, an invisible formatting character; \#(Hostile.invisible)"#),
        HostileSpec("a zero-width joiner in an event name", Hostile.minimal(replacing: #""go":[]"#, with: #""go":[],"g\u200Do":[]"#),
                    #"$.steps.a.emits["g\u200do"]"#, (1, 96), #"event name 'g\u{200D}o' contains U+200D, an invisible formatting character; \#(Hostile.invisible)"#),
        HostileSpec("a DEL in a data key", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{"requires":["k\u007f"]}"#),
                    "$.steps.b.requires[0]", (1, 115), #"data key 'k\u{7F}' contains U+007F, a control character; \#(Hostile.invisible)"#),
        HostileSpec("an escape sequence in the flow's name", Hostile.minimal(replacing: #""initial""#, with: #""name":"\u001b]0;pwned\u0007","initial""#),
                    "$.name", (1, 31), #"the flow's name '\u{1B}]0;pwned\u{7}' contains U+001B, a control character; \#(Hostile.invisible)"#),
        HostileSpec("5,000 states and a reference to none of them",
                    Hostile.flow(steps: (0..<5_000).map { #""s\#($0)":{}"# }.joined(separator: ","), transitions: #"{"from":"s0","on":"e","to":"zz"}"#),
                    "$.transitions[0].to", (1, 54_005),
                    "transition target 'zz' is not a step (steps: s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, … (5000 in all))"),
    ]


    /// Names the loader must refuse for what they are made of or how they are written: invisible
    /// default-ignorable code points, and names that differ only by Unicode normalisation.
    static let names: [HostileSpec] = [
        HostileSpec("a combining grapheme joiner in a state name", Hostile.minimal(replacing: #""initial":"a""#, with: #""initial":"a\u034Fb""#),
                    "$.initial", (1, 34), #"state name 'a\u{34F}b' contains U+034F, \#(Hostile.ignorable); \#(Hostile.invisible)"#),
        HostileSpec("a Hangul filler for a step name", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{},"\u3164":{}"#),
                    #"$.steps["\u3164"]"#, (1, 105), #"state name '\u{3164}' contains U+3164, \#(Hostile.ignorable); \#(Hostile.invisible)"#),
        HostileSpec("a variation selector in a data key", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{"requires":["k\uFE0F"]}"#),
                    "$.steps.b.requires[0]", (1, 115), #"data key 'k\u{FE0F}' contains U+FE0F, \#(Hostile.ignorable); \#(Hostile.invisible)"#),
        HostileSpec("a tag character in an event name", Hostile.minimal(replacing: #""go":[]"#, with: #""go":[],"g\uDB40\uDC41":[]"#),
                    #"$.steps.a.emits["g\udb40\udc41"]"#, (1, 96), #"event name 'g\u{E0041}' contains U+E0041, an invisible formatting character; \#(Hostile.invisible)"#),
        HostileSpec("two step names, one with the Kelvin sign", Hostile.minimal(replacing: #""b":{}"#, with: #""b":{},"K":{},"\u212A":{}"#),
                    "$", (1, 112), "keys \"\u{212A}\" and \"K\" (at 1:105) differ only by Unicode normalisation (U+212A here, U+004B there): "
                        + "they look the same but are different keys; write both the same way"),
        HostileSpec("a transition target written with the Kelvin sign",
                    #"{"format":"authflow/1","initial":"a","success":["K"],"abort":[],"steps":{"a":{"emits":{"go":[]}},"K":{}},"transitions":[{"from":"a","on":"go","to":"\u212A"}]}"#,
                    "$.transitions[0].to", (1, 148), "transition target '\u{212A}' differs from step 'K' only by Unicode normalisation "
                        + "(U+212A here, U+004B there): \(Hostile.lookAlike)"),
        HostileSpec("an event written precomposed in emits and decomposed in the table",
                    #"{"format":"authflow/1","initial":"a","success":["b"],"abort":[],"steps":{"a":{"emits":{"\u00e9":[]}},"b":{}},"transitions":[{"from":"a","on":"e\u0301","to":"b"}]}"#,
                    "$.transitions[0].on", (1, 142), "event name 'e\u{301}' differs from the event '\u{E9}' only by Unicode normalisation "
                        + "(U+0065 U+0301 here, U+00E9 there): \(Hostile.lookAlike)"),
        HostileSpec("a data key written two ways",
                    #"{"format":"authflow/1","initial":"a","success":["b"],"abort":[],"steps":{"a":{"emits":{"go":["e\u0301"]}},"b":{"requires":["\u00e9"]}},"transitions":[{"from":"a","on":"go","to":"b"}]}"#,
                    "$.steps.b.requires[0]", (1, 124), "data key '\u{E9}' differs from the data key 'e\u{301}' only by Unicode normalisation "
                        + "(U+00E9 here, U+0065 U+0301 there): \(Hostile.lookAlike)"),
        HostileSpec("a value listed two ways",
                    #"{"format":"authflow/2","initial":"a","success":["b"],"abort":[],"data":{"m":{"values":["\u00e9","e\u0301"]}},"steps":{"a":{"emits":{"go":{"set":{"m":"\u00e9"}}}},"b":{}},"transitions":[{"from":"a","on":"go","to":"b"}]}"#,
                    "$.data.m.values", (1, 87), "the value 'e\u{301}' differs from the value '\u{E9}' only by Unicode normalisation "
                        + "(U+0065 U+0301 here, U+00E9 there): \(Hostile.lookAlike)"),
        HostileSpec("a /2 shorthand emission adding a counter",
                    #"{"format":"authflow/2","initial":"a","success":["b"],"abort":[],"data":{"n":{"max":2}},"steps":{"a":{"emits":{"go":["n"]}},"b":{}},"transitions":[{"from":"a","on":"go","to":"b"}]}"#,
                    "$.steps.a.emits.go[0]", (1, 117), "'n' is a counter: increment it, or clear it to 0"),
        HostileSpec("a passcode alphabet of lowercase letters", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":{"alphabet":"abc"}"#),
                    "$.passcode.alphabet", (1, 88), "the alphabet holds 'a' (U+0061), 'b' (U+0062), 'c' (U+0063); \(Hostile.neverOutputs("any of them", "them")); "
                        + #"write "ABC", as the normaliser outputs them"#),
        HostileSpec("a passcode alphabet of one space", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":{"alphabet":" "}"#),
                    "$.passcode.alphabet", (1, 88), "the alphabet holds ' ' (U+0020); \(Hostile.neverOutputs("it", "it")); "
                        + "remove it; nothing of the alphabet is left, so write the characters a code holds"),
        HostileSpec("a passcode alphabet with a dash", Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"passcode":{"alphabet":"0123456789-"}"#),
                    "$.passcode.alphabet", (1, 88), "the alphabet holds '-' (U+002D); \(Hostile.neverOutputs("it", "it")); "
                        + #"remove it: write "0123456789""#),
    ]

    static let all = malformedJSON + encoding + nesting + types + limits + semantics + names

    @Test(arguments: all)
    func isRefusedWithItsFirstProblemLocated(_ hostile: HostileSpec) {
        do {
            let model = try SpecLoader.load(bytes: hostile.bytes(), file: "hostile.json")
            Issue.record("\(hostile.name) loaded: \(model.states.count) states")
        } catch {
            #expect(error.file == "hostile.json")
            #expect(error.first == hostile.first)
            #expect(error.issues.count <= SpecLimits.maxIssues + 1)
        }
    }

    @Test func theCorpusIsLargeAndNamesAreUnique() {
        #expect(Self.all.count >= 40)
        #expect(Set(Self.all.map(\.name)).count == Self.all.count)
    }

    // MARK: - Inputs at the limits that must load

    @Test func limitsAreInclusive() throws {
        // 64 data keys, a name of exactly the limit, 200 levels of nesting, a 64-entry key list.
        #expect(try SpecLoader.load(json: Hostile.keys(64)).keys.count == 64)
        let name = String(repeating: "n", count: SpecLimits.maxNameBytes)
        let named = try SpecLoader.load(json: Hostile.minimal.replacingOccurrences(of: #""b""#, with: #""\#(name)""#))
        #expect(named.state(named: name) != nil)
        let deep = Hostile.minimal(replacing: #""abort":[]"#, with: #""abort":[],"x-deep":"# + Hostile.repeated("[", 199) + Hostile.repeated("]", 199))
        #expect(try SpecLoader.load(json: deep).states == ["a", "b"])
        let list = Hostile.flow(steps: #""s0":{"requires":["# + Array(repeating: #""k""#, count: 64).joined(separator: ",") + "]}")
        #expect(try SpecLoader.load(json: list).keys == ["k"])
    }

    @Test func aByteOrderMarkIsSkippedAndExtensionsAreIgnoredEverywhere() throws {
        let json = Hostile.minimal(replacing: #""b":{}"#, with: #""b":{"x-ui":{"colour":[1,{"deep":null}]}},"x-note":"ok""#)
        let model = try SpecLoader.load(bytes: [0xEF, 0xBB, 0xBF] + Array(json.utf8))
        #expect(model.states == ["a", "b"])
    }

    @Test func invisibleCharactersInNamesAreRefusedAndEscapedInPaths() {
        let json = Hostile.minimal(replacing: #""b":{}"#, with: #""b":{},"c\u0000d":{"requires":[1]},"e\u2028f":{}"#)
        #expect(throws: InvalidSpecError(file: nil, issues: [
            SpecIssue(path: #"$.steps["c\u0000d"]"#, location: AuthFlow.SourceLocation(line: 1, column: 105),
                      message: #"state name 'c\u{0}d' contains U+0000, a control character; \#(Hostile.invisible)"#),
            SpecIssue(path: #"$.steps["e\u2028f"]"#, location: AuthFlow.SourceLocation(line: 1, column: 133),
                      message: #"state name 'e\u{2028}f' contains U+2028, an invisible formatting character; \#(Hostile.invisible)"#),
        ])) { try SpecLoader.load(json: json) }
    }

    /// Every code point of Unicode's Default_Ignorable_Code_Point set is refused in a name, by its code point.
    @Test func everyDefaultIgnorableCodePointIsRefusedInNames() {
        let ranges: [ClosedRange<UInt32>] = [
            0x00AD...0x00AD, 0x034F...0x034F, 0x061C...0x061C, 0x115F...0x1160, 0x17B4...0x17B5, 0x180B...0x180F,
            0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0x3164...0x3164, 0xFE00...0xFE0F, 0xFEFF...0xFEFF,
            0xFFA0...0xFFA0, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF,
        ]
        var refused = 0
        for value in ranges.joined() {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let problem = SpecLimits.nameProblem("a\(scalar)b", what: "state name")
            #expect(problem?.contains("contains \(scalar.codePoint), ") == true, "\(scalar.codePoint): \(problem ?? "accepted")")
            if problem != nil { refused += 1 }
        }
        #expect(refused == 4_174)
        // Visible neighbours of the set stay allowed: Hangul letters, the letter before the fillers.
        for name in ["\u{3163}", "\u{1161}", "a\u{0301}", "\u{FFA1}"] {
            #expect(SpecLimits.nameProblem(name, what: "state name") == nil, "\(name.unicodeScalars.map(\.codePoint))")
        }
    }

    /// A model finds a name only as written: the Kelvin sign is not the state `K`, `é` decomposed not the event `é`.
    @Test func aModelLooksNamesUpScalarForScalar() throws {
        let json = #"{"format":"authflow/1","initial":"K","success":["b"],"abort":[],"steps":{"K":{"emits":{"\u00e9":["\u00e9"]}},"b":{}},"transitions":[{"from":"K","on":"\u00e9","to":"b"}]}"#
        let model = try SpecLoader.load(json: json)
        #expect(model.state(named: "K") != nil && model.state(named: "\u{212A}") == nil)
        #expect(model.event(named: "\u{E9}") != nil && model.event(named: "e\u{301}") == nil)
        #expect(model.key(named: "\u{E9}") != nil && model.key(named: "e\u{301}") == nil)
    }

    // MARK: - Thousands of states

    @Test func thousandsOfStatesInAChainLoad() throws {
        let count = 5_000
        let steps = (0..<count).map { #""s\#($0)":{"emits":{"next":[]}}"# }.joined(separator: ",")
        let rows = (0..<count - 1).map { #"{"from":"s\#($0)","on":"next","to":"s\#($0 + 1)"}"# }.joined(separator: ",")
        let model = try SpecLoader.load(json: Hostile.flow(steps: steps, transitions: rows))
        #expect(model.stateCount == count)
        #expect(model.rows.count == count - 1)
        let next = try #require(model.event(named: "next"))
        #expect(model.moves[count - 2].map(\.target) == [StateID(count - 1)])
        #expect(model.moves[count - 1].map(\.event) == [next])
        #expect(model.moves[count - 1].map(\.target) == [nil])
    }

    /// Regression: a flat table of states × events cells made 120,000 states each sending an
    /// event of its own ask for 57 GB and trap. The model keeps only the declared rows.
    @Test func thousandsOfStatesEachWithItsOwnEventKeepATableOfRows() throws {
        let count = 3_000   // 9,000,000 states × events
        let steps = (0..<count).map { #""s\#($0)":{"emits":{"e\#($0)":[]}}"# }.joined(separator: ",")
        let rows = (0..<count).map { #"{"from":"s\#($0)","on":"e\#($0)","to":"s\#(($0 + 1) % count)"}"# }.joined(separator: ",")
        let model = try SpecLoader.load(json: Hostile.flow(steps: steps, transitions: rows))
        #expect(model.stateCount == count && model.events.count == count)
        #expect(model.rows.count == count)
        for state in [0, 1, count / 2, count - 1] {
            let own = try #require(model.event(named: "e\(state)"))
            let other = try #require(model.event(named: "e\((state + 1) % count)"))
            let from = model.rows.filter { $0.from == StateID(state) }
            #expect(from.map(\.event) == [own] && from.map(\.to) == [StateID((state + 1) % count)])
            #expect(!from.contains { $0.event == other })
            #expect(model.moves[state].map(\.target) == [StateID((state + 1) % count)])
        }
    }

    // MARK: - Bounded reports

    @Test func aSpecWithThousandsOfProblemsListsAHundredAndCountsTheRest() throws {
        // Twelve states with names at the length limit, and 5,000 rows each naming two missing
        // states: unbounded, the messages would repeat the state list 10,000 times.
        let names = (0..<12).map { "n\($0)" + String(repeating: "_", count: SpecLimits.maxNameBytes - "n\($0)".count) }
        let steps = names.map { #""\#($0)":{}"# }.joined(separator: ",")
        let rows = Array(repeating: #"{"from":"x","on":"e","to":"y"}"#, count: 5_000).joined(separator: ",")
        let json = Hostile.flow(steps: steps, transitions: rows).replacingOccurrences(of: #""initial":"s0""#, with: #""initial":"\#(names[0])""#)
        let error = try #require(throws: InvalidSpecError.self) { try SpecLoader.load(json: json) }
        #expect(error.issues.count == SpecLimits.maxIssues + 1)
        #expect(error.issues.last == SpecIssue(path: "$", message: "9900 more problems not listed; a report lists the first 100"))
        #expect(error.issues.allSatisfy { $0.message.utf8.count < 1_200 })
        #expect(error.first.message.hasPrefix("transition source 'x' is not a step (steps: n0\(String(repeating: "_", count: 62))…(128 bytes), "))
    }

    // MARK: - Files

    /// A fresh directory for one test's files, removed afterwards.
    static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    static func fileIssue(_ path: String, maxBytes: Int = SpecLoader.defaultMaxBytes) -> SpecIssue? {
        do {
            _ = try SpecLoader.load(file: path, maxBytes: maxBytes)
            return nil
        } catch {
            #expect(error.file == path)
            return error.first
        }
    }

    @Test func filesThatAreNotSpecsAreRefusedByName() throws {
        try Self.withTemporaryDirectory { directory in
            let missing = directory.appendingPathComponent("missing.json").path
            #expect(Self.fileIssue(missing) == SpecIssue(path: SpecIssue.wholeFile, message: "no such file"))
            #expect(Self.fileIssue(directory.path) == SpecIssue(path: SpecIssue.wholeFile, message: "is a directory, not a spec file"))

            let empty = directory.appendingPathComponent("empty.json")
            try Data().write(to: empty)
            #expect(Self.fileIssue(empty.path) == SpecIssue(path: "$", location: AuthFlow.SourceLocation(line: 1, column: 1),
                                                            message: "malformed JSON: empty document"))

            let loop = directory.appendingPathComponent("loop.json")
            try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
            #expect(Self.fileIssue(loop.path) == SpecIssue(path: SpecIssue.wholeFile, message: "a loop of symbolic links (ELOOP): following them never reaches a file"))

            let dangling = directory.appendingPathComponent("dangling.json")
            try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: missing)
            #expect(Self.fileIssue(dangling.path) == SpecIssue(path: SpecIssue.wholeFile, message: "no such file"))
        }
        #expect(Self.fileIssue("/dev/null") == SpecIssue(path: "$", location: AuthFlow.SourceLocation(line: 1, column: 1),
                                                         message: "malformed JSON: empty document"))
    }

    @Test func theSizeLimitIsCheckedBeforeReadingAndWhileReading() throws {
        try Self.withTemporaryDirectory { directory in
            let spec = directory.appendingPathComponent("spec.json")
            try Data(Hostile.minimal.utf8).write(to: spec)
            let size = Hostile.minimal.utf8.count
            #expect(Self.fileIssue(spec.path, maxBytes: size) == nil)
            #expect(Self.fileIssue(spec.path, maxBytes: size - 1) == SpecIssue(path: SpecIssue.wholeFile, message: "the file is \(size) bytes; the limit is \(size - 1) bytes"))
        }
        // A device reports no size: the read stops one byte past the limit.
        #expect(Self.fileIssue("/dev/zero", maxBytes: 64) == SpecIssue(path: SpecIssue.wholeFile, message: "the file is over 64 bytes; the limit is 64 bytes"))
    }

    @Test func aSpecOverEightMebibytesIsRefusedUnread() throws {
        try Self.withTemporaryDirectory { directory in
            let big = directory.appendingPathComponent("big.json")
            _ = FileManager.default.createFile(atPath: big.path, contents: nil)
            let handle = try FileHandle(forWritingTo: big)
            try handle.truncate(atOffset: UInt64(SpecLoader.defaultMaxBytes + 1))   // sparse: nothing is written
            try handle.close()
            #expect(Self.fileIssue(big.path) == SpecIssue(path: SpecIssue.wholeFile, message: "the file is 8388609 bytes; the limit is 8388608 bytes"))
        }
    }
}

/// The passcode normaliser on what clipboards hold: every input gives a code within the policy.
@Suite struct HostilePasscodeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: @Sendable () -> String
        var policy = PasscodePolicy.default
        var expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a mebibyte of letters", input: { String(repeating: "a", count: 1 << 20) }, expected: "AAAAAA"),
        Case(name: "200,000 combining marks", input: { "1" + String(repeating: "\u{301}", count: 200_000) + "23456" }, expected: "123456"),
        Case(name: "alternating combining classes", input: { "9" + String(repeating: "\u{301}\u{316}", count: 20_000) + "87" }, expected: "987"),
        Case(name: "invalid UTF-8, repaired", input: { String(decoding: [0x31, 0x32, 0xFF, 0xC3, 0x33, 0x34], as: UTF8.self) }, expected: "1234"),
        Case(name: "a byte-order mark and full-width digits", input: { "\u{FEFF}１２３ ４５６" }, expected: "123456"),
        Case(name: "only invisible characters", input: { "\u{200B}\u{FEFF}\u{2060}\u{00AD}\u{202E}" }, expected: ""),
        Case(name: "an emoji family and a flag", input: { "👨‍👩‍👧‍👦12🇫🇷34" }, expected: "1234"),
        Case(name: "NUL and escape characters", input: { "\u{0}1\u{1B}[2J2\u{7F}3" }, expected: "12J23"),
        Case(name: "a zero maxLength", input: { "123456" }, policy: PasscodePolicy(maxLength: 0, alphabet: "0123456789"), expected: ""),
        Case(name: "an alphabet it can never output", input: { "abc ABC" }, policy: PasscodePolicy(maxLength: 6, alphabet: "abc\u{301} "), expected: ""),
        Case(name: "the longest policy", input: { String(repeating: "7", count: 10_000) },
             policy: PasscodePolicy(maxLength: 4096, alphabet: "7"), expected: String(repeating: "7", count: 4096)),
    ]

    @Test(arguments: cases)
    func normalisesWithinThePolicyAndIdempotently(_ testCase: Case) {
        let normaliser = PasscodeNormaliser(policy: testCase.policy)
        let output = normaliser.normalise(testCase.input())
        #expect(output == testCase.expected)
        #expect(Array(normaliser.normalise(output).unicodeScalars) == Array(output.unicodeScalars))
        #expect(testCase.policy.admits(output))
    }
}
