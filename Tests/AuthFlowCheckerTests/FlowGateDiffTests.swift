import AuthFlow
@testable import AuthFlowChecker
import Testing

/// `FlowGate.assertDiff`: a change passes when every difference it makes is allowed, and fails listing the others as the user's steps.
@Suite struct FlowGateDiffTests {
    static let old = FlowDiffTests.emailFirst
    /// A skip button on the email screen.
    static let skip = old
        .replacingOccurrences(of: #""knownEmail": ["email"], "cancel": []"#, with: #""knownEmail": ["email"], "cancel": [], "skip": []"#)
        .replacingOccurrences(of: #"{ "from": "email", "on": "cancel", "to": "cancelled" },"#,
                              with: #"{ "from": "email", "on": "cancel", "to": "cancelled" }, { "from": "email", "on": "skip", "to": "done" },"#)
    /// The skip button, and back taken away from the password screen.
    static let skipNoBack = skip.replacingOccurrences(of: #""password": { "requires""#, with: #""password": { "back": false, "requires""#)

    static func gate(_ old: String, _ new: String, allows: [FlowDiffAllowance]) throws(FlowDiffFailure) -> FlowDiffReport {
        // The fixtures are literals of this file: loading them cannot fail, the gate's error is what the tests read.
        guard let o = try? SpecLoader.load(json: old), let n = try? SpecLoader.load(json: new) else {
            Issue.record("a fixture does not load")
            return FlowDiffReport(differences: [], properties: .init(), stoppedBy: nil, depth: nil, pairs: 0)
        }
        return try FlowGate.assertDiff(old: o, new: n, allows: allows, names: ("v1.json", "v2.json"))
    }

    @Test func anAddedPathPassesAGateThatAllowsAdditions() throws {
        let report = try Self.gate(Self.old, Self.skip, allows: FlowDiffAllowance.additions)
        #expect(report.differences.map(\.kind) == [.addedMove])
    }

    @Test func withNoAllowanceAnyDifferenceFailsWithItsStepsAndTheCosmeticChangePasses() throws {
        let failure = #expect(throws: FlowDiffFailure.self) { try Self.gate(Self.old, Self.skip, allows: []) }
        #expect(failure?.offending.map(\.kind) == [.addedMove])
        #expect(failure?.description == """
            v1.json → v2.json: different — 1 difference

            1. added-move: at email, skip
               steps: begin → email
               old: not offered
               new: → done {}
            allowed: nothing (the behaviour must stay the same)
            """)
        // Reordered keys and a new description: the same behaviour passes the strictest gate.
        let cosmetic = Self.old.replacingOccurrences(of: #""initial": "start","#, with: #""description": "v1 again", "initial": "start","#)
        #expect(try Self.gate(Self.old, cosmetic, allows: []).identical)
    }

    @Test func aRemovedBackFailsAGateThatAllowsOnlyAdditionsAndNamesOnlyTheOffendingSite() throws {
        let failure = #expect(throws: FlowDiffFailure.self) { try Self.gate(Self.old, Self.skipNoBack, allows: FlowDiffAllowance.additions) }
        #expect(failure?.offending.map { "\($0.kind.rawValue) \($0.state ?? "-").\($0.event ?? "-")" } == ["removed-back password.back"])
        #expect(failure?.description.contains("1. removed-back: at password, back") == true)
        #expect(failure?.description.contains("2. ") == false)
        #expect(failure?.description.hasSuffix("allowed: added-move, added-back") == true)
        #expect(throws: FlowDiffFailure.self) { try Self.gate(Self.old, Self.skipNoBack, allows: FlowDiffAllowance.allButRemovals) }
    }

    @Test func aSiteAllowanceCoversThatSiteAndNoOther() throws {
        let allowSkip = [FlowDiffAllowance.site(.addedMove, state: "email", event: "skip")]
        _ = try Self.gate(Self.old, Self.skip, allows: allowSkip)
        // A help button on the password screen is an added move too, at a site the allowance does not name.
        let help = Self.skip
            .replacingOccurrences(of: #""accepted": ["session"], "cancel": []"#, with: #""accepted": ["session"], "cancel": [], "help": []"#)
            .replacingOccurrences(of: #"{ "from": "password", "on": "cancel", "to": "cancelled" }"#,
                                  with: #"{ "from": "password", "on": "cancel", "to": "cancelled" }, { "from": "password", "on": "help", "to": "cancelled" }"#)
        let failure = #expect(throws: FlowDiffFailure.self) { try Self.gate(Self.old, help, allows: allowSkip) }
        #expect(failure?.offending.map { "\($0.state ?? "-").\($0.event ?? "-")" } == ["password.help"])
        _ = try Self.gate(Self.old, help, allows: allowSkip + [.site(.addedMove, state: "password", event: "help")])
    }

    @Test func aNewViolationFailsUnlessAllowed() throws {
        // The email screen offers help with no row: no move is added (an illegal move is not offered), but a violation is.
        let broken = Self.old.replacingOccurrences(of: #""knownEmail": ["email"], "cancel": []"#, with: #""knownEmail": ["email"], "cancel": [], "help": []"#)
        let failure = #expect(throws: FlowDiffFailure.self) { try Self.gate(Self.old, broken, allows: FlowDiffAllowance.additions) }
        #expect(failure?.newViolations == [Site(property: .illegalTransition, state: "email", event: "help")])
        #expect(failure?.description.contains("violations only in the new version: illegal-transition@email.help") == true)
        _ = try Self.gate(Self.old, broken, allows: [.newViolations])
    }

    @Test func theFileFormResolvesPathsAndAMissingFileFailsWithItsName() throws {
        let old = "Tests/AuthCheckEndToEndTests/Expected/specs/diff-old.json", new = "Tests/AuthCheckEndToEndTests/Expected/specs/diff-new.json"
        #expect(throws: FlowDiffFailure.self) { try FlowGate.assertDiff(old: old, new: new, allows: FlowDiffAllowance.additions) }
        try FlowGate.assertDiff(old: old, new: new, allows: FlowDiffAllowance.additions + [.kind(.removedBack)])
        let missing = #expect(throws: FlowCheckFailure.self) { try FlowGate.assertDiff(old: old, new: "Specs/no-such-v2.json") }
        #expect(missing?.description.contains("no-such-v2.json") == true)
    }
}
