// The generated trails (EmailFirstTrailsTests.swift) drive the app itself: each is a finding of the gate on a mutant, which fails it.
import Testing
#if canImport(SignInCoordinatorExample)
import SignInCoordinatorExample   // the example built inside authcheck's own package
#else
import SignInCoordinator
#endif

@Suite struct EmailFirstTrailsMutantTests {
    /// Trail 1 (wrong password, then back) fails on the coordinator whose back skips every frame of the same screen, at the
    /// back; trail 2 on the table whose reset password leads to the email screen, at that step.
    @Test(arguments: [(Mutant.backSkipsSameScreen, 1), (.wrongTarget, 2)])
    func aMutantFailsTheGeneratedTrailItWasFoundOn(mutant: Mutant, trail: Int) throws {
        try EmailFirstSignInTrails.$make.withValue({ SignInCoordinator(mutant: mutant) }) {
            withKnownIssue { try [EmailFirstSignInTrails.trail1, EmailFirstSignInTrails.trail2][trail - 1](EmailFirstSignInTrails())() }
            let problem = try EmailFirstSignInTrails.conformance().problem(trail: trail == 1
                ? [.event("startAuth"), .event("knownEmail"), .event("wrongPassword"), .back]
                : [.event("startAuth"), .event("knownEmail"), .event("forgotPassword"), .event("resetEmailSent"), .event("passwordReset")])
            #expect(problem?.hasPrefix(trail == 1 ? "step 4 (back)" : "step 5 (passwordReset)") == true, "\(problem ?? "nil")")
        }
    }
}
