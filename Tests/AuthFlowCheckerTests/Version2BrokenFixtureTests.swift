import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The broken `authflow/2` fixtures, one per new way a flow can go wrong, each with its sites worked out by hand.
///
/// Every expectation was computed from the fixture before the checker ran: the breadth-first
/// order of the configurations is written out in a comment (roots first, one per variant, then
/// each configuration's moves in emission order and branch order), and the first configuration
/// that violates a site gives its shortest path. The test compares the whole outcome: every
/// site with its variant, length, path and message, the lint, and the configurations found.
@Suite struct Version2BrokenFixtureTests {
    /// What one fixture must produce.
    struct Expected: CustomTestStringConvertible, Sendable {
        var fixture: String
        /// Each violation as `property@site [variant] length: events | message`.
        var violations: [String]
        var lint: Lint
        var configurations: Int

        var testDescription: String { fixture }
    }

    static func lint(unreachable: [String] = [], dead: [String] = [], waitsOnSystem: [String] = [], shadowed: [String] = []) -> Lint {
        var lint = Lint(unreachable: unreachable, deadTransitions: dead)
        lint.waitsOnSystem = waitsOnSystem
        lint.shadowedRows = shadowed
        return lint
    }

    static let cases: [Expected] = [
        // 0 start {} · 1 signIn {} (begin) · from signIn, submit branches in domain order: ok → home, mfa → mfa,
        // locked → no row holds: the illegal transition, its path ending at signIn · cancel → cancelled · mfa verified → home.
        // Configurations: start, signIn, home(ok), mfa(mfa), cancelled, home(mfa) = 6.
        Expected(fixture: "unhandled-answer", violations: [
            "illegal-transition@signIn.submit [] 1: begin | signIn emits submit, but no row of the table from signIn on submit holds "
                + "for the data after it, {outcome=locked}",
        ], lint: lint(), configurations: 6),

        // 0 enterEmail {} · 1 password {email} (emailEntered) · 2 cancelled {} · 3 home {email, session} (accepted) ·
        // 4 accountPicker {} (useAnotherAccount cleared email) · 5 password {} (pickRemembered): unmet, 3 events ·
        // 6 home {session} (accepted from password {}). typeNew returns to enterEmail {}, already found. 7 configurations.
        Expected(fixture: "cleared-email", violations: [
            "unmet-requirement@password [] 3: emailEntered useAnotherAccount pickRemembered | password requires email, but the data is {}",
        ], lint: lint(), configurations: 7),

        // 0 start a=0 · 1 signIn a=0 · 2 home a=0 · 3 signIn a=1 · 4 home a=1 · 5 signIn a=2 · 6 home a=2 ·
        // 7 locked a=3 (the third wrong: atLeast 3 holds first): retry needs below 3, so locked has no move, 4 events.
        // retry never fires: a dead transition. signIn's moves are all the system's, but the user can go back from it.
        Expected(fixture: "lockout", violations: [
            "deadlock@locked [] 4: begin wrong wrong wrong | locked is not terminal and has no legal forward move with the data {attempts=3}",
        ], lint: lint(dead: ["locked.retry"]), configurations: 8),

        // 0 start · 1 verifying · 2 home; failed returns to start. No violation; verifying moves by the system alone
        // and has back: false.
        Expected(fixture: "spinner", violations: [], lint: lint(waitsOnSystem: ["verifying"]), configurations: 3),

        // 0 start · 1 signIn · 2 confirmSms method=totp (has method holds first) · 3 confirmSms method=sms ·
        // 4 home totp · 5 home sms. The totp row is offered but never fires; confirmTotp is never reached.
        Expected(fixture: "shadowed-row", violations: [],
                 lint: lint(unreachable: ["confirmTotp"], dead: ["confirmTotp.codeAccepted"], shadowed: ["signIn.submit→confirmTotp"]),
                 configurations: 6),

        // 0 start · 1 signIn · 2 signedIn (2 events): terminal, with a reset row (allowed) and switchAccount, an ordinary row ·
        // 3 accountPicker; picked returns to signIn {}.
        Expected(fixture: "terminal-exit", violations: [
            "terminal-exit@signedIn [] 2: begin accepted | signedIn is terminal but emits switchAccount and has outgoing transitions "
                + "switchAccount → accountPicker",
        ], lint: lint(), configurations: 4),

        // Roots: 0 start startOver · 1 start keepWaiting. 2 signIn sO · 3 signIn kW · 4 home sO · 5 cancelled sO · 6 expired sO
        // (timeout, from anywhere) · 7 home kW · 8 cancelled kW · 9 expired kW: only poll, back to itself: no-exit, 2 events.
        // expired sO leaves by startOver (a reset to its own root), so it is fine and expired has a user move: no lint.
        Expected(fixture: "expiry-trap", violations: [
            "no-exit@expired [afterExpiry=keepWaiting] 2: begin timeout | expired has forward moves, but no terminal state is reachable "
                + "from it with the data {afterExpiry=keepWaiting}",
        ], lint: lint(), configurations: 10),

        // Roots: 0 chooseMethod off · 1 chooseMethod on. 2 enterPassword off · 3 cancelled off · 4 enterPassword on ·
        // 5 passkeyPrompt on · 6 cancelled on · 7 home off {session} · 8 home on {session} · 9 home on {} (assertion):
        // unmet, 2 events, in passkeys=on only.
        Expected(fixture: "passkey-variant", violations: [
            "unmet-requirement@home [passkeys=on] 2: passkey assertion | home requires session, but the data is {passkeys=on}",
        ], lint: lint(), configurations: 10),

        // The team's own rules and back-only screens.
        // 0 start {} · 1 signIn {} (begin) · 2 mfa {mfaChallenge} (submit) · 3 cancelled {} (cancel) ·
        // 4 home {mfaChallenge, mfaPassed, session} (verify) · 5 home {mfaChallenge, session} (skip): the first where
        // mfa-before-session's guard holds, 3 events. Keys in the order first named: mfaChallenge, mfaPassed, session.
        Expected(fixture: "mfa-skip", violations: [
            "mfa-before-session [] 3: begin submit skip | mfa-before-session says never at home ∧ has mfaChallenge ∧ no mfaPassed, "
                + "but home is reached with the data {mfaChallenge, session}, where it holds",
        ], lint: lint(), configurations: 6),

        // 0 start {} · 1 signIn {} · 2 home {session} (submit, whose row clears password) · 3 home {password, session}
        // (remember): the always breaks there, 2 events. signOut resets to the root, already found. 4 configurations.
        Expected(fixture: "password-kept", violations: [
            "no-password-after-sign-in [] 2: begin remember | no-password-after-sign-in says always ¬at home ∨ no password, "
                + "but home is reached with the data {password, session}, where it does not hold",
        ], lint: lint(), configurations: 4),

        // Roots: 0 start on · 1 start off. 2 signIn on a=0 · 3 faq on · 4 signIn off a=0 · 5 faq off · 6 home on a=0 ·
        // 7 signIn on a=1 · 8 home off a=0 · 9 signIn off a=1 · 10 home on a=1 · 11 locked on a=2 · 12 home off a=1 ·
        // 13 signIn off a=2 · 14 home off a=2 (wrong at a=2 stays at the counter's max: signIn off a=2 again).
        // locked is reached in lockout=on only: the reachable property fails in lockout=off, with no state and no path.
        // faq has no move but is back-only: no deadlock.
        Expected(fixture: "lockout-variant", violations: [
            "lockout-reachable [] 0:  | lockout-reachable says reachable at locked, but no reachable configuration satisfies it "
                + "in the variant lockout=off",
        ], lint: lint(), configurations: 15),

        // 0 start · 1 signIn (begin) · 2 help (help) · 3 about (about) · 4 home. help is back-only: left with back, no
        // deadlock. about is not marked: it has no move, a deadlock, 1 event.
        Expected(fixture: "help-screens", violations: [
            "deadlock@about [] 1: about | about is not terminal and has no legal forward move: its step emits no events",
        ], lint: lint(), configurations: 5),
    ]

    /// The built-in properties the configuration graph decides, and the fixture's own.
    static func specProperties(_ fixture: String) throws -> Set<Property> {
        Set(Property.specProperties + Property.userProperties(of: try SpecLoader.load(file: try path(fixture))))
    }

    static func path(_ fixture: String) throws -> String {
        try #require(Bundle.module.url(forResource: "Fixtures/version2/broken/\(fixture)", withExtension: "json")).path
    }

    static func shown(_ violation: Violation) -> String {
        let variant = (violation.variant ?? []).map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        let events = violation.path.dropFirst().map { $0.event ?? "?" }.joined(separator: " ")
        return "\(violation.site) [\(variant)] \(violation.length): \(events) | \(violation.message)"
    }

    @Test(arguments: cases)
    func eachBrokenFixtureBreaksWhereItWasWorkedOutByHand(_ expected: Expected) throws {
        let report = FlowChecker.check(file: try Self.path(expected.fixture), options: CheckOptions(properties: try Self.specProperties(expected.fixture)))
        #expect(report.verdict == (expected.violations.isEmpty ? .holds : .violated))
        #expect(report.violations.map(Self.shown) == expected.violations)
        #expect(report.lint == expected.lint)
        #expect(report.stats.configurations == expected.configurations)
    }

    @Test(arguments: cases)
    func theRuntimeWalkAgreesWithTheCompleteChecker(_ expected: Expected) throws {
        // Every stack of every variant driven through FlowSession: no divergence, no undo-mismatch, the same stacks as counted.
        let own = try Self.specProperties(expected.fixture)
        var options = CheckOptions(properties: Set(Property.builtIn).subtracting([.passcode]).union(own))
        let walked = FlowChecker.check(file: try Self.path(expected.fixture), options: options)
        options.properties = own
        let counted = FlowChecker.check(file: try Self.path(expected.fixture), options: options)
        #expect(walked.violations.map(Self.shown) == expected.violations)
        #expect(walked.stats.stacks == counted.stats.stacks)
        #expect(!walked.stats.stacksCounted && counted.stats.stacksCounted)
    }

    @Test func strictMakesTheLintOfTheSpinnerAndTheShadowedRowFail() throws {
        for fixture in ["spinner", "shadowed-row"] {
            let report = FlowChecker.check(file: try Self.path(fixture), options: CheckOptions(properties: Set(Property.specProperties), strict: true))
            #expect(report.verdict == .violated, "\(fixture)")
        }
    }

    @Test func everyBrokenFixtureIsInTheTable() throws {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures/version2/broken", withExtension: nil))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(Self.cases.map(\.fixture)))
    }
}
