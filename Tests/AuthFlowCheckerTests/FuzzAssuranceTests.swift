import AuthFlow
import Foundation
@testable import AuthFlowChecker
import Testing

/// Section 6 in the random-path tester on flows whose weak way in is several steps long: fuzz checks
/// `assurance` on every frame it drives and shrinks what it finds to at most one step over the shortest.
@Suite struct FuzzAssuranceTests {
    /// `(spec, edit making a level unmet, the protected screen, the checker's shortest length)`.
    static let flows: [(String, String, String, String, Int)] = [
        // The recovery link signs in with the new password alone: 4 steps (submitEmail, forgot, openLink, save).
        ("Examples/assurance/recovery-link.json", "", "", "home", 4),
        // The real flow asked for aal2: the password alone (signInTapped, submit, signedIn) is 3 steps.
        ("Specs/sign-in-next-step.json", #""assurance": "aal1""#, #""assurance": "aal2""#, "signedIn", 3),
        // account-recovery asked for aal2 in every variant: the password or a passkey alone is 3 steps.
        ("Specs/account-recovery.json", #""assurance": "aal1""#, #""assurance": "aal2""#, "home", 3),
    ]

    @Test(arguments: flows)
    func fuzzFindsTheWeakWayInAndShrinksItToTheShortestPlusOne(_ path: String, _ old: String, _ new: String,
                                                               _ screen: String, _ shortest: Int) throws {
        let text = try String(contentsOf: Files.root.appendingPathComponent(path), encoding: .utf8)
        let model = try SpecLoader.load(json: old.isEmpty ? text : text.replacingOccurrences(of: old, with: new), file: path)
        let checked = FlowChecker.check(model, source: path, options: CheckOptions(properties: [.assurance]), clock: .fixed())
        #expect(checked.violations.map(\.length) == [shortest], "the checker's shortest")
        for seed in UInt64(1)...6 {
            let report = FlowFuzzer(model: model).run(FuzzOptions(seed: seed))
            let failure = try #require(report.failure, "\(path) seed \(seed): fuzz found nothing")
            #expect(failure.site == Site(property: .assurance, state: screen), "\(path) seed \(seed)")
            #expect(failure.shrunk.count <= shortest + 1, "\(path) seed \(seed): \(failure.shrunk.count) steps: \(failure.shrunk)")
            #expect(failure.shrunk.count >= shortest)
            #expect(failure.violation.message.hasPrefix("\(screen) asks for aal2, but is reached with only "))
        }
    }
}
