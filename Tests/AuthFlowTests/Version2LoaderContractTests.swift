import AuthFlow
import Testing

/// The `authflow/2` loader's remaining mistakes, each located, and the limits of section 1 at their edges.
///
/// ``Version2LoaderErrorTests`` holds the bulk of the mistakes; these are the ones it left out, in
/// the same form: one edit of its valid spec, every issue reported in full (path, `line:column`,
/// message), and the text at `line:column` starting with the token named. The limits (1 to 64 values,
/// a counter's max from 1 to 255, at most 1,024 variants, 64 bits of values) are loaded on both sides.
@Suite struct Version2LoaderContractTests {
    typealias Base = Version2LoaderErrorTests

    static func edit(_ name: String, _ old: String, _ new: String, in json: String = Base.base,
                     _ path: String, at: String, _ token: String, _ message: String) -> Base.Case {
        Base.edit(name, old, new, in: json, path, at: at, token, message)
    }

    static let operators = Base.operators

    static let cases: [Base.Case] = [
        // data and config
        edit("values not a list", #""values": ["ok", "mfa"]"#, #""values": "ok""#,
             "$.data.answer.values", at: "9:27", #""ok""#, "values must be an array of strings, found string"),
        edit("a data key with a control character", #""email": {},"#, #""em\u0007ail": {},"#,
             #"$.data["em\u0007ail"]"#, at: "8:5", #""em\u0007ail""#,
             "data key 'em\\u{7}ail' contains U+0007, a control character; names may not contain control or invisible formatting characters"),

        // guards
        edit("atLeast naming nothing", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "atLeast": {} }"#,
             "$.steps.signIn.emits.forgot.when.atLeast", at: "20:42", "{}", "atLeast must map at least one counter to a number"),
        edit("below not an object", #""below": { "tries": 3 }"#, #""below": 3"#,
             "$.steps.signIn.emits.wrong.when.below", at: "19:79", "3", "below must map at least one counter to a number"),
        edit("any not a list", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "any": { "has": "email" } }"#,
             "$.steps.signIn.emits.forgot.when.any", at: "20:38", #"{ "has""#, "any must be an array of guards, found object"),
        edit("a guard of extension keys only", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "x-note": "one try" }"#,
             "$.steps.signIn.emits.forgot.when", at: "20:29", #"{ "x-note""#, "a guard needs one operator (\(operators))"),
        edit("a counter in in", #""when": { "in": { "recovery": ["link", "code"] } }"#, #""when": { "in": { "tries": ["1"] } }"#,
             "$.transitions[4].when.in.tries[0]", at: "35:86", #""1""#, "'tries' is a counter: test it with atLeast or below"),
        edit("equals with a value that is not a string", #""equals": { "answer": "ok" }"#, #""equals": { "answer": 1 }"#,
             "$.transitions[1].when.equals.answer", at: "32:87", "1",
             "the value of 'answer' in equals must be a string, found number; equals tests a valued key against one of its values (strings); "
                + #"a counter (declared in data with "max") is tested with atLeast or below: {"atLeast": {"answer": 1}}"#),
        // A counter compared with equals: the issue's `"equals": {"failedAttempts": 3}` said only "must be a string".
        edit("equals with a counter and a number", #""equals": { "answer": "ok" }"#, #""equals": { "tries": 3 }"#,
             "$.transitions[1].when.equals.tries", at: "32:86", "3",
             "the value of 'tries' in equals must be a string, found number; 'tries' is a counter, which equals cannot test: "
                + #"write {"atLeast": {"tries": 3}} (3 or more) or {"below": {"tries": 3}} (fewer than 3)"#),
        edit("set with a counter and a number", #""set": { "answer": "ok" }"#, #""set": { "tries": 1 }"#,
             "$.steps.mfa.emits.confirm.set.tries", at: "24:56", "1",
             "the value of 'tries' in set must be a string, found number; 'tries' is a counter: increment it, or clear it to 0"),
        edit("set with a valued key and a number", #""set": { "answer": "ok" }"#, #""set": { "answer": 1 }"#,
             "$.steps.mfa.emits.confirm.set.answer", at: "24:57", "1",
             #"the value of 'answer' in set must be a string, found number; a valued key's values are strings: write "1""#),
        edit("equals not an object", #""equals": { "answer": "ok" }"#, #""equals": ["answer", "ok"]"#,
             "$.transitions[1].when.equals", at: "32:75", #"["answer""#, "equals must be an object mapping keys to values, found array"),
        edit("a row guard that is a list", #""when": { "equals": { "answer": "ok" } }"#, #""when": [{ "has": "answer" }]"#,
             "$.transitions[1].when", at: "32:63", #"[{ "has""#, "a guard must be an object with one operator (\(operators)), found array"),

        // emissions and their effects
        edit("an emission that is a number", #""cancel": []"#, #""cancel": 3"#,
             "$.steps.recover.emits.cancel", at: "25:39", "3", "the data keys of event 'cancel' must be an array of strings, found number"),
        edit("clears not a list", #""clears": ["email"]"#, #""clears": "email""#,
             "$.steps.signIn.emits.restart.clears", at: "21:32", #""email""#, "clears must be an array of strings, found string"),
        edit("increment not a list", #""increment": ["tries"]"#, #""increment": "tries""#,
             "$.steps.signIn.emits.wrong.increment", at: "19:33", #""tries""#, "increment must be an array of strings, found string"),
        edit("a key added and set", #""adds": ["answer"]"#, #""adds": ["answer"], "set": { "answer": "ok" }"#,
             "$.steps.signIn.emits.submit.set.answer", at: "18:60", #""ok""#, "'answer' is named twice in this emission's effects"),
        edit("a counter incremented twice", #""increment": ["tries"]"#, #""increment": ["tries", "tries"]"#,
             "$.steps.signIn.emits.wrong.increment[1]", at: "19:43", #""tries""#, "'tries' is named twice in this emission's effects"),
        edit("optional not a list", #""optional": ["hint"]"#, #""optional": "hint""#,
             "$.steps.signIn.optional", at: "16:19", #""hint""#, "optional must be an array of strings, found string"),
        edit("a misspelt step key", #""optional": ["hint"]"#, #""optinal": ["hint"]"#,
             "$.steps.signIn.optinal", at: "16:7", #""optinal""#,
             "unknown key 'optinal' (did you mean 'optional'?); allowed: \(SpecKeys.allowed(SpecKeys.step(version: 2)))"),

        // rows and anywhere
        edit("a misspelt row key", #""to": "start", "clears": ["password"]"#, #""to": "start", "claers": ["password"]"#,
             "$.transitions[5].claers", at: "36:57", #""claers""#,
             "unknown key 'claers' (did you mean 'clears'?); allowed: \(SpecKeys.allowed(SpecKeys.transition(version: 2)))"),
        edit("anywhere without to", #"{ "on": "timeout", "to": "expired", "by""#, #"{ "on": "timeout", "by""#,
             "$.anywhere[0].to", at: "43:5", #"{ "on""#, "missing required key 'to'"),
        edit("anywhere on not a string", #""on": "timeout""#, #""on": 5"#,
             "$.anywhere[0].on", at: "43:13", "5", "on must be a string, found number"),
        edit("anywhere except not a list", #""except": ["start", "expired"]"#, #""except": "start""#,
             "$.anywhere[0].except", at: "43:67", #""start""#, "except must be an array of strings, found string"),
        edit("anywhere adding a config key", #""except": ["start", "expired"]"#, #""except": ["start", "expired"], "adds": ["recovery"]"#,
             "$.anywhere[0].adds[0]", at: "43:98", #""recovery""#,
             "'recovery' is a config key, fixed when the flow starts; no step may change it"),
        edit("anywhere incrementing a presence key", #""except": ["start", "expired"]"#, #""except": ["start", "expired"], "increment": ["email"]"#,
             "$.anywhere[0].increment[0]", at: "43:103", #""email""#, "'email' is not a counter (declare it in data with \"max\")"),
        edit("anywhere setting a value outside the domain", #""except": ["start", "expired"]"#,
             #""except": ["start", "expired"], "set": { "answer": "maybe" }"#,
             "$.anywhere[0].set.answer", at: "43:108", #""maybe""#, "'maybe' is not a value of 'answer' (values: ok, mfa)"),
        edit("anywhere clearing an unknown key", #""except": ["start", "expired"]"#, #""except": ["start", "expired"], "clears": ["emial"]"#,
             "$.anywhere[0].clears[0]", at: "43:100", #""emial""#, "'emial' is not a data key of this flow"),
        edit("a misspelt top-level key", #""data": {"#, #""datas": {"#,
             "$.datas", at: "7:3", #""datas""#,
             "unknown key 'datas' (did you mean 'data'?); allowed: \(SpecKeys.allowed(SpecKeys.topLevel(version: 2)))"),
    ]

    @Test(arguments: cases)
    func everyOtherVersion2MistakeIsReportedWhereItIs(_ broken: Base.Case) {
        let found = Base.issues(broken.json)
        let shown = found.map { "\($0.location.map(String.init(describing:)) ?? "-") \($0.path): \($0.message)" }
        #expect(shown == broken.expected.map(\.description))
        for expected in broken.expected {
            let parts = expected.at.split(separator: ":").compactMap { Int($0) }
            let location = AuthFlow.SourceLocation(line: parts[0], column: parts[1])
            #expect(String(Base.text(broken.json, at: location)).hasPrefix(expected.token),
                    "\(expected.at) is '\(String(Base.text(broken.json, at: location)))', not '\(expected.token)…'")
        }
    }

    @Test func noCaseRepeatsOneOfTheOtherSuite() {
        let names = Self.cases.map(\.name) + Base.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Set(Self.cases.map(\.json)).isDisjoint(with: Base.all.map(\.json)))
    }

    // MARK: The limits of section 1, at their edges

    /// `Base.base` with `old` replaced by `new`: its issues' messages.
    static func messages(_ old: String, _ new: String) -> [String] {
        precondition(Base.base.components(separatedBy: old).count == 2, "'\(old)' must occur exactly once")
        return Base.issues(Base.base.replacingOccurrences(of: old, with: new)).map(\.message)
    }

    @Test func aValuedKeyTakesOneToSixtyFourValues() {
        let values = #""values": ["ok", "mfa"]"#
        let list = { (count: Int) in #""values": ["ok", "mfa""# + (2..<count).map { #", "v\#($0)""# }.joined() + "]" }
        #expect(Self.messages(values, #""values": ["ok"]"#) == [])
        #expect(Self.messages(values, list(64)) == [])
        #expect(Self.messages(values, list(65)) == ["a key takes 1 to 64 values, found 65"])
        // A config key too: one value is a flow with one variant.
        #expect(Self.messages(#""recovery": ["code", "link"]"#, #""recovery": ["code", "link"], "single": ["only"]"#) == [])
    }

    @Test func aCountersMaxIsFromOneTo255() {
        // With max 1, the guards' bounds 3 are out of range; with 255 they are not.
        #expect(Self.messages(#""max": 3"#, #""max": 1"#) == [
            "'tries' counts from 0 to 1; 3 is out of range",
        ])
        #expect(Self.messages(#""max": 3"#, #""max": 255"#) == [])
        #expect(Self.messages(#""max": 3"#, #""max": 0"#) == ["a counter's max must be from 1 to 255, found 0"])
        #expect(Self.messages(#""max": 3"#, #""max": 256"#) == ["a counter's max must be from 1 to 255, found 256"])
    }

    @Test func aFlowHasAtMost1024Variants() throws {
        let config = #""config": { "recovery": ["code", "link"] }"#
        let flags = { (count: Int) in (0..<count).map { #", "f\#($0)": ["on", "off"]"# }.joined() }
        // 2 × 2^9 = 1,024 variants: loaded, one root each.
        let most = Base.base.replacingOccurrences(of: config, with: #""config": { "recovery": ["code", "link"]"# + flags(9) + " }")
        #expect(try SpecLoader.load(json: most).roots.count == 1_024)
        // 3 × 3 × 3 × 3 × 3 × 5 = 1,215: refused at the key that passes 1,024, not only at powers of two.
        let over = Base.base.replacingOccurrences(
            of: config, with: #""config": { "recovery": ["code", "link", "sms"], "a": ["1", "2", "3"], "b": ["1", "2", "3"], "#
                + #""c": ["1", "2", "3"], "d": ["1", "2", "3"], "e": ["1", "2", "3", "4", "5"] }"#)
        #expect(Base.issues(over).map { "\($0.path): \($0.message)" }
                == ["$.config.e: the config keys make more than 1024 variants; a flow is checked in every one"])
    }

    @Test func theValuedKeysAndCountersShareSixtyFourBits() {
        // answer 1 bit, tries 2, recovery 1, seven counters of 8, and d: 4 bits make 64, 5 bits make 65.
        let counters = (0..<7).map { #""c\#($0)": { "max": 255 }, "# }.joined()
        let declaration = #""tries": { "max": 3 }"#
        #expect(Self.messages(declaration, declaration + ", " + counters + #""d": { "max": 15 }"#) == [])
        #expect(Self.messages(declaration, declaration + ", " + counters + #""d": { "max": 16 }"#)
                == ["the valued keys and counters need 65 bits; a flow's may take at most 64"])
    }

    @Test func aResetRowMayLeaveATerminalStateAndAnUnguardedRowMayFollowGuardedOnes() {
        // The base's signOut row is a reset out of the success state `done`, and its submit rows are a guarded row
        // followed by an unguarded one: both load. A second unguarded row to the same target is only a warning.
        #expect(Base.issues(Base.base).isEmpty)
        let duplicate = #"    { "from": "signIn", "on": "submit", "to": "mfa" },"#
        let json = Base.base.replacingOccurrences(of: duplicate, with: duplicate + "\n" + duplicate)
        let warnings = (try? SpecLoader.load(json: json))?.warnings.map(\.message) ?? ["not loaded"]
        #expect(warnings.count == 1 && warnings[0].hasPrefix("duplicate of transitions[2]"), "\(warnings)")
    }
}
