import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// SPIN on the configurations model finds what authcheck finds: the same properties violated, over the same configurations.
@Suite struct PromelaVerdictTests {
    /// Every spec the SPIN cross-check runs on: every broken fixture, every spec in `Specs/`, every `authflow/2` fixture.
    static let specs: [String] = Files.brokenNames.map(Files.broken) + Files.specs + Files.version2

    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)), arguments: specs)
    func panReportsAPropertyExactlyWhenAuthcheckDoes(_ path: String) throws {
        let model = try Files.model(path)
        let graph = ConfigurationGraph(model: model, limits: CheckLimits(maxConfigurations: 1_000_000), edges: false)
        try #require(graph.stoppedBy == nil)
        let verification = ModelChecker.verify(graph)
        let expected = Set(verification.violations.map(\.property)).intersection(PromelaExporter.properties)
        let run = try Spin.run(PromelaExporter.export(model, space: .configurations), searchDepth: graph.count + 10,
                               expectedStates: graph.count)
        #expect(run.violated == expected, "\(path): pan reported \(run.violated.map(\.id).sorted()), authcheck \(expected.map(\.id).sorted())\n\(run.output)")
        #expect(run.stored == graph.count + 1, "\(path): \(graph.count) configurations")
    }

    /// `--variant` restricts the model before it is written: only the chosen roots are in the export.
    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)),
          arguments: [("required", Set<Property>()), ("optional", Set<Property>([.unmetRequirement]))])
    func aChosenVariantIsTheOnlyOneSpinExplores(_ mfa: String, _ violated: Set<Property>) throws {
        let model = try Files.model(Files.version2("promela-variant-unmet")).selectingVariants(["mfa": [mfa]])
        let graph = ConfigurationGraph(model: model, edges: false)
        let run = try Spin.run(PromelaExporter.export(model, space: .configurations), searchDepth: graph.count + 10,
                               expectedStates: graph.count)
        #expect(Set(ModelChecker.verify(graph).violations.map(\.property)) == violated)
        #expect(run.violated == violated)
        #expect(run.stored == graph.count + 1)
    }

    /// The `/2` fixtures written for the export, each breaking one property in a way only the data shows.
    static let version2Sites: [(name: String, sites: [String])] = [
        // The answer resetPassword has no row: illegal in that branch alone, right after the email.
        ("promela-unanswered-answer", ["illegal-transition@password.signIn in 1"]),
        // Two wrong passwords leave the password screen with nothing to offer.
        ("promela-lockout-deadlock", ["deadlock@password in 3"]),
        // Only in the variant mfa=optional does skip reach signedIn without a session.
        ("promela-variant-unmet", ["unmet-requirement@signedIn in 2"]),
        // Resets out of signedIn and expired are fine; cancelled's resume row is a way out of a terminal state.
        ("promela-resumed-abort", ["terminal-exit@cancelled in 2"]),
        // The one property SPIN cannot state: pan reports nothing, and agrees.
        ("promela-polling-no-exit", ["no-exit@waiting in 1"]),
    ]

    @Test(arguments: version2Sites)
    func theExportFixturesBreakWhatTheySay(_ name: String, _ sites: [String]) throws {
        let model = try Files.model(Files.version2(name))
        let verification = ModelChecker.verify(model)
        let found = verification.violations.map { "\($0.property.id)@\($0.state ?? "-")\($0.event.map { ".\($0)" } ?? "") in \($0.path.count - 1)" }
        #expect(found == sites)
    }

    @Test func panMessagesNameTheirProperty() {
        #expect(PromelaExporter.property(reportedBy: "pan:1: invalid end state (at depth 3)") == .deadlock)
        #expect(PromelaExporter.property(reportedBy: "pan:2: assertion violated terminal_exit (at depth 2)") == .terminalExit)
        #expect(PromelaExporter.property(reportedBy: "assertion violated (unmet_requirement||((kd0&2)==2))") == .unmetRequirement)
        #expect(PromelaExporter.property(reportedBy: "assertion violated (illegal_transition||(v1!=2))") == .illegalTransition)
        #expect(PromelaExporter.property(reportedBy: "assertion violated (unmet_requirements||x)") == nil)
        #expect(PromelaExporter.property(reportedBy: "pan:1: acceptance cycle (at depth 3)") == nil)
    }
}
