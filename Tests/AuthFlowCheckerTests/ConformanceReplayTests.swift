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

/// `FlowConformance.problem(tour:chosen:variant:)`: a covering tour driven on the app, as the generated tests call it.
@Suite struct ConformanceTourTests {
    typealias V2 = Version2ConformanceTests

    /// Each tour's system answers, by step, as the generated tests pass them.
    static func chosen(_ path: CoveringPaths.Path) -> [Int: [String: String]] {
        var chosen: [Int: [String: String]] = [:]
        for (step, values) in path.chosen.enumerated() where !values.isEmpty {
            chosen[step] = Dictionary(values.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        return chosen
    }

    static func problems(_ mutant: V2.Mutant?) -> [String] {
        let conformance = FlowConformance(model: V2.model) { V2.Coordinator(mutant) }
        return CoveringPaths(model: V2.model, target: .transitions).paths.compactMap {
            conformance.problem(tour: $0.events, chosen: chosen($0), variant: 0)
        }
    }

    /// Every tour of an `authflow/2` flow passes on its coordinator, with the backend's chosen answers
    /// (sending the first value of each domain instead would take the tours through `mfa` elsewhere).
    @Test func everyTourOfASecondFormatFlowPassesOnItsCoordinator() {
        #expect(Self.problems(nil) == [])
    }

    @Test func aTokenKeptAfterSignOutFailsATour() throws {
        let problems = Self.problems(.keepsTokenAfterSignOut)
        let first = try #require(problems.first)
        #expect(first.contains("(signOut)"), "\(first)")
    }

    /// A stale tour says so rather than passing: an event the step does not emit, one the spec does not have, a variant it does not have.
    @Test func aTourTheSpecNoLongerTakesFails() {
        let conformance = FlowConformance(model: V2.model) { V2.Coordinator() }
        #expect(conformance.problem(tour: ["submitEmail", "submitEmail"])
                == "step 2 (submitEmail) is not a move of the spec from lookup: regenerate the tests from the spec")
        #expect(conformance.problem(tour: ["submitEmail", "nope"]) == "step 2 (nope): the spec has no such event: regenerate the tests from the spec")
        #expect(conformance.problem(tour: [], variant: 3) == "the flow has no variant 3 (it has 1): regenerate the tests from the spec")
    }
}
