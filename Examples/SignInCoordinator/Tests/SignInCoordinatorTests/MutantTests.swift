import AuthFlow
import AuthFlowChecker
import Foundation
import Testing
#if canImport(SignInCoordinatorExample)
import SignInCoordinatorExample   // the example built inside authcheck's own package
#else
import SignInCoordinator
#endif

/// Every realistic bug in ``Mutant`` must be caught: by the exhaustive walk always, by the random paths nearly always, each shrunk to about the shortest.
@Suite struct MutantTests {
    static let model: FlowModel = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Specs/email-first.json").path) {
            directory.deleteLastPathComponent()
        }
        return try! SpecLoader.load(file: directory.appendingPathComponent("Specs/email-first.json").path)
    }()

    static func conformance(_ mutant: Mutant?) -> FlowConformance<SignInCoordinator> {
        FlowConformance(model: model) { SignInCoordinator(mutant: mutant) }
    }

    @Test(arguments: Mutant.allCases)
    func theWalkKills(_ mutant: Mutant) {
        let walk = Self.conformance(mutant).explore(depth: 8)
        #expect(!walk.violations.isEmpty, "the walk missed \(mutant)")
    }

    /// Every counterexample the walk prints replays: the path as shown fails at the same site (the
    /// walk's own backtrack, `undo`, is not something a person can replay, so those are left out).
    @Test(arguments: Mutant.allCases)
    func theWalksCounterexamplesReplay(_ mutant: Mutant) {
        let conformance = Self.conformance(mutant)
        for violation in conformance.explore(depth: 6).violations where !violation.path.contains(where: { $0.event == "undo" }) {
            let path = violation.path.dropFirst().compactMap(\.step)
            #expect(conformance.replay(path)?.site == violation.site, "\(mutant): \(path.map(\.name)) does not replay \(violation.site)")
        }
    }

    @Test func theWalkPassesTheCorrectCoordinator() {
        #expect(Self.conformance(nil).explore(depth: 8).violations == [])
    }

    /// With its default budget, the random-path tester kills at least 90% of the mutants, each
    /// counterexample shrunk to at most one step more than the shortest for its site: the walk's,
    /// or, where an earlier violation hides the site from the walk on every short path, the
    /// shortest a replay of every shorter path finds.
    @Test func theRandomPathsKillNearlyAll() {
        var killed = 0
        for mutant in Mutant.allCases {
            let conformance = Self.conformance(mutant)
            guard let failure = conformance.fuzz().failure else { continue }
            killed += 1
            let walk = conformance.explore(depth: max(8, failure.shrunk.count))
            let shortest = walk.violations.first { $0.site == failure.site }?.length
                ?? Self.shortestByReplay(failure.site, below: failure.shrunk.count - 1, conformance)
            #expect(failure.shrunk.count <= shortest + 1,
                    "\(mutant): shrunk to \(failure.shrunk.count) steps, the shortest for \(failure.site) is \(shortest)")
        }
        #expect(killed * 10 >= Mutant.allCases.count * 9, "the random paths killed \(killed) of \(Mutant.allCases.count)")
    }

    /// The length of the shortest path (events and back) whose first violation is at `site`, or
    /// `limit` when no path shorter than `limit` has it.
    static func shortestByReplay(_ site: Site, below limit: Int, _ conformance: FlowConformance<SignInCoordinator>) -> Int {
        let actions = [FuzzAction.back] + model.events.map { FuzzAction.event($0, values: nil) }
        var paths: [[FuzzAction]] = [[]]
        for length in 1..<max(1, limit) {
            var next: [[FuzzAction]] = []
            for path in paths {
                for action in actions {
                    let candidate = path + [action]
                    guard let found = conformance.replay(candidate) else { next.append(candidate); continue }
                    // A path that fails is not extended: its replays stop at that failure.
                    if found.site == site { return length }
                }
            }
            paths = next
        }
        return limit
    }

    @Test func theRandomPathsPassTheCorrectCoordinator() {
        #expect(Self.conformance(nil).fuzz().failure == nil)
    }
}
