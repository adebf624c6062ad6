import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The lockstep walk on `authflow/2`: every stack of every variant driven through ``FlowSession``,
/// agreeing with the configuration graph's count, and catching a runtime that gets the data wrong.
@Suite struct Version2WalkTests {
    static func model() throws -> FlowModel { try Version2Tests.load(Version2Tests.fixture()) }

    @Test func theRealRuntimeAgreesAndTheWalkCountsTheGraphsStacks() throws {
        let model = try Self.model()
        for depth in 0...8 {
            let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: depth)
            #expect(walk.violations.isEmpty, "depth \(depth): \(walk.violations.map(\.message))")
            #expect(walk.stacks == RuntimeExplorer(model: model).countStacks(depth: depth), "depth \(depth)")
        }
    }

    /// Takes the system's answer as `done` whatever it said: the row for `confirmTotp` never fires.
    final class AlwaysDone: ForwardingDriver {
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            let nextStep = model.key(named: "nextStep")!
            return real.send(event) { $0 == nextStep ? .string("done") : value($0) }
        }
    }

    /// Ignores `clears`: "use another account" keeps the email.
    final class KeepsEmail: ForwardingDriver {
        override var dataCount: Int { real.dataCount + (kept == nil ? 0 : 1) }
        var kept: FlowValue?
        override func value(of key: KeyID) -> FlowValue? {
            if key == model.key(named: "email"), real.value(of: key) == nil, let kept { return kept }
            return real.value(of: key)
        }
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            let email = real.value(of: model.key(named: "email")!)
            let accepted = real.send(event, value: value)
            kept = accepted && event == model.event(named: "useAnotherAccount") ? email : nil
            return accepted
        }
        override func undo() -> Bool { kept = nil; return real.undo() }
        override func reset() { kept = nil; real.reset() }
        override func start(variant: Int) -> Bool { kept = nil; return real.start(variant: variant) }
    }

    /// Signing out keeps the history: back after sign-out returns to the signed-in screen.
    final class SignOutKeepsHistory: ForwardingDriver {
        var extra = 0
        override var height: Int { real.height + extra }
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            let accepted = real.send(event, value: value)
            if accepted && event == model.event(named: "signOut") { extra += 3 }
            return accepted
        }
        override func undo() -> Bool { real.undo() }
        override func reset() { extra = 0; real.reset() }
        override func start(variant: Int) -> Bool { extra = 0; return real.start(variant: variant) }
    }

    func sites(_ driver: some FlowDriver, depth: Int = 6) throws -> [String] {
        let walk = RuntimeExplorer(model: try Self.model()).explore(driver, depth: depth)
        return walk.violations.map { "\($0.property.id) \($0.state ?? "-") \($0.event ?? "-") \($0.path.count - 1)" }
    }

    @Test func aRuntimeThatIgnoresTheBackendsAnswerDiverges() throws {
        let found = try sites(AlwaysDone(model: Self.model()))
        // begin, then submitted with confirmTotp (or resetPassword): the runtime lands on signedIn,
        // reported where the spec expected it to be, as every divergence after a move is.
        #expect(found == ["divergence confirmTotp submitted 2", "divergence resetPassword submitted 2"])
    }

    @Test func aRuntimeThatIgnoresClearsDiverges() throws {
        let found = try sites(KeepsEmail(model: Self.model()))
        #expect(found.first == "divergence start useAnotherAccount 2", "\(found)")
    }

    @Test func aSignOutThatKeepsHistoryIsCaughtAtTheReset() throws {
        let found = try sites(SignOutKeepsHistory(model: Self.model()))
        // begin, submitted(done) to signedIn, then signOut: 3 steps.
        #expect(found.contains("divergence signedIn signOut 3"), "\(found)")
    }

    @Test func pathsShowTheVariantAndTheValuesAfterEachStep() throws {
        let model = try Self.model()
        let walk = RuntimeExplorer(model: model).explore(AlwaysDone(model: model), depth: 4)
        let violation = try #require(walk.violations.first { $0.event == "submitted" })
        // The variant is the violation's own, not part of its message nor of its steps' values (as the checker's).
        #expect(violation.message == "after submitted, the runtime is at signedIn, expected confirmTotp; nextStep is done, expected confirmTotp")
        #expect(violation.variant == [FlowSpec.KeyValue("recovery", "code")])
        #expect(violation.path.map { $0.values ?? [:] } == [
            ["attempts": "0"],
            ["attempts": "0", "email": "#1"],
            ["attempts": "0", "email": "#1", "nextStep": "confirmTotp"],
        ])
        // Keys in declaration order, as the checker lists them.
        #expect(violation.path.last?.data == ["email", "nextStep", "attempts"])
    }
}
