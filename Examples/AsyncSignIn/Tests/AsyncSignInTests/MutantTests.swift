import AuthFlow
import AuthFlowChecker
import Foundation
import Testing
#if canImport(AsyncSignInExample)
import AsyncSignInExample   // the example built inside authcheck's own package
#else
import AsyncSignIn
#endif

/// Every realistic bug in ``Mutant`` must be caught: by the exhaustive walk always, by the random paths nearly always,
/// each shrunk to about the shortest; the correct view model passes both.
@Suite struct MutantTests {
    static let specPath: String = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Specs/email-first-v2.json").path),
              directory.pathComponents.count > 1 {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("Specs/email-first-v2.json").path
    }()

    static let model: FlowModel? = try? SpecLoader.load(file: specPath)

    static func conformance(_ mutant: Mutant?) throws -> AsyncFlowConformance<SignInModel> {
        let model = try #require(Self.model, "no spec at \(specPath)")
        return AsyncFlowConformance(model: model) { await SignInModel(backend: PlayedAuthBackend(), mutant: mutant) }
    }

    @Test(arguments: Mutant.allCases)
    func theWalkKills(_ mutant: Mutant) async throws {
        let walk = try await Self.conformance(mutant).explore(depth: FlowGate.ConformanceDefaults.depth)
        #expect(!walk.violations.isEmpty, "the walk missed \(mutant)")
    }

    @Test func theWalkPassesTheCorrectModel() async throws {
        let walk = try await Self.conformance(nil).explore(depth: FlowGate.ConformanceDefaults.depth)
        #expect(walk.violations.isEmpty, "\(walk.violations.map(\.message))")
        #expect(walk.stoppedBy == nil)
    }

    /// With its default budget, the random-path tester kills at least 90% of the mutants, each counterexample shrunk to
    /// at most one step more than the shortest for its site: the walk's, or the shortest the random paths know.
    @Test func theRandomPathsKillNearlyAll() async throws {
        var killed: [Mutant] = []
        for mutant in Mutant.allCases {
            let conformance = try Self.conformance(mutant)
            guard let failure = await conformance.fuzz().failure else { continue }
            killed.append(mutant)
            let walk = await conformance.explore(depth: max(FlowGate.ConformanceDefaults.depth, failure.shrunk.count))
            let known = try #require(failure.shortestKnown, "\(mutant): no shortest known for \(failure.site)")
            let shortest = min(walk.violations.first { $0.site == failure.site }?.length ?? known, known)
            #expect(failure.shrunk.count <= shortest + 1,
                    "\(mutant): shrunk to \(failure.shrunk.count) steps (\(failure.shrunk.map(\.name))), the shortest for \(failure.site) is \(shortest)")
        }
        #expect(killed.count * 10 >= Mutant.allCases.count * 9,
                "the random paths killed \(killed.count) of \(Mutant.allCases.count); missed \(Mutant.allCases.filter { !killed.contains($0) })")
    }

    @Test func theRandomPathsPassTheCorrectModel() async throws {
        let failure = try await Self.conformance(nil).fuzz().failure
        #expect(failure == nil, "\(failure.map { "\($0.site): \($0.shrunk.map(\.name))" } ?? "")")
    }
}
