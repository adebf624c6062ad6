import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// `FlowConformance.problem(trail:variant:site:)`: a trail's typed steps driven on an app, its state and data checked against the spec after each.
@Suite struct TrailStepConformanceTests {
    /// The app: a puppet of the spec's own session, and a bug it can be built with.
    final class SessionApp: FlowUnderTest {
        enum Bug { case acceptsCodeWhenLocked }
        let model: FlowModel
        let session: FlowSession<StateID, EventID, KeyID, FlowValue>
        let bug: Bug?
        init(_ model: FlowModel, bug: Bug? = nil) {
            self.model = model
            self.session = model.makeSession()
            self.bug = bug
        }
        var state: String { model.states[session.state.index] }
        var data: [String: FlowValue] {
            var data: [String: FlowValue] = [:]
            for (key, value) in session.data.current { data[model.keys[key.index]] = value }
            return data
        }
        func send(_ event: String, data: [String: FlowValue]) -> Bool {
            guard let id = model.event(named: event) else { return false }
            let accepted = session.trySend(id) { data[self.model.keys[$0.index]] ?? .string("") }
            // The bug: a code the service would refuse for a locked account is taken as accepted (the screen stays).
            return accepted || (bug == .acceptsCodeWhenLocked && event == "codeAccepted")
        }
        func back() -> Bool { (try? session.back()) != nil }
    }

    static let nextStep = try! SpecLoader.load(file: Files.root.appendingPathComponent("Specs/sign-in-next-step.json").path)

    /// Section 5: back returns to a code screen opened before three wrong passwords locked the account; the server's
    /// count survives the backs, so the code is refused there. The path needs the seven backs, typed as `.back`.
    static let backToCode: [TrailStep] = [
        .event("signInTapped"), .event("submit"), .event("challenged", values: ["nextStep": "confirmTotp"]), .event("cancel"),
        .event("submit"), .event("wrongPassword"), .event("submit"), .event("wrongPassword"), .event("submit"), .event("wrongPassword"),
        .back, .back, .back, .back, .back, .back, .back, .event("codeAccepted"), .event("sessionExpired"), .reset("startOver"),
    ]

    @Test func aTrailWithBacksPassesOnAnAppThatFollowsTheSpec() {
        let conformance = FlowConformance(model: Self.nextStep) { SessionApp(Self.nextStep) }
        #expect(conformance.problem(trail: Self.backToCode, site: "no-sign-in-while-locked") == nil)
    }

    @Test func anAppThatTakesTheCodeAfterTheBacksFailsAtThatStep() throws {
        let conformance = FlowConformance(model: Self.nextStep) { SessionApp(Self.nextStep, bug: .acceptsCodeWhenLocked) }
        let problem = try #require(conformance.problem(trail: Self.backToCode, site: "no-sign-in-while-locked"))
        #expect(problem.hasPrefix("step 18 (codeAccepted): the implementation accepted codeAccepted in confirmCode"), "\(problem)")
        // Without the backs the code screen is never reached locked: the same bug passes.
        let forward = Array(Self.backToCode.prefix(10))
        #expect(conformance.problem(trail: forward + [.event("codeAccepted")]) != nil)
        #expect(conformance.problem(trail: forward) == nil)
    }

    /// A step's kind is checked against the spec: a reset typed as an event, or an event typed as a reset, says how to write it.
    @Test func aResetMustBeTypedAsOne() throws {
        let conformance = FlowConformance(model: Self.nextStep) { SessionApp(Self.nextStep) }
        let expired: [TrailStep] = [.event("signInTapped"), .event("sessionExpired")]
        let asEvent = try #require(conformance.problem(trail: expired + [.event("startOver")]))
        #expect(asEvent == "step 3 (startOver) starts the flow again by the spec (a reset row from expired): write it .reset(\"startOver\")")
        let asReset = try #require(conformance.problem(trail: [.reset("signInTapped")]))
        #expect(asReset == "step 1 (signInTapped) is no reset of the spec from start: record the trail again")
        #expect(conformance.problem(trail: expired + [.reset("startOver"), .event("signInTapped")]) == nil)
    }

    /// What a test cannot run says so instead of trapping: an unknown site, variant or event.
    @Test func whatTheSpecDoesNotHaveIsAProblemNotATrap() throws {
        let conformance = FlowConformance(model: Self.nextStep) { SessionApp(Self.nextStep) }
        #expect(conformance.problem(trail: [.back], site: "no-such-rule")?.hasPrefix("the spec has no site no-such-rule") == true)
        #expect(conformance.problem(trail: [.back], site: "lockout-reachable")?.hasPrefix("the spec has no site") == true)
        #expect(conformance.problem(trail: [], variant: 3)?.hasPrefix("the flow has no variant 3") == true)
        #expect(conformance.problem(trail: [.event("teleport")]) == "step 1 (teleport): the spec has no such event: record the trail again")
        // A back where the spec forbids it is sent, and must be refused: the puppet refuses it.
        #expect(conformance.problem(trail: [.back, .back]) == nil)
    }

    /// A trail of the spec's own violation: the app that follows the spec reproduces it, and the test says so.
    @Test func aSpecViolationsTrailFailsWhereTheViolationHappensAgain() throws {
        let model = try SpecLoader.load(json: """
        { "format": "authflow/1", "initial": "start", "success": ["done"], "abort": [],
          "steps": { "start": { "emits": { "go": [] } }, "done": { "requires": ["token"] } },
          "transitions": [{ "from": "start", "on": "go", "to": "done" }] }
        """)
        let conformance = FlowConformance(model: model) { SessionApp(model) }
        let problem = try #require(conformance.problem(trail: [.event("go")], site: "unmet-requirement@done"))
        #expect(problem.hasPrefix("step 1 (go): the trail's violation happened again: "), "\(problem)")
        #expect(conformance.problem(trail: [.event("go")]) == nil)
    }

    /// The steps print as the generated tests and the problems name them.
    @Test func stepsDescribeThemselves() {
        #expect(TrailStep.event("challenged", values: ["nextStep": "confirmSms", "a": "b"]).description == "challenged(a=b, nextStep=confirmSms)")
        #expect(TrailStep.reset("signOut").description == "signOut")
        #expect(TrailStep.back.description == "back")
    }
}
