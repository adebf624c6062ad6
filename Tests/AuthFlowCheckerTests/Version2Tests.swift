import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// `authflow/2` as far as it has landed: loading, the one successor function, the complete checker.
@Suite struct Version2Tests {
    static func load(_ json: String) throws(InvalidSpecError) -> FlowModel {
        try SpecLoader.load(json: json)
    }

    static func fixture() throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/version2/sign-in", withExtension: "json"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func firstIssue(_ json: String) -> SpecIssue? {
        do {
            _ = try load(json)
            return nil
        } catch {
            return error.first
        }
    }

    /// The successors of the frame reached by `events` from the first root, by the spec's semantics.
    static func frame(_ model: FlowModel, root: Int = 0, after events: [String]) throws -> (state: Int, keys: UInt64, values: UInt64) {
        var frame = (state: model.initial.index, keys: model.roots[root].keys, values: model.roots[root].values)
        var successors: [FlowModel.Successor] = []
        for name in events {
            model.successors(state: frame.state, keys: frame.keys, values: frame.values, into: &successors)
            let move = try #require(successors.first { model.events[$0.event.index] == name }, "\(name) is not a move")
            guard case let .push(target, keys, values) = move.outcome else { Issue.record("\(name) does not push"); break }
            frame = (target.index, keys, values)
        }
        return frame
    }

    @Test func theExampleLoadsWithOneRootPerVariant() throws {
        let model = try Self.load(try Self.fixture())
        #expect(model.format == 2 && !model.isStatic)
        #expect(model.roots.count == 2)
        #expect(model.variants.map { $0.map { "\($0.key)=\($0.value)" } } == [["recovery=code"], ["recovery=link"]])
    }

    @Test func theBackendsAnswerBranchesAndTheFirstRowThatHoldsFires() throws {
        let model = try Self.load(try Self.fixture())
        let signIn = try Self.frame(model, after: ["begin"])
        var successors: [FlowModel.Successor] = []
        model.successors(state: signIn.state, keys: signIn.keys, values: signIn.values, into: &successors)
        let submitted = successors.filter { model.events[$0.event.index] == "submitted" }
        let targets = submitted.map { successor -> String in
            if case let .push(target, _, _) = successor.outcome { return model.states[target.index] }
            return "\(successor.outcome)"
        }
        // One branch per value of nextStep, in domain order; the unguarded row catches the rest.
        #expect(targets == ["signedIn", "confirmTotp", "resetPassword"])
        // forgot is not offered before a wrong password; the rows of a guarded event come in order.
        #expect(!successors.contains { model.events[$0.event.index] == "forgot" })
        #expect(successors.contains { model.events[$0.event.index] == "sessionExpired" })
    }

    @Test func countersCountToTheirMaxAndGuardsReadThem() throws {
        let model = try Self.load(try Self.fixture())
        let three = try Self.frame(model, after: ["begin", "wrongPassword", "wrongPassword", "wrongPassword"])
        var successors: [FlowModel.Successor] = []
        model.successors(state: three.state, keys: three.keys, values: three.values, into: &successors)
        let offered = Set(successors.map { model.events[$0.event.index] })
        #expect(!offered.contains("wrongPassword"))   // below 3 no longer holds
        #expect(offered.contains("forgot"))
        let attempts = try #require(model.key(named: "attempts"))
        #expect(model.layout.field(attempts.index, in: three.values) == 3)
        // The config decides where forgot goes.
        let forgotten = successors.first { model.events[$0.event.index] == "forgot" }
        if case let .push(target, _, _)? = forgotten?.outcome { #expect(model.states[target.index] == "recoverCode") }
        let link = try Self.frame(model, root: 1, after: ["begin", "wrongPassword", "forgot"])
        #expect(model.states[link.state] == "recoverLink")
    }

    @Test func clearsRemoveDataAndResetsStartOver() throws {
        let model = try Self.load(try Self.fixture())
        let again = try Self.frame(model, after: ["begin", "wrongPassword", "useAnotherAccount"])
        #expect(model.states[again.state] == "start")
        #expect(again.keys == model.roots[0].keys && again.values == model.roots[0].values)
        let signedIn = try Self.frame(model, after: ["begin", "submitted"])
        var successors: [FlowModel.Successor] = []
        model.successors(state: signedIn.state, keys: signedIn.keys, values: signedIn.values, into: &successors)
        // A reset that keeps nothing lands on the variant's root.
        #expect(successors.map(\.outcome) == [.reset(keys: model.roots[0].keys, values: model.roots[0].values)])
    }

    @Test func anywhereRowsReachEveryNonTerminalStateButTheExceptedOnes() throws {
        let model = try Self.load(try Self.fixture())
        let expires = model.states.indices.filter { state in model.emissions[state].contains { model.events[$0.event.index] == "sessionExpired" } }
        #expect(expires.map { model.states[$0] } == ["signIn", "confirmTotp", "resetPassword", "recoverCode", "recoverLink"])
    }

    @Test func theExampleHoldsCompletely() throws {
        let model = try Self.load(try Self.fixture())
        let verification = ModelChecker.verify(model)
        #expect(verification.violations.isEmpty, "\(verification.violations.map(\.message))")
        #expect(verification.states == 9)
    }

    @Test func aBranchNoRowTakesIsAnIllegalTransitionAtItsShortestPath() throws {
        let broken = try Self.fixture().replacingOccurrences(of: #"    { "from": "signIn", "on": "submitted", "to": "resetPassword" },"# + "\n", with: "")
        let model = try Self.load(broken)
        let verification = ModelChecker.verify(model)
        let first = try #require(verification.violations.first)
        #expect(first.site.description == "illegal-transition@signIn.submitted")
        #expect(first.length == 1)
        #expect(first.path.map { $0.event ?? "(start)" } == ["(start)", "begin"])
        #expect(first.message == "signIn emits submitted, but no row of the table from signIn on submitted holds for the data after it, "
                + "{email, nextStep=resetPassword, attempts=0, recovery=code}")
    }

    @Test(arguments: [
        (#"{ "equals": { "nextStep": "done" } }"#, #"{ "equals": { "nextStep": "finished" } }"#,
         "$.transitions[1].when.equals.nextStep", "'finished' is not a value of 'nextStep' (values: done, confirmTotp, resetPassword)"),
        (#"{ "below": { "attempts": 3 } }"#, #"{ "below": { "attempts": 9 } }"#,
         "$.steps.signIn.emits.wrongPassword.when.below.attempts", "'attempts' counts from 0 to 3; 9 is out of range"),
        (#"{ "below": { "attempts": 3 } }"#, #"{ "below": { "attempt": 3 } }"#,
         "$.steps.signIn.emits.wrongPassword.when.below.attempt", "'attempt' is not a data key of this flow (did you mean 'attempts'?)"),
        (#""clears": ["email", "attempts"]"#, #""clears": ["email", "recovery"]"#,
         "$.steps.signIn.emits.useAnotherAccount.clears[1]", "'recovery' is a config key, fixed when the flow starts; no step may change it"),
        (#""clears": ["email", "attempts"]"#, #""clears": ["email", "email"]"#,
         "$.steps.signIn.emits.useAnotherAccount.clears[1]", "'email' is named twice in this emission's effects"),
        (#""increment": ["attempts"]"#, #""increment": ["email"]"#,
         "$.steps.signIn.emits.wrongPassword.increment[0]", "'email' is not a counter (declare it in data with \"max\")"),
        (#""to": "start", "reset": true"#, #""to": "signIn", "reset": true"#,
         "$.transitions[13].to", "a reset row starts the flow again: its 'to' must be the initial state 'start'"),
        (#""max": 3"#, #""max": 300"#, "$.data.attempts.max", "a counter's max must be from 1 to 255, found 300"),
    ])
    func everyVersion2MistakeIsLocated(_ replace: String, _ with: String, _ path: String, _ message: String) throws {
        let json = try Self.fixture()
        #expect(json.components(separatedBy: replace).count == 2, "'\(replace)' must occur once")
        let issue = Self.firstIssue(json.replacingOccurrences(of: replace, with: with))
        #expect(issue?.path == path)
        #expect(issue?.message == message)
        #expect(issue?.location != nil, "no line:column for \(path)")
    }

    @Test func aVersion1FileRefusesTheNewKeys() {
        let json = """
        { "format": "authflow/1", "initial": "a", "success": ["b"], "abort": [],
          "data": { "x": {} },
          "steps": { "a": { "emits": { "go": [] } }, "b": {} },
          "transitions": [ { "from": "a", "on": "go", "to": "b", "reset": true } ] }
        """
        let issue = Self.firstIssue(json)
        #expect(issue?.path == "$.data")
        #expect(issue?.message == "'data' is an authflow/2 key; this file's format is authflow/1")
    }

    @Test func theExampleHasNoLint() throws {
        let lint = ModelChecker.verify(try Self.load(try Self.fixture())).lint
        #expect(lint.isEmpty, "\(lint.lines)")
    }

    @Test func aSpinnerWithNoCancelWaitsOnTheSystem() throws {
        let json = try Self.fixture()
            .replacingOccurrences(of: #""confirmTotp": { "emits": { "codeAccepted": [] } },"#,
                                  with: #""confirmTotp": { "back": false, "emits": { "codeAccepted": { "by": "system" } } },"#)
        let lint = ModelChecker.verify(try Self.load(json)).lint
        #expect(lint.waitsOnSystem == ["confirmTotp"])
    }

    @Test func aRowBehindOneThatAlwaysHoldsIsShadowed() throws {
        let json = try Self.fixture().replacingOccurrences(
            of: #"    { "from": "signIn", "on": "submitted", "to": "signedIn", "when": { "equals": { "nextStep": "done" } } },"#,
            with: #"    { "from": "signIn", "on": "submitted", "to": "signedIn", "when": { "has": "email" } },"#)
        let verification = ModelChecker.verify(try Self.load(json))
        #expect(verification.lint.shadowedRows == ["signIn.submitted→confirmTotp", "signIn.submitted→resetPassword"])
        #expect(!verification.lint.deadTransitions.contains("signIn.submitted"))
    }

    @Test func aStatesOwnHandlerOverridesAnAnywhereRow() throws {
        let json = try Self.fixture()
            .replacingOccurrences(of: #""confirmTotp": { "emits": { "codeAccepted": [] } },"#,
                                  with: #""confirmTotp": { "emits": { "codeAccepted": [], "sessionExpired": { "by": "system" } } },"#)
            .replacingOccurrences(of: #"    { "from": "confirmTotp", "on": "codeAccepted", "to": "signedIn" },"#,
                                  with: #"    { "from": "confirmTotp", "on": "codeAccepted", "to": "signedIn" },"# + "\n"
                                    + #"    { "from": "confirmTotp", "on": "sessionExpired", "to": "signIn" },"#)
        let verification = ModelChecker.verify(try Self.load(json))
        #expect(verification.lint.overriddenAnywhere == ["confirmTotp.sessionExpired"])
        #expect(verification.violations.isEmpty)
    }
}
