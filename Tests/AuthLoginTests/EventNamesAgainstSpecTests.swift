import AuthFlow
import AuthLogin
import Foundation
import Testing

/// A team gives the outcome → event names once, and checks them against its spec.
@Suite struct EventNamesAgainstSpecTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func sessionRestoresRefreshStepEmitsEveryRefreshOutcome() throws {
        let model = try SpecLoader.load(file: Self.root.appendingPathComponent("Specs/session-restore.json").path)
        #expect(LoginEventNames.default.problems(against: model, calls: [.init(.refreshSession, at: "refresh")]).isEmpty)
    }

    @Test func aRenamedEventIsCaughtWithTheNameItProbablyMeant() throws {
        let model = try SpecLoader.load(file: Self.root.appendingPathComponent("Specs/session-restore.json").path)
        var names = LoginEventNames.default
        names.refreshed = "Refreshed!"
        names.refreshFailed = "sessionRefreshFailed"
        let problems = names.problems(against: model, calls: [.init(.refreshSession, at: "refresh")])
        #expect(problems.count == 2)
        #expect(problems.first?.hasPrefix("refresh never emits 'Refreshed!', the event refreshSession with emailPassword can end in") == true)
        #expect(problems.last?.contains("(did you mean 'refreshFailed'?)") == true, "\(problems)")
    }

    @Test func aCallAtAStateTheFlowDoesNotHaveIsNamed() throws {
        let model = try SpecLoader.load(file: Self.root.appendingPathComponent("Specs/session-restore.json").path)
        #expect(LoginEventNames.default.problems(against: model, calls: [.init(.signIn, at: "login")])
                == ["signIn runs at 'login', which is not a step of the flow"])
    }

    @Test func emailFirstsMFAStepLacksEventsTheBackendCanAnswer() throws {
        // The check surfaces a real gap: a wrong or expired code has nowhere to go on email-first's MFA screen.
        let model = try SpecLoader.load(file: Self.root.appendingPathComponent("Specs/email-first.json").path)
        let problems = LoginEventNames.default.problems(against: model, calls: [.init(.verifyMFA, at: "mfaCode")])
        #expect(problems.contains { $0.hasPrefix("mfaCode never emits 'wrongCode'") })
    }
}
