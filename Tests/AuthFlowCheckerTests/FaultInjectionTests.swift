import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// Deliberately broken runtimes, each built the way the seed articles built theirs, must be caught.
@Suite struct FaultInjectionTests {
    /// A real session whose undo forgets the data frame (the machine pops, the data stack does not).
    final class UndoForgetsData: ForwardingDriver {
        override func back() -> Bool { real.canGoBack ? undo() : false }
        override func undo() -> Bool { (try? real.session.machine.undo()) != nil }
    }

    /// A naive session: a dictionary data stack pushed before the event is validated, and a
    /// transition table that silently overwrites conflicting rows (later rows win).
    final class NaiveSession: FlowDriver {
        let model: FlowModel
        var table: [String: StateID] = [:]
        var states: [StateID]
        var frames: [[KeyID: FlowValue]] = [[:]]
        let pushBeforeValidating: Bool

        init(model: FlowModel, extraRows: [FlowModel.Row] = [], pushBeforeValidating: Bool = false) {
            self.model = model
            self.states = [model.initial]
            self.pushBeforeValidating = pushBeforeValidating
            for row in model.rows + extraRows { table["\(row.from.rawValue):\(row.event.rawValue)"] = row.to }
        }
        var state: StateID { states.last! }
        var height: Int { states.count }
        var dataCount: Int { frames.last!.count }
        func value(of key: KeyID) -> FlowValue? { frames.last![key] }
        func canHandle(_ event: EventID) -> Bool {
            model.moves[state.index].contains { $0.event == event } && table["\(state.rawValue):\(event.rawValue)"] != nil
        }
        var canGoBack: Bool { states.count > 1 && !model.isTerminal[state.index] && model.canGoBack[state.index] }
        func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            guard let move = model.moves[state.index].first(where: { $0.event == event }) else { return false }
            var data = frames.last!
            for key in move.addedKeys { data[key] = value(key) }
            if pushBeforeValidating {
                frames.append(data)   // the seed's mistake: the data frame lands before the event is known to be legal
                guard let target = table["\(state.rawValue):\(event.rawValue)"] else { return false }
                states.append(target)
                return true
            }
            guard let target = table["\(state.rawValue):\(event.rawValue)"] else { return false }
            frames.append(data)
            states.append(target)
            return true
        }
        func back() -> Bool { canGoBack ? undo() : false }
        func undo() -> Bool {
            guard states.count > 1 else { return false }
            states.removeLast()
            frames.removeLast()
            return true
        }
        func reset() {
            states = [model.initial]
            frames = [[:]]
        }
    }

    func check(_ fixture: String, _ driver: (FlowModel) -> any FlowDriver) throws -> [Violation] {
        let model = try Files.model(Files.broken(fixture))
        return FlowChecker.check(model, source: fixture, options: CheckOptions(limits: CheckLimits(depth: 6)), driver: driver(model))
            .violations.filter { $0.property == .undoMismatch || $0.property == .divergence }
    }

    @Test func theNaiveSessionWithoutFaultsPasses() throws {
        #expect(try check("illegal-transition") { NaiveSession(model: $0) }.isEmpty)
        #expect(try check("no-exit") { NaiveSession(model: $0) }.isEmpty)
    }

    @Test func undoThatForgetsTheDataFrameIsCaught() throws {
        let found = try check("mfa-bypass") { UndoForgetsData(model: $0) }
        let first = try #require(found.first)
        #expect(first.property == .undoMismatch)
        // The first undo that should remove data: back from password, which added email and account.
        #expect(first.state == "password")
        #expect(first.event == "knownEmail")
        // startAuth, knownEmail, then the back that fails to restore the data: the back is a step.
        #expect(first.length == 3)
        #expect(first.path.last?.event == "back")
        #expect(first.message.contains("the runtime holds 2 data keys, expected 0"))
    }

    @Test func sessionThatPushesDataBeforeValidatingIsCaught() throws {
        // ssoEmail adds the email but has no transition: a naive session keeps the email after rejecting it.
        let found = try check("several-sites") { NaiveSession(model: $0, pushBeforeValidating: true) }
        let first = try #require(found.first)
        #expect(first.site.description == "undo-mismatch@email.ssoEmail")
        // startAuth, then ssoEmail, which the runtime must reject without change: the rejected event is a step.
        #expect(first.length == 2)
        #expect(first.path.last?.event == "ssoEmail")
        #expect(first.message == "rejecting ssoEmail changed the runtime: the runtime holds 1 data keys, expected 0 {}; email is #2, expected absent")
    }

    @Test func machineThatOverwritesAConflictingTransitionIsCaught() throws {
        let model = try Files.model(Files.broken("no-exit"))
        // A later row for (mfaCode, resend) overwrites the spec's mfaCode --resend--> mfaCode.
        let conflicting = FlowModel.Row(from: model.state(named: "mfaCode")!, event: model.event(named: "resend")!,
                                        to: model.state(named: "password")!)
        let found = try check("no-exit") { NaiveSession(model: $0, extraRows: [conflicting]) }
        let first = try #require(found.first)
        #expect(first.site.description == "divergence@mfaCode.resend")
        #expect(first.length == 4)
        #expect(first.message.contains("the runtime is at password, expected mfaCode"))
        // Our own machine refuses the same conflict outright.
        #expect(throws: TransitionError<String, String>.self) {
            _ = try StateMachine(initial: "mfaCode", transitions: [
                Transition(from: "mfaCode", on: "resend", to: "mfaCode"),
                Transition(from: "mfaCode", on: "resend", to: "password"),
            ])
        }
    }

    /// A runtime that stores a placeholder instead of what the user typed, for every key.
    final class CorruptsValues: ForwardingDriver {
        override func value(of key: KeyID) -> FlowValue? { real.value(of: key).map { _ in .string("corrupt") } }
    }

    @Test func everyDifferenceOfAFrameIsReportedNotOnlyTheFirst() throws {
        let found = try check("mfa-bypass") { CorruptsValues(model: $0) }
        let first = try #require(found.first)
        #expect(first.site.description == "divergence@password.knownEmail")
        #expect(first.message == "after knownEmail, email is corrupt, expected #2; account is corrupt, expected #2")
        let mismatch = try #require(first.mismatch)
        #expect(mismatch.differences == [.value(key: "email", actual: "corrupt", expected: "#2"),
                                         .value(key: "account", actual: "corrupt", expected: "#2")])
        #expect(CounterexampleRenderer.frameDiff(mismatch, step: first.length) == [
            "   frame after step 2 (− expected by the spec, + actual in the runtime):",
            "       state    password",
            "       history  3 frames",
            "     − email    #2",
            "     + email    corrupt",
            "     − account  #2",
            "     + account  corrupt",
        ])
        // The random-path tester asks the same comparator, so it reports both keys too.
        let model = try Files.model(Files.broken("mfa-bypass"))
        let fuzz = FlowFuzzer(model: model) { CorruptsValues(model: model) }.run(FuzzOptions(runs: 50, seed: 1))
        let failure = try #require(fuzz.failure)
        #expect(failure.violation.mismatch?.differences.count == 2)
    }

    /// A runtime that loses the secrets it holds: a token overwritten by a placeholder.
    final class CorruptsSecrets: ForwardingDriver {
        override func value(of key: KeyID) -> FlowValue? {
            model.secrets.contains(key) ? real.value(of: key).map { _ in .string("leaked-\(key.rawValue)") } : real.value(of: key)
        }
    }

    @Test func aSecretThatDiffersIsNamedButNotPrinted() throws {
        let found = try check("mfa-bypass") { CorruptsSecrets(model: $0) }
        let first = try #require(found.first)
        #expect(first.site.description == "divergence@authenticated.passwordAccepted")
        #expect(first.message == "after passwordAccepted, session is not the value expected (<redacted>)")
        let lines = CounterexampleRenderer.frameDiff(try #require(first.mismatch), step: first.length)
        #expect(lines.contains("     − session  <redacted>"))
        #expect(lines.contains("     + session  <redacted>"))
        #expect(!lines.joined().contains("leaked"))
    }

    @Test func theRealRuntimeAgreesOnEveryFixtureAndSpec() throws {
        for path in Files.specs + Files.brokenNames.map(Files.broken) {
            let model = try Files.model(path)
            let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 8)
            #expect(walk.violations.isEmpty, "\(path): \(walk.violations.map(\.message))")
        }
    }

    @Test func runtimeCounterexamplesCarryValuesWithSecretsRedacted() throws {
        let found = try check("mfa-bypass") { UndoForgetsData(model: $0) }
        for violation in found {
            for step in violation.path {
                let values = try #require(step.values)
                #expect(Set(values.keys) == Set(step.data))
                for secret in ["session", "mfaChallenge"] where values[secret] != nil {
                    #expect(values[secret] == "<redacted>")
                }
            }
        }
        let model = try Files.model(Files.broken("mfa-bypass"))
        let report = FlowChecker.check(model, source: "mfa-bypass", options: CheckOptions(limits: CheckLimits(depth: 6)),
                                       driver: UndoForgetsData(model: model))
        let json = ReportRenderer.json(report).rendered()
        #expect(json.contains("\"mfaChallenge\": \"<redacted>\""))
    }
}
