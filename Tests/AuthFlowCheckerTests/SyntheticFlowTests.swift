import FlowGenerators
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// Generated flows are valid, realistic, hold every property, and stay within a small multiple of their states.
@Suite struct SyntheticFlowTests {
    @Test(arguments: [(4, 2, 1 as UInt64), (10, 3, 2), (100, 16, 3), (300, 16, 4), (1_000, 16, 5), (400, 64, 6)])
    func aGeneratedFlowHoldsEveryPropertyWithCleanLint(_ states: Int, _ keys: Int, _ seed: UInt64) throws {
        let spec = SyntheticFlow.make(states: states, keys: keys, seed: seed)
        let model = try FlowModel(spec: spec)
        #expect(model.stateCount == states)
        #expect(model.keys.count <= keys)
        let verification = ModelChecker.verify(model)
        #expect(verification.violations.isEmpty, "\(verification.violations.map(\.site))")
        #expect(verification.lint == Lint())
        #expect(verification.stoppedBy == nil)
        // Every state is reachable, and the data keeps the configurations within a small multiple of the states.
        #expect(verification.states == states)
        #expect(verification.configurations < 64 * states)
    }

    @Test func successRequiresTheCredentialAndOnlySigningInAddsIt() throws {
        let spec = SyntheticFlow.make(states: 500, keys: 16, seed: 9)
        #expect(spec.success == ["authenticated"])
        #expect(spec.abort == ["cancelled"])
        #expect(spec.steps.first { $0.state == "authenticated" }?.requires == ["session"])
        let intoSuccess = spec.transitions.filter { $0.to == "authenticated" }
        #expect(!intoSuccess.isEmpty)
        for row in spec.transitions {
            let adds = spec.steps.first { $0.state == row.from }!.emits.first { $0.event == row.on }!.adds
            #expect(adds.contains("session") == (row.to == "authenticated"), "\(row.from).\(row.on)")
        }
        // The generator's features are all there: retries, back-edges, branches, cancel, screens without back.
        let events = Set(spec.transitions.map(\.on))
        #expect(events.isSuperset(of: ["next", "signIn", "retry", "resend", "edit", "startOver", "alternative", "skip", "cancel"]))
        #expect(spec.steps.contains { !$0.back && $0.state != spec.initial })
        #expect(spec.transitions.contains { $0.from == $0.to })
    }

    @Test func theSameSeedGivesTheSameFlowAndAnotherSeedAnother() {
        #expect(SyntheticFlow.make(states: 200, keys: 12, seed: 42) == SyntheticFlow.make(states: 200, keys: 12, seed: 42))
        #expect(SyntheticFlow.make(states: 200, keys: 12, seed: 42) != SyntheticFlow.make(states: 200, keys: 12, seed: 43))
    }

    @Test func theJSONLoadsBackToTheSameSpec() throws {
        let spec = SyntheticFlow.make(states: 150, keys: 10, seed: 11)
        let loaded = try SpecLoader.load(json: SyntheticFlow.json(spec))
        #expect(loaded.spec == spec)
    }

    @Test func theRuntimeAgreesWithTheSpecOnAGeneratedFlow() throws {
        let model = try FlowModel(spec: SyntheticFlow.make(states: 300, keys: 16, seed: 12))
        let report = FlowChecker.check(model, source: "synthetic", options: CheckOptions(limits: CheckLimits(depth: 6),
                                                                                          passcodeCases: 10, workers: 2))
        #expect(report.verdict == .holds, "\(report.violations.map(\.message))")
        #expect(report.stats.stacks == RuntimeExplorer(model: model).countStacks(depth: 6))
    }
}
