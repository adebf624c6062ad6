// The generated tours (EmailFirstToursTests.swift) drive the app itself: a mutant fails the tour that takes its bug.
import Testing
#if canImport(SignInCoordinatorExample)
import SignInCoordinatorExample   // the example built inside authcheck's own package
#else
import SignInCoordinator
#endif

@Suite struct EmailFirstToursMutantTests {
    /// Tour 7 resets the password after a wrong one: a table whose reset leads to the email screen fails it, and so
    /// does one that refuses the wrong password's self-loop. The generated test itself records the failure.
    @Test(arguments: [Mutant.wrongTarget, .selfLoopRefused])
    func aMutantFailsTheGeneratedTourThatTakesItsBug(mutant: Mutant) throws {
        try EmailFirstSignInTours.$make.withValue({ SignInCoordinator(mutant: mutant) }) {
            withKnownIssue { try EmailFirstSignInTours().tour7() }
            let problem = try EmailFirstSignInTours.conformance()
                .problem(tour: ["startAuth", "knownEmail", "wrongPassword", "forgotPassword", "resetEmailSent", "passwordReset", "cancel"])
            #expect(problem?.hasPrefix(mutant == .wrongTarget ? "step 6 (passwordReset)" : "step 3 (wrongPassword)") == true, "\(problem ?? "nil")")
        }
    }

    /// The coordinator as written passes the same tour.
    @Test func theCoordinatorAsWrittenPassesIt() throws {
        try EmailFirstSignInTours().tour7()
    }
}
