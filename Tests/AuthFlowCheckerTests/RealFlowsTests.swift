import AuthFlow
import AuthFlowChecker
import Foundation
import Testing

/// The real `authflow/2` flows in `Benchmarks/specs/` load cleanly and have the sizes Benchmarks/results.md reports.
///
/// They are translations of public machines, measured by `Benchmarks/run.sh --real-v2-only`; a change to the loader or
/// the search that changed their counts would make the published figures describe other flows. The Amplify
/// authenticator's 121,824 configurations take seconds in a debug build, so only its shape and its stacks at a small
/// depth are pinned here; its configurations and verdict are pinned by the harness (release build).
@Suite struct RealFlowsTests {
    static func path(_ name: String) -> String {
        Files.root.appendingPathComponent("Benchmarks/specs/\(name).json").path
    }

    // Element X's file is left out: it is byte-identical to the shared benchmark collection's, whose `complete` step
    // declares a `back` that a success state ignores (a load warning, no change in meaning).
    @Test(arguments: ["amplify-authenticator-v2", "ha-onboarding-v2"])
    func loadsWithoutWarnings(_ name: String) throws {
        let model = try SpecLoader.load(file: Self.path(name))
        #expect(model.warnings.isEmpty, "\(name): \(model.warnings)")
    }

    @Test func amplifyAuthenticatorShape() throws {
        let model = try SpecLoader.load(file: Self.path("amplify-authenticator-v2"))
        #expect(model.spec.steps.count == 52)
        #expect(model.variants.count == 120)
        #expect(RuntimeExplorer(model: model).countStacks(depth: 3) == amplifyStacksAtDepth3)
    }

    /// `authcheck-bench walk Benchmarks/specs/amplify-authenticator-v2.json 3 1` on the release build.
    let amplifyStacksAtDepth3 = 3_540

    @Test func homeAssistantOnboardingCountsAndItsDeadlock() throws {
        let path = Self.path("ha-onboarding-v2")
        let model = try SpecLoader.load(file: path)
        let verification = ModelChecker.verify(model)
        #expect(verification.states == 24)
        #expect(verification.configurations == 204)
        // A real dead end of the page, not of the translation: after the overview fetch fails it alerts and keeps the
        // loading screen (src/onboarding/ha-onboarding.ts:328-330 upstream).
        let report = FlowChecker.check(model, source: path, options: CheckOptions(limits: CheckLimits(depth: 4)))
        #expect(report.violations.map(\.site.description) == ["deadlock@loadFailed"])
    }
}
