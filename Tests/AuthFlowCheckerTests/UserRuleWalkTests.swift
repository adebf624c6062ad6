import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import PropertyTesting
import Testing

/// The lockstep walk checks the spec's own `always`/`never` rules on every frame it drives
/// (AUTHFLOW-2 section 4): on the spec's frame where the runtime holds it, and on the frame the
/// runtime really holds where an action left it elsewhere. A rule is one site; the walk keeps its
/// first occurrence in breadth-first order, and a check reports it once, with the complete checker's
/// counterexample when the spec breaks it too.
@Suite struct UserRuleWalkTests {
    static func fixture(_ name: String) -> String { Files.version2("broken/\(name)") }

    /// Each walk violation as `site length: events | message`.
    static func shown(_ violations: [Violation]) -> [String] {
        violations.map { "\($0.site) \($0.length): \($0.path.dropFirst().map { $0.event ?? "?" }.joined(separator: " ")) | \($0.message)" }
    }

    /// The MFA flow without the skip button: the spec keeps both rules, so only a runtime can break them.
    static let mfaKept = """
    {
      "format": "authflow/2",
      "initial": "start", "success": ["home"], "abort": ["cancelled"],
      "steps": {
        "start": { "back": false, "emits": { "begin": [] } },
        "signIn": { "emits": { "submit": ["mfaChallenge"], "cancel": [] } },
        "mfa": { "requires": ["mfaChallenge"], "emits": { "verify": ["mfaPassed", "session"] } },
        "home": { "requires": ["session"] },
        "cancelled": {}
      },
      "transitions": [
        { "from": "start", "on": "begin", "to": "signIn" },
        { "from": "signIn", "on": "submit", "to": "mfa" },
        { "from": "signIn", "on": "cancel", "to": "cancelled" },
        { "from": "mfa", "on": "verify", "to": "home" }
      ],
      "properties": [
        { "id": "mfa-before-session", "never": { "all": [{ "at": ["home"] }, { "has": "mfaChallenge" }, { "missing": "mfaPassed" }] } },
        { "id": "no-session-on-the-code-screen", "never": { "all": [{ "at": ["mfa"] }, { "has": "session" }] } }
      ]
    }
    """

    /// The password flow whose every sign-in clears the password (a flow over frames: its row clears a key).
    static let passwordCleared = """
    {
      "format": "authflow/2",
      "initial": "start", "success": ["home"], "abort": [],
      "data": { "password": {}, "session": {} },
      "steps": {
        "start": { "back": false, "emits": { "begin": [] } },
        "signIn": { "emits": { "submit": ["password", "session"] } },
        "home": { "requires": ["session"], "emits": { "signOut": [] } }
      },
      "transitions": [
        { "from": "start", "on": "begin", "to": "signIn" },
        { "from": "signIn", "on": "submit", "to": "home", "clears": ["password"] },
        { "from": "home", "on": "signOut", "to": "start", "reset": true }
      ],
      "properties": [
        { "id": "no-password-after-sign-in", "always": { "any": [{ "not": { "at": ["home"] } }, { "missing": "password" }] } }
      ]
    }
    """

    /// Verifies the code but never records it: `mfaPassed` is not in its data.
    final class ForgetsMfaPassed: ForwardingDriver {
        var hidden: KeyID { model.key(named: "mfaPassed")! }
        override var dataCount: Int { real.dataCount - (real.value(of: hidden) == nil ? 0 : 1) }
        override func value(of key: KeyID) -> FlowValue? { key == hidden ? nil : real.value(of: key) }
    }

    /// Ignores the row's `clears`: the password stays in the data after signing in.
    final class KeepsPassword: ForwardingDriver {
        var kept: FlowValue?
        var password: KeyID { model.key(named: "password")! }
        override var dataCount: Int { real.dataCount + (kept == nil ? 0 : 1) }
        override func value(of key: KeyID) -> FlowValue? { key == password && kept != nil ? kept : real.value(of: key) }
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            let accepted = real.send(event, value: value)
            kept = accepted && event == model.event(named: "submit") ? value(password) : nil
            return accepted
        }
        override func undo() -> Bool { kept = nil; return real.undo() }
        override func reset() { kept = nil; real.reset() }
        override func start(variant: Int) -> Bool { kept = nil; return real.start(variant: variant) }
    }

    // MARK: The spec's frames

    @Test(arguments: [("mfa-skip", "mfa-before-session 3: begin submit skip | mfa-before-session says never at home ∧ has mfaChallenge ∧ "
                            + "no mfaPassed, but home is reached with the data {mfaChallenge, session}, where it holds"),
                      ("password-kept", "no-password-after-sign-in 2: begin remember | no-password-after-sign-in says always ¬at home ∨ "
                            + "no password, but home is reached with the data {password, session}, where it does not hold")])
    func theWalkAloneFindsTheRuleTheSpecBreaksAtItsShortestPath(_ fixture: String, _ expected: String) throws {
        // mfa-skip is walked by the /1 walk (a static flow), password-kept by the walk over frames.
        let model = try Files.model(Self.fixture(fixture))
        let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 8)
        #expect(Self.shown(walk.violations) == [expected])
        // Below the shortest path, the walk cannot meet it.
        let shallow = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: walk.violations[0].length - 1)
        #expect(shallow.violations.isEmpty)
    }

    /// Every `authflow/2` fixture that states an always or never rule.
    static var fixturesWithRules: [String] {
        Files.version2.filter { path in (try? Files.model(path)).map { !RuleCheck(model: $0).isEmpty } ?? false }
    }

    @Test(arguments: fixturesWithRules)
    func theWalkOnTheRealRuntimeBreaksExactlyTheRulesTheCheckerBreaksWithTheSamePaths(_ path: String) throws {
        let model = try Files.model(path)
        let checker = ModelChecker.verify(model).violations.filter { $0.property.isUserDefined && $0.state != nil }
        let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: max(6, checker.map(\.length).max() ?? 0))
        let walked = walk.violations.filter { $0.property.isUserDefined }
        #expect(walked.map(\.site) == checker.map(\.site))
        #expect(walked.map(\.state) == checker.map(\.state))
        #expect(walked.map { $0.path.map(\.event) } == checker.map { $0.path.map(\.event) })
        #expect(walk.violations.count == walked.count, "the real runtime agrees with its spec")
    }

    @Test func theFixturesStateRulesOfEveryKind() {
        // mfa-skip (a static flow), password-kept and promela-rules (over frames, with values, counters and config).
        #expect(Set(Self.fixturesWithRules.map { ($0 as NSString).lastPathComponent }).isSuperset(of: ["mfa-skip.json", "password-kept.json", "promela-rules.json"]))
    }

    @Test func twoWorkersFindTheSameRuleAsOne() throws {
        let model = try Files.model(Self.fixture("mfa-skip"))
        let one = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 10)
        let two = ParallelExplorer(model: model, workers: 2).explore(depth: 10)
        #expect(Self.shown(two.violations) == Self.shown(one.violations))
        #expect(two.violations.count == 1)
    }

    @Test(arguments: ["mfa-skip", "password-kept"])
    func aCheckReportsABrokenRuleOnceWithTheCheckersCounterexample(_ fixture: String) throws {
        let model = try Files.model(Self.fixture(fixture))
        let rule = try #require(Property.userProperties(of: model).first)
        let checker = ModelChecker.verify(model).violations.filter { $0.property == rule }
        for properties: Set<Property>? in [nil, [rule]] {
            let report = FlowChecker.check(model, source: fixture, options: CheckOptions(properties: properties))
            #expect(report.violations.filter { $0.property == rule } == checker, "\(properties.map { $0.map(\.id) } ?? ["all"])")
            #expect(report.runtimeRules == [rule: .violated])
            #expect(!report.stats.stacksCounted, "the rule alone runs the walk")
        }
        // Coverage never drives the runtime: the rule is the checker's alone.
        let coverage = FlowChecker.coverage(model, source: fixture)
        #expect(coverage.report.runtimeRules.isEmpty && coverage.report.stats.stacksCounted)
        #expect(coverage.report.violations.filter { $0.property == rule } == checker)
    }

    @Test func aFlowWithoutRulesLeavesTheReportAsItWas() throws {
        let model = try Files.model(Files.root.appendingPathComponent("Specs/email-first.json").path)
        let report = FlowChecker.check(model, source: "email-first")
        #expect(report.runtimeRules.isEmpty)
        #expect(RuleCheck(model: model).isEmpty)
        // reachable rules are the checker's alone: the walk has nothing to check in lockout-variant.
        #expect(RuleCheck(model: try Files.model(Self.fixture("lockout-variant"))).isEmpty)
    }

    @Test func aRuleIsTestedInAStateExactlyWhereSomeDataBreaksItAndItsMasksAgreeWithItsCondition() throws {
        // Random conditions over mfa-skip's 3 presence keys and 5 states, each as a never and as an always rule.
        let layout = try Files.model(Self.fixture("mfa-skip")).layout
        var rng = SeededGenerator(seed: 16)
        func random(_ depth: Int) -> Condition {
            switch rng.draw(below: depth == 0 ? 3 : 6) {
            case 0: return .present(Int(rng.draw(below: 3)))
            case 1: return .absent(Int(rng.draw(below: 3)))
            case 2: return .at(Set((0..<Int32(5)).filter { _ in rng.draw(below: 2) == 0 }))
            case 3: return .not(random(depth - 1))
            case 4: return .all((0..<rng.draw(below: 4)).map { _ in random(depth - 1) })
            default: return .any((0..<rng.draw(below: 4)).map { _ in random(depth - 1) })
            }
        }
        var tests: [RuleCheck.Test: Int] = [:]
        for _ in 0..<500 {
            let condition = random(4)
            for state in Int32(0)..<5 {
                for always in [false, true] {
                    let broken = RuleCheck.normal(RuleCheck.deciding(condition, in: state), negated: always)
                    let (test, a, b) = RuleCheck.test(broken)
                    let candidate: Bool
                    if case let .any(list) = broken, list.isEmpty { candidate = false } else { candidate = true }
                    if candidate { tests[test, default: 0] += 1 }
                    for keys in UInt64(0)..<8 {
                        let expected = condition.holds(state: state, keys: keys, values: 0, layout: layout) != always
                        let got: Bool
                        switch test {
                        case _ where !candidate: got = false
                        case .masks: got = keys & a == a && keys & b == 0
                        case .someMask: got = keys & a != 0 || keys & b != b
                        case .whole: got = broken.holds(state: state, keys: keys, values: 0, layout: layout)
                        }
                        #expect(got == expected, "\(always ? "always" : "never") \(condition) in state \(state) with keys \(keys)")
                    }
                }
            }
        }
        // Every way of testing was exercised.
        #expect(Set(tests.keys) == [.masks, .someMask, .whole], "\(tests)")
    }

    // MARK: A runtime that breaks a rule the spec keeps

    @Test func aStaticRuntimeThatForgetsTheCodeBreaksTheRuleAsWellAsTheSpec() throws {
        let model = try Version2Tests.load(Self.mfaKept)
        #expect(model.isStatic)
        #expect(ModelChecker.verify(model).violations.isEmpty)
        let walk = RuntimeExplorer(model: model).explore(ForgetsMfaPassed(model: model), depth: 6)
        #expect(Self.shown(walk.violations) == [
            "divergence@home.verify 3: begin submit verify | after verify, the runtime holds 2 data keys, expected 3 "
                + "{mfaChallenge, mfaPassed, session}; mfaPassed is absent, expected #3",
            "mfa-before-session 3: begin submit verify | mfa-before-session says never at home ∧ has mfaChallenge ∧ no mfaPassed, "
                + "but the runtime is at home with the data {mfaChallenge, session}, where it holds",
        ])
        // The rule's violation is the runtime's: the check keeps the walk's counterexample, with the frames that differ.
        let rule = Property.userProperties(of: model)[0]
        let report = FlowChecker.check(model, source: "mfa-kept", options: CheckOptions(properties: [rule]), driver: ForgetsMfaPassed(model: model))
        #expect(Self.shown(report.violations) == [Self.shown(walk.violations)[1]])
        #expect(report.violations[0].mismatch?.differences == [.dataCount(actual: 2, expected: 3, keys: ["mfaChallenge", "mfaPassed", "session"]),
                                                               .value(key: "mfaPassed", actual: nil, expected: "#3")])
        // Only the rule asked for was checked.
        #expect(report.runtimeRules == [rule: .violatedByRuntime])
        #expect(report.verdict == .violated)
    }

    @Test func anUndoThatKeepsTheDataBreaksTheRuleOnTheFrameItLeaves() throws {
        // Undoing verify keeps mfaPassed and session: back on the code screen with a session.
        let model = try Version2Tests.load(Self.mfaKept)
        let walk = RuntimeExplorer(model: model).explore(FaultInjectionTests.UndoForgetsData(model: model), depth: 6)
        let rule = try #require(walk.violations.first { $0.property.id == "no-session-on-the-code-screen" })
        #expect(Self.shown([rule]) == [
            "no-session-on-the-code-screen 4: begin submit verify undo | no-session-on-the-code-screen says never at mfa ∧ has session, "
                + "but the runtime is at mfa with the data {mfaChallenge, mfaPassed, session}, where it holds",
        ])
        #expect(walk.violations.contains { $0.site == Site(property: .undoMismatch, state: "home", event: "verify") })
    }

    @Test func aRuntimeOverFramesThatIgnoresClearsBreaksTheRule() throws {
        let model = try Version2Tests.load(Self.passwordCleared)
        #expect(!model.isStatic)
        #expect(ModelChecker.verify(model).violations.isEmpty)
        let walk = RuntimeExplorer(model: model).explore(KeepsPassword(model: model), depth: 6)
        #expect(Self.shown(walk.violations) == [
            "divergence@home.submit 2: begin submit | after submit, the runtime holds 2 data keys, expected 1 {session}; password is #2, expected absent",
            "no-password-after-sign-in 2: begin submit | no-password-after-sign-in says always ¬at home ∨ no password, "
                + "but the runtime is at home with the data {password, session}, where it does not hold",
        ])
        let rule = Property.userProperties(of: model)[0]
        let report = FlowChecker.check(model, source: "password-cleared", options: CheckOptions(properties: [rule]), driver: KeepsPassword(model: model))
        #expect(report.violations.map(\.site) == [Site(property: rule, state: nil)])
        #expect(report.runtimeRules == [rule: .violatedByRuntime])
    }

    @Test func theRealRuntimeKeepsTheRulesItsSpecKeeps() throws {
        for json in [Self.mfaKept, Self.passwordCleared] {
            let model = try Version2Tests.load(json)
            let report = FlowChecker.check(model, source: "kept")
            #expect(report.verdict == .holds)
            #expect(Set(report.runtimeRules.values) == [.holds])
            #expect(report.runtimeRules.count == RuleCheck(model: model).properties.count)
        }
    }
}
