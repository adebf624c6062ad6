import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The conformance checks on a coordinator as small as the one in the issue: findings are about what it does, never about an adapter's bookkeeping.
@Suite struct ConformanceTests {
    static let spec = """
    { "format": "authflow/1", "initial": "start", "success": ["done"], "abort": ["cancelled"], "secrets": ["token"],
      "steps": { "start": { "back": false, "emits": { "go": [] } },
                 "email": { "emits": { "submit": ["email"], "retry": ["email"], "cancel": [] } },
                 "code": { "requires": ["email"], "emits": { "verify": ["token"], "cancel": [] } },
                 "done": { "requires": ["token"] }, "cancelled": {} },
      "transitions": [ { "from": "start", "on": "go", "to": "email" },
                       { "from": "email", "on": "submit", "to": "code" }, { "from": "email", "on": "retry", "to": "email" },
                       { "from": "email", "on": "cancel", "to": "cancelled" },
                       { "from": "code", "on": "verify", "to": "done" }, { "from": "code", "on": "cancel", "to": "cancelled" } ] }
    """
    static let model = try! SpecLoader.load(json: spec)

    /// The issue's coordinator: a current state, a data dictionary, a history; `forgetsData` is its bug.
    final class Coordinator: FlowUnderTest {
        static let table: [String: [String: String]] = [
            "start": ["go": "email"], "email": ["submit": "code", "retry": "email", "cancel": "cancelled"],
            "code": ["verify": "done", "cancel": "cancelled"],
        ]
        let forgetsData: Bool
        var state = "start"
        var data: [String: String] = [:]
        var history: [(state: String, data: [String: String])] = []
        init(forgetsData: Bool = false) { self.forgetsData = forgetsData }

        func send(_ event: String, data: [String: String]) -> Bool {
            guard let next = Self.table[state]?[event] else { return false }
            history.append((state, self.data))
            state = next
            self.data.merge(data) { _, new in new }
            return true
        }

        func back() -> Bool {
            guard state != "start", state != "done", state != "cancelled", let last = history.popLast() else { return false }
            state = last.state
            if !forgetsData { data = last.data }
            return true
        }
    }

    /// The same coordinator with snapshots, for the walk's backtrack without replays.
    final class Restorable: FlowUnderTest, RestorableFlowUnderTest {
        let inner = Coordinator()
        var state: String { inner.state }
        var data: [String: String] { inner.data }
        func send(_ event: String, data: [String: String]) -> Bool { inner.send(event, data: data) }
        func back() -> Bool { inner.back() }
        func snapshot() -> (String, [String: String], [(state: String, data: [String: String])]) { (inner.state, inner.data, inner.history) }
        func restore(_ snapshot: (String, [String: String], [(state: String, data: [String: String])])) {
            (inner.state, inner.data, inner.history) = snapshot
        }
    }

    @Test func aCorrectCoordinatorConformsByReplayAndBySnapshots() {
        let replaying = FlowConformance(model: Self.model) { Coordinator() }.explore(depth: 8)
        let restoring = FlowConformance(model: Self.model) { Restorable() }.explore(depth: 8)
        #expect(replaying.violations == [] && restoring.violations == [])
        #expect(replaying.stacks == RuntimeExplorer(model: Self.model).countStacks(depth: 8))
        #expect(restoring.stacks == replaying.stacks)
        #expect(FlowConformance(model: Self.model) { Coordinator() }.fuzz(FuzzOptions(runs: 200)).failure == nil)
    }

    /// The issue's bug is reported as what the coordinator got wrong: the data after back, not a history height or a back answer.
    @Test func aBackThatForgetsDataIsReportedAsData() throws {
        let walk = FlowConformance(model: Self.model) { Coordinator(forgetsData: true) }.explore(depth: 6)
        let first = try #require(walk.violations.first)
        #expect(first.site.description == "undo-mismatch@code.submit")
        #expect(first.message == "after back from code (entered by submit), the implementation holds 1 data keys, expected 0 {}; "
                + "email is #2, expected absent", "\(first.message)")
        let text = CounterexampleRenderer.render(first, number: 1, replay: nil, subject: "the implementation")
        #expect(!text.contains("history") && !text.contains("back is possible"), "\(text)")
        #expect(text.contains("(− expected by the spec, + actual in the implementation)"), "\(text)")
        #expect(walk.violations.allSatisfy { $0.mismatch?.differences.allSatisfy { if case .height = $0 { false } else { true } } ?? true })
    }

    /// An event the step does not emit is sent too, and must be refused.
    @Test func anEventTheStepDoesNotEmitMustBeRefused() throws {
        final class AcceptsVerifyAnywhere: FlowUnderTest {
            let inner = Coordinator()
            var state: String { inner.state }
            var data: [String: String] { inner.data }
            func send(_ event: String, data: [String: String]) -> Bool {
                if event == "verify" && inner.state == "email" { return inner.send("submit", data: data) }
                return inner.send(event, data: data)
            }
            func back() -> Bool { inner.back() }
        }
        let walk = FlowConformance(model: Self.model) { AcceptsVerifyAnywhere() }.explore(depth: 4)
        #expect(walk.violations.map(\.site.description) == ["divergence@email.verify"])
        #expect(walk.violations.first?.message == "the implementation accepted verify in email, which has no transition")
    }

    /// A refused event may change what a coordinator keeps hidden (here: back is blocked while an
    /// error has shown). The walk replays after its probes, so every path it prints replays as shown;
    /// the random paths, which send events and back in any order, find the bug.
    @Test func hiddenChangesNeverMakeACounterexampleThatDoesNotReplay() throws {
        final class BlocksBackOnceAnErrorShowed: UndoableFlowUnderTest {
            let inner = Coordinator()
            var errors = 0
            var state: String { inner.state }
            var data: [String: String] { inner.data }
            func send(_ event: String, data: [String: String]) -> Bool {
                if inner.send(event, data: data) { return true }
                errors += 1
                return false
            }
            func back() -> Bool { errors == 0 && inner.back() }
            func undo() -> Bool {
                guard let last = inner.history.popLast() else { return false }
                (inner.state, inner.data) = last
                return true
            }
        }
        let conformance = FlowConformance(model: Self.model) { BlocksBackOnceAnErrorShowed() }
        for violation in conformance.explore(depth: 6).violations where !violation.path.contains(where: { $0.event == "undo" }) {
            let path = violation.path.dropFirst().compactMap(\.step)
            #expect(conformance.replay(path)?.site == violation.site, "\(path.map(\.name)) does not replay \(violation.site)")
        }
        let failure = try #require(conformance.fuzz(FuzzOptions(runs: 200)).failure)
        #expect(failure.violation.message.contains("was refused by the implementation, which the spec allows"), "\(failure.violation.message)")
        // An error, then into the code screen and back: nothing shorter reaches back from code after an error.
        #expect(failure.shrunk.count == 4, "\(failure.shrunk.map(\.name))")
    }

    /// The gate resolves a relative spec path as `assertHolds` does, and an unknown file is an invalid report.
    @Test func theGateNamesTheFilesItTried() {
        let failure = #expect(throws: ConformanceFailure.self) {
            try FlowGate.assertConforms(spec: "Specs/no-such-spec.json") { Coordinator() }
        }
        #expect(failure?.report.verdict == .invalid)
        #expect(failure?.description.contains("no such file; tried") ?? false)
    }

    /// A spec whose moves depend on its data is checked, not refused: this coordinator has none of its events, so it diverges.
    @Test func theGateChecksACoordinatorAgainstADataDependentFlow() {
        let failure = #expect(throws: ConformanceFailure.self) {
            try FlowGate.assertConforms(spec: "Specs/sign-in-next-step.json", depth: 3, runs: 10) { Coordinator() }
        }
        #expect(failure?.report.verdict == .violated, "\(failure?.description ?? "")")
        #expect(!(failure?.description.contains("not supported yet") ?? true))
    }

    /// A trail written from the walk's counterexample replays on the app's own coordinator: reproduced while the bug is there, fixed once it is gone.
    @Test func aTrailReplaysOnTheAppsOwnCoordinator() throws {
        let buggy = FlowConformance(model: Self.model) { Coordinator(forgetsData: true) }
        let violation = try #require(buggy.explore(depth: 6).violations.first)
        let entry = FlowTrail.entry(for: violation, model: Self.model, driver: buggy.driver(), traits: .app)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trail-\(UUID().uuidString).json").path
        try Data((FuzzRegressions.line(for: entry, model: Self.model) + "\n").utf8).write(to: URL(fileURLWithPath: path))

        let again = try buggy.replay(trail: path)
        #expect(again.reproduced && !again.fixed)
        #expect(again.violation?.site == violation.site)
        let fixed = try FlowConformance(model: Self.model) { Coordinator() }.replay(trail: path)
        #expect(fixed.fixed && !fixed.reproduced)
        #expect(fixed.steps.count == entry.actions.count + 1)
        // A trail recorded against another version of the table is replayed, as replay and fuzz --regressions replay it:
        // seeing a fix hold is what it is for (this change leaves the trail's steps alone).
        let changed = try SpecLoader.load(json: Self.spec.replacingOccurrences(of: "\"to\": \"cancelled\" } ] }", with: "\"to\": \"done\" } ] }"))
        #expect(changed.tableHash != Self.model.tableHash)
        #expect(try FlowConformance(model: changed) { Coordinator() }.replay(trail: path).fixed)
        // A trail naming an event the flow does not have is refused, with the file named.
        let other = try SpecLoader.load(json: Self.spec.replacingOccurrences(of: "submit", with: "send"))
        #expect(throws: TrailRefusal.self) { try FlowConformance(model: other) { Coordinator() }.replay(trail: path) }
    }
}
