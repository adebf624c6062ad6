import AuthFlow
@testable import AuthFlowChecker
import PropertyTesting
import Testing

@Suite struct PasscodePropertyTests {
    /// The seed article's filter: strip whitespace, cut to length, then uppercase.
    static func naive(_ input: String, policy: PasscodePolicy) -> String {
        let stripped = input.trimmingCharacters(in: .whitespacesAndNewlines)
        return String(stripped.prefix(policy.maxLength)).uppercased()
    }

    @Test(arguments: [PasscodePolicy.default, PasscodePolicy(maxLength: 8, alphabet: "0123456789"),
                      PasscodePolicy(maxLength: 4, alphabet: "abcXYZ\u{301}ß")])
    func ourNormaliserIsIdempotentAndWithinPolicy(_ policy: PasscodePolicy) {
        let normaliser = PasscodeNormaliser(policy: policy)
        let report = forAll(Gen.userInput, cases: 3_000, seed: 99) { PasscodeCheck.problem(normaliser, $0) == nil }
        #expect(report.isPassed, "\(report)")
        #expect(PasscodeCheck.run(policy: policy, generatedCases: 500).isEmpty)
    }

    @Test func theNaiveNormaliserIsCaughtAndShrunkToAShortString() throws {
        let policy = PasscodePolicy.default
        let report = forAll(Gen.userInput, cases: 1_000, seed: 5) { input in
            PasscodeCheck.problem({ Self.naive($0, policy: policy) }, policy: policy, input) == nil
        }
        let failure = try #require(report.failure, "the naive normaliser passed")
        #expect(failure.shrunk.unicodeScalars.count <= 2, "shrunk to \(PasscodeCheck.scalars(failure.shrunk))")
        #expect(PasscodeCheck.problem({ Self.naive($0, policy: policy) }, policy: policy, failure.shrunk) != nil)
        // The same seed finds and shrinks to the same value.
        let again = forAll(Gen.userInput, cases: 1_000, seed: 5) { input in
            PasscodeCheck.problem({ Self.naive($0, policy: policy) }, policy: policy, input) == nil
        }
        #expect(again.failure?.shrunk.unicodeScalars.elementsEqual(failure.shrunk.unicodeScalars) == true)
    }

    @Test func naiveIdempotenceBreaksOnCaseMappingThatExpands() {
        // "ß" uppercases to "SS": once cut, the second pass sees a different string.
        let policy = PasscodePolicy(maxLength: 3, alphabet: "S")
        let problem = PasscodeCheck.problem({ Self.naive($0, policy: policy) }, policy: policy, "ßß")
        #expect(problem?.hasPrefix("not idempotent") == true)
    }
}

import Foundation
