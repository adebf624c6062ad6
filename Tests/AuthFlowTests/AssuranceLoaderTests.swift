import AuthFlow
import Testing

/// Section 6 in the loader: `factors` and step `assurance` read into the spec and the model, and
/// every mistake an invalid spec with its JSON path, line:column and, where one is obvious, a fix.
@Suite struct AssuranceLoaderTests {
    /// A valid flow using every section-6 key; each case below edits one part of it.
    static let base = """
    {
      "format": "authflow/2",
      "initial": "signIn",
      "success": ["home"],
      "abort": ["cancelled"],
      "config": { "mfa": ["required", "optional"] },
      "data": { "tries": { "max": 3 }, "answer": { "values": ["ok", "mfa"] } },
      "factors": {
        "password": { "kind": "knowledge" },
        "passkey": { "kind": "possession", "phishingResistant": true },
        "answer": { "kind": "possession" }
      },
      "steps": {
        "signIn": { "back": false, "emits": { "go": ["password", "passkey"], "ask": { "adds": ["answer"], "increment": ["tries"] } } },
        "home": { "assurance": "aal2" },
        "cancelled": {}
      },
      "transitions": [
        { "from": "signIn", "on": "go", "to": "home" },
        { "from": "signIn", "on": "ask", "to": "cancelled" }
      ]
    }
    """

    /// The issues of `json` as they print: `line:column: path: message`.
    static func issues(_ json: String) -> [String] {
        do {
            _ = try SpecLoader.load(json: json)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    static func edited(_ old: String, _ new: String) -> String {
        precondition(base.contains(old), "the base spec has no \(old)")
        return base.replacingOccurrences(of: old, with: new)
    }

    @Test func theBaseLoadsWithItsFactorsAndLevels() throws {
        let model = try SpecLoader.load(json: Self.base)
        #expect(model.spec.factors == [FlowSpec.Factor("password", .knowledge), FlowSpec.Factor("passkey", .possession, phishingResistant: true),
                                       FlowSpec.Factor("answer", .possession)])
        #expect(model.spec.steps.map(\.assurance) == [nil, .aal2, nil])
        #expect(model.assurance.isUsed && model.assurance.protectsSomeStep)
        #expect(model.assurance.required == [.none, .aal2, .none])
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var old: String
        var new: String
        var expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a counter as a factor", old: #""answer": { "kind": "possession" }"#, new: #""tries": { "kind": "possession" }"#,
             expected: ["11:14: $.factors.tries: 'tries' is a counter, always defined: a count proves no factor; "
                        + "name the presence or valued key a passed check adds"]),
        Case(name: "a config key as a factor", old: #""answer": { "kind": "possession" }"#, new: #""mfa": { "kind": "possession" }"#,
             expected: ["11:12: $.factors.mfa: 'mfa' is a config key, fixed for the whole variant: it proves nothing about the user; "
                        + "name the data key a passed check adds"]),
        Case(name: "a key the flow does not use", old: #""answer": { "kind": "possession" }"#, new: #""pasword2": { "kind": "possession" }"#,
             expected: ["11:17: $.factors.pasword2: 'pasword2' is not a data key of this flow (did you mean 'password'?); a factor is a key "
                        + "some step's event adds (a verified password, a passed code): add it there, or declare it in data"]),
        Case(name: "an unknown kind", old: #""kind": "knowledge""#, new: #""kind": "knowlege""#,
             expected: [#"9:27: $.factors.password.kind: unknown factor kind 'knowlege'; did you mean 'knowledge'? "#
                        + #"(kinds: "knowledge", "possession", "inherence": what the user knows, has or is)"#]),
        Case(name: "a kind that is not a string", old: #""kind": "knowledge""#, new: #""kind": 1"#,
             expected: [#"9:27: $.factors.password.kind: kind must be one of "knowledge", "possession", "inherence", found number"#]),
        Case(name: "a factor without a kind", old: #""password": { "kind": "knowledge" }"#, new: #""password": {}"#,
             expected: [#"9:17: $.factors.password: the factor 'password' needs a kind: add "kind": "knowledge", "possession" or "inherence""#]),
        Case(name: "a factor that is not an object", old: #""password": { "kind": "knowledge" }"#, new: #""password": "knowledge""#,
             expected: [#"9:17: $.factors.password: the factor 'password' must be an object with its kind, found string; "#
                        + #"write {"kind": "knowledge" | "possession" | "inherence"}"#]),
        Case(name: "an unknown key in a factor", old: #""kind": "knowledge""#, new: #""kind": "knowledge", "strength": 2"#,
             expected: ["9:40: $.factors.password.strength: unknown key 'strength'; allowed: \(SpecKeys.allowed(SpecKeys.factor))"]),
        Case(name: "phishingResistant not a boolean", old: #""phishingResistant": true"#, new: #""phishingResistant": "yes""#,
             expected: ["10:61: $.factors.passkey.phishingResistant: phishingResistant must be true or false, found 'yes'"]),
        Case(name: "factors not an object", old: #""factors": {"#, new: #""factors": ["password"], "x-old": {"#,
             expected: [#"8:14: $.factors: factors must be an object mapping each factor's data key to {"kind": ...}, found array; "#
                        + #"write {"password": {"kind": "knowledge"}}"#]),
        Case(name: "an unknown level", old: #""assurance": "aal2""#, new: #""assurance": "AAL2""#,
             expected: [#"15:28: $.steps.home.assurance: unknown assurance level 'AAL2'; did you mean 'aal2'? (levels: "aal1", "aal2", "aal3")"#]),
        Case(name: "the level none", old: #""assurance": "aal2""#, new: #""assurance": "none""#,
             expected: [#"15:28: $.steps.home.assurance: unknown assurance level 'none'; a step that asks for nothing leaves assurance out "#
                        + #"(levels: "aal1", "aal2", "aal3")"#]),
        Case(name: "a level that is a number", old: #""assurance": "aal2""#, new: #""assurance": 2"#,
             expected: [#"15:28: $.steps.home.assurance: assurance must be one of "aal1", "aal2", "aal3", found number; write "aal2""#]),
        Case(name: "a rule with the id assurance", old: #""transitions": ["#,
             new: #""properties": [{ "id": "assurance", "never": { "has": "password" } }], "transitions": ["#,
             expected: ["18:26: $.properties[0].id: 'assurance' is a built-in property's id; give the rule an id of its own"]),
    ]

    @Test(arguments: cases)
    func eachMistakeIsLocatedWithAFix(_ test: Case) {
        #expect(Self.issues(Self.edited(test.old, test.new)) == test.expected)
    }

    @Test func theKeysAreAuthflow2Only() {
        let json = """
        {
          "format": "authflow/1", "initial": "a", "success": ["b"], "abort": [],
          "factors": { "k": { "kind": "knowledge" } },
          "steps": { "a": { "emits": { "go": ["k"] } }, "b": { "assurance": "aal1" } },
          "transitions": [{ "from": "a", "on": "go", "to": "b" }]
        }
        """
        #expect(Self.issues(json) == [
            "3:14: $.factors: 'factors' is an authflow/2 key; this file's format is authflow/1",
            "4:69: $.steps.b.assurance: 'assurance' is an authflow/2 key; this file's format is authflow/1",
        ])
    }

    @Test func aSpecWithoutSectionSixHasNoAssurance() throws {
        let model = try SpecLoader.load(json: Self.edited(#""assurance": "aal2""#, #""x-assurance": "aal2""#)
            .replacingOccurrences(of: #""factors": {"#, with: #""x-factors": {"#))
        #expect(!model.assurance.isUsed && !model.assurance.protectsSomeStep && model.assurance.factorMask == 0)
    }

    /// The one function that decides a frame's level, on every combination of the base's factors.
    @Test func theLevelOfEachCombination() throws {
        let model = try SpecLoader.load(json: Self.base)
        func bits(_ names: String...) -> UInt64 { names.reduce(0) { $0 | 1 << UInt64(model.key(named: $1)!.index) } }
        let levels = model.assurance
        #expect(levels.level(keys: 0) == .none)
        #expect(levels.level(keys: bits("password")) == .aal1)
        #expect(levels.level(keys: bits("passkey", "answer")) == .aal1)          // two keys, one kind
        #expect(levels.level(keys: bits("password", "answer")) == .aal2)         // two kinds, none phishing-resistant
        #expect(levels.level(keys: bits("password", "passkey")) == .aal3)
        #expect(!levels.meets(state: 1, keys: bits("passkey")))
        #expect(levels.meets(state: 1, keys: bits("password", "answer")))
        #expect(levels.meets(state: 0, keys: 0))                                  // a step that asks for nothing
    }

    /// The typed Swift API declares the same flow as the file.
    @Test func theTypedAPIMatchesTheFile() throws {
        enum S: String, FlowName { case signIn, home, cancelled }
        enum E: String, FlowName { case go }
        enum K: String, FlowName { case password, passkey }
        var flow = FlowDefinition<S, E, K>(initial: .signIn, success: [.home], abort: [.cancelled])
        flow.step(.signIn, emits: [.go: [.password, .passkey]], back: false)
        flow.step(.home)
        flow.step(.cancelled)
        flow.transition(.signIn, on: .go, to: .home)
        flow.factor(.password, .knowledge)
        flow.factor(.passkey, .possession, phishingResistant: true)
        flow.assurance(.home, .aal3)
        let model = try flow.model()
        #expect(model.spec.format == 2)
        #expect(model.spec.factors == [FlowSpec.Factor("password", .knowledge), FlowSpec.Factor("passkey", .possession, phishingResistant: true)])
        #expect(model.assurance.required == [.none, .aal3, .none])
        #expect(model.assurance.meets(state: 1, keys: model.assurance.factorMask))
    }
}
