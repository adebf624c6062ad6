import AuthFlow
import AuthCheckTestSupport
@testable import AuthFlowChecker
import Testing

@Suite struct FlowFuzzerTests {
    @Test(arguments: ModelCheckerTests.expectations)
    func findsEveryBrokenVariantAndShrinksToNearTheShortestPath(_ expected: ExpectedSites) throws {
        let model = try Files.model(Files.broken(expected.fixture))
        let report = FlowFuzzer(model: model).run(FuzzOptions(seed: 2026))
        let failure = try #require(report.failure, "no failure found in \(report.runs) runs")
        let index = try #require(expected.sites.firstIndex(of: failure.site.description),
                                 "found \(failure.site), expected one of \(expected.sites)")
        #expect(failure.shrunk.count <= expected.lengths[index] + 1,
                "shrunk to \(failure.shrunk) (\(failure.shrunk.count) steps); the checker's shortest is \(expected.lengths[index])")
        // The same seed gives the same result.
        let again = FlowFuzzer(model: model).run(FuzzOptions(seed: 2026))
        #expect(again.failure?.shrunk == failure.shrunk)
        #expect(again.failure?.original == failure.original)
        #expect(again.runs == report.runs)
        // And the shrunk path replays to the same site.
        #expect(FlowFuzzer(model: model).replay(failure.shrunk)?.site == failure.site)
    }

    @Test(arguments: Files.specs)
    func everySpecPassesAndIsFullyCovered(_ path: String) throws {
        let model = try Files.model(path)
        // 1,000 runs: sign-in-next-step's lockout needs three refused passwords in a row (seed 7 covers all by run 707).
        let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 1_000, seed: 7))
        #expect(report.failure == nil, "\(report.failure.map { "\($0.site): \($0.shrunk)" } ?? "")")
        #expect(report.coverage.statesHit == report.coverage.statesReachable)
        #expect(report.coverage.transitionsHit == report.coverage.transitionsLive)
        #expect(report.coverage.runsToFullCoverage != nil)
    }

    @Test func brokenUndoIsFoundAndShrunkToAForwardBackPair() throws {
        let model = try Files.model(Files.broken("mfa-bypass"))
        let fuzzer = FlowFuzzer(model: model, makeDriver: { FaultInjectionTests.UndoForgetsData(model: model) })
        let report = fuzzer.run(FuzzOptions(seed: 11, properties: [.undoMismatch, .divergence]))
        let failure = try #require(report.failure)
        #expect(failure.site.property == .undoMismatch)
        // startAuth, knownEmail (adds data), back: nothing shorter shows a lost data frame.
        #expect(failure.shrunk.map(\.name) == ["startAuth", "knownEmail", "back"])
    }

    /// A runtime whose back ignores the spec's policy: `back: false` screens and terminal states let the user back.
    final class BackIgnoresPolicy: ForwardingDriver {
        override func back() -> Bool { real.undo() }
    }

    @Test func backWhereTheSpecForbidsItIsTriedAndCaught() throws {
        // session-restore's refresh screen is `back: false`: a user must not back out of a token refresh.
        let model = try Files.model(Files.root.appendingPathComponent("Specs/session-restore.json").path)
        let report = FlowFuzzer(model: model, makeDriver: { BackIgnoresPolicy(model: model) }).run(FuzzOptions(seed: 3))
        let failure = try #require(report.failure, "no failure in \(report.runs) runs")
        #expect(failure.site.property == .divergence && failure.site.event == nil)
        #expect(failure.violation.message.hasPrefix("the runtime let the user go back from \(failure.site.state ?? "-")"))
        #expect(failure.shrunk.last == .back)
        // The complete walk finds the same kind of site.
        let walk = RuntimeExplorer(model: model).explore(BackIgnoresPolicy(model: model), depth: 6)
        #expect(walk.violations.contains { $0.property == .divergence && $0.message.contains("which the spec forbids") })
    }

    @Test func aRefusedForbiddenBackIsNotAFailure() throws {
        // The real runtime refuses every forbidden back, so trying them finds nothing.
        for path in Files.specs {
            let model = try Files.model(path)
            let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 300, seed: 5, backWeight: 1, illegalWeight: 8))
            #expect(report.failure == nil, "\(path): \(report.failure.map { "\($0.site): \($0.shrunk)" } ?? "")")
        }
    }

    @Test func secretValuesNeverAppearInReports() throws {
        let model = try Files.model(Files.broken("mfa-bypass"))
        let fuzzer = FlowFuzzer(model: model, makeDriver: { FaultInjectionTests.UndoForgetsData(model: model) })
        for seed in [1, 2, 3] as [UInt64] {
            let report = fuzzer.run(FuzzOptions(seed: seed))
            let failure = try #require(report.failure)
            let secretValues = failure.original.flatMap { action -> [String] in
                guard case let .event(name, .ordered(values)) = action, let event = model.event(named: name) else { return [] }
                let move = model.moves.flatMap { $0 }.first { $0.event == event }!
                return zip(move.addedKeys, values).filter { model.secrets.contains($0.0) }.map(\.1)
            }
            let text = CounterexampleRenderer.render(failure.violation, number: 1, replay: nil, secrets: Set(model.names(of: model.secrets)))
                + failure.violation.message
            for value in secretValues { #expect(!text.contains(value), "secret value \(value) printed") }
            for step in failure.violation.path {
                for key in ["session", "mfaChallenge"] where step.values?[key] != nil { #expect(step.values?[key] == "<redacted>") }
            }
        }
    }

    @Test func regressionsReplayFirst() throws {
        let model = try Files.model(Files.broken("mfa-bypass"))
        let saved: [[FuzzAction]] = [[.event("startAuth", values: nil), .event("knownEmail", values: nil),
                                      .event("mfaChallenged", values: nil), .event("skip", values: nil)]]
        let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 0), regressions: saved)
        #expect(report.regressionsReplayed == 1)
        #expect(report.failure?.site.description == "unmet-requirement@authenticated")
        #expect(report.failure?.shrunk.count == 4)
    }

    @Test func inapplicableReplayIsNotAFailure() throws {
        let model = try Files.model(Files.broken("mfa-bypass"))
        #expect(FlowFuzzer(model: model).replay([.back]) == nil)
        #expect(FlowFuzzer(model: model).replay([.event("nope", values: nil)]) == nil)
    }
}
