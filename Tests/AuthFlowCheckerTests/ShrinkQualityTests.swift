import AuthFlow
import AuthCheckTestSupport
@testable import AuthFlowChecker
import Testing

/// Shrinking reaches the shortest counterexample: on every broken variant and every injected
/// runtime fault, for 20 seeds each, the shrunk path is at most one step longer than the shortest
/// known for its site, and its median is the shortest.
@Suite struct ShrinkQualityTests {
    static let seeds: [UInt64] = Array(1...20)

    static func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }

    @Test(arguments: ModelCheckerTests.expectations)
    func everyBrokenVariantShrinksToTheShortestPath(_ expected: ExpectedSites) throws {
        let model = try Files.model(Files.broken(expected.fixture))
        var excess: [Int] = []
        for seed in Self.seeds {
            let report = FlowFuzzer(model: model).run(FuzzOptions(seed: seed))
            let failure = try #require(report.failure, "seed \(seed): no failure in \(report.runs) runs")
            let index = try #require(expected.sites.firstIndex(of: failure.site.description), "seed \(seed): found \(failure.site)")
            let shortest = expected.lengths[index]
            #expect(failure.shortestKnown == shortest, "seed \(seed): the checker's shortest for \(failure.site)")
            #expect(failure.shrunk.count <= shortest + 1,
                    "seed \(seed): \(failure.original.count) steps shrunk to \(failure.shrunk) (\(failure.shrunk.count)); shortest \(shortest)")
            excess.append(failure.shrunk.count - shortest)
        }
        #expect(Self.median(excess) == 0, "excess over the shortest per seed: \(excess)")
    }

    /// A runtime fault and the spec it is injected on; the walk knows each site's shortest path.
    struct Fault: CustomStringConvertible, Sendable {
        var name: String
        var spec: String
        var make: @Sendable (FlowModel) -> any FlowDriver
        var description: String { "\(name) on \(spec)" }
    }

    static let faults: [Fault] = [
        Fault(name: "undo forgets data", spec: "Fixtures/broken/mfa-bypass") { FaultInjectionTests.UndoForgetsData(model: $0) },
        Fault(name: "undo forgets data", spec: "Specs/email-first") { FaultInjectionTests.UndoForgetsData(model: $0) },
        Fault(name: "back ignores the policy", spec: "Specs/session-restore") { FlowFuzzerTests.BackIgnoresPolicy(model: $0) },
        Fault(name: "values corrupted", spec: "Specs/signup-details-last") { FaultInjectionTests.CorruptsValues(model: $0) },
        Fault(name: "secrets corrupted", spec: "Specs/email-first") { FaultInjectionTests.CorruptsSecrets(model: $0) },
    ]

    @Test(arguments: faults)
    func runtimeFaultsShrinkToTheShortestPathTheWalkKnows(_ fault: Fault) throws {
        let path = fault.spec.hasPrefix("Specs/")
            ? Files.root.appendingPathComponent(fault.spec + ".json").path
            : Files.broken(String(fault.spec.dropFirst("Fixtures/broken/".count)))
        let model = try Files.model(path)
        var excess: [Int] = []
        for seed in Self.seeds {
            let report = FlowFuzzer(model: model) { fault.make(model) }
                .run(FuzzOptions(seed: seed, properties: [.undoMismatch, .divergence]))
            let failure = try #require(report.failure, "seed \(seed): no failure in \(report.runs) runs")
            let shortest = try #require(failure.shortestKnown, "seed \(seed): the walk does not know \(failure.site)")
            #expect(failure.shrunk.count <= shortest + 1,
                    "seed \(seed): \(failure.site) shrunk to \(failure.shrunk) (\(failure.shrunk.count)); shortest \(shortest)")
            excess.append(failure.shrunk.count - shortest)
        }
        #expect(Self.median(excess) == 0, "excess over the shortest per seed: \(excess)")
    }
}
