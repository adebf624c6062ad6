import AuthFlow
import Testing

/// A flow declared in Swift reports its mistakes at the Swift line that declared them, and its spec is the JSON one's.
@Suite struct FlowDefinitionSiteTests {
    static func tiny() -> FlowDefinition<String, String, String> {
        var flow = FlowDefinition<String, String, String>(name: "tiny", initial: "start", success: ["done"], abort: [])
        flow.step("start", emits: ["go": []], back: false)
        flow.step("done")
        flow.transition("start", on: "go", to: "done")
        return flow
    }

    @Test func aBadTransitionIsReportedAtItsSwiftLine() throws {
        var flow = Self.tiny()
        let line = #line + 1
        flow.transition("done", on: "again", to: "nowhere")
        let error = try #require(throws: InvalidSpecError.self) { try flow.model() }
        let issue = try #require(error.issues.first { $0.message.hasPrefix("transition target 'nowhere' is not a step") })
        #expect(issue.path == "FlowDefinitionSiteTests.swift:\(line)")
        #expect(issue.description.hasPrefix("FlowDefinitionSiteTests.swift:\(line): transition target 'nowhere' is not a step"), "\(issue)")
    }

    @Test func aBadStepIsReportedAtItsSwiftLine() throws {
        var flow = Self.tiny()
        let line = #line + 1
        flow.step("start", requires: ["x"])
        let error = try #require(throws: InvalidSpecError.self) { try flow.model() }
        #expect(error.issues.map(\.path).contains("FlowDefinitionSiteTests.swift:\(line)"), "\(error)")
    }

    @Test func aBadInitialIsReportedAtTheDefinition() throws {
        let line = #line + 1
        var flow = FlowDefinition<String, String, String>(initial: "nowhere", success: ["done"], abort: [])
        flow.step("done")
        let error = try #require(throws: InvalidSpecError.self) { try flow.model() }
        #expect(error.issues.map(\.path).contains("FlowDefinitionSiteTests.swift:\(line)"), "\(error)")
    }

    @Test func theDescriptionIsPartOfTheSpec() throws {
        var flow = Self.tiny()
        flow.description = "the smallest flow"
        let json = """
        { "format": "authflow/1", "name": "tiny", "description": "the smallest flow", "initial": "start", "success": ["done"], "abort": [],
          "steps": { "start": { "back": false, "emits": { "go": [] } }, "done": {} },
          "transitions": [ { "from": "start", "on": "go", "to": "done" } ] }
        """
        #expect(flow.spec == (try SpecLoader.load(json: json)).spec)
    }
}
