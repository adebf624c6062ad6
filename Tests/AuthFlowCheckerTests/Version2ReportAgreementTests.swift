import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The same finding reads the same from every reporter: where the complete checker, the lockstep walk
/// and the random-path tester report one site along one path of an `authflow/2` flow, they give it the
/// same message, the same variant and the same steps.
///
/// One rule for a step's data: the keys present and the counters, in declaration order, each valued key
/// and counter with its value; config keys never (the violation names its variant). A runtime path also
/// gives a presence key the value it sent, which the model does not know, so the comparison leaves those out.
@Suite struct Version2ReportAgreementTests {
    static let specs = Version2AgreementTests.specs

    /// `step` with the values only the model knows: those of the valued keys and counters.
    static func modelValues(_ step: PathStep, _ model: FlowModel) -> PathStep {
        var step = step
        step.values = step.values?.filter { key, _ in
            guard let k = model.keys.firstIndex(of: key) else { return true }
            if case .presence = model.layout.kinds[k] { return false }
            return true
        }
        return step
    }

    /// The config keys of `model` a runtime path step names, which it must not: the variant is the violation's own.
    static func configShown(_ violation: Violation, _ model: FlowModel) -> [String] {
        let config = Set(model.keys.indices.filter { model.layout.isConfig[$0] }.map { model.keys[$0] })
        return violation.path.flatMap { step in step.data.filter(config.contains) + (step.values ?? [:]).keys.filter(config.contains) }
    }

    /// Expects `found` (a runtime reporter's) to read as `checked` (the checker's) where both took the same steps.
    /// - Returns: whether the two took the same steps, so were compared.
    static func expectSameReport(_ found: Violation, _ checked: Violation, _ model: FlowModel, _ label: String) -> Bool {
        guard found.path.map(\.event) == checked.path.map(\.event), found.path.map(\.state) == checked.path.map(\.state),
              found.variant == checked.variant else { return false }
        #expect(found.message == checked.message, "\(label)")
        #expect(found.path.map { modelValues($0, model) } == checked.path.map { modelValues($0, model) }, "\(label)")
        return true
    }

    @Test func theRandomTesterWordsAnUnmetRequirementAsTheCheckerDoes() throws {
        // Given the passkey fixture, whose `passkeys=on` variant reaches home without a session
        let path = Files.version2("broken/passkey-variant")
        let model = try SpecLoader.load(file: path)
        // When the checker and the random-path tester report it
        let checked = try #require(FlowChecker.check(model, source: path).violations.first { $0.property == .unmetRequirement })
        let fuzzed = try #require(FlowFuzzer(model: model).run(FuzzOptions(runs: 100, seed: 1)).failure?.violation)
        // Then both show the config key with its value, and the variant on its own
        #expect(checked.message == "home requires session, but the data is {passkeys=on}")
        #expect(fuzzed.message == checked.message)
        #expect(fuzzed.variant == checked.variant)
        #expect(fuzzed.path == checked.path)
    }

    @Test func theWalkWordsARuleAsTheCheckerDoesWithTheVariantOnItsOwn() throws {
        let path = Files.version2("promela-rules")
        let model = try SpecLoader.load(file: path)
        let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 8)
        let rules = walk.violations.filter { $0.property.rule != nil }
        try #require(!rules.isEmpty)
        for violation in rules {
            #expect(!violation.message.contains("(variant"), "\(violation.message)")
            #expect(violation.variant?.isEmpty == false, "\(violation.message)")
        }
    }

    /// Every `/2` spec's walk of the real runtime: each rule it breaks reads as the checker's, on the checker's path.
    @Test func theWalkReportsTheCheckersRulesInTheCheckersWords() throws {
        var compared = 0
        for path in Self.specs {
            let model = try SpecLoader.load(file: path)
            let rules = Property.userProperties(of: model).filter { $0.rule?.kind != .reachable }
            let checked = FlowChecker.check(model, source: path, options: CheckOptions(properties: Set(rules))).violations
            let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 8)
            for found in walk.violations {
                let label = "\(Version2AgreementTests.name(path)): \(found.site)"
                #expect(Self.configShown(found, model).isEmpty, "\(label)")
                #expect(!found.message.contains("(variant"), "\(label): \(found.message)")
                if let same = checked.first(where: { $0.site == found.site }), Self.expectSameReport(found, same, model, label) { compared += 1 }
            }
        }
        // Not vacuous: every rule the walk breaks in these specs, it breaks along the checker's own path.
        #expect(compared >= 5, "\(compared) findings compared")
    }

    /// Every `/2` spec's random-path tester, one violated property at a time: each finding reads as the checker's.
    @Test func theRandomTesterReportsTheCheckersSitesInTheCheckersWords() throws {
        var compared = 0
        for path in Self.specs {
            let model = try SpecLoader.load(file: path)
            let properties = Property.specProperties + Property.userProperties(of: model).filter { $0.rule?.kind != .reachable }
            let checked = FlowChecker.check(model, source: path, options: CheckOptions(properties: Set(properties))).violations
            for property in Set(checked.map(\.property)).sorted() {
                let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 300, seed: 1, properties: [property]))
                guard let found = report.failure?.violation else { continue }
                let label = "\(Version2AgreementTests.name(path)): \(found.site)"
                #expect(Self.configShown(found, model).isEmpty, "\(label)")
                #expect(!found.message.contains("(variant"), "\(label): \(found.message)")
                if let same = checked.first(where: { $0.site == found.site }), Self.expectSameReport(found, same, model, label) { compared += 1 }
            }
        }
        // Not vacuous: most findings are drawn in the checker's variant, along its path (16 with seed 1).
        #expect(compared >= 12, "\(compared) findings compared")
    }
}
