import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// Which moves of a configuration the walk takes: siblings that build the same stack are one, and only those.
@Suite struct FrameTableMovesTests {
    /// On `choose`, `keep` opens another `choose` and `edit` updates the screen in place, both marking `seen` on the
    /// server: the same configuration, but two histories (section 5): the user's back from the first lands on `choose`.
    static let pushAndReplace = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": [],
      "abort": ["done"],
      "data": {"seen": {"server": true}},
      "steps": {
        "start": {"emits": {"go": []}},
        "choose": {"emits": {"keep": {"adds": ["seen"]}, "edit": {"adds": ["seen"]}, "again": {"adds": ["seen"]}, "quit": []}},
        "done": {"emits": {}}
      },
      "transitions": [
        {"from": "start", "on": "go", "to": "choose"},
        {"from": "choose", "on": "keep", "to": "choose"},
        {"from": "choose", "on": "edit", "to": "choose", "history": "replace"},
        {"from": "choose", "on": "again", "to": "choose"},
        {"from": "choose", "on": "quit", "to": "done"}
      ]
    }
    """

    @Test func aPushAndAnInPlaceUpdateToTheSameConfigurationAreBothWalked() throws {
        let model = try SpecLoader.load(json: Self.pushAndReplace)
        var table = FrameTable(model: model, depth: 4)
        let start = table.intern(Configuration(state: model.initial.rawValue, keys: model.roots[0].keys, values: model.roots[0].values))
        table.expand(start, of: model)
        let choose = table.moves[Int(table.entries[Int(start)].moveStart)].target
        table.expand(choose, of: model)
        let entry = table.entries[Int(choose)]
        let moves = table.moves[Int(entry.moveStart)..<Int(entry.moveEnd)].map { (model.events[Int($0.event)], $0.replaces, $0.walked) }
        // `again` pushes what `keep` pushes: one stack. `edit` updates the screen in place: a history of its own.
        #expect(moves.map(\.0) == ["keep", "edit", "again", "quit"])
        #expect(moves.map(\.1) == [false, true, false, false])
        #expect(moves.map(\.2) == [true, true, false, true])
    }

    @Test func theWalkCountsBothHistoriesAsTheGraphDoes() throws {
        let model = try SpecLoader.load(json: Self.pushAndReplace)
        let explorer = RuntimeExplorer(model: model)
        let walk = explorer.explore(SessionDriver(model: model), depth: 2)
        // start; choose; on it another choose (seen), done; choose (seen) in its place.
        #expect(walk.stacks == 5)
        #expect(walk.stacks == explorer.countStacks(depth: 2))
        #expect(walk.violations.isEmpty)
    }

    /// A runtime whose in-place update quits instead: found only if the walk drives the update.
    final class EditQuits: ForwardingDriver {
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            guard model.events[event.index] == "edit", let quit = model.events.firstIndex(of: "quit") else { return real.send(event, value: value) }
            return real.send(EventID(Int32(quit)), value: value)
        }
    }

    @Test func theWalkDrivesAnInPlaceUpdateThatASiblingPushShares() throws {
        let model = try SpecLoader.load(json: Self.pushAndReplace)
        let walk = RuntimeExplorer(model: model).explore(EditQuits(model: model), depth: 2)
        #expect(walk.violations.contains { $0.event == "edit" }, "\(walk.violations.map(\.message))")
    }
}
