import Foundation
import PropertyTesting
import Testing
@testable import AuthFlow

@Suite struct JSONWriterTests {
    @Test(arguments: [
        ("", #""""#),
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"C:\path"#, #""C:\\path""#),
        ("a/b", #""a/b""#),
        ("line\nnext\r\ttab", #""line\nnext\r\ttab""#),
        ("\u{08}\u{0C}", #""\b\f""#),
        ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
        ("\u{7F}", "\"\u{7F}\""),
        ("é 日本 😀 e\u{301}", "\"é 日本 😀 e\u{301}\""),
        ("\u{2028}\u{FEFF}", "\"\u{2028}\u{FEFF}\""),
    ])
    func stringsAreEscapedPerRFC(text: String, rendered: String) throws {
        #expect(JSON.string(text).rendered() == rendered)
        #expect(JSON.quoted(text) == rendered)
        #expect(try JSON(JSONParser.parse(rendered)) == .string(text))
    }

    @Test(arguments: [
        (JSON.int(0), "0"),
        (.int(-42), "-42"),
        (.int(.max), "9223372036854775807"),
        (.int(.min), "-9223372036854775808"),
        (.double(2.0), "2.0"),
        (.double(-0.0), "-0.0"),
        (.double(0.004), "0.004"),
        (.double(0.1), "0.1"),
        (.double(1.0 / 3.0), "0.3333333333333333"),
        (.double(1e16), "1e+16"),
        (.double(1.5e-7), "1.5e-07"),
        (.double(.leastNonzeroMagnitude), "5e-324"),
        (.double(.greatestFiniteMagnitude), "1.7976931348623157e+308"),
        (.double(.infinity), "null"),
        (.double(-.infinity), "null"),
        (.double(.nan), "null"),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.null, "null"),
    ])
    func scalarsRenderInTheirShortestExactForm(value: JSON, rendered: String) {
        #expect(value.rendered() == rendered)
        #expect(value.rendered(pretty: false) == rendered)
    }

    static let report: JSON = [
        "spec": "Specs/example.json",
        "verdict": "violated",
        "violations": [
            [
                "property": "unmet-requirement", "state": "authenticated", "event": nil,
                "path": [["event": nil, "state": "start", "data": []]],
            ],
        ],
        "lint": ["unreachable": [], "deadTransitions": ["email.oldPath"], "unusedData": [:]],
        "stats": ["states": 7, "configurations": 10, "seconds": 0.004],
    ]

    @Test func prettyLayoutOfASmallReport() {
        #expect(Self.report.rendered() == """
            {
              "spec": "Specs/example.json",
              "verdict": "violated",
              "violations": [
                {
                  "property": "unmet-requirement",
                  "state": "authenticated",
                  "event": null,
                  "path": [
                    {
                      "event": null,
                      "state": "start",
                      "data": []
                    }
                  ]
                }
              ],
              "lint": {
                "unreachable": [],
                "deadTransitions": [
                  "email.oldPath"
                ],
                "unusedData": {}
              },
              "stats": {
                "states": 7,
                "configurations": 10,
                "seconds": 0.004
              }
            }
            """)
    }

    @Test func compactLayoutHasNoWhitespace() {
        #expect(Self.report.rendered(pretty: false) == #"""
            {"spec":"Specs/example.json","verdict":"violated","violations":[{"property":"unmet-requirement","state":"authenticated","event":null,"path":[{"event":null,"state":"start","data":[]}]}],"lint":{"unreachable":[],"deadTransitions":["email.oldPath"],"unusedData":{}},"stats":{"states":7,"configurations":10,"seconds":0.004}}
            """#)
    }

    @Test func renderThenParseGivesBackTheValue() throws {
        for pretty in [true, false] {
            let text = Self.report.rendered(pretty: pretty)
            #expect(try JSON(JSONParser.parse(text)) == Self.report)
        }
    }

    @Test func seededRandomValuesRoundTrip() throws {
        let seed: UInt64 = 0xA11CE
        var rng = SplitMix64(seed: seed)
        for round in 0..<300 {
            let value = Self.randomJSON(depth: 4, using: &rng)
            for pretty in [true, false] {
                let text = value.rendered(pretty: pretty)
                let back = try JSON(JSONParser.parse(text))
                #expect(back == value, "seed \(seed), round \(round), pretty \(pretty): \(text)")
                #expect(back.rendered(pretty: pretty) == text, "seed \(seed), round \(round): not byte-identical")
            }
        }
    }

    /// A random finite JSON value; object keys are unique.
    static func randomJSON(depth: Int, using rng: inout SplitMix64) -> JSON {
        let pieces = ["a", "é", "\"", "\\", "\n", "\u{1}", "日", "😀", " ", "/", "\u{7F}", "x-", "\u{2028}"]
        func text() -> String {
            (0..<Int(rng.next() % 6)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        }
        switch rng.next() % (depth > 0 ? 8 : 6) {
        case 0: return .null
        case 1: return .bool(rng.next() % 2 == 0)
        case 2: return .int(Int(truncatingIfNeeded: rng.next()) >> Int(rng.next() % 64))
        case 3:
            let d = Double(bitPattern: rng.next())
            return .double(d.isFinite ? d : Double(rng.next() % 1000) / 8)
        case 4, 5: return .string(text())
        case 6: return .array((0..<Int(rng.next() % 4)).map { _ in randomJSON(depth: depth - 1, using: &rng) })
        default:
            var object = JSONObject()
            for _ in 0..<Int(rng.next() % 4) { object[text()] = randomJSON(depth: depth - 1, using: &rng) }
            return .object(object)
        }
    }

    @Test(arguments: [
        ("2", JSON.int(2)),
        ("-0", .int(0)),
        ("2.0", .double(2)),
        ("1e2", .double(100)),
        ("0.004", .double(0.004)),
        ("9223372036854775808", .double(9223372036854775808.0)),
        ("1e999", .null),
    ])
    func parsedNumbersBecomeIntOnlyWhenWrittenAsIntegers(literal: String, value: JSON) throws {
        #expect(try JSON(JSONParser.parse(literal)) == value)
    }

    @Test func objectsKeepInsertionOrderAndUpdateInPlace() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = "replaced"
        object["a"] = nil
        object["missing"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(JSON.object(object).rendered(pretty: false) == #"{"b":"replaced","c":3}"#)
        #expect(object["c"] == .int(3))
        #expect(JSON.object(object)["b"] == .string("replaced"))
        #expect(JSON.int(1)["b"] == nil)
    }

    @Test func objectEqualityIsOrderSensitive() {
        let ab = JSONObject([("a", 1), ("b", 2)])
        #expect(ab == ["a": 1, "b": 2])
        #expect(ab != ["b": 2, "a": 1])
        #expect(ab != ["a": 1])
        #expect(JSON.int(2) != JSON.double(2))
    }
}
