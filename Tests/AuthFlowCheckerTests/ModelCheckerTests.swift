import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The expected result of one broken variant: each site with its shortest counterexample length.
struct ExpectedSites: CustomStringConvertible, Sendable {
    var fixture: String
    var sites: [String]   // "property@state" or "property@state.event", in report order
    var lengths: [Int]
    var description: String { fixture }
}

@Suite struct ModelCheckerTests {
    /// Hand-computed from each fixture (see the fixture's name and its comment-free JSON).
    static let expectations: [ExpectedSites] = [
        ExpectedSites(fixture: "illegal-transition", sites: ["illegal-transition@password.forgotPassword"], lengths: [2]),
        ExpectedSites(fixture: "unmet-requirement", sites: ["unmet-requirement@password"], lengths: [2]),
        ExpectedSites(fixture: "deadlock", sites: ["deadlock@lockedOut"], lengths: [3]),
        ExpectedSites(fixture: "no-exit", sites: ["no-exit@mfaCode", "no-exit@mfaHelp"], lengths: [3, 4]),
        ExpectedSites(fixture: "terminal-exit", sites: ["terminal-exit@authenticated"], lengths: [3]),
        ExpectedSites(fixture: "several-sites", sites: ["illegal-transition@email.ssoEmail", "unmet-requirement@signup", "deadlock@help"], lengths: [1, 2, 3]),
        ExpectedSites(fixture: "deep", sites: ["unmet-requirement@done"], lengths: [11]),
        ExpectedSites(fixture: "mfa-bypass", sites: ["unmet-requirement@authenticated"], lengths: [4]),
        ExpectedSites(fixture: "signup-details-last", sites: ["unmet-requirement@createPassword"], lengths: [3]),
        ExpectedSites(fixture: "renamed-event", sites: ["illegal-transition@email.continue"], lengths: [1]),
        ExpectedSites(fixture: "initial-unmet", sites: ["unmet-requirement@launch"], lengths: [0]),
        ExpectedSites(fixture: "abort-restarts", sites: ["terminal-exit@cancelled"], lengths: [2]),
        // A detour the random walk repeats (ssoFailed, ssoDomain), and a 1-step route it rarely takes.
        ExpectedSites(fixture: "sso-detour", sites: ["unmet-requirement@mfaCode"], lengths: [3]),
        ExpectedSites(fixture: "restored-session", sites: ["unmet-requirement@authenticated"], lengths: [1]),
    ]

    @Test func everyFixtureHasAnExpectation() {
        #expect(Set(Self.expectations.map(\.fixture)) == Set(Files.brokenNames))
    }

    @Test(arguments: expectations)
    func brokenVariantReportsExactlyTheExpectedSites(_ expected: ExpectedSites) throws {
        let report = FlowChecker.check(file: Files.broken(expected.fixture))
        #expect(report.verdict == .violated)
        #expect(report.violations.map(\.site.description) == expected.sites)
        #expect(report.violations.map(\.length) == expected.lengths)
        for violation in report.violations {
            // The path starts at the initial frame and each step follows the table.
            let model = try Files.model(Files.broken(expected.fixture))
            #expect(violation.path.first?.state == model.spec.initial)
            #expect(violation.path.first?.event == nil)
            #expect(violation.path.last?.state == violation.state)
        }
    }

    @Test(arguments: Files.specs)
    func everySpecHolds(_ path: String) {
        let report = FlowChecker.check(file: path)
        #expect(report.verdict == .holds, "\(ReportRenderer.text(report))")
        #expect(report.stats.stacks > 1)
    }

    @Test func mfaBypassCounterexampleIsTheSkipPath() throws {
        let report = FlowChecker.check(file: Files.broken("mfa-bypass"))
        let violation = try #require(report.violations.first)
        #expect(violation == Violation(
            property: .unmetRequirement, state: "authenticated",
            message: "authenticated requires session, but the data is {email, account, mfaChallenge}",
            path: [
                PathStep(event: nil, state: "start", data: []),
                PathStep(event: "startAuth", state: "email", data: []),
                PathStep(event: "knownEmail", state: "password", data: ["email", "account"]),
                PathStep(event: "mfaChallenged", state: "mfaCode", data: ["email", "account", "mfaChallenge"]),
                PathStep(event: "skip", state: "authenticated", data: ["email", "account", "mfaChallenge"]),
            ]))
    }

    @Test func lintFindsUnreachableStatesDeadTransitionsAndUnusedData() throws {
        let report = FlowChecker.check(file: Files.broken("renamed-event"))
        #expect(report.lint == Lint(unreachable: ["password", "authenticated"],
                                    deadTransitions: ["email.next", "password.passwordAccepted", "password.cancel"],
                                    unusedData: []))
    }

    @Test func strictTurnsLintIntoAFailure() throws {
        let path = Files.specs.first { $0.hasSuffix("signup-details-last.json") }!
        #expect(FlowChecker.check(file: path).verdict == .holds)
        let strict = FlowChecker.check(file: path, options: CheckOptions(strict: true))
        #expect(strict.verdict == .violated)
        #expect(strict.lint.unusedData == ["userDetails"])
    }

    @Test func propertyFilterKeepsOnlyTheChosenProperties() {
        let report = FlowChecker.check(file: Files.broken("several-sites"), options: CheckOptions(properties: [.deadlock]))
        #expect(report.violations.map(\.site.description) == ["deadlock@help"])
    }

    @Test func configurationLimitStopsTheRunAsIncomplete() throws {
        let path = Files.specs.first { $0.hasSuffix("email-first.json") }!
        let report = FlowChecker.check(file: path, options: CheckOptions(limits: CheckLimits(depth: 4, maxConfigurations: 5)))
        #expect(report.verdict == .incomplete)
        #expect(report.stoppedBy == .maxConfigurations(5))
        #expect(report.stats.configurations == 5)
        #expect(report.exitCode == 3)
    }

    @Test func aStoppedSearchPrintsNoLintAndNoRate() throws {
        // Given a spec with unused data (userDetails), stopped after 5 configurations,
        let path = Files.specs.first { $0.hasSuffix("signup-details-last.json") }!
        var report = FlowChecker.check(file: path, options: CheckOptions(limits: CheckLimits(depth: 4, maxConfigurations: 5)))
        #expect(report.verdict == .incomplete)
        // then it reports no lint, since it has not seen the whole flow,
        #expect(report.lint.isEmpty, "\(report.lint.lines)")
        // and no rate over the work it did not finish, even when time was measured.
        report.stats.seconds = 0.5
        let text = ReportRenderer.text(report)
        #expect(text.contains("stats: 5 states, 5 configurations"), "\(text)")
        #expect(!text.contains("stacks/s"), "\(text)")
        // A complete search of the same spec finds the unused data, and prints its rate.
        var complete = FlowChecker.check(file: path, options: CheckOptions(limits: CheckLimits(depth: 4)))
        #expect(complete.lint.unusedData == ["userDetails"])
        complete.stats.seconds = 0.5
        #expect(ReportRenderer.text(complete).contains("stacks/s"))
    }

    @Test func violationFoundBeforeALimitStillCountsAsViolated() {
        let report = FlowChecker.check(file: Files.broken("several-sites"), options: CheckOptions(limits: CheckLimits(maxConfigurations: 3)))
        #expect(report.verdict == .violated)
        #expect(report.stoppedBy == .maxConfigurations(3))
    }

    @Test func countsOfTheSpecsAreStable() throws {
        // Figures pinned after checking them against the brute-force enumeration below.
        let path = Files.specs.first { $0.hasSuffix("email-first.json") }!
        let report = FlowChecker.check(file: path)
        #expect(report.stats.states == 13)
        #expect(report.stats.configurations == 44)
    }

    @Test func swiftDeclaredFlowIsCheckedLikeItsSpec() throws {
        enum S: String, FlowName { case start, email, password, authenticated, cancelled }
        enum E: String, FlowName { case startAuth, knownEmail, passwordAccepted, cancel, forgotPassword }
        enum K: String, FlowName { case email, account, session }
        var flow = FlowDefinition<S, E, K>(name: "forgot-password link without a screen", initial: .start, success: [.authenticated], abort: [.cancelled])
        flow.step(.start, emits: [.startAuth: []], back: false)
        flow.step(.email, emits: [.knownEmail: [.email, .account], .cancel: []])
        flow.step(.password, requires: [.email, .account], emits: [.passwordAccepted: [.session], .forgotPassword: [], .cancel: []])
        flow.step(.authenticated, requires: [.session])
        flow.step(.cancelled)
        flow.transition(.start, on: .startAuth, to: .email)
        flow.transition(.email, on: .knownEmail, to: .password)
        flow.transition(.email, on: .cancel, to: .cancelled)
        flow.transition(.password, on: .passwordAccepted, to: .authenticated)
        flow.transition(.password, on: .cancel, to: .cancelled)
        let fromSwift = FlowChecker.check(flow)
        let fromFile = FlowChecker.check(file: Files.broken("illegal-transition"))
        #expect(fromSwift.violations == fromFile.violations)
        #expect(fromSwift.stats.stacks == fromFile.stats.stacks)
        #expect(throws: FlowCheckFailure.self) { try FlowGate.assertHolds(flow) }
    }

    @Test func gateFailureDescriptionIsTheFullCounterexample() {
        do {
            try FlowGate.assertHolds(file: Files.broken("mfa-bypass"))
            Issue.record("the gate passed a flow with an MFA bypass")
        } catch {
            let text = error.description
            #expect(text.contains("✗  4. skip"))
            #expect(text.contains("authenticated requires session"))
            #expect(text.contains("replay: authcheck explore"))
        }
    }
}

/// Keys listed in `outputs` are handed to the app by design: they are not unused data, and `--strict` passes.
@Suite struct OutputKeysLintTests {
    static let spec = """
    { "format": "authflow/1", "initial": "email", "success": ["done"], "abort": [],
      "steps": { "email": { "emits": { "submit": ["email", "sessionToken"] } },
                 "done": { "requires": ["email"] } },
      "transitions": [ { "from": "email", "on": "submit", "to": "done" } ] OUTPUTS }
    """

    @Test func anOutputKeyIsNotUnusedData() throws {
        let plain = try SpecLoader.load(json: Self.spec.replacingOccurrences(of: "OUTPUTS", with: ""))
        let strict = CheckOptions(strict: true)
        let before = FlowChecker.check(plain, source: "plain", options: strict)
        #expect(before.lint.unusedData == ["sessionToken"])
        #expect(before.verdict == .violated)
        let marked = try SpecLoader.load(json: Self.spec.replacingOccurrences(of: "OUTPUTS", with: #", "outputs": ["sessionToken"]"#))
        let after = FlowChecker.check(marked, source: "marked", options: strict)
        #expect(after.lint.unusedData.isEmpty)
        #expect(after.verdict == .holds)
    }
}
