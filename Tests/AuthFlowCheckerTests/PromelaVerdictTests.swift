import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// SPIN on the configurations model finds what authcheck finds: the same properties violated, over the same configurations.
@Suite struct PromelaVerdictTests {
    /// Every spec the SPIN cross-check runs on: every broken fixture, every spec in `Specs/`, every
    /// `authflow/2` fixture (the broken ones with the team's own rules among them), and the other specs in
    /// `Tests/` that load.
    static let specs: [String] = Files.brokenNames.map(Files.broken) + Files.specs + Files.version2 + Files.otherLoadableSpecs

    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)), arguments: specs)
    func panReportsAPropertyExactlyWhenAuthcheckDoes(_ path: String) throws {
        let model = try Files.model(path)
        let graph = ConfigurationGraph(model: model, limits: CheckLimits(maxConfigurations: 1_000_000), edges: false)
        try #require(graph.stoppedBy == nil)
        // Server-side keys (section 5) add every landing only a back reaches as an option of its own: 13,573 options for
        // Specs/sign-in-next-step.json, on which `spin -a` alone runs for minutes. SPIN's verdicts on such flows are
        // pinned on the hand-worked fixtures (`Section5HistoryPromelaTests`).
        guard (graph.backReach?.backJumps().count ?? 0) < 2_000 else { return }
        let violated = Set(ModelChecker.verify(graph).violations.map(\.property))
        let stated = PromelaExporter.properties(of: model)
        let run = try Spin.run(PromelaExporter.export(model, space: .configurations), stating: stated,
                               searchDepth: graph.count + 10, expectedStates: graph.count)
        // One verdict per property the model states, the spec's always and never rules included.
        for property in stated {
            #expect(run.violated.contains(property) == violated.contains(property),
                    "\(path): \(property.id) is \(violated.contains(property) ? "" : "not ")violated for authcheck, pan says the opposite\n\(run.output)")
        }
        #expect(run.stored == graph.count + 1, "\(path): \(graph.count) configurations")
    }

    /// The stack model `export --depth N` writes agrees with authcheck too (#29 item 9): on every broken fixture, the
    /// deadlocked ones and the others, pan's assertions fail for exactly the properties, deadlock included, whose
    /// shortest counterexample fits in the depth, and it stores one state per stack.
    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)), arguments: Files.brokenNames)
    func onTheStacksPanReportsAPropertyExactlyWhenAuthcheckDoesWithinTheDepth(_ name: String) throws {
        let path = Files.broken(name)
        try PromelaExportTests.expectSpinAgreesOnTheStacks(try Files.model(path), depth: 5, path)
    }

    /// The cross-check above sees the team's rules both broken and kept: pan names each broken rule by its id.
    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)), arguments: [
        ("broken/mfa-skip", ["mfa-before-session"]),
        ("broken/password-kept", ["no-password-after-sign-in"]),
        // lockout-reachable is a reachable rule: not in the model, so pan says nothing of it.
        ("broken/lockout-variant", []),
        // session-only-signed-in holds; signed-in-reachable is not in the model.
        ("promela-rules", ["data-stays-in-eu", "eu-signs-in-with-passkey", "three-wrong-lock"]),
    ])
    func panNamesEachBrokenRuleOfTheSpecByItsID(_ name: String, _ ids: [String]) throws {
        let model = try Files.model(Files.version2(name))
        let graph = ConfigurationGraph(model: model, edges: false)
        let run = try Spin.run(PromelaExporter.export(model, space: .configurations), stating: PromelaExporter.properties(of: model),
                               searchDepth: graph.count + 10, expectedStates: graph.count)
        #expect(run.violated.filter(\.isUserDefined).map(\.id).sorted() == ids, "\(run.output)")
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
        // Roots: 0 start eu · 1 start us, where data-stays-in-eu breaks at once. begin answers each method:
        // 2 signIn eu password · 3 signIn eu passkey · 4, 5 the same in us. From 2: accepted gives 6 signedIn eu
        // password (eu-signs-in-with-passkey, 2 events); wrong counts to 3 by 4 events (three-wrong-lock).
        // session-only-signed-in holds; signed-in-reachable holds and is not SPIN's.
        ("promela-rules", ["data-stays-in-eu@start in 0", "eu-signs-in-with-passkey@signedIn in 2", "three-wrong-lock@signIn in 4"]),
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

    @Test func panMessagesNameTheSpecsOwnRulesByTheirIDs() throws {
        let model = try Files.model(Files.version2("promela-rules"))
        let stated = PromelaExporter.properties(of: model)
        // The built-in ones, then the always and never rules in declaration order; the reachable one is not stated.
        #expect(stated.map(\.id) == ["illegal-transition", "unmet-requirement", "deadlock", "terminal-exit", "data-stays-in-eu",
                                     "eu-signs-in-with-passkey", "three-wrong-lock", "session-only-signed-in"])
        #expect(stated.map(PromelaExporter.marker) == ["illegal_transition", "unmet_requirement", "deadlock", "terminal_exit",
                                                       "rule_data_stays_in_eu", "rule_eu_signs_in_with_passkey",
                                                       "rule_three_wrong_lock", "rule_session_only_signed_in"])
        func reported(_ line: String) -> String? { PromelaExporter.property(reportedBy: line, among: stated)?.id }
        #expect(reported("pan:1: assertion violated ((rule_three_wrong_lock||(st!=1))||(v1<3)) (at depth 4)") == "three-wrong-lock")
        #expect(reported("pan:2: assertion violated (rule_data_stays_in_eu||(v2==0)) (at depth 0)") == "data-stays-in-eu")
        #expect(reported("pan:3: assertion violated rule_eu_signs_in_with_passkey (at depth 2)") == "eu-signs-in-with-passkey")
        #expect(reported("pan:4: invalid end state (at depth 3)") == "deadlock")
        // A rule's marker is not the bare id, a prefix of a marker is not a marker, and a flow's table knows only its rules.
        #expect(reported("assertion violated data_stays_in_eu") == nil)
        #expect(reported("assertion violated (rule_data_stays||x)") == nil)
        #expect(PromelaExporter.property(reportedBy: "assertion violated rule_data_stays_in_eu") == nil)
        // Digits belong to the name: a rule whose id has them is read whole.
        let digits = try SpecLoader.load(json: """
        { "format": "authflow/2", "initial": "a", "success": ["b"], "abort": [],
          "steps": { "a": { "emits": { "go": [] } }, "b": {} }, "transitions": [{ "from": "a", "on": "go", "to": "b" }],
          "properties": [{ "id": "step2-done", "never": { "at": ["a"] } }, { "id": "step2", "never": { "at": ["b"] } }] }
        """)
        let both = PromelaExporter.properties(of: digits)
        #expect(PromelaExporter.property(reportedBy: "assertion violated rule_step2_done", among: both)?.id == "step2-done")
        #expect(PromelaExporter.property(reportedBy: "assertion violated rule_step2", among: both)?.id == "step2")
    }
}
