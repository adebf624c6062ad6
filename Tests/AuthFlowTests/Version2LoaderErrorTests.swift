import AuthFlow
import Testing

/// Every mistake an `authflow/2` file can hold, each an invalid spec with its JSON path and line:column.
///
/// Each case edits one place of a valid `/2` spec (``base``) or of a `/1` one (``version1``) and
/// lists every issue the loader reports, in full: the path, the `line:column` and the message.
/// The text at that `line:column` must start with the case's token, so a reader sees what each
/// location points at without counting columns.
@Suite struct Version2LoaderErrorTests {
    /// A valid `authflow/2` spec using every construct once: the cases break it in one place each.
    static let base = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": ["done"],
      "abort": ["cancelled"],
      "config": { "recovery": ["code", "link"] },
      "data": {
        "email": {},
        "answer": { "values": ["ok", "mfa"] },
        "tries": { "max": 3 }
      },
      "steps": {
        "start": { "back": false, "emits": { "begin": { "adds": ["email", "password"] } } },
        "signIn": {
          "requires": ["email", { "anyOf": ["password", "passkey"] }],
          "optional": ["hint"],
          "emits": {
            "submit": { "adds": ["answer"], "by": "system" },
            "wrong": { "increment": ["tries"], "by": "system", "when": { "below": { "tries": 3 } } },
            "forgot": { "when": { "atLeast": { "tries": 1 } } },
            "restart": { "clears": ["email"] }
          }
        },
        "mfa": { "emits": { "confirm": { "set": { "answer": "ok" } } } },
        "recover": { "emits": { "cancel": [] } },
        "expired": { "back": false, "emits": { "again": [] } },
        "done": { "emits": { "signOut": [] } },
        "cancelled": {}
      },
      "transitions": [
        { "from": "start", "on": "begin", "to": "signIn" },
        { "from": "signIn", "on": "submit", "to": "done", "when": { "equals": { "answer": "ok" } } },
        { "from": "signIn", "on": "submit", "to": "mfa" },
        { "from": "signIn", "on": "wrong", "to": "signIn" },
        { "from": "signIn", "on": "forgot", "to": "recover", "when": { "in": { "recovery": ["link", "code"] } } },
        { "from": "signIn", "on": "restart", "to": "start", "clears": ["password"] },
        { "from": "mfa", "on": "confirm", "to": "done" },
        { "from": "recover", "on": "cancel", "to": "cancelled" },
        { "from": "expired", "on": "again", "to": "start" },
        { "from": "done", "on": "signOut", "to": "start", "reset": true }
      ],
      "anywhere": [
        { "on": "timeout", "to": "expired", "by": "system", "except": ["start", "expired"] }
      ]
    }
    """

    /// A valid `authflow/1` spec: the `/2` keys are errors in it.
    static let version1 = """
    {
      "format": "authflow/1",
      "initial": "start",
      "success": ["done"],
      "abort": [],
      "steps": {
        "start": { "requires": [], "emits": { "go": ["email"] } },
        "done": { "requires": ["email"] }
      },
      "transitions": [
        { "from": "start", "on": "go", "to": "done" }
      ]
    }
    """

    /// A valid `authflow/2` spec with a back-only screen and one property of each kind: the intent cases break it.
    static let intent = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": ["home"],
      "abort": ["cancelled"],
      "data": { "answer": { "values": ["ok", "mfa"] }, "tries": { "max": 3 } },
      "steps": {
        "start": { "back": false, "emits": { "begin": [], "help": [] } },
        "help": { "backOnly": true },
        "signIn": {
          "emits": {
            "submit": { "adds": ["answer", "session"], "by": "system" },
            "wrong": { "increment": ["tries"], "by": "system", "when": { "below": { "tries": 3 } } },
            "cancel": []
          }
        },
        "home": { "requires": ["session"] },
        "cancelled": {}
      },
      "transitions": [
        { "from": "start", "on": "begin", "to": "signIn" },
        { "from": "start", "on": "help", "to": "help" },
        { "from": "signIn", "on": "submit", "to": "home" },
        { "from": "signIn", "on": "wrong", "to": "signIn" },
        { "from": "signIn", "on": "cancel", "to": "cancelled" }
      ],
      "properties": [
        { "id": "session-at-home", "description": "home is entered with a session",
          "always": { "any": [{ "not": { "at": ["home"] } }, { "has": "session" }] } },
        { "id": "no-mfa-at-home", "never": { "all": [{ "at": ["home"] }, { "equals": { "answer": "mfa" } }] } },
        { "id": "locked-out", "reachable": { "atLeast": { "tries": 3 } } }
      ]
    }
    """

    /// One issue as the loader must report it.
    struct Expected: CustomStringConvertible {
        var path: String
        /// `line:column`.
        var at: String
        /// What the file holds at `at`.
        var token: String
        var message: String

        var description: String { "\(at) \(path): \(message)" }
    }

    /// One broken spec and every issue it must report.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var expected: [Expected]

        var testDescription: String { name }
    }

    /// `base` with `old` (which must occur exactly once) replaced by `new`, and the one issue it must report.
    static func edit(_ name: String, _ old: String, _ new: String, in json: String = base,
                     _ path: String, at: String, _ token: String, _ message: String) -> Case {
        precondition(json.components(separatedBy: old).count == 2, "\(name): '\(old)' must occur exactly once")
        return Case(name: name, json: json.replacingOccurrences(of: old, with: new),
                    expected: [Expected(path: path, at: at, token: token, message: message)])
    }

    static let operators = SpecKeys.guardOperators.joined(separator: ", ")
    static let stepNames = "start, signIn, mfa, recover, expired, done, cancelled"

    // MARK: data and config

    static let declarations: [Case] = [
        edit("unknown data kind", #""tries": { "max": 3 }"#, #""tries": { "count": 3 }"#,
             "$.data.tries.count", at: "10:16", #""count""#,
             "unknown key 'count'; allowed: \(SpecKeys.allowed(SpecKeys.dataDeclaration))"),
        edit("a declaration that is not an object", #""email": {},"#, #""email": [],"#,
             "$.data.email", at: "8:14", "[]", "the declaration of 'email' must be an object, found array"),
        edit("no values", #""values": ["ok", "mfa"]"#, #""values": []"#,
             "$.data.answer.values", at: "9:27", "[]", "a key takes 1 to 64 values, found 0"),
        edit("a value listed twice", #""values": ["ok", "mfa"]"#, #""values": ["ok", "mfa", "ok"]"#,
             "$.data.answer.values", at: "9:27", #"["ok""#, "the value 'ok' is listed twice"),
        edit("65 values", #""values": ["ok", "mfa"]"#, #""values": ["# + (0..<65).map { "\"v\($0)\"" }.joined(separator: ", ") + "]",
             "$.data.answer.values", at: "9:27", #"["v0""#, "a key takes 1 to 64 values, found 65"),
        edit("a value that is not a string", #""values": ["ok", "mfa"]"#, #""values": ["ok", 7]"#,
             "$.data.answer.values[1]", at: "9:34", "7", "values must contain only strings, found number"),
        edit("values and max", #""answer": { "values": ["ok", "mfa"] }"#, #""answer": { "values": ["ok", "mfa"], "max": 2 }"#,
             "$.data.answer.max", at: "9:49", "2", "a key is valued ('values') or a counter ('max'), not both"),
        edit("max 0", #""max": 3"#, #""max": 0"#,
             "$.data.tries.max", at: "10:23", "0", "a counter's max must be from 1 to 255, found 0"),
        edit("max 256", #""max": 3"#, #""max": 256"#,
             "$.data.tries.max", at: "10:23", "256", "a counter's max must be from 1 to 255, found 256"),
        edit("max -1", #""max": 3"#, #""max": -1"#,
             "$.data.tries.max", at: "10:23", "-1", "a counter's max must be from 1 to 255, found -1"),
        edit("max not whole", #""max": 3"#, #""max": 2.5"#,
             "$.data.tries.max", at: "10:23", "2.5", "max must be a whole number, found 2.5"),
        edit("max a string", #""max": 3"#, #""max": "3""#,
             "$.data.tries.max", at: "10:23", #""3""#, "max must be a whole number, found '3'"),
        edit("data not an object", #""data": {"#, #""data": [], "x-data": {"#,
             "$.data", at: "7:11", "[]", "data must be an object mapping each key to its declaration, found array"),
        edit("more value bits than a frame holds", #""tries": { "max": 3 }"#,
             (0..<9).map { #""c\#($0)": { "max": 255 }"# }.joined(separator: ", "),
             "$.data", at: "7:11", "{", "the valued keys and counters need 74 bits; a flow's may take at most 64"),
        edit("config values empty", #""recovery": ["code", "link"]"#, #""recovery": []"#,
             "$.config.recovery", at: "6:27", "[]", "a key takes 1 to 64 values, found 0"),
        edit("config values listed twice", #""recovery": ["code", "link"]"#, #""recovery": ["code", "code"]"#,
             "$.config.recovery", at: "6:27", #"["code""#, "the value 'code' is listed twice"),
        edit("config values not a list", #""recovery": ["code", "link"]"#, #""recovery": "code""#,
             "$.config.recovery", at: "6:27", #""code""#,
             "the values of config key 'recovery' must be an array of strings, found string"),
        edit("config not an object", #""config": { "recovery": ["code", "link"] }"#, #""config": ["recovery"]"#,
             "$.config", at: "6:13", #"["recovery"]"#, "config must be an object mapping each key to its values, found array"),
        edit("a key in data and config", #""email": {},"#, #""email": {}, "recovery": {},"#,
             "$.config.recovery", at: "6:27", #"["code""#, "'recovery' is declared in both data and config"),
        edit("more than 1024 variants", #""config": { "recovery": ["code", "link"] }"#,
             #""config": { "recovery": ["code", "link"], "# + (0..<10).map { #""f\#($0)": ["on", "off"]"# }.joined(separator: ", ") + " }",
             "$.config.f9", at: "6:240", #"["on""#, "the config keys make more than 1024 variants; a flow is checked in every one"),
    ]

    // MARK: config keys and counters where they cannot be

    static let misuse: [Case] = [
        edit("a config key added", #""adds": ["email", "password"]"#, #""adds": ["email", "password", "recovery"]"#,
             "$.steps.start.emits.begin.adds[2]", at: "13:83", #""recovery""#,
             "'recovery' is a config key, fixed when the flow starts; no step may change it"),
        edit("a config key cleared", #""clears": ["email"]"#, #""clears": ["email", "recovery"]"#,
             "$.steps.signIn.emits.restart.clears[1]", at: "21:42", #""recovery""#,
             "'recovery' is a config key, fixed when the flow starts; no step may change it"),
        edit("a config key incremented", #""increment": ["tries"]"#, #""increment": ["recovery"]"#,
             "$.steps.signIn.emits.wrong.increment[0]", at: "19:34", #""recovery""#,
             "'recovery' is a config key, fixed when the flow starts; no step may change it"),
        edit("a config key set", #""set": { "answer": "ok" }"#, #""set": { "recovery": "link" }"#,
             "$.steps.mfa.emits.confirm.set.recovery", at: "24:59", #""link""#,
             "'recovery' is a config key, fixed when the flow starts; no step may change it"),
        edit("a config key cleared by a row", #""clears": ["password"]"#, #""clears": ["recovery"]"#,
             "$.transitions[5].clears[0]", at: "36:68", #""recovery""#,
             "'recovery' is a config key, fixed when the flow starts; no row may clear it"),
        edit("a config key cleared by an anywhere row", #""except": ["start", "expired"]"#,
             #""except": ["start", "expired"], "clears": ["recovery"]"#,
             "$.anywhere[0].clears[0]", at: "43:100", #""recovery""#,
             "'recovery' is a config key, fixed when the flow starts; no row may clear it"),
        edit("a counter required", #""requires": ["email", { "anyOf": ["password", "passkey"] }]"#,
             #""requires": ["email", { "anyOf": ["password", "passkey"] }, "tries"]"#,
             "$.steps.signIn.requires[2]", at: "15:67", #""tries""#,
             "'tries' is a counter, always defined: a step cannot require it"),
        edit("a counter in anyOf", #"{ "anyOf": ["password", "passkey"] }"#, #"{ "anyOf": ["password", "tries"] }"#,
             "$.steps.signIn.requires[1].anyOf[1]", at: "15:53", #""tries""#,
             "'tries' is a counter, always defined: anyOf cannot list it"),
        edit("a counter optional", #""optional": ["hint"]"#, #""optional": ["hint", "tries"]"#,
             "$.steps.signIn.optional[1]", at: "16:28", #""tries""#,
             "'tries' is a counter, always defined: a step reads it without listing it in optional"),
        edit("a counter added", #""adds": ["email", "password"]"#, #""adds": ["email", "tries"]"#,
             "$.steps.start.emits.begin.adds[1]", at: "13:71", #""tries""#,
             "'tries' is a counter: increment it, or clear it to 0"),
        edit("a counter set", #""set": { "answer": "ok" }"#, #""set": { "tries": "1" }"#,
             "$.steps.mfa.emits.confirm.set.tries", at: "24:56", #""1""#, "'tries' is a counter: increment it, or clear it to 0"),
        edit("a counter in has", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "has": "tries" }"#,
             "$.steps.signIn.emits.forgot.when.has", at: "20:38", #""tries""#,
             "'tries' is a counter, always defined: test it with atLeast or below"),
        edit("a counter in missing", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "missing": "tries" }"#,
             "$.steps.signIn.emits.forgot.when.missing", at: "20:42", #""tries""#,
             "'tries' is a counter, always defined: test it with atLeast or below"),
        edit("a counter in equals", #""when": { "equals": { "answer": "ok" } }"#, #""when": { "equals": { "tries": "3" } }"#,
             "$.transitions[1].when.equals.tries", at: "32:86", #""3""#, "'tries' is a counter: test it with atLeast or below"),
        edit("equals on a presence key", #""when": { "equals": { "answer": "ok" } }"#, #""when": { "equals": { "email": "a" } }"#,
             "$.transitions[1].when.equals.email", at: "32:86", #""a""#,
             "'email' is not a valued key (declare it in data with \"values\")"),
        edit("in on a presence key", #""when": { "in": { "recovery": ["link", "code"] } }"#, #""when": { "in": { "email": ["a"] } }"#,
             "$.transitions[4].when.in.email[0]", at: "35:86", #""a""#,
             "'email' is not a valued key (declare it in data with \"values\")"),
        edit("atLeast on a valued key", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "atLeast": { "answer": 1 } }"#,
             "$.steps.signIn.emits.forgot.when.atLeast.answer", at: "20:54", "1", "atLeast takes counters; 'answer' is not one"),
        edit("below on a presence key", #""when": { "below": { "tries": 3 } }"#, #""when": { "below": { "email": 3 } }"#,
             "$.steps.signIn.emits.wrong.when.below.email", at: "19:90", "3", "below takes counters; 'email' is not one"),
    ]

    // MARK: guards

    static let guards: [Case] = [
        edit("an unknown key in a guard", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "has": "emial" }"#,
             "$.steps.signIn.emits.forgot.when.has", at: "20:38", #""emial""#,
             "'emial' is not a data key of this flow"),
        edit("a value outside the domain", #""when": { "equals": { "answer": "ok" } }"#, #""when": { "equals": { "answer": "yes" } }"#,
             "$.transitions[1].when.equals.answer", at: "32:87", #""yes""#, "'yes' is not a value of 'answer' (values: ok, mfa)"),
        edit("a config value outside the domain", #""recovery": ["link", "code"] } }"#, #""recovery": ["link", "sms"] } }"#,
             "$.transitions[4].when.in.recovery[1]", at: "35:97", #""sms""#, "'sms' is not a value of 'recovery' (values: code, link)"),
        edit("a bound above max", #""below": { "tries": 3 }"#, #""below": { "tries": 4 }"#,
             "$.steps.signIn.emits.wrong.when.below.tries", at: "19:90", "4", "'tries' counts from 0 to 3; 4 is out of range"),
        edit("a bound below 0", #""atLeast": { "tries": 1 }"#, #""atLeast": { "tries": -1 }"#,
             "$.steps.signIn.emits.forgot.when.atLeast.tries", at: "20:53", "-1", "'tries' counts from 0 to 3; -1 is out of range"),
        edit("a bound that is not a number", #""atLeast": { "tries": 1 }"#, #""atLeast": { "tries": "one" }"#,
             "$.steps.signIn.emits.forgot.when.atLeast.tries", at: "20:53", #""one""#,
             "the bound of 'tries' must be a whole number, found 'one'"),
        edit("a guard with no operator", #""when": { "atLeast": { "tries": 1 } }"#, #""when": {}"#,
             "$.steps.signIn.emits.forgot.when", at: "20:29", "{}", "a guard needs one operator (\(operators))"),
        edit("a guard with two operators", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "has": "email", "missing": "hint" }"#,
             "$.steps.signIn.emits.forgot.when", at: "20:29", #"{ "has""#,
             "a guard has exactly one operator; found has, missing (combine them with \"all\" or \"any\")"),
        edit("an unknown operator", #""when": { "equals": { "answer": "ok" } }"#, #""when": { "equal": { "answer": "ok" } }"#,
             "$.transitions[1].when.equal", at: "32:65", #""equal""#,
             "unknown key 'equal' (did you mean 'equals'?); allowed: \(operators), or any key starting with 'x-'"),
        edit("'at' outside properties", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "at": ["signIn"] }"#,
             "$.steps.signIn.emits.forgot.when.at", at: "20:31", #""at""#,
             "'at' tests the state, so only a property's condition may use it; a guard of an event or a row tests the data"),
        edit("a guard that is not an object", #""when": { "atLeast": { "tries": 1 } }"#, #""when": "tries > 0""#,
             "$.steps.signIn.emits.forgot.when", at: "20:29", #""tries > 0""#,
             "a guard must be an object with one operator (\(operators)), found string"),
        edit("all not a list", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "all": { "has": "email" } }"#,
             "$.steps.signIn.emits.forgot.when.all", at: "20:38", #"{ "has""#, "all must be an array of guards, found object"),
        edit("a mistake deep in a guard", #""when": { "equals": { "answer": "ok" } }"#,
             #""when": { "any": [{ "has": "email" }, { "not": { "equals": { "answer": "maybe" } } }] }"#,
             "$.transitions[1].when.any[1].not.equals.answer", at: "32:126", #""maybe""#,
             "'maybe' is not a value of 'answer' (values: ok, mfa)"),
        edit("equals naming nothing", #""when": { "equals": { "answer": "ok" } }"#, #""when": { "equals": {} }"#,
             "$.transitions[1].when.equals", at: "32:75", "{}", "equals must name at least one key"),
        edit("in naming nothing", #""when": { "in": { "recovery": ["link", "code"] } }"#, #""when": { "in": {} }"#,
             "$.transitions[4].when.in", at: "35:74", "{}", "in must map at least one key to its values"),
        edit("in with a value that is not a list", #""in": { "recovery": ["link", "code"] }"#, #""in": { "recovery": "code" }"#,
             "$.transitions[4].when.in.recovery", at: "35:88", #""code""#,
             "the values of 'recovery' in in must be an array of strings, found string"),
        edit("a has naming a number", #""when": { "atLeast": { "tries": 1 } }"#, #""when": { "has": 1 }"#,
             "$.steps.signIn.emits.forgot.when.has", at: "20:38", "1", "has must be a string, found number"),
    ]

    // MARK: emissions and their effects

    static let effects: [Case] = [
        edit("a key cleared and added", #""clears": ["email"]"#, #""clears": ["email"], "adds": ["email"]"#,
             "$.steps.signIn.emits.restart.adds[0]", at: "21:52", #""email""#, "'email' is named twice in this emission's effects"),
        edit("a key cleared and set", #""clears": ["email"]"#, #""clears": ["answer"], "set": { "answer": "ok" }"#,
             "$.steps.signIn.emits.restart.set.answer", at: "21:63", #""ok""#, "'answer' is named twice in this emission's effects"),
        edit("a key added twice", #""adds": ["answer"]"#, #""adds": ["answer", "answer"]"#,
             "$.steps.signIn.emits.submit.adds[1]", at: "18:40", #""answer""#, "'answer' is named twice in this emission's effects"),
        edit("a counter cleared and incremented", #""increment": ["tries"]"#, #""clears": ["tries"], "increment": ["tries"]"#,
             "$.steps.signIn.emits.wrong.increment[0]", at: "19:55", #""tries""#, "'tries' is named twice in this emission's effects"),
        edit("a presence key incremented", #""increment": ["tries"]"#, #""increment": ["email"]"#,
             "$.steps.signIn.emits.wrong.increment[0]", at: "19:34", #""email""#,
             "'email' is not a counter (declare it in data with \"max\")"),
        edit("a presence key set", #""set": { "answer": "ok" }"#, #""set": { "email": "a@b.c" }"#,
             "$.steps.mfa.emits.confirm.set.email", at: "24:56", #""a@b.c""#,
             "'email' is not a valued key (declare it in data with \"values\")"),
        edit("a value set outside the domain", #""set": { "answer": "ok" }"#, #""set": { "answer": "yes" }"#,
             "$.steps.mfa.emits.confirm.set.answer", at: "24:57", #""yes""#, "'yes' is not a value of 'answer' (values: ok, mfa)"),
        edit("a set value that is not a string", #""set": { "answer": "ok" }"#, #""set": { "answer": true }"#,
             "$.steps.mfa.emits.confirm.set.answer", at: "24:57", "true", "the value of 'answer' in set must be a string, found boolean"),
        edit("set not an object", #""set": { "answer": "ok" }"#, #""set": ["answer"]"#,
             "$.steps.mfa.emits.confirm.set", at: "24:45", #"["answer"]"#, "set must be an object mapping keys to values, found array"),
        edit("an unknown effect", #""clears": ["email"]"#, #""clear": ["email"]"#,
             "$.steps.signIn.emits.restart.clear", at: "21:22", #""clear""#,
             "unknown key 'clear' (did you mean 'clears'?); allowed: \(SpecKeys.allowed(SpecKeys.emission))"),
        edit("adds not a list", #""adds": ["answer"]"#, #""adds": "answer""#,
             "$.steps.signIn.emits.submit.adds", at: "18:29", #""answer""#, "adds must be an array of strings, found string"),
        edit("an effect naming an unknown key", #""increment": ["tries"]"#, #""increment": ["trys"]"#,
             "$.steps.signIn.emits.wrong.increment[0]", at: "19:34", #""trys""#,
             "'trys' is not a data key of this flow"),
        edit("by neither user nor system", #""by": "system" },"#, #""by": "backend" },"#,
             "$.steps.signIn.emits.submit.by", at: "18:47", #""backend""#, "by must be \"user\" or \"system\", found 'backend'"),
        edit("by not a string", #""by": "system" },"#, #""by": true },"#,
             "$.steps.signIn.emits.submit.by", at: "18:47", "true", "by must be \"user\" or \"system\", found boolean"),
    ]

    // MARK: requirements

    static let requirements: [Case] = [
        edit("anyOf with a number", #""anyOf": ["password", "passkey"]"#, #""anyOf": ["password", 3]"#,
             "$.steps.signIn.requires[1].anyOf[1]", at: "15:53", "3", "anyOf must contain only strings, found number"),
        edit("anyOf with nothing", #""anyOf": ["password", "passkey"]"#, #""anyOf": []"#,
             "$.steps.signIn.requires[1].anyOf", at: "15:40", "[]", "anyOf must name at least one key"),
        edit("anyOf not a list", #""anyOf": ["password", "passkey"]"#, #""anyOf": "password""#,
             "$.steps.signIn.requires[1].anyOf", at: "15:40", #""password""#, "anyOf must be an array of strings, found string"),
        Case(name: "a requirement object without anyOf",
             json: base.replacingOccurrences(of: #""anyOf": ["password", "passkey"]"#, with: #""oneOf": ["password", "passkey"]"#),
             expected: [
                 Expected(path: "$.steps.signIn.requires[1].oneOf", at: "15:31", token: #""oneOf""#,
                          message: "unknown key 'oneOf'; allowed: \(SpecKeys.allowed(SpecKeys.requirement))"),
                 Expected(path: "$.steps.signIn.requires[1]", at: "15:29", token: #"{ "oneOf""#,
                          message: "a requirement object needs \"anyOf\": [keys]"),
             ]),
        edit("a requirement that is a number", #""requires": ["email", { "anyOf""#, #""requires": [7, { "anyOf""#,
             "$.steps.signIn.requires[0]", at: "15:20", "7", "a requirement is a data key or {\"anyOf\": [keys]}, found number"),
        edit("requires not a list", #""requires": ["email", { "anyOf": ["password", "passkey"] }]"#, #""requires": "email""#,
             "$.steps.signIn.requires", at: "15:19", #""email""#,
             "requires must be an array of data keys and {\"anyOf\": [...]} objects, found string"),
        // The positions count every item of the array, keys and anyOf lists alike.
        edit("a counter in the second of two anyOf lists", #""requires": ["email", { "anyOf": ["password", "passkey"] }]"#,
             #""requires": [{ "anyOf": ["password", "passkey"] }, { "anyOf": ["email", "tries"] }, "email"]"#,
             "$.steps.signIn.requires[1].anyOf[1]", at: "15:79", #""tries""#,
             "'tries' is a counter, always defined: anyOf cannot list it"),
        edit("a counter key after anyOf lists", #""requires": ["email", { "anyOf": ["password", "passkey"] }]"#,
             #""requires": [{ "anyOf": ["password"] }, { "anyOf": ["passkey", "email"] }, "tries"]"#,
             "$.steps.signIn.requires[2]", at: "15:82", #""tries""#, "'tries' is a counter, always defined: a step cannot require it"),
    ]

    // MARK: rows and anywhere

    static let rows: [Case] = [
        edit("a reset row that does not go to the initial state", #""to": "start", "reset": true"#, #""to": "signIn", "reset": true"#,
             "$.transitions[9].to", at: "40:46", #""signIn""#,
             "a reset row starts the flow again: its 'to' must be the initial state 'start'"),
        edit("two unguarded rows to different states", #"    { "from": "signIn", "on": "submit", "to": "mfa" },"#,
             #"    { "from": "signIn", "on": "submit", "to": "mfa" }, { "from": "signIn", "on": "submit", "to": "recover" },"#,
             "$.transitions[3]", at: "33:56", #"{ "from": "signIn", "on": "submit", "to": "recover""#,
             "non-deterministic: signIn --submit--> recover conflicts with transitions[2] (line 33), which goes to mfa"),
        edit("reset not a bool", #""reset": true"#, #""reset": "yes""#,
             "$.transitions[9].reset", at: "40:64", #""yes""#, "reset must be true or false, found string"),
        edit("a row clearing an unknown key", #""clears": ["password"]"#, #""clears": ["pasword"]"#,
             "$.transitions[5].clears[0]", at: "36:68", #""pasword""#,
             "'pasword' is not a data key of this flow (did you mean 'password'?)"),
        edit("a row guard on an unknown key", #""when": { "equals": { "answer": "ok" } }"#, #""when": { "has": "session" }"#,
             "$.transitions[1].when.has", at: "32:72", #""session""#, "'session' is not a data key of this flow"),
        edit("anywhere except naming an unknown state", #""except": ["start", "expired"]"#, #""except": ["start", "expird"]"#,
             "$.anywhere[0].except[1]", at: "43:77", #""expird""#, "excepted state 'expird' is not a step; did you mean 'expired'? (steps: \(stepNames))"),
        edit("anywhere to an unknown state", #""to": "expired", "by""#, #""to": "expiry", "by""#,
             "$.anywhere[0].to", at: "43:30", #""expiry""#, "anywhere target 'expiry' is not a step; did you mean 'expired'? (steps: \(stepNames))"),
        edit("anywhere on back", #""on": "timeout""#, #""on": "back""#,
             "$.anywhere[0].on", at: "43:13", #""back""#, "'back' is reserved for undo; it cannot be used in a transition"),
        edit("anywhere without on", #"{ "on": "timeout", "to": "expired""#, #"{ "to": "expired""#,
             "$.anywhere[0].on", at: "43:5", #"{ "to""#, "missing required key 'on'"),
        edit("anywhere with an unknown key", #""except": ["start", "expired"]"#, #""unless": ["start", "expired"]"#,
             "$.anywhere[0].unless", at: "43:57", #""unless""#,
             "unknown key 'unless'; allowed: \(SpecKeys.allowed(SpecKeys.anywhere))"),
        edit("anywhere by neither user nor system", #""by": "system", "except""#, #""by": "server", "except""#,
             "$.anywhere[0].by", at: "43:47", #""server""#, "by must be \"user\" or \"system\", found 'server'"),
        edit("anywhere with a guard on an unknown value", #""by": "system", "except""#,
             #""by": "system", "when": { "equals": { "answer": "no" } }, "except""#,
             "$.anywhere[0].when.equals.answer", at: "43:89", #""no""#, "'no' is not a value of 'answer' (values: ok, mfa)"),
        edit("anywhere effects naming a key twice", #""by": "system", "except""#,
             #""by": "system", "adds": ["hint"], "set": { "hint": "x" }, "except""#,
             "$.anywhere[0].set.hint", at: "43:92", #""x""#, "'hint' is named twice in this emission's effects"),
        edit("two anywhere entries for one event", #"{ "on": "timeout", "to": "expired", "by": "system", "except": ["start", "expired"] }"#,
             #"{ "on": "timeout", "to": "expired", "by": "system", "except": ["start", "expired"] }, { "on": "timeout", "to": "start" }"#,
             "$.anywhere[1].on", at: "43:99", #""timeout""#,
             "anywhere[0] already handles 'timeout'; combine the two entries, or give the states their own rows"),
        edit("anywhere not a list", #""anywhere": ["#, #""x-old": [{}], "anywhere": {}, "x-anywhere": ["#,
             "$.anywhere", at: "42:30", "{}", "anywhere must be an array of {on, to, ...} objects, found object"),
    ]

    // MARK: authflow/1 files refuse every /2 key

    static let inVersion1: [Case] = [
        edit("data in /1", #""abort": [],"#, #""abort": [], "data": { "email": {} },"#, in: version1,
             "$.data", at: "5:24", "{", "'data' is an authflow/2 key; this file's format is authflow/1"),
        edit("config in /1", #""abort": [],"#, #""abort": [], "config": { "ab": ["a", "b"] },"#, in: version1,
             "$.config", at: "5:26", "{", "'config' is an authflow/2 key; this file's format is authflow/1"),
        edit("anywhere in /1", #""abort": [],"#, #""abort": [], "anywhere": [],"#, in: version1,
             "$.anywhere", at: "5:28", "[]", "'anywhere' is an authflow/2 key; this file's format is authflow/1"),
        edit("optional in /1", #""requires": [], "emits""#, #""optional": ["email"], "emits""#, in: version1,
             "$.steps.start.optional", at: "7:28", #"["email"]"#, "'optional' is an authflow/2 key; this file's format is authflow/1"),
        edit("anyOf in /1", #""requires": [], "emits""#, #""requires": [{ "anyOf": ["email"] }], "emits""#, in: version1,
             "$.steps.start.requires[0]", at: "7:29", #"{ "anyOf""#, "a requirement written as an object ({\"anyOf\": [...]}) is authflow/2; in authflow/1 requires lists data keys"),
        edit("an emission object in /1", #""go": ["email"]"#, #""go": { "adds": ["email"] }"#, in: version1,
             "$.steps.start.emits.go", at: "7:49", #"{ "adds""#,
             "an emission written as an object is authflow/2; in authflow/1 it is the list of keys the event adds"),
        edit("when in /1", #""to": "done" }"#, #""to": "done", "when": { "has": "email" } }"#, in: version1,
             "$.transitions[0].when", at: "11:58", #"{ "has""#, "'when' is an authflow/2 key; this file's format is authflow/1"),
        edit("clears in /1", #""to": "done" }"#, #""to": "done", "clears": ["email"] }"#, in: version1,
             "$.transitions[0].clears", at: "11:60", #"["email"]"#, "'clears' is an authflow/2 key; this file's format is authflow/1"),
        edit("reset in /1", #""to": "done" }"#, #""to": "done", "reset": false }"#, in: version1,
             "$.transitions[0].reset", at: "11:59", "false", "'reset' is an authflow/2 key; this file's format is authflow/1"),
    ]

    // MARK: the team's own rules and back-only screens

    static let idRule = "must be lowercase words joined by hyphens (like 'mfa-before-session'), at most 64 characters"
    static let kindsRule = "a property states exactly one of always, never or reachable"
    static let propertyKeys = SpecKeys.allowed(SpecKeys.property)
    static let intentSteps = "start, help, signIn, home, cancelled"

    /// `shown`: the id as the message quotes it, when that is not the id itself (cut after 64 bytes).
    static func badID(_ name: String, _ id: String, shown: String? = nil) -> Case {
        edit(name, #""id": "locked-out""#, #""id": "\#(id)""#, in: intent,
             "$.properties[2].id", at: "31:13", #""\#(id)""#, "property id '\(shown ?? id)' \(idRule)")
    }

    static let intentCases: [Case] = [
        edit("properties not a list", #""properties": ["#, #""properties": {}, "x-properties": ["#, in: intent,
             "$.properties", at: "27:17", "{}", "properties must be an array of {id, always | never | reachable} objects, found object"),
        edit("a property that is not an object", #"{ "id": "locked-out", "reachable": { "atLeast": { "tries": 3 } } }"#,
             #""locked-out""#, in: intent,
             "$.properties[2]", at: "31:5", #""locked-out""#, "a property must be an object, found string"),
        edit("a property without id", #"{ "id": "locked-out", "reachable""#, #"{ "reachable""#, in: intent,
             "$.properties[2].id", at: "31:5", #"{ "reachable""#, "missing required key 'id'"),
        edit("an id that is not a string", #""id": "locked-out""#, #""id": 3"#, in: intent,
             "$.properties[2].id", at: "31:13", "3", "id must be a string, found number"),
        badID("an id with a capital letter", "Locked-out"),
        badID("an id with an underscore", "locked_out"),
        badID("an id with two hyphens in a row", "locked--out"),
        badID("an id ending in a hyphen", "locked-"),
        badID("an id starting with a digit", "3-strikes"),
        badID("an empty id", ""),
        badID("an id of 65 characters", String(repeating: "a", count: 65), shown: String(repeating: "a", count: 64) + "…(65 bytes)"),
        edit("a built-in property's id", #""id": "locked-out""#, #""id": "deadlock""#, in: intent,
             "$.properties[2].id", at: "31:13", #""deadlock""#, "'deadlock' is a built-in property's id; give the rule an id of its own"),
        edit("an id used twice", #""id": "no-mfa-at-home""#, #""id": "session-at-home""#, in: intent,
             "$.properties[1].id", at: "30:13", #""session-at-home""#,
             "property id 'session-at-home' is already the id of properties[0] (line 28); each rule needs an id of its own"),
        edit("a property stating no rule", #", "reachable": { "atLeast": { "tries": 3 } }"#, "", in: intent,
             "$.properties[2]", at: "31:5", #"{ "id": "locked-out" }"#, "\(kindsRule); found none"),
        edit("a property stating two rules", #""reachable": { "atLeast": { "tries": 3 } }"#,
             #""reachable": { "atLeast": { "tries": 3 } }, "never": { "has": "session" }"#, in: intent,
             "$.properties[2]", at: "31:5", #"{ "id": "locked-out""#, "\(kindsRule); found never and reachable"),
        Case(name: "a misspelt rule", json: intent.replacingOccurrences(of: #""reachable": { "atLeast""#, with: #""reachble": { "atLeast""#),
             expected: [
                 Expected(path: "$.properties[2].reachble", at: "31:27", token: #""reachble""#,
                          message: "unknown key 'reachble' (did you mean 'reachable'?); allowed: \(propertyKeys)"),
                 Expected(path: "$.properties[2]", at: "31:5", token: #"{ "id": "locked-out""#, message: "\(kindsRule); found none"),
             ]),
        edit("an unknown key in a property", #""description": "home is entered with a session""#,
             #""descripton": "home is entered with a session""#, in: intent,
             "$.properties[0].descripton", at: "28:32", #""descripton""#,
             "unknown key 'descripton' (did you mean 'description'?); allowed: \(propertyKeys)"),
        edit("a description that is not a string", #""description": "home is entered with a session""#,
             #""description": ["home"]"#, in: intent,
             "$.properties[0].description", at: "28:47", #"["home"]"#, "description must be a string, found array"),
        edit("a description with a control character", #""description": "home is entered with a session""#,
             #""description": "home\u001b[31m""#, in: intent,
             "$.properties[0].description", at: "28:47", #""home\u001b"#,
             "the property's description 'home\\u{1B}[31m' contains U+001B, a control character; names may not contain control or invisible formatting characters"),
        edit("a rule that is not a guard", #""reachable": { "atLeast": { "tries": 3 } }"#, #""reachable": "locked""#, in: intent,
             "$.properties[2].reachable", at: "31:40", #""locked""#,
             "a guard must be an object with one operator (\(operators), at), found string"),
        edit("at naming a state that is not a step", #"{ "at": ["home"] }, { "equals""#, #"{ "at": ["hom"] }, { "equals""#, in: intent,
             "$.properties[1].never.all[0].at[0]", at: "30:59", #""hom""#, "state 'hom' is not a step; did you mean 'home'? (steps: \(intentSteps))"),
        edit("at not a list", #"{ "at": ["home"] }, { "equals""#, #"{ "at": "home" }, { "equals""#, in: intent,
             "$.properties[1].never.all[0].at", at: "30:58", #""home""#, "at must be an array of strings, found string"),
        edit("at listing a number", #"{ "at": ["home"] }, { "equals""#, #"{ "at": ["home", 1] }, { "equals""#, in: intent,
             "$.properties[1].never.all[0].at[1]", at: "30:67", "1", "at must contain only strings, found number"),
        edit("at beside another operator", #"{ "at": ["home"] }, { "equals""#, #"{ "at": ["home"], "has": "session" }, { "equals""#,
             in: intent, "$.properties[1].never.all[0]", at: "30:50", #"{ "at""#,
             "a guard has exactly one operator; found at, has (combine them with \"all\" or \"any\")"),
        edit("at in an event's guard", #""when": { "below": { "tries": 3 } }"#, #""when": { "at": ["signIn"] }"#, in: intent,
             "$.steps.signIn.emits.wrong.when.at", at: "13:70", #""at""#,
             "'at' tests the state, so only a property's condition may use it; a guard of an event or a row tests the data"),
        edit("a rule on a key the flow does not have", #"{ "has": "session" }"#, #"{ "has": "sesion" }"#, in: intent,
             "$.properties[0].always.any[1].has", at: "29:67", #""sesion""#,
             "'sesion' is not a data key of this flow (did you mean 'session'?)"),
        edit("a rule on a value the key does not take", #""answer": "mfa" }"#, #""answer": "sms" }"#, in: intent,
             "$.properties[1].never.all[1].equals.answer", at: "30:94", #""sms""#, "'sms' is not a value of 'answer' (values: ok, mfa)"),
        edit("a rule on a bound past the counter's max", #""atLeast": { "tries": 3 }"#, #""atLeast": { "tries": 4 }"#, in: intent,
             "$.properties[2].reachable.atLeast.tries", at: "31:64", "4", "'tries' counts from 0 to 3; 4 is out of range"),
        edit("a rule testing a counter with has", #""atLeast": { "tries": 3 }"#, #""has": "tries""#, in: intent,
             "$.properties[2].reachable.has", at: "31:49", #""tries""#,
             "'tries' is a counter, always defined: test it with atLeast or below"),
        edit("backOnly not a bool", #""backOnly": true"#, #""backOnly": "yes""#, in: intent,
             "$.steps.help.backOnly", at: "9:27", #""yes""#, "backOnly must be true or false, found string"),
        edit("backOnly with back false", #""help": { "backOnly": true }"#, #""help": { "back": false, "backOnly": true }"#, in: intent,
             "$.steps.help.backOnly", at: "9:42", "true",
             "'help' is back-only but sets back to false: a back-only screen is left with back"),
        edit("backOnly on the initial state", #""start": { "back": false, "emits""#, #""start": { "backOnly": true, "emits""#, in: intent,
             "$.steps.start.backOnly", at: "8:28", "true",
             "'start' is back-only but is the initial state, where there is nothing to go back to"),
        edit("backOnly on a terminal state", #""cancelled": {}"#, #""cancelled": { "backOnly": true }"#, in: intent,
             "$.steps.cancelled.backOnly", at: "18:32", "true",
             "'cancelled' is back-only but is terminal: back is not possible from a terminal state"),
        edit("properties in /1", #""abort": [],"#, #""abort": [], "properties": [],"#, in: version1,
             "$.properties", at: "5:30", "[]", "'properties' is an authflow/2 key; this file's format is authflow/1"),
        edit("backOnly in /1", #""done": { "requires": ["email"] }"#, #""done": { "requires": ["email"], "backOnly": false }"#,
             in: version1, "$.steps.done.backOnly", at: "8:50", "false", "'backOnly' is an authflow/2 key; this file's format is authflow/1"),
    ]

    static let all = declarations + misuse + guards + effects + requirements + rows + inVersion1 + intentCases

    /// Every issue of `json`, or none.
    static func issues(_ json: String) -> [SpecIssue] {
        do throws(InvalidSpecError) {
            _ = try SpecLoader.load(json: json)
            return []
        } catch {
            return error.issues
        }
    }

    /// The text of `json` from `line:column` (1-based, columns in Unicode scalars) to the end of the line.
    static func text(_ json: String, at location: AuthFlow.SourceLocation) -> Substring.UnicodeScalarView {
        let lines = json.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.indices.contains(location.line - 1) else { return Substring.UnicodeScalarView() }
        return lines[location.line - 1].unicodeScalars.dropFirst(location.column - 1)
    }

    @Test func theBasesLoad() {
        #expect(Self.issues(Self.base).isEmpty)
        #expect(Self.issues(Self.version1).isEmpty)
        #expect(Self.issues(Self.intent).isEmpty)
    }

    @Test(arguments: all)
    func everyVersion2MistakeIsReportedWhereItIs(_ broken: Case) {
        let found = Self.issues(broken.json)
        let shown = found.map { "\($0.location.map(String.init(describing:)) ?? "-") \($0.path): \($0.message)" }
        #expect(shown == broken.expected.map(\.description))
        for expected in broken.expected {
            let parts = expected.at.split(separator: ":").compactMap { Int($0) }
            let location = AuthFlow.SourceLocation(line: parts[0], column: parts[1])
            #expect(String(Self.text(broken.json, at: location)).hasPrefix(expected.token),
                    "\(expected.at) is '\(String(Self.text(broken.json, at: location)))', not '\(expected.token)…'")
        }
    }

    /// `intent` with each `(old, new)` edit made; every `old` must occur exactly once.
    static func edited(_ edits: [(String, String)], in json: String = intent) -> String {
        edits.reduce(json) { text, edit in
            precondition(text.components(separatedBy: edit.0).count == 2, "'\(edit.0)' must occur exactly once")
            return text.replacingOccurrences(of: edit.0, with: edit.1)
        }
    }

    @Test func theEdgesOfTheIntentKeysLoad() throws {
        // The longest id, backOnly false where true is refused, and extensions on every level of a property.
        let edges = Self.edited([
            (#""id": "locked-out""#, #""id": "\#(String(repeating: "a", count: 63))1""#),
            (#""start": { "back": false,"#, #""start": { "back": false, "backOnly": false,"#),
            (#""cancelled": {}"#, #""cancelled": { "backOnly": false }"#),
            (#""description": "home is entered with a session","#, #""description": "", "x-owner": 7,"#),
            (#"{ "at": ["home"] }, { "equals""#, #"{ "at": ["home"], "x-why": {} }, { "equals""#),
        ])
        #expect(Self.issues(edges).isEmpty)
        let model = try SpecLoader.load(json: edges)
        #expect(model.properties.map(\.id) == ["session-at-home", "no-mfa-at-home", String(repeating: "a", count: 63) + "1"])
        #expect(model.isBackOnly == [false, true, false, false, false])
    }

    @Test func extensionKeysInsideAGuardAreIgnored() throws {
        // x- keys beside an operator and inside the maps of equals, in, atLeast and below change nothing.
        let plain = try SpecLoader.load(json: Self.intent)
        let extended = try SpecLoader.load(json: Self.edited([
            (#"{ "equals": { "answer": "mfa" } }"#, #"{ "equals": { "answer": "mfa", "x-was": 3 }, "x-note": "why" }"#),
            (#""atLeast": { "tries": 3 }"#, #""atLeast": { "x-first": true, "tries": 3 }"#),
            (#""when": { "below": { "tries": 3 } }"#, #""when": { "x-a": 1, "below": { "tries": 3, "x-b": "no" } }"#),
            (#"{ "has": "session" }"#, #"{ "in": { "answer": ["ok", "mfa"], "x-c": [1] } }"#),
        ]))
        #expect(extended.properties[1].condition == plain.properties[1].condition)
        #expect(extended.properties[2].condition == plain.properties[2].condition)
        #expect(extended.emissions == plain.emissions)
        #expect(extended.properties[0].text == "¬at home ∨ answer ∈ {ok, mfa}")
        // Only x- keys is no operator at all, inside a property as in a row.
        #expect(Self.issues(Self.edited([(#"{ "has": "session" }"#, #"{ "x-has": "session" }"#)])).map(\.message)
                    == ["a guard needs one operator (\(Self.operators), at)"])
    }

    @Test func everyCaseHasItsOwnName() {
        #expect(Set(Self.all.map(\.name)).count == Self.all.count)
    }
}
