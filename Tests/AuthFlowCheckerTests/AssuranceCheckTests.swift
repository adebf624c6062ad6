import AuthFlow
import Foundation
@testable import AuthFlowChecker
import Testing

/// Section 6 in the checker, on hand-worked fixtures (`Fixtures/assurance/`): the `assurance` sites at
/// their first breaking configuration in breadth-first order, and every way in, weakest first.
///
/// Each expectation below was worked out by hand from the fixture's table, before the checker ran.
@Suite struct AssuranceCheckTests {
    static func fixture(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures/assurance/\(name)", withExtension: "json")!.path
    }

    static func check(_ name: String, properties: Set<Property>? = nil) throws -> CheckReport {
        let model = try Files.model(fixture(name))
        return FlowChecker.check(model, source: name, options: CheckOptions(properties: properties), clock: .fixed())
    }

    /// A way in as the JSON report lists it: factors, level, length, variant.
    struct Way: Hashable, CustomStringConvertible {
        var factors: [String]
        var level: AssuranceLevel
        var length: Int
        var variant: String?
        var description: String { "\(factors) \(level.rawValue) \(length) \(variant ?? "-")" }
    }

    static func ways(_ report: CheckReport) -> [String: [Way]] {
        Dictionary(uniqueKeysWithValues: (report.waysIn ?? []).map { step in
            (step.state, step.ways.map { way in
                Way(factors: way.factors, level: way.level, length: way.length,
                    variant: way.variant.map { $0.map { "\($0.key)=\($0.value)" }.joined(separator: ",") })
            })
        })
    }

    static func pathText(_ path: FlowPath) -> String {
        path.map { step in step.event.map { "\($0)→\(step.state)" } ?? step.state }.joined(separator: " ")
    }

    /// Home asks for aal2. Breadth-first from the two roots (mfa=required, then optional), `google` from the first
    /// root is the first configuration of home below it. The ways in: the recovery link (aal1, 2 steps, both
    /// variants), the social sign-in (aal1, 1 step, both), the password alone where MFA is optional (aal1, 1 step),
    /// and the front door where it is required (password and code: aal2, 2 steps).
    @Test func theRecoveryLinkAndTheSocialSignInMeetOnlyAal1() throws {
        let report = try Self.check("recovery-bypass")
        #expect(report.verdict == .violated)
        #expect(report.violations.count == 1)
        let violation = try #require(report.violations.first)
        #expect(violation.site == Site(property: .assurance, state: "home"))
        #expect(violation.message == "home asks for aal2, but is reached with only googleToken (aal1)")
        #expect(Self.pathText(violation.path) == "signIn google→home")
        #expect(violation.variant == [FlowSpec.KeyValue("mfa", "required")])
        #expect(Self.ways(report) == ["home": [
            Way(factors: ["emailLink"], level: .aal1, length: 2, variant: "mfa=required"),
            Way(factors: ["emailLink"], level: .aal1, length: 2, variant: "mfa=optional"),
            Way(factors: ["googleToken"], level: .aal1, length: 1, variant: "mfa=required"),
            Way(factors: ["googleToken"], level: .aal1, length: 1, variant: "mfa=optional"),
            Way(factors: ["password"], level: .aal1, length: 1, variant: "mfa=optional"),
            Way(factors: ["otp", "password"], level: .aal2, length: 2, variant: "mfa=required"),
        ]])
        // Each way's path is a shortest one to its first configuration, and ends with exactly its factors.
        let home = try #require(report.waysIn?.first)
        #expect(home.ways.map { Self.pathText($0.path) } == [
            "signIn forgot→recover openLink→home", "signIn forgot→recover openLink→home",
            "signIn google→home", "signIn google→home", "signIn submitPassword→home",
            "signIn submitPassword→mfa submitCode→home",
        ])
    }

    /// Admin asks for aal3. A passkey (phishing-resistant possession) with the password meets it; an SMS code
    /// (the system's answer, two values: one way, whatever the value) meets aal2; a face (inherence: its
    /// phishingResistant counts for nothing) meets aal2. Breadth-first, `useSms` is the first of admin below aal3.
    @Test func aal3NeedsAPhishingResistantPossessionFactor() throws {
        let report = try Self.check("passkey-aal3")
        let violation = try #require(report.violations.first)
        #expect(report.violations.count == 1)
        #expect(violation.site == Site(property: .assurance, state: "admin"))
        #expect(violation.message == "admin asks for aal3, but is reached with only password, smsCode (aal2)")
        #expect(Self.pathText(violation.path) == "signIn submitPassword→second useSms→admin")
        #expect(Self.ways(report) == ["admin": [
            Way(factors: ["faceId", "password"], level: .aal2, length: 2, variant: nil),
            Way(factors: ["password", "smsCode"], level: .aal2, length: 2, variant: nil),
            Way(factors: ["passkey", "password"], level: .aal3, length: 2, variant: nil),
        ]])
        #expect(report.warnings.map(\.path) == ["$.factors.faceId.phishingResistant"])
    }

    /// No factor is phishing-resistant, so the vault's aal3 cannot be met: every way into it breaks the property.
    /// The settings screen asks for aal1 and is reached with no factor at all. Ways are listed in step order.
    @Test func aLevelNoFactorCanMeetBreaksEveryWayIn() throws {
        let report = try Self.check("unmeetable")
        #expect(report.violations.map(\.site.description) == ["assurance@settings", "assurance@vault"])
        #expect(report.violations.map(\.message) == [
            "settings asks for aal1, but is reached with no factor (none)",
            "vault asks for aal3, but is reached with only otp, password (aal2)",
        ])
        #expect(report.waysIn?.map(\.state) == ["settings", "vault"])
        #expect(Self.ways(report) == [
            "settings": [Way(factors: [], level: .none, length: 1, variant: nil)],
            "vault": [Way(factors: ["otp", "password"], level: .aal2, length: 2, variant: nil)],
        ])
    }

    /// `--property assurance` keeps the property; another property leaves it out (the ways in stay).
    @Test func thePropertyIsSelectedByItsID() throws {
        #expect(try Self.check("unmeetable", properties: [.assurance]).violations.count == 2)
        let other = try Self.check("unmeetable", properties: [.deadlock])
        #expect(other.violations.isEmpty && other.waysIn?.count == 2)
        #expect(Property(builtInID: "assurance") == .assurance)
    }

    /// A spec that uses no section-6 key: no `assurance` property, no ways in, and a JSON report without `waysIn`.
    @Test func aSpecWithoutSectionSixIsReportedAsBefore() throws {
        let model = try Files.model(Files.version2("sign-in"))
        let report = FlowChecker.check(model, source: "sign-in", clock: .fixed())
        #expect(report.waysIn == nil && report.assuranceProperties.isEmpty)
        #expect(!report.properties.contains(.assurance))
        #expect(!ReportRenderer.json(report).rendered(pretty: false).contains("waysIn"))
        #expect(!ReportRenderer.text(report).contains("ways in"))
    }

    /// The random-path tester checks `assurance` on every frame it drives, and shrinks to the checker's shortest.
    @Test(arguments: Array(UInt64(1)...8))
    func theRandomTesterFindsTheWeakWayIn(_ seed: UInt64) throws {
        let model = try Files.model(Self.fixture("recovery-bypass"))
        let report = FlowFuzzer(model: model).run(FuzzOptions(seed: seed))
        let failure = try #require(report.failure, "seed \(seed)")
        #expect(failure.site == Site(property: .assurance, state: "home"))
        #expect(failure.shrunk.count == 1, "seed \(seed): \(failure.shrunk)")
        #expect(failure.violation.message.hasPrefix("home asks for aal2, but is reached with only "))
    }

    /// A path through the front door replays clean; one through the recovery link breaks `assurance` on its last frame.
    @Test func theLockstepReplayChecksEveryFrame() throws {
        let model = try Files.model(Self.fixture("recovery-bypass"))
        let fuzzer = FlowFuzzer(model: model)
        #expect(fuzzer.replay([.event("submitPassword", values: nil), .event("submitCode", values: nil)], variant: 0) == nil)
        let outcome = fuzzer.replay([.event("forgot", values: nil), .event("openLink", values: nil)], variant: 0)
        #expect(outcome?.site == Site(property: .assurance, state: "home"))
        #expect(outcome?.violation.message == "home asks for aal2, but is reached with only emailLink (aal1)")
    }

    /// The exhaustive lockstep walk checks every frame it drives too, and finds each `assurance` site with the
    /// checker's own shortest path and words (one site per step, its first occurrence in breadth-first order).
    @Test(arguments: ["recovery-bypass", "passkey-aal3", "unmeetable"])
    func theLockstepWalkFindsTheCheckersAssuranceSites(_ name: String) throws {
        let model = try Files.model(Self.fixture(name))
        let checked = try Self.check(name, properties: [.assurance]).violations
        let walked = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 8).violations
            .filter { $0.property == .assurance }
        #expect(!checked.isEmpty)
        #expect(walked.map(\.state) == checked.map(\.state))
        #expect(walked.map(\.message) == checked.map(\.message))
        #expect(walked.map { Self.pathText($0.path) } == checked.map { Self.pathText($0.path) })
    }

    /// Names that end in a space, or are nothing but spaces, wrap without trapping.
    @Test func namesWithSpacesWrapWithoutTrapping() {
        for name in ["home ", " ", "a  b ", String(repeating: "x ", count: 80)] {
            let lines = ReportRenderer.wrapped("1 step: start --go--> \(name)", indent: 10, hanging: 12, breakingAt: " --")
            #expect(!lines.isEmpty)
            // Every character but the spaces wrapping takes or adds is kept, in order.
            #expect(ReportRenderer.wrapped(name, indent: 6, hanging: 10).joined().filter { $0 != " " } == name.filter { $0 != " " })
        }
    }

    /// Each way's text line stays within 120 columns, however long its path.
    @Test func theTextWrapsLongPaths() {
        let steps = (0..<30).map { PathStep(event: $0 == 0 ? nil : "event\($0)", state: "state\($0)", data: []) }
        let way = WayIn(factors: ["password"], level: .aal1, length: 29, variant: nil, path: FlowPath(steps), variantIndex: 0, position: 0)
        let lines = ReportRenderer.waysInLines([ProtectedStep(state: "home", asks: .aal2, isSuccess: true, ways: [way])], style: .plain)
        #expect(lines.allSatisfy { TerminalText.width($0) <= 120 }, "\(lines)")
        #expect(lines.count > 5)
        #expect(lines.joined(separator: " ").replacingOccurrences(of: "  ", with: " ").contains("state28 --event29--> state29"))
    }
}
