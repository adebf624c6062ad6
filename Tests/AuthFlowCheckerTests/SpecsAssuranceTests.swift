import AuthFlow
import Foundation
@testable import AuthFlowChecker
import Testing

/// Section 6 on the real flows of `Specs/`: each `authflow/2` flow says which data proves a factor and how
/// strongly its signed-in screen must be reached, still holds, and lists every way in.
///
/// The levels are what each flow actually meets: none of them asks for a second factor on every way in
/// (account-recovery and session-restore have none; sign-in-next-step asks for a code only when the service
/// names one), so each signed-in screen asks for `aal1`, and the ways in show where `aal2` is reached.
@Suite struct SpecsAssuranceTests {
    /// `(spec, protected screen, ways in as "level factors (variant) length")`, weakest first, worked out from each table.
    static let expected: [(String, String, [String])] = [
        ("account-recovery", "home", [
            "aal1 mailboxVerified (recovery=code,passkeys=off) 5", "aal1 mailboxVerified (recovery=code,passkeys=on) 5",
            "aal1 mailboxVerified (recovery=link,passkeys=off) 5", "aal1 mailboxVerified (recovery=link,passkeys=on) 5",
            "aal1 passkeyAssertion (recovery=code,passkeys=on) 3", "aal1 passkeyAssertion (recovery=link,passkeys=on) 3",
            "aal1 password (recovery=code,passkeys=off) 3", "aal1 password (recovery=code,passkeys=on) 3",
            "aal1 password (recovery=link,passkeys=off) 3", "aal1 password (recovery=link,passkeys=on) 3",
        ]),
        ("session-restore", "home", ["aal1 cachedToken 3", "aal1 passwordVerified 3"]),
        ("sign-in-next-step", "signedIn", ["aal1 password 3", "aal2 codeVerified,password 4"]),
    ]

    @Test(arguments: expected)
    func eachFlowDeclaresItsFactorsHoldsAndListsItsWaysIn(_ name: String, _ screen: String, _ ways: [String]) throws {
        let model = try Files.model(Files.root.appendingPathComponent("Specs/\(name).json").path)
        #expect(model.assurance.protectsSomeStep, "\(name) declares a level")
        let report = FlowChecker.check(model, source: name, clock: .fixed())
        #expect(report.verdict == .holds, "\(report.violations.map(\.message))")
        #expect(report.properties.contains(.assurance))
        let steps = try #require(report.waysIn)
        #expect(steps.map(\.state) == [screen])
        let step = try #require(steps.first)
        #expect(step.asks == .aal1 && step.isSuccess)
        #expect(step.ways.map { way in
            let variant = way.variant.map { " (" + $0.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + ")" } ?? ""
            return "\(way.level.rawValue) \(way.factors.joined(separator: ","))\(variant) \(way.length)"
        } == ways)
    }

    /// Each flow's level is the one it meets, not a lower one picked to pass: asking for `aal2` breaks
    /// `assurance` at the signed-in screen, through its weakest way in.
    @Test(arguments: expected)
    func askingForASecondFactorFindsTheWayInWithOnlyOne(_ name: String, _ screen: String, _ ways: [String]) throws {
        let text = try String(contentsOf: Files.root.appendingPathComponent("Specs/\(name).json"), encoding: .utf8)
        let old = #""assurance": "aal1""#
        try #require(text.components(separatedBy: old).count == 2)
        let model = try SpecLoader.load(json: text.replacingOccurrences(of: old, with: #""assurance": "aal2""#), file: name)
        let report = FlowChecker.check(model, source: name, options: CheckOptions(properties: [.assurance]), clock: .fixed())
        #expect(report.violations.map(\.site) == [Site(property: .assurance, state: screen)])
    }
}
