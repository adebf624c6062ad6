// The generated tours and trails (EmailFirstV2ToursTests.swift, EmailFirstV2TrailsTests.swift) drive the view model itself:
// a mutant fails the generated test that takes its bug, and the view model as written passes them all (they run in this target).
import AuthFlowChecker
import Testing
#if canImport(AsyncSignInExample)
import AsyncSignInExample   // the example built inside authcheck's own package
#else
import AsyncSignIn
#endif

@Suite struct GeneratedTestsMutantTests {
    typealias Tours = EmailFirstSignInTheBackendDecidingAuthflow2Tours
    typealias Trails = EmailFirstSignInTheBackendDecidingAuthflow2Trails

    static func make(_ mutant: Mutant) -> @Sendable () async -> EmailFirstV2App {
        { await SignInModel(backend: PlayedAuthBackend(), mutant: mutant) }
    }

    /// The tours take every transition, forward only: 7 of the 14 mutants fail one (these five among them, each the tour
    /// that takes its bug); the bugs that need back or a second request are left to the trails and the gate's walk.
    @Test(arguments: [(Mutant.signOutKeepsToken, 1), (.cancelKeepsAccount, 2), (.wrongPasswordKept, 4), (.locksOneLate, 7), (.dismissForgetsLock, 8)])
    func aMutantFailsTheGeneratedTourThatTakesItsBug(mutant: Mutant, tour: Int) async throws {
        let tours = [Tours.tour1, Tours.tour2, Tours.tour3, Tours.tour4, Tours.tour5, Tours.tour6, Tours.tour7, Tours.tour8]
        try #require(tours.indices.contains(tour - 1))
        await Tours.$make.withValue(Self.make(mutant)) {
            await withKnownIssue { try await tours[tour - 1](Tours())() }
        }
    }

    /// Each trail is a finding of the gate on one mutant (`Violation.trail(for:)`): that mutant fails its generated test.
    @Test(arguments: [(Mutant.attemptsCountedOnDevice, 1), (.signOutKeepsToken, 2), (.dismissForgetsLock, 3)])
    func aMutantFailsTheGeneratedTrailItWasFoundOn(mutant: Mutant, trail: Int) async throws {
        let trails = [Trails.trail1, Trails.trail2, Trails.trail3]
        try #require(trails.indices.contains(trail - 1))
        await Trails.$make.withValue(Self.make(mutant)) {
            await withKnownIssue { try await trails[trail - 1](Trails())() }
        }
    }

    /// The first trail needs the back: a view model that counts wrong passwords per screen gives an attempt back there,
    /// which no forward tour shows; the problem names that step.
    @Test func theBackStepOfTheTrailIsWhereTheDeviceCountFails() async throws {
        let problem = try await Trails.$make.withValue(Self.make(.attemptsCountedOnDevice)) {
            try await Trails.conformance().problem(trail: [.event("begin"), .event("submitEmail"), .event("accountFound"),
                                                          .event("submitPassword"), .event("wrongPassword"), .back],
                                                  site: "undo-mismatch@password.wrongPassword")
        }
        #expect(problem?.hasPrefix("step 6 (back): the trail's violation happened again") == true, "\(problem ?? "nil")")
    }
}
