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
        table.expand(start)
        let choose = table.moves[Int(table.entries[Int(start)].moveStart)].target
        table.expand(choose)
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

    /// `list` reloads itself in place (`reload`: the same configuration) and opens `detail`, which goes on to `more`.
    static let reloadInPlace = """
    {
      "format": "authflow/2",
      "initial": "start",
      "success": [],
      "abort": ["more"],
      "data": {},
      "steps": {
        "start": {"emits": {"go": []}},
        "list": {"emits": {"reload": [], "open": []}},
        "detail": {"emits": {"next": []}},
        "more": {"emits": {}}
      },
      "transitions": [
        {"from": "start", "on": "go", "to": "list"},
        {"from": "list", "on": "reload", "to": "list", "history": "replace"},
        {"from": "list", "on": "open", "to": "detail"},
        {"from": "detail", "on": "next", "to": "more"}
      ]
    }
    """

    @Test func anUpdateThatLeavesItsConfigurationAsItWasStays() throws {
        let model = try SpecLoader.load(json: Self.reloadInPlace)
        var table = FrameTable(model: model, depth: 3)
        let start = table.intern(Configuration(state: model.initial.rawValue, keys: model.roots[0].keys, values: model.roots[0].values))
        table.expand(start)
        let list = table.moves[Int(table.entries[Int(start)].moveStart)].target
        table.expand(list)
        let entry = table.entries[Int(list)]
        let moves = table.moves[Int(entry.moveStart)..<Int(entry.moveEnd)]
        #expect(moves.map { model.events[Int($0.event)] } == ["reload", "open"])
        #expect(moves.map(\.stays) == [true, false])
        // The walk does not take the reload: it drives it where it probes the configuration.
        #expect(moves.map(\.walked) == [false, true])
        #expect(entry.facts.contains(.stays))
    }

    /// The nodes the walk drives, the reload's own included (the explorer reports the histories instead).
    static func nodes(_ model: FlowModel, _ driver: some FlowDriver, depth: Int) -> (nodes: Int, violations: [Violation]) {
        var walk = Walk(model: model, driver: driver, traits: .runtime, depth: depth, deadline: nil, timeout: nil,
                        start: { driver.start(variant: $0) })
        walk.runAll()
        return (walk.stacks, walk.result().violations)
    }

    @Test func theWalkDrivesAReloadButWalksNothingAboveIt() throws {
        let model = try SpecLoader.load(json: Self.reloadInPlace)
        // start; list; its reload (driven, checked, undone where list is probed); detail; more. Above the reload the stacks
        // are list's again: walking them would drive list, detail and more twice more at depth 3.
        let walked = Self.nodes(model, SessionDriver(model: model), depth: 3)
        #expect(walked.nodes == 5)
        #expect(walked.violations.isEmpty)
        let explorer = RuntimeExplorer(model: model)
        #expect(explorer.explore(SessionDriver(model: model), depth: 3).stacks == 4)
        #expect(explorer.countStacks(depth: 3) == 4)
    }

    /// A runtime that quits instead of reloading: the reload is still driven, so it is found.
    final class ReloadQuits: ForwardingDriver {
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            guard model.events[event.index] == "reload", let open = model.events.firstIndex(of: "open") else { return real.send(event, value: value) }
            return real.send(EventID(Int32(open)), value: value)
        }
    }

    /// A runtime that refuses `open` only when its history holds the reload's frame too: a stack above the reload,
    /// which neither walk drives (a runtime must not tell the two histories apart).
    final class OpenRefusedAboveAReload: ForwardingDriver {
        override func send(_ event: EventID, value: (KeyID) -> FlowValue) -> Bool {
            if model.events[event.index] == "open" && real.height == 3 { return false }
            return real.send(event, value: value)
        }
    }

    @Test func aRuntimeThatGetsTheReloadWrongIsFoundAndTheParallelWalkAgrees() throws {
        let model = try SpecLoader.load(json: Self.reloadInPlace)
        let single = RuntimeExplorer(model: model).explore(ReloadQuits(model: model), depth: 3)
        #expect(single.violations.contains { $0.event == "reload" }, "\(single.violations.map(\.message))")
        let above = RuntimeExplorer(model: model).explore(OpenRefusedAboveAReload(model: model), depth: 3)
        for perWorker in [1, 200] {
            var explorer = ParallelExplorer(model: model, workers: 2)
            explorer.tasksPerWorker = perWorker
            let parallel = explorer.explore(depth: 3) { ReloadQuits(model: model) }
            #expect(parallel.violations == single.violations)
            #expect(parallel.stacks == single.stacks)
            #expect(explorer.explore(depth: 3).stacks == 4)
            // The tasks stop at the reload as the walk does: nothing above it is walked by either.
            let parallelAbove = explorer.explore(depth: 3) { OpenRefusedAboveAReload(model: model) }
            #expect(parallelAbove.violations == above.violations, "\(perWorker): \(parallelAbove.violations.map(\.message))")
        }
    }
}
