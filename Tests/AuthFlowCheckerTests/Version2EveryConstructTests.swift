import AuthFlow
import AuthFlowChecker
import Testing

/// The typed Swift API declares every `authflow/2` construct, and builds the model the JSON builds.
///
/// One flow uses each construct once: presence, valued, counter and config keys; `anyOf` and
/// `optional`; emissions with `adds` (branching), `set`, `clears`, `increment`, `when` and `by`;
/// every guard operator; guarded rows with `clears`; a reset row; an `anywhere` entry with a guard,
/// a sender, exceptions, effects and clears.
@Suite struct Version2EveryConstructTests {
    static let json = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": ["home"],
      "abort": ["gone"],
      "config": { "mode": ["a", "b"] },
      "data": { "email": {}, "answer": { "values": ["ok", "mfa", "no"] }, "tries": { "max": 2 } },
      "steps": {
        "start": { "back": false, "emits": { "begin": ["email", "password"] } },
        "signIn": {
          "requires": ["email", { "anyOf": ["password", "passkey"] }],
          "optional": ["hint"],
          "emits": {
            "submit": { "adds": ["answer"], "by": "system" },
            "wrong": { "increment": ["tries"], "clears": ["password"], "when": { "below": { "tries": 2 } }, "by": "system" },
            "confirm": { "set": { "answer": "ok" }, "when": { "all": [{ "missing": "hint" }, { "not": { "equals": { "mode": "b" } } }] } },
            "forgot": { "when": { "any": [{ "atLeast": { "tries": 1 } }, { "in": { "answer": ["mfa", "no"] } }] } }
          }
        },
        "mfa": { "emits": { "done": [] } },
        "home": { "emits": { "signOut": [] } },
        "gone": {}
      },
      "transitions": [
        { "from": "start", "on": "begin", "to": "signIn" },
        { "from": "signIn", "on": "submit", "to": "home", "when": { "equals": { "answer": "ok" } }, "clears": ["password"] },
        { "from": "signIn", "on": "submit", "to": "mfa", "when": { "has": "answer" } },
        { "from": "signIn", "on": "wrong", "to": "signIn" },
        { "from": "signIn", "on": "confirm", "to": "home" },
        { "from": "signIn", "on": "forgot", "to": "start", "clears": ["email"] },
        { "from": "mfa", "on": "done", "to": "home" },
        { "from": "home", "on": "signOut", "to": "start", "reset": true }
      ],
      "anywhere": [
        { "on": "timeout", "to": "gone", "by": "system", "when": { "has": "email" }, "except": ["start"],
          "adds": ["flag"], "set": { "answer": "no" }, "increment": ["tries"], "clears": ["email"] }
      ]
    }
    """

    enum S: String, FlowName { case start, signIn, mfa, home, gone }
    enum E: String, FlowName { case begin, submit, wrong, confirm, forgot, done, signOut, timeout }
    enum K: String, FlowName { case email, answer, tries, mode, password, passkey, hint, flag }
    enum Answer: String, FlowName, CaseIterable { case ok, mfa, no }
    enum Mode: String, FlowName, CaseIterable { case a, b }

    static var flow: FlowDefinition<S, E, K> {
        var flow = FlowDefinition<S, E, K>(initial: .start, success: [.home], abort: [.gone])
        flow.data(.email)
        flow.data(.answer, values: Answer.allCases)
        flow.counter(.tries, max: 2)
        flow.config(.mode, values: Mode.allCases)
        flow.step(.start, emits: [.begin: [.email, .password]], back: false)
        flow.step(.signIn, requires: [.email], anyOf: [[.password, .passkey]], optional: [.hint], emitting: [
            .emit(.submit, adds: [.answer], by: .system),
            .emit(.wrong, clears: [.password], increment: [.tries], when: .below(.tries, 2), by: .system),
            .emit(.confirm, set: [.answer: Answer.ok], when: .missing(.hint) && !.equals(.mode, Mode.b)),
            .emit(.forgot, when: .atLeast(.tries, 1) || .isIn(.answer, [Answer.mfa, Answer.no])),
        ])
        flow.step(.mfa, emits: [.done: []])
        flow.step(.home, emits: [.signOut: []])
        flow.step(.gone)
        flow.transition(.start, on: .begin, to: .signIn)
        flow.transition(.signIn, on: .submit, to: .home, when: .equals(.answer, Answer.ok), clears: [.password])
        flow.transition(.signIn, on: .submit, to: .mfa, when: .has(.answer))
        flow.transition(.signIn, on: .wrong, to: .signIn)
        flow.transition(.signIn, on: .confirm, to: .home)
        flow.transition(.signIn, on: .forgot, to: .start, clears: [.email])
        flow.transition(.mfa, on: .done, to: .home)
        flow.transition(.home, on: .signOut, to: .start, reset: true)
        flow.anywhere(on: .timeout, to: .gone, when: .has(.email), by: .system, except: [.start],
                      adds: [.flag], set: [.answer: Answer.no], increment: [.tries], clears: [.email])
        return flow
    }

    @Test func everyConstructDeclaredInSwiftBuildsTheModelTheJSONBuilds() throws {
        let json = try SpecLoader.load(json: Self.json)
        let swift = try Self.flow.model()
        #expect(swift.states == json.states)
        #expect(swift.events == json.events)
        #expect(swift.keys == json.keys)
        #expect(swift.layout == json.layout)
        #expect(swift.requires == json.requires)
        #expect(swift.anyOf == json.anyOf)
        #expect(swift.optional == json.optional)
        #expect(swift.emissions == json.emissions)
        #expect(swift.rows == json.rows)
        #expect(swift.roots == json.roots)
        #expect(swift.variants == json.variants)
        #expect(swift.canGoBack == json.canGoBack)
        // The checker sees one flow: the same verdict, sites and counts.
        let fromJSON = FlowChecker.check(json, source: "json")
        let fromSwift = FlowChecker.check(Self.flow)
        #expect(fromSwift.verdict == fromJSON.verdict)
        #expect(fromSwift.violations.map(\.message) == fromJSON.violations.map(\.message))
        #expect(fromSwift.lint == fromJSON.lint)
        #expect(fromSwift.stats.configurations == fromJSON.stats.configurations)
        #expect(fromSwift.stats.stacks == fromJSON.stats.stacks)
    }

    @Test func theAnywhereEntrysEffectsRunInATypedSession() throws {
        let session = try Self.flow.makeSession()
        try session.send(.begin) { $0 == .email ? "a@b.c" : "secret" }
        try session.send(.timeout) { _ in "shown" }
        #expect(session.state == .gone)
        #expect(session.value(.email) == nil)
        #expect(session.value(.answer) == .string("no"))
        #expect(session.value(.tries) == .int(1))
        #expect(session.value(.flag) == .string("shown"))
    }
}
