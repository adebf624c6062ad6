import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Every `authflow/2` spec in the repository, through every way authcheck reads a flow: the complete
/// checker's sites are what the lockstep walk and the random-path tester find on the real runtime.
///
/// The walk drives every stack of every variant through ``FlowSession`` in lockstep with the model:
/// on the real runtime it finds no divergence and no undo mismatch, breaks exactly the spec's own rules
/// the checker finds within its depth, and drives exactly the stacks the configuration graph counts. The random-path tester, asked for one property at a time, finds only
/// sites the checker reports, each shrunk to the checker's shortest length, and finds every property
/// the checker reports violated, the spec's own always and never rules included. (SPIN's side is
/// `PromelaVerdictTests`.)
@Suite struct Version2AgreementTests {
    /// Every `/2` spec of `Specs/` and the `/2` fixtures, by path relative to the package.
    static let specs: [String] = {
        let all = Files.specs + Files.version2
        return all.filter { path in (try? SpecLoader.load(file: path)).map { $0.spec.format == 2 } ?? false }
    }()

    static func name(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    /// Each site, as the tests compare it, with its shortest length.
    static func shortest(_ violations: [Violation]) -> [String: Int] {
        Dictionary(violations.map { ($0.site.description, $0.length) }, uniquingKeysWith: min)
    }

    static func shortest(_ report: CheckReport) -> [String: Int] { shortest(report.violations) }

    @Test func thereAreVersion2SpecsToCompare() {
        #expect(Self.specs.count >= 15, "\(Self.specs.map(Self.name))")
        #expect(Self.specs.contains { $0.hasSuffix("Specs/sign-in-next-step.json") })
    }

    @Test(arguments: specs)
    func theWalkOfTheRealRuntimeAgreesWithTheGraph(_ path: String) throws {
        let model = try SpecLoader.load(file: path)
        let explorer = RuntimeExplorer(model: model)
        // The spec's own rules break on the model's frames, which the real runtime holds too: the walk
        // finds each one the checker finds within its depth, at the checker's shortest length.
        let rules = Property.userProperties(of: model).filter { $0.rule?.kind != .reachable }
        let checked = Self.shortest(FlowChecker.check(model, source: path, options: CheckOptions(properties: Set(rules))))
        for depth in [0, 3, 8] {
            let walk = explorer.explore(SessionDriver(model: model), depth: depth)
            let found = Self.shortest(walk.violations)
            #expect(found == checked.filter { $0.value <= depth }, "\(Self.name(path)) depth \(depth): \(walk.violations.map(\.message))")
            #expect(walk.stacks == explorer.countStacks(depth: depth), "\(Self.name(path)) depth \(depth)")
        }
    }

    @Test(arguments: specs)
    func theRandomTesterFindsTheCheckersSitesAtTheirShortestLengths(_ path: String) throws {
        let model = try SpecLoader.load(file: path)
        // The built-in properties the graph decides, and the spec's own rules a single path can break.
        let properties = Property.specProperties + Property.userProperties(of: model).filter { $0.rule?.kind != .reachable }
        let checked = FlowChecker.check(model, source: path, options: CheckOptions(properties: Set(properties)))
        let shortest = Self.shortest(checked)
        for property in properties {
            let sites = shortest.filter { $0.key == property.id || $0.key.hasPrefix(property.id + "@") }
            var found = Set<String>()
            // A violated property is found in a few runs; one that holds is tried for a budget's worth of steps.
            for seed in UInt64(1)...(sites.isEmpty ? 1 : 3) {
                let report = FlowFuzzer(model: model).run(FuzzOptions(runs: sites.isEmpty ? 150 : 300, seed: seed, properties: [property]))
                guard let failure = report.failure else { continue }
                let site = failure.site.description
                found.insert(site)
                #expect(sites[site] != nil, "\(Self.name(path)): the tester found \(site), which the checker does not report")
                #expect(failure.shrunk.count == sites[site], "\(Self.name(path)) seed \(seed): \(site) shrunk to \(failure.shrunk.count)")
            }
            #expect(found.isEmpty == sites.isEmpty, "\(Self.name(path)): \(property.id) checker \(sites.keys.sorted()), tester \(found.sorted())")
        }
    }
}
