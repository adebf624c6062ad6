import AuthFlow
import Foundation
import Testing

@Suite struct SpecLoaderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let specs: [String] = {
        let folder = root.appendingPathComponent("Specs")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).path }
    }()

    func issue(_ json: String) -> SpecIssue? {
        do {
            _ = try SpecLoader.load(json: json)
            return nil
        } catch {
            return error.first
        }
    }

    static let minimal = """
    { "format": "authflow/1", "initial": "a", "success": ["b"], "abort": [],
      "steps": { "a": { "emits": { "go": [] } }, "b": {} },
      "transitions": [ { "from": "a", "on": "go", "to": "b" } ] }
    """

    @Test func minimalSpecLoads() throws {
        let model = try SpecLoader.load(json: Self.minimal)
        #expect(model.states == ["a", "b"])
        #expect(model.rows == [FlowModel.Row(from: model.initial, event: model.event(named: "go")!, to: model.state(named: "b")!)])
    }

    @Test func malformedJSONReportsLineAndColumn() {
        let found = issue("{\n  \"format\": \"authflow/1\",\n  \"initial\" \"a\"\n}")
        #expect(found?.location == AuthFlow.SourceLocation(line: 3, column: 13))
        #expect(found?.message.hasPrefix("malformed JSON: expected ':'") == true)
    }

    @Test func badReferenceReportsItsJSONPathAndLocation() {
        let json = Self.minimal.replacingOccurrences(of: "\"to\": \"b\"", with: "\"to\": \"nowhere\"")
        let found = issue(json)
        #expect(found?.path == "$.transitions[0].to")
        #expect(found?.location?.line == 3)
        #expect(found?.message == "transition target 'nowhere' is not a step (steps: a, b)")
    }

    static let named = """
    { "format": "authflow/1", "initial": "start", "success": ["home"], "abort": ["cancelled"],
      "steps": { "start": { "emits": { "go": [], "quit": [] } }, "home": {}, "cancelled": {} },
      "transitions": [ { "from": "start", "on": "go", "to": "home" }, { "from": "start", "on": "quit", "to": "cancelled" } ] }
    """

    /// A name that differs from a step only in case, or by a typo, says which step it stands for (the issue's
    /// `"success": ["Home"]` listed the steps without pointing at `home`); a name near none still lists them.
    @Test(arguments: [
        (#""success": ["home"]"#, #""success": ["Home"]"#, "$.success[0]",
         "success state 'Home' is not a step; did you mean 'home'? (names are case-sensitive)"),
        (#""initial": "start""#, #""initial": "strt""#, "$.initial",
         "initial state 'strt' is not a step; did you mean 'start'? (steps: start, home, cancelled)"),
        (#""abort": ["cancelled"]"#, #""abort": ["canceled"]"#, "$.abort[0]",
         "abort state 'canceled' is not a step; did you mean 'cancelled'? (steps: start, home, cancelled)"),
        (#""to": "home""#, #""to": "HOME""#, "$.transitions[0].to",
         "transition target 'HOME' is not a step; did you mean 'home'? (names are case-sensitive)"),
        (#""to": "home""#, #""to": "elsewhere""#, "$.transitions[0].to",
         "transition target 'elsewhere' is not a step (steps: start, home, cancelled)"),
    ])
    func aNameNearAStepSuggestsIt(_ replace: String, _ with: String, _ path: String, _ message: String) throws {
        #expect(issue(Self.named) == nil)
        let found = try #require(issue(Self.named.replacingOccurrences(of: replace, with: with)))
        #expect(found.path == path)
        #expect(found.message == message)
    }

    @Test(arguments: [
        ("\"format\": \"authflow/1\"", "\"format\": \"authflow/3\"", "$.format", "unsupported format 'authflow/3'; this version reads \"authflow/1\", \"authflow/2\""),
        ("\"transitions\"", "\"transitons\"", "$.transitons", "unknown key 'transitons' (did you mean 'transitions'?); allowed: format, name, description, initial, success, abort, steps, transitions, passcode, secrets, outputs, $schema, or any key starting with 'x-'"),
        ("\"initial\": \"a\"", "\"initial\": 3", "$.initial", "initial must be a string, found number"),
        ("\"on\": \"go\"", "\"on\": \"back\"", "$.transitions[0].on", "'back' is reserved for undo; it cannot be used in a transition"),
        ("\"go\": []", "\"back\": []", "$.steps.a.emits.back", "'back' is reserved for undo; a step cannot emit it"),
        ("\"success\": [\"b\"], ", "", "$.success", "missing required key 'success'"),
        ("\"b\": {}", "\"b\": { \"back\": \"no\" }", "$.steps.b.back", "back must be true or false, found string"),
    ])
    func invalidSpecsSayWhereAndWhy(_ replace: String, _ with: String, _ path: String, _ message: String) {
        let found = issue(Self.minimal.replacingOccurrences(of: replace, with: with))
        #expect(found?.path == path)
        #expect(found?.message == message)
    }

    @Test func nonDeterministicTableIsInvalidAndIdenticalDuplicateOnlyWarns() throws {
        let conflicting = Self.minimal.replacingOccurrences(of: "\"to\": \"b\" } ]", with: "\"to\": \"b\" }, { \"from\": \"a\", \"on\": \"go\", \"to\": \"a\" } ]")
        let found = issue(conflicting)
        #expect(found?.path == "$.transitions[1]")
        #expect(found?.message.hasPrefix("non-deterministic: a --go--> a conflicts with transitions[0]") == true)
        let duplicate = Self.minimal.replacingOccurrences(of: "\"to\": \"b\" } ]", with: "\"to\": \"b\" }, { \"from\": \"a\", \"on\": \"go\", \"to\": \"b\" } ]")
        let model = try SpecLoader.load(json: duplicate)
        #expect(model.warnings.map(\.path) == ["$.transitions[1]"])
        #expect(model.rows.count == 1)
    }

    @Test(arguments: [
        minimal,
        minimal.replacingOccurrences(of: "authflow/1", with: "authflow/2"),
    ])
    func aSchemaKeyIsAllowedAtTheTopOfEitherFormat(_ spec: String) throws {
        // Given a spec that names its JSON Schema, as an editor wants it,
        let named = spec.replacingOccurrences(of: "\"initial\"", with: "\"$schema\": \"../docs/schema/authflow-1.schema.json\", \"initial\"")
        // then it loads as the same flow, and a $schema that is not a string is a wrong type.
        #expect(try SpecLoader.load(json: named).states == ["a", "b"])
        let wrong = issue(spec.replacingOccurrences(of: "\"initial\"", with: "\"$schema\": 1, \"initial\""))
        #expect(wrong?.path == "$[\"$schema\"]")
        #expect(wrong?.message == "$schema must be a string, found number")
    }

    @Test func aSchemaKeyBelowTheTopIsUnknown() {
        let found = issue(Self.minimal.replacingOccurrences(of: "\"b\": {}", with: "\"b\": { \"$schema\": \"x\" }"))
        #expect(found?.path == "$.steps.b[\"$schema\"]")
        #expect(found?.message.hasPrefix("unknown key '$schema'") == true)
    }

    @Test(arguments: ["{}", "{ \"x-note\": \"always\" }"])
    func aGuardWithoutAnOperatorIsRefusedEvenWithExtensionKeys(_ guardText: String) {
        // An object of x- keys alone must not pass as "no guard": the row would fire unconditionally.
        let spec = Self.minimal.replacingOccurrences(of: "authflow/1", with: "authflow/2")
            .replacingOccurrences(of: "\"to\": \"b\" }", with: "\"to\": \"b\", \"when\": \(guardText) }")
        let found = issue(spec)
        #expect(found?.path == "$.transitions[0].when")
        #expect(found?.message == "a guard needs one operator (has, missing, equals, in, atLeast, below, all, any, not)")
    }

    @Test func aCounterCannotBeOptional() {
        // A counter is always defined (0 until incremented): listing it as read-when-present means nothing.
        let spec = Self.minimal.replacingOccurrences(of: "authflow/1", with: "authflow/2")
            .replacingOccurrences(of: "\"initial\"", with: "\"data\": { \"tries\": { \"max\": 3 } }, \"initial\"")
            .replacingOccurrences(of: "\"b\": {}", with: "\"b\": { \"optional\": [\"tries\"] }")
        let found = issue(spec)
        #expect(found?.path == "$.steps.b.optional[0]")
        #expect(found?.message == "'tries' is a counter, always defined: a step reads it without listing it in optional")
    }

    @Test func anAnywhereEntryCannotClearAConfigKey() {
        // A config key is fixed for the run: clearing it would move the flow to no variant at all.
        let spec = Self.minimal.replacingOccurrences(of: "authflow/1", with: "authflow/2")
            .replacingOccurrences(of: "\"initial\"", with: "\"config\": { \"mfa\": [\"on\"] }, \"anywhere\": [{ \"on\": \"expire\", \"to\": \"b\", \"clears\": [\"mfa\"] }], \"initial\"")
        let found = issue(spec)
        #expect(found?.path == "$.anywhere[0].clears[0]")
        #expect(found?.message == "'mfa' is a config key, fixed when the flow starts; no row may clear it")
    }

    @Test func extensionKeysAreIgnored() throws {
        let json = Self.minimal.replacingOccurrences(of: "\"initial\"", with: "\"x-owner\": {\"team\": 1}, \"initial\"")
        #expect(try SpecLoader.load(json: json).states == ["a", "b"])
    }

    @Test(arguments: specs)
    func everySpecLoadsAndBothPathsBuildTheSameModel(_ path: String) throws {
        let model = try SpecLoader.load(file: path)
        let rebuilt = try FlowModel(spec: model.spec)
        #expect(rebuilt.states == model.states)
        #expect(rebuilt.moves == model.moves)
        #expect(rebuilt.rows == model.rows)
    }

    /// Walks a flow through the runtime from its initial state to a target, by breadth-first search over names.
    func walk(_ model: FlowModel, to targets: [String]) throws -> [String] {
        var queue: [[(String, [String])]] = [[(model.spec.initial, [])]]
        let steps = Dictionary(uniqueKeysWithValues: model.spec.steps.map { ($0.state, $0) })
        var seen: Set<String> = [model.spec.initial]
        while !queue.isEmpty {
            let path = queue.removeFirst()
            let (state, _) = path.last!
            if targets.contains(state) {
                // Replay the path through a real session, supplying values for every produced key.
                let session = model.makeNamedSession()
                for (_, events) in path.dropFirst() {
                    let event = events.last!
                    let adds = steps[session.state]!.emits.first { $0.event == event }!.adds
                    try session.handle(StepOutput(event, data: adds.map { ($0, FlowValue.string("\($0)-value")) }))
                    _ = try session.currentStep()   // each screen gets its required input
                }
                #expect(session.state == state)
                return path.dropFirst().map { $0.1.last! }
            }
            for emission in steps[state]?.emits ?? [] {
                guard let row = model.spec.transitions.first(where: { $0.from == state && $0.on == emission.event }),
                      seen.insert(row.to).inserted else { continue }
                queue.append(path + [(row.to, path.last!.1 + [emission.event])])
            }
        }
        throw InvalidSpecError(issues: [SpecIssue(path: "$", message: "no path to \(targets)")])
    }

    @Test(arguments: specs)
    func everySpecWalksToASuccessAndToAnAbortThroughTheRuntime(_ path: String) throws {
        let model = try SpecLoader.load(file: path)
        #expect(!(try walk(model, to: model.spec.success)).isEmpty)
        // A flow may have no abort state (every way out of Specs/email-first-v2.json starts again).
        if !model.spec.abort.isEmpty { #expect(!(try walk(model, to: model.spec.abort)).isEmpty) }
    }

    @Test func typedDeclarationProducesTheSameModelAsTheSpecFile() throws {
        enum S: String, FlowName { case start, email, password, signup, authenticated, cancelled }
        enum E: String, FlowName { case startAuth, knownEmail, newEmail, cancel, passwordAccepted, wrongPassword, accountCreated }
        enum K: String, FlowName { case email, account, session }
        var flow = FlowDefinition<S, E, K>(name: "typed", initial: .start, success: [.authenticated], abort: [.cancelled])
        flow.step(.start, emits: [.startAuth: []], back: false)
        flow.step(.email, emits: [.knownEmail: [.email, .account], .newEmail: [.email], .cancel: []])
        flow.step(.password, requires: [.email, .account], emits: [.passwordAccepted: [.session], .wrongPassword: [], .cancel: []])
        flow.step(.signup, requires: [.email], emits: [.accountCreated: [.session]])
        flow.step(.authenticated, requires: [.session])
        flow.step(.cancelled)
        for (from, event, to) in [(S.start, E.startAuth, S.email), (.email, .knownEmail, .password), (.email, .newEmail, .signup),
                                  (.email, .cancel, .cancelled), (.password, .passwordAccepted, .authenticated),
                                  (.password, .wrongPassword, .password), (.password, .cancel, .cancelled), (.signup, .accountCreated, .authenticated)] {
            flow.transition(from, on: event, to: to)
        }
        let json = """
        { "format": "authflow/1", "name": "typed", "initial": "start", "success": ["authenticated"], "abort": ["cancelled"],
          "steps": { "start": { "back": false, "emits": { "startAuth": [] } },
                     "email": { "emits": { "knownEmail": ["email", "account"], "newEmail": ["email"], "cancel": [] } },
                     "password": { "requires": ["email", "account"], "emits": { "passwordAccepted": ["session"], "wrongPassword": [], "cancel": [] } },
                     "signup": { "requires": ["email"], "emits": { "accountCreated": ["session"] } },
                     "authenticated": { "requires": ["session"] }, "cancelled": {} },
          "transitions": [ { "from": "start", "on": "startAuth", "to": "email" }, { "from": "email", "on": "knownEmail", "to": "password" },
                           { "from": "email", "on": "newEmail", "to": "signup" }, { "from": "email", "on": "cancel", "to": "cancelled" },
                           { "from": "password", "on": "passwordAccepted", "to": "authenticated" }, { "from": "password", "on": "wrongPassword", "to": "password" },
                           { "from": "password", "on": "cancel", "to": "cancelled" }, { "from": "signup", "on": "accountCreated", "to": "authenticated" } ] }
        """
        let fromFile = try SpecLoader.load(json: json)
        #expect(flow.spec == fromFile.spec)
        let typed = try flow.model()
        #expect(typed.moves == fromFile.moves && typed.rows == fromFile.rows && typed.requires == fromFile.requires)
        // And the typed session runs the app's own types.
        let session = try flow.makeSession()
        try session.handle(StepOutput(.startAuth))
        try session.handle(StepOutput(.knownEmail, data: [(.email, "a@b.c"), (.account, 1)]))
        #expect(session.state == .password)
    }
}

@Suite struct TypedFlowLimitTests {
    @Test func aSwiftDeclaredFlowMeetsTheSameNameLimitsAsASpecFile() {
        var flow = FlowDefinition<String, String, String>(initial: "start", success: ["done"], abort: [])
        let line = #line + 1
        flow.step("start", emits: ["go\u{1B}[2J": []])
        flow.step("done")
        flow.transition("start", on: "go\u{1B}[2J", to: "done")
        #expect(throws: InvalidSpecError.self) { try flow.model() }
        do {
            _ = try flow.model()
        } catch {
            #expect(error.first.path == "SpecLoaderTests.swift:\(line)")
            #expect(error.first.message == "event name 'go\\u{1B}[2J' contains U+001B, a control character; names may not contain control or invisible formatting characters")
        }
    }
}
