import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The order lint lists dead rows in, which the complete checker kept when `/1` and `/2` flows came to share one path.
///
/// One table, rows out of state order on purpose: `a.skip` takes no emission (`a` never emits `skip`),
/// `c.x` and `b.x` leave states nothing reaches, declared `b` before `c`.
@Suite struct LintRowOrderTests {
    static func spec(format: String, guarded: Bool) -> String {
        let when = guarded ? #", "when": { "has": "k" }"# : ""
        return """
        { "format": "authflow/\(format)", "initial": "start", "success": ["done"], "abort": [],
          "steps": { "start": { "emits": { "go": ["k"] } }, "a": { "emits": { "next": [] } },
                     "b": { "emits": { "x": [] } }, "c": { "emits": { "x": [] } }, "done": {} },
          "transitions": [ { "from": "start", "on": "go", "to": "a" }, { "from": "a", "on": "skip", "to": "done" },
                           { "from": "c", "on": "x", "to": "done" }, { "from": "b", "on": "x", "to": "done" },
                           { "from": "a", "on": "next", "to": "done"\(when) } ] }
        """
    }

    /// A static table (every `/1` flow, and a `/2` one that reads no data) lists its dead rows as the table declares them.
    @Test(arguments: ["1", "2"]) func aStaticFlowListsDeadRowsInTableOrder(format: String) throws {
        let model = try SpecLoader.load(json: Self.spec(format: format, guarded: false))
        #expect(model.isStatic)
        #expect(ModelChecker.verify(model).lint.deadTransitions == ["a.skip", "c.x", "b.x"])
    }

    /// A flow whose moves depend on its data lists them step by step (states as declared), then the rows no emission takes.
    @Test func aFlowThatReadsDataListsDeadRowsByStepThenTheRowsNoEmissionTakes() throws {
        let model = try SpecLoader.load(json: Self.spec(format: "2", guarded: true))
        #expect(!model.isStatic)
        #expect(ModelChecker.verify(model).lint.deadTransitions == ["b.x", "c.x", "a.skip"])
    }
}
