import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The random-path tester checks the spec's own `always`/`never` rules after every step, and shrinks
/// a rule's counterexample to the shortest: a rule has no state to aim at, so the shrinker's guide aims
/// at the nearest configuration that breaks it.
@Suite struct UserRuleFuzzTests {
    static let seeds: [UInt64] = Array(1...20)

    /// An MFA flow with a skip button and a help screen that also leads to the code screen, with a key of its own:
    /// a run that goes by the help screen reaches the code screen in a configuration that `submit` does not,
    /// so deleting steps cannot shorten it; only a route to the nearest configuration that breaks the rule can.
    static let skipAfterHelp = """
    {
      "format": "authflow/2",
      "initial": "start", "success": ["home"], "abort": [],
      "steps": {
        "start": { "back": false, "emits": { "begin": [] } },
        "signIn": { "emits": { "submit": ["mfaChallenge"], "help": [] } },
        "help": { "emits": { "continue": ["mfaChallenge", "sawHelp"] } },
        "mfa": { "requires": ["mfaChallenge"], "emits": { "verify": ["mfaPassed", "session"], "skip": ["session"] } },
        "home": { "requires": ["session"] }
      },
      "transitions": [
        { "from": "start", "on": "begin", "to": "signIn" },
        { "from": "signIn", "on": "submit", "to": "mfa" },
        { "from": "signIn", "on": "help", "to": "help" },
        { "from": "help", "on": "continue", "to": "mfa" },
        { "from": "mfa", "on": "verify", "to": "home" },
        { "from": "mfa", "on": "skip", "to": "home" }
      ],
      "outputs": ["sawHelp"],
      "properties": [
        { "id": "mfa-before-session", "never": { "all": [{ "at": ["home"] }, { "has": "mfaChallenge" }, { "missing": "mfaPassed" }] } }
      ]
    }
    """

    @Test(arguments: [("mfa-skip", "mfa-before-session", 3), ("password-kept", "no-password-after-sign-in", 2)])
    func aBrokenRuleIsFoundAndShrunkToItsShortestOnEverySeed(_ fixture: String, _ rule: String, _ shortest: Int) throws {
        // mfa-skip is a static flow (the /1 lockstep), password-kept a flow over frames.
        let model = try Files.model(UserRuleWalkTests.fixture(fixture))
        for seed in Self.seeds {
            let report = FlowFuzzer(model: model).run(FuzzOptions(seed: seed))
            let failure = try #require(report.failure, "seed \(seed): no failure in \(report.runs) runs")
            #expect(failure.site == Site(property: Property(id: rule), state: nil), "seed \(seed)")
            #expect(failure.site.property.isUserDefined, "seed \(seed): the site carries the spec's rule")
            #expect(failure.shrunk.count == shortest, "seed \(seed): \(failure.original) shrunk to \(failure.shrunk)")
            #expect(failure.shortestKnown == shortest, "seed \(seed): the complete checker's shortest")
            // The shrunk path replays to the same rule on its own.
            #expect(FlowFuzzer(model: model).replay(failure.shrunk, variant: failure.variant)?.site == failure.site)
        }
    }

    @Test(arguments: UserRuleWalkTests.fixturesWithRules)
    func everyFixturesRulesShrinkToTheCheckersShortest(_ path: String) throws {
        // Only the rules are checked, so every failure is one of them; values, counters and variants included.
        let model = try Files.model(path)
        let rules = Set(RuleCheck(model: model).properties)
        let shortest = Dictionary(uniqueKeysWithValues: ModelChecker.verify(model).violations.filter { rules.contains($0.property) }.map { ($0.site, $0.length) })
        for seed in Self.seeds.prefix(10) {
            let report = FlowFuzzer(model: model).run(FuzzOptions(seed: seed, properties: rules))
            let failure = try #require(report.failure, "seed \(seed): no failure in \(report.runs) runs")
            let expected = try #require(shortest[failure.site], "seed \(seed): \(failure.site) is not broken by the spec")
            #expect(failure.shrunk.count == expected, "seed \(seed): \(failure.site) \(failure.original) shrunk to \(failure.shrunk)")
            #expect(failure.isKnownShortest, "seed \(seed)")
        }
    }

    @Test(arguments: UserRuleWalkTests.fixturesWithRules)
    func theGuidesActionsReachTheirConfigurationWithTheBranchesValues(_ path: String) throws {
        // Every configuration, replayed from its variant's root by the actions the guide proposes, is reached exactly.
        let model = try Files.model(path)
        let graph = ConfigurationGraph(model: model, edges: false)
        let guide = ShrinkGuide(graph: graph)
        var root = [Int](repeating: 0, count: graph.count)
        for i in 0..<graph.count {
            root[i] = graph.parent[i] < 0 ? i : root[Int(graph.parent[i])]
            var lockstep = Lockstep(rules: SiteRules(model: model), driver: SessionDriver(model: model), properties: [])
            _ = lockstep.start(variant: root[i])
            for action in guide.actions(to: Int32(i)) { #expect(lockstep.apply(action).applicable) }
            let reached = Configuration(state: lockstep.top.state, keys: lockstep.top.keys, values: lockstep.top.packed)
            #expect(reached == graph.configurations[i], "configuration \(i): \(guide.actions(to: Int32(i)))")
        }
    }

    @Test func theShortestKnownForARuleIsTheCompleteCheckersWhateverTheDepth() throws {
        // The walk bounded by the shrunk path's length could not know it from a shorter bound; the checker can.
        let model = try Files.model(UserRuleWalkTests.fixture("mfa-skip"))
        let site = Site(property: Property.userProperties(of: model)[0], state: nil)
        let fuzzer = FlowFuzzer(model: model)
        #expect(fuzzer.shortestKnown(site, within: 1, graph: ConfigurationGraph(model: model, edges: false)) == 3)
    }

    @Test func theGuideAimsARuleAtTheNearestConfigurationThatBreaksIt() throws {
        let model = try Version2Tests.load(Self.skipAfterHelp)
        let guide = ShrinkGuide(graph: ConfigurationGraph(model: model, edges: false))
        let rule = Property.userProperties(of: model)[0]
        #expect(guide.shortestPaths(breaking: rule, variant: 0, limit: 8).map { $0.map(\.description) } == [
            ["begin", "submit", "skip"], ["begin", "help", "continue", "skip"],
        ])
        #expect(guide.shortestPaths(breaking: rule, variant: 0, limit: 1).count == 1)
        #expect(guide.shortestPaths(breaking: .deadlock, variant: 0, limit: 8).isEmpty)
    }

    @Test func aRunByTheHelpScreenStillShrinksToTheShortestPath() throws {
        let model = try Version2Tests.load(Self.skipAfterHelp)
        var detours = 0
        for seed in Self.seeds {
            let report = FlowFuzzer(model: model).run(FuzzOptions(seed: seed))
            let failure = try #require(report.failure, "seed \(seed)")
            if failure.original.contains(where: { $0.name == "help" }) { detours += 1 }
            #expect(failure.shrunk.map(\.name) == ["begin", "submit", "skip"], "seed \(seed): \(failure.original) shrunk to \(failure.shrunk)")
            #expect(failure.isKnownShortest, "seed \(seed)")
        }
        // Some seeds went by the help screen: the case deletion alone cannot shrink.
        #expect(detours > 0)
    }

    @Test func aRuleOnlyTheRuntimeBreaksIsFoundWhenItIsWhatIsChecked() throws {
        let model = try Version2Tests.load(UserRuleWalkTests.mfaKept)
        let rule = Property.userProperties(of: model)[0]
        for seed in Self.seeds {
            // Everything checked: the runtime's disagreement is reported first, as the divergence it is.
            let all = FlowFuzzer(model: model) { UserRuleWalkTests.ForgetsMfaPassed(model: model) }.run(FuzzOptions(seed: seed))
            #expect(all.failure?.site == Site(property: .divergence, state: "home", event: "verify"), "seed \(seed)")
            // The rule alone: the frame the runtime holds breaks it, read through the driver.
            let report = FlowFuzzer(model: model) { UserRuleWalkTests.ForgetsMfaPassed(model: model) }
                .run(FuzzOptions(seed: seed, properties: [rule]))
            let failure = try #require(report.failure, "seed \(seed)")
            #expect(failure.site == Site(property: rule, state: nil))
            #expect(failure.violation.message.contains("but the runtime is at home with the data {mfaChallenge, session}"), "\(failure.violation.message)")
            #expect(failure.shrunk.map(\.name) == ["begin", "submit", "verify"], "seed \(seed): \(failure.shrunk)")
            // The spec keeps the rule: the shortest known is the walk's.
            #expect(failure.shortestKnown == 3)
        }
    }

    @Test func aRuntimeOverFramesThatKeepsThePasswordBreaksTheRule() throws {
        let model = try Version2Tests.load(UserRuleWalkTests.passwordCleared)
        let rule = Property.userProperties(of: model)[0]
        for seed in Self.seeds.prefix(5) {
            let report = FlowFuzzer(model: model) { UserRuleWalkTests.KeepsPassword(model: model) }.run(FuzzOptions(seed: seed, properties: [rule]))
            let failure = try #require(report.failure, "seed \(seed)")
            #expect(failure.site == Site(property: rule, state: nil))
            #expect(failure.shrunk.map(\.name) == ["begin", "submit"], "seed \(seed): \(failure.shrunk)")
            #expect(failure.shortestKnown == 2)
        }
    }

    @Test func theReplayCommandNamesThePropertiesTheRunChecked() throws {
        let model = try Files.model(UserRuleWalkTests.fixture("mfa-skip"))
        let rule = Property.userProperties(of: model)[0]
        let options = FuzzOptions(seed: 3, properties: [rule, .divergence])
        let failure = try #require(FlowFuzzer(model: model).run(options).failure)
        #expect(FuzzReportRenderer.replayCommand(spec: "mfa-skip.json", failure: failure, options: options)
                == "authcheck fuzz mfa-skip.json --seed 3 --runs \(failure.run + 1) --max-steps 60 --property divergence --property mfa-before-session")
    }
}
