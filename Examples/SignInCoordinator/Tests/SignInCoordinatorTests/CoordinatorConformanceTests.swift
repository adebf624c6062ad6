import AuthFlow
import AuthFlowChecker
import Testing
#if canImport(SignInCoordinatorExample)
import SignInCoordinatorExample   // the example built inside authcheck's own package
#else
import SignInCoordinator
#endif

/// The app's gate: its coordinator conforms to the spec it ships with.
@Suite struct CoordinatorConformanceTests {
    @Test func coordinatorConformsToTheSpec() throws {
        try FlowGate.assertConforms(spec: "Specs/email-first.json") { SignInCoordinator() }
    }

    /// Without its undo the walk replays paths from fresh coordinators, with the same verdict and stacks.
    @Test func conformsWithoutUndoToo() throws {
        let model = MutantTests.model
        var conformance = FlowConformance(model: model) { SignInCoordinator() }
        let withUndo = conformance.explore(depth: 10)
        conformance.usesCapabilities = false
        let replaying = conformance.explore(depth: 10)
        #expect(withUndo.violations.isEmpty && replaying.violations.isEmpty)
        #expect(withUndo.stacks == replaying.stacks)
    }

    /// A broken coordinator fails the gate with a counterexample a person can act on.
    @Test func aBrokenCoordinatorFailsWithItsCounterexample() throws {
        let failure = #expect(throws: ConformanceFailure.self) {
            try FlowGate.assertConforms(spec: "Specs/email-first.json") { SignInCoordinator(mutant: .backForgetsData) }
        }
        let text = failure?.description ?? ""
        #expect(text.contains("violated — the implementation does not conform"), "\(text)")
        #expect(text.contains("frame after step 3 (− expected by the spec, + actual in the implementation):"), "\(text)")
        #expect(text.contains("     + account  #2"), "\(text)")
        #expect(!text.contains("history"), "an app's history is never reported: \(text)")
        #expect(text.contains("replay: the path startAuth knownEmail back"), "\(text)")
        // Three counterexamples in full, the other sites one line.
        #expect(text.contains("\n5 more: undo-mismatch@joinAccount.invitedEmail (3 steps), "), "\(text)")
        #expect(!text.contains("4) "), "\(text)")
    }

    /// The random paths replay by seed, and their counterexamples show the values typed with the secrets redacted.
    @Test func randomPathFailuresRedactSecretsAndReplay() throws {
        let conformance = FlowConformance(model: MutantTests.model) { SignInCoordinator(mutant: .mergeKeepsOldValue) }
        let report = conformance.fuzz()
        let failure = try #require(report.failure)
        #expect(failure.site.description == "divergence@mfaCode.resend")
        #expect(conformance.fuzz().failure?.shrunk == failure.shrunk)
        #expect(conformance.replay(failure.shrunk)?.site == failure.site)
        let text = ConformanceRenderer.text(ConformanceReport(spec: "Specs/email-first.json", secrets: ["session", "mfaChallenge"],
                                                              fuzz: report, fuzzOptions: FuzzOptions()))
        #expect(text.contains("mfaChallenge=<redacted>") && text.contains("− mfaChallenge  <redacted>"), "\(text)")
        #expect(!text.contains("mfaChallenge-"), "a secret's value was printed: \(text)")
        #expect(text.contains("email=email-2"), "\(text)")
        #expect(text.contains("seed 1 with runs ≥ \(failure.run + 1) walks it again"), "\(text)")
    }
}
