import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Trails: every violation written as a trail replays to its own site; tampered trails are refused or stop off the trail.
@Suite struct FlowTrailTests {
    /// The trail of `violation`, written and read back through the regressions file's reader.
    static func roundTrip(_ violation: Violation, model: FlowModel) throws -> FuzzRegressions.Entry {
        let entry = FlowTrail.entry(for: violation, model: model, driver: SessionDriver(model: model))
        let entries = try FuzzRegressions.read(try FuzzRegressionsTests.write([FuzzRegressions.line(for: entry, model: model)]))
        return try #require(entries.first)
    }

    @Test(arguments: Files.brokenNames)
    func everyViolationsTrailReplaysToItsSite(_ name: String) throws {
        let model = try Files.model(Files.broken(name))
        let report = FlowChecker.check(model, source: name)
        #expect(!report.violations.isEmpty, "\(name) has no violation")
        for violation in report.violations {
            let entry = try Self.roundTrip(violation, model: model)
            #expect(entry.site == violation.site.description && entry.actions.count == violation.length)
            #expect(FlowTrail.refusal(entry, model: model) == nil)
            let replay = FlowTrail.replay(entry, model: model, driver: SessionDriver(model: model))
            #expect(replay.ending == .reproduced(step: violation.length), "\(name): \(violation.site) ended \(replay.ending)")
            #expect(replay.violation?.site == violation.site)
        }
    }

    @Test func aTamperedTrailIsRefusedOrLeavesTheTrailWithItsReason() throws {
        let model = try Files.model(Files.broken("several-sites"))
        let violation = try #require(FlowChecker.check(model, source: "several-sites").violations.first { $0.length >= 3 })
        let entry = try Self.roundTrip(violation, model: model)
        // Another spec: refused by name.
        let other = try Files.model(Files.specs[0])
        #expect(FlowTrail.refusal(entry, model: other)?.contains("recorded for the flow 'three problems at once'") == true)
        // Another table: replayed with a note, as fuzz --regressions replays it (a trail is replayed to see a fix).
        var table = entry
        table.table = "0000000000000000"
        #expect(FlowTrail.refusal(table, model: model) == nil)
        #expect(FlowTrail.tableNote(table, model: model) == "replayed, though recorded against another version of the table (0000000000000000, now \(model.tableHash))")
        #expect(FlowTrail.tableNote(entry, model: model) == nil)
        // An unknown event: refused, naming the step.
        var unknown = entry
        unknown.actions[1] = .event("noSuchEvent", values: nil)
        #expect(FlowTrail.refusal(unknown, model: model) == "step 2 is the event 'noSuchEvent', which the flow does not have")
        // A reordered step: replayed until the flow leaves the trail, which it says where.
        var reordered = entry
        reordered.actions.swapAt(1, 2)
        #expect(FlowTrail.refusal(reordered, model: model) == nil)
        guard case let .leftTrail(step, _) = FlowTrail.replay(reordered, model: model, driver: SessionDriver(model: model)).ending else {
            Issue.record("a reordered trail was followed")
            return
        }
        #expect(step == 2)
        // A recorded frame that differs: off the trail at that step.
        var moved = entry
        moved.after?[0].state = "elsewhere"
        #expect(FlowTrail.replay(moved, model: model, driver: SessionDriver(model: model)).ending
            == .leftTrail(step: 1, reason: "the trail recorded elsewhere {}, the flow is in email {}"))
    }
}
