import AuthFlow
@testable import AuthFlowChecker
import Testing

/// `FlowConformance.replay` is cheap to call often: the flow's analysis and the app's driver are made once and reused.
@Suite struct ConformanceReplayTests {
    typealias Coordinator = ConformanceTests.Coordinator

    /// Counts the drivers (each with its own fuzzer before the fix) that replays make.
    final class Counter: @unchecked Sendable { var drivers = 0 }

    static func conformance(_ counter: Counter, forgetsData: Bool = false) -> FlowConformance<Coordinator> {
        var conformance = FlowConformance(model: ConformanceTests.model) { Coordinator(forgetsData: forgetsData) }
        let drivers = conformance.checks.drivers
        conformance.checks = AppConformance(model: ConformanceTests.model, drivers: AppDrivers { tables, uses in
            counter.drivers += 1
            return drivers.make(tables, uses)
        })
        return conformance
    }

    @Test func replaysReuseOneDriver() {
        let counter = Counter()
        let conformance = Self.conformance(counter)
        let path: [FuzzAction] = [.event("go", values: nil), .event("submit", values: nil), .back, .event("cancel", values: nil)]
        for _ in 0..<5 { #expect(conformance.replay(path) == nil) }
        #expect(counter.drivers == 1)
    }

    /// Reused, the driver still starts every replay from a fresh app: a finding replays the same each time, and a clean path stays clean after it.
    @Test func aReusedDriverStartsEachReplayAfresh() {
        let counter = Counter()
        let buggy = Self.conformance(counter, forgetsData: true)
        let failing: [FuzzAction] = [.event("go", values: nil), .event("submit", values: nil), .back]
        let first = buggy.replay(failing)
        #expect(first != nil)
        #expect(buggy.replay([.event("go", values: nil)]) == nil)
        #expect(buggy.replay(failing)?.site == first?.site)
        #expect(counter.drivers == 1)
    }

    /// Turning the app's capabilities off makes a driver of the other kind.
    @Test func changingCapabilitiesMakesANewDriver() {
        let counter = Counter()
        var conformance = Self.conformance(counter)
        #expect(conformance.replay([.event("go", values: nil)]) == nil)
        conformance.usesCapabilities = false
        #expect(conformance.replay([.event("go", values: nil)]) == nil)
        #expect(counter.drivers == 2)
    }
}
