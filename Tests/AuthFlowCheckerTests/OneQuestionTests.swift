import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The runtime walk asks what a step accepts in one question (``FlowDriver/acceptedEmissions``) wherever it asked
/// event by event before: the answer must be the events' answers, and a runtime's wrong answer must still be caught.
@Suite struct OneQuestionTests {
    /// The real runtime, answering in one question, and checking at every stack that the answer is ``canHandle(_:)``'s.
    final class Compared: ForwardingDriver {
        var asked = 0
        var differences: [String] = []
        override var acceptedEmissions: UInt64? {
            guard let bits = real.acceptedEmissions else { return nil }
            asked += 1
            let state = real.state.index
            for (i, emission) in model.emissions[state].enumerated() where (bits & (1 << UInt64(i)) != 0) != real.canHandle(emission.event) {
                differences.append("\(model.states[state]): \(model.events[emission.event.index])")
            }
            return bits
        }
    }

    /// A runtime whose canHandle says one event of one state is refused when the table takes it, at every stack.
    final class Lies: ForwardingDriver {
        let lyingState: StateID, lyingEvent: EventID
        init(model: FlowModel, state: StateID, event: EventID) {
            lyingState = state
            lyingEvent = event
            super.init(model: model)
        }
        override var acceptedEmissions: UInt64? { real.acceptedEmissions }
        override func canHandle(_ event: EventID) -> Bool { real.state == lyingState && event == lyingEvent ? false : real.canHandle(event) }
    }

    @Test(arguments: Fixture.realSpecs)
    func theOneAnswerIsTheEventsAnswersAtEveryStack(_ path: String) throws {
        let model = try SpecLoader.load(file: Fixture.url(path).path)
        let driver = Compared(model: model)
        let walked = RuntimeExplorer(model: model).explore(driver, depth: 8)
        #expect(walked.violations.filter { $0.property == .divergence }.isEmpty)
        #expect(driver.differences.isEmpty, "\(driver.differences.prefix(5))")
        // Flows run by the authflow/2 rules answer in one question; the others are asked event by event.
        if model.makeSession().runsByRules { #expect(driver.asked > 0) }
    }

    @Test func aCanHandleThatLiesIsCaughtWhenTheOneAnswerIsRight() throws {
        let model = try SpecLoader.load(file: Fixture.url(Fixture.signInNextStep).path)
        // The first event the root's step accepts: the lie is about a move the walk takes.
        let session = model.makeSession()
        let event = try #require(model.emissions[model.initial.index].map(\.event).first { session.canHandle($0) })
        let walked = RuntimeExplorer(model: model).explore(Lies(model: model, state: model.initial, event: event), depth: 4)
        let found = walked.violations.filter { $0.property == .divergence }
        #expect(found.contains { $0.message.contains("the runtime says \(model.events[event.index]) is not enabled") },
                "\(found.map(\.message))")
    }
}
