@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
import Testing

/// Coverage of `authflow/2` flows: per variant and overall, guards on edge labels, system events drawn apart.
@Suite struct Version2CoverageTests {
    static func run(_ arguments: [String]) -> (stdout: String, status: Int32) {
        FirstContactTests.run(arguments, input: VariantOptionTests.spec)
    }

    @Test func eachVariantIsCountedFromItsOwnRootAndTheWholeFromAll() throws {
        let model = try SpecLoader.load(json: VariantOptionTests.spec)
        let coverage = FlowCoverage.compute(model, depth: 4)
        // By hand: recovery=code reaches signIn, code, done, cancelled (4 configurations, 4 rows: the
        // link row never fires); recovery=link reaches signIn, link, done (3, and 2 rows).
        #expect(coverage.variants.map(\.name) == ["recovery=code, mfa=off", "recovery=code, mfa=on", "recovery=link, mfa=off", "recovery=link, mfa=on"])
        #expect(coverage.variants.map(\.configurations) == [4, 4, 3, 3])
        #expect(coverage.variants.map(\.statesReached) == [4, 4, 3, 3])
        #expect(coverage.variants.map(\.transitionsFired) == [3, 3, 2, 2])
        #expect(coverage.variants.map(\.stacks) == [4, 4, 3, 3])
        #expect(coverage.configurations == 14)
        #expect(coverage.stacks == coverage.variants.reduce(0) { $0 + $1.stacks })
        #expect(coverage.transitions.map(\.fired) == [true, true, true, true])
        #expect(coverage.transitions.map(\.label) == ["forgot [recovery = code]", "forgot", "ok", "cancel"])
    }

    @Test func aFlowWithOneVariantListsNone() throws {
        let coverage = FlowCoverage.compute(try SpecLoader.load(file: Fixture.url(Fixture.spec("deadlock")).path), depth: 4)
        #expect(coverage.variants.isEmpty)
    }

    @Test func theGraphsShowGuardsAndDrawTheSystemApart() throws {
        let spec = Fixture.url("Tests/AuthFlowCheckerTests/Fixtures/version2/sign-in.json").path
        let dot = FirstContactTests.run(["coverage", spec, "--format", "dot"]).stdout
        #expect(dot.contains("\"signIn\" -> \"confirmTotp\" [label=\"⚙ submitted [nextStep = confirmTotp] · 1988\", color=steelblue, fontcolor=steelblue, arrowhead=open"), "\(dot)")
        #expect(dot.contains("\"signedIn\" -> \"start\" [label=\"⟲ signOut · 0\", style=bold, constraint=false"))
        #expect(dot.contains("label=\"forgot if attempts ≥ 1 [recovery = code] · 644\""))
        #expect(dot.contains("blue, open arrow, ⚙: the system's answer, not the user's"))
        let mermaid = FirstContactTests.run(["coverage", spec, "--format", "mermaid"]).stdout
        #expect(mermaid.contains("s1 --> s6 : ⚙ sessionExpired (1988 stacks)"))
        let text = FirstContactTests.run(["coverage", spec, "--format", "json"]).stdout
        #expect(text.contains("\"when\": \"nextStep = done\""))
        #expect(text.contains("\"offeredWhen\": \"attempts ≥ 1\""))
        #expect(text.contains("\"by\": \"system\""))
        #expect(text.contains("\"reset\": true"))
        #expect(text.contains("\"variant\": \"recovery=link\""))
    }
}
