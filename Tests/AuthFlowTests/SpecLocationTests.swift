import AuthFlow
import Foundation
import Testing

/// The loaded model keeps where each part of the spec stands in its file.
@Suite struct SpecLocationTests {
    static let json = """
        {
          "format": "authflow/1",
          "initial": "start",
          "success": ["done"],
          "abort": [],
          "steps": {
            "start": { "emits": { "go": [] } },
            "done":  { "requires": ["x"] }
          },
          "transitions": [
            { "from": "start", "on": "go", "to": "done" },
            { "from": "start", "on": "go", "to": "done" }
          ]
        }
        """

    @Test func stepsEmitsRequiresAndRowsAreLocated() throws {
        let model = try SpecLoader.load(json: Self.json, file: "inline.json")
        #expect(model.location(ofStep: "start") == SourceLocation(line: 7, column: 14))
        #expect(model.location(ofEmission: "go", inStep: "start") == SourceLocation(line: 7, column: 33))
        #expect(model.location(ofRequires: "done") == SourceLocation(line: 8, column: 28))
        #expect(model.location(ofRow: 1) == SourceLocation(line: 12, column: 5))
        #expect(model.location(ofRowFrom: "start", on: "go") == SourceLocation(line: 11, column: 5))
        #expect(model.location(ofMember: "format") == SourceLocation(line: 2, column: 13))
        #expect(model.location(ofStep: "nowhere") == nil)
        #expect(model.location(ofRequires: "start") == nil)
    }

    @Test func aFlowDeclaredInSwiftHasNoLocations() throws {
        let spec = FlowSpec(initial: "a", success: ["a"], abort: [], steps: [FlowSpec.Step("a")], transitions: [])
        #expect(try FlowModel(spec: spec).location(ofStep: "a") == nil)
    }
}
