import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The reset stacks of a flow with variants are searched in pieces, one range of variants per thread, and must be
/// exactly those of one search in variant order: the same stack for every configuration with a reset, the same landings.
@Suite struct ResetStacksSplitTests {
    /// Every configuration's stack and every landing, as sorted lines.
    static func lines(_ stacks: ResetStacks) -> [String] {
        let paths = stacks.paths.map { "\($0.key) \($0.value.variant) \($0.value.path)" }
        let landings = stacks.landings.map { "landing \($0.key) \($0.value.variant) \($0.value.source) \($0.value.move)" }
        return (paths + landings).sorted()
    }

    /// Amplify's authenticator: 120 variants, sign-outs that start the flow again (Element X's has no reset).
    @Test func aSearchSplitByVariantsFindsWhatOneSearchFinds() throws {
        let name = "amplify-authenticator-v2", depth = 4
        let model = try SpecLoader.load(file: RealFlowsTests.path(name))
        #expect(model.variants.count > 10)
        let whole = Self.lines(ResetStacks(model: model, depth: depth))
        #expect(!whole.isEmpty)
        for workers in [2, 3, 7] {
            let split = Self.lines(ResetStacks(model: model, depth: depth, workers: workers))
            let differing = Set(split).symmetricDifference(whole)
            #expect(split.count == whole.count && differing.isEmpty,
                    "\(name), \(workers) workers: \(split.count) lines for \(whole.count), e.g. \(differing.sorted().prefix(3))")
        }
    }
}
