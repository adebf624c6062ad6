import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The random-path tester on `authflow/2`: runs drive the runtime with values from each key's
/// domain, in every variant, and find what the complete checker and the walk find.
@Suite struct Version2FuzzTests {
    static func model() throws -> FlowModel { try Version2Tests.load(Version2Tests.fixture()) }

    @Test func theRealRuntimeHoldsUnderFiveHundredRuns() throws {
        let model = try Self.model()
        let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 500, seed: 7))
        #expect(report.failure == nil, "\(report.failure.map { "\($0.violation.message) \($0.shrunk)" } ?? "")")
        // Every state the model reaches was entered, and every row that can fire fired.
        #expect(report.coverage.statesHit == report.coverage.statesReachable)
        #expect(report.coverage.transitionsHit == report.coverage.transitionsLive)
    }

    @Test func aRuntimeThatIgnoresTheBackendsAnswerIsFoundAndShrunkToTheShortest() throws {
        let model = try Self.model()
        let report = FlowFuzzer(model: model) { Version2WalkTests.AlwaysDone(model: model) }.run(FuzzOptions(runs: 1000, seed: 1))
        let failure = try #require(report.failure)
        #expect(failure.site.property == .divergence)
        #expect(["confirmTotp", "resetPassword"].contains(failure.site.state))
        // begin, then submitted with the answer the runtime ignores: the walk's 2 steps.
        #expect(failure.shrunk.count == 2, "\(failure.shrunk)")
        #expect(failure.isKnownShortest)
        // The failure replays in its variant from the shrunk path alone.
        let replayed = FlowFuzzer(model: model) { Version2WalkTests.AlwaysDone(model: model) }.replay(failure.shrunk, variant: failure.variant)
        #expect(replayed?.site == failure.site)
    }

    static let brokenFlow = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": ["done"],
      "abort": [],
      "config": { "mfa": ["off", "on"] },
      "data": { "answer": { "values": ["ok", "mfa", "locked"] }, "attempts": { "max": 2 } },
      "steps": {
        "start": { "back": false, "emits": { "begin": [] } },
        "signIn": { "emits": { "submitted": { "adds": ["answer"], "by": "system" },
                               "wrong": { "increment": ["attempts"], "when": { "below": { "attempts": 2 } } } } },
        "code": { "emits": { "accepted": [] } },
        "locked": {},
        "done": {}
      },
      "transitions": [
        { "from": "start", "on": "begin", "to": "signIn" },
        { "from": "signIn", "on": "submitted", "to": "done", "when": { "equals": { "answer": "ok" } } },
        { "from": "signIn", "on": "submitted", "to": "code", "when": { "all": [{ "equals": { "answer": "mfa" } }, { "equals": { "mfa": "on" } }] } },
        { "from": "signIn", "on": "submitted", "to": "done", "when": { "equals": { "answer": "mfa" } } },
        { "from": "signIn", "on": "submitted", "to": "locked" },
        { "from": "signIn", "on": "wrong", "to": "signIn", "when": { "equals": { "mfa": "on" } } },
        { "from": "code", "on": "accepted", "to": "done" }
      ]
    }
    """

    @Test func theTesterFindsTheCheckersSitesAtTheirShortestLengths() throws {
        let model = try Version2Tests.load(Self.brokenFlow)
        let checked = FlowChecker.check(model, source: "broken")
        // By hand: with MFA off no row takes `wrong` (begin, then wrong: the site is signIn's, 1 step);
        // `locked` has no way on (begin, submitted with locked: 2 steps), in both variants.
        let shortest = Dictionary(uniqueKeysWithValues: checked.violations.map {
            ("\($0.property.id) \($0.state ?? "-") \($0.event ?? "-")", $0.path.count - 1)
        })
        #expect(shortest == ["illegal-transition signIn wrong": 1, "deadlock locked -": 2])
        var found = Set<String>()
        for seed in UInt64(1)...12 {
            let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 200, seed: seed))
            let failure = try #require(report.failure, "seed \(seed)")
            let site = "\(failure.site.property.id) \(failure.site.state ?? "-") \(failure.site.event ?? "-")"
            found.insert(site)
            #expect(failure.shrunk.count == shortest[site], "seed \(seed): \(site) \(failure.shrunk)")
            if site.hasPrefix("illegal") { #expect(model.variantNames[failure.variant] == "mfa=off") }
        }
        #expect(found == Set(shortest.keys))
    }
}
