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
        // An alphabet the normaliser cannot output fails the property on its own characters (see below).
        #expect(PasscodeCheck.run(policy: policy, generatedCases: 500).isEmpty == normaliser.unreachableAlphabet.isEmpty)
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

    /// Policies whose alphabets break faithfulness in different ways: digits only (surrounding text),
    /// letters beyond ASCII (lowercase forms), unreachable characters, emoji, an empty length.
    static let policies: [PasscodePolicy] = [
        .default,
        PasscodePolicy(maxLength: 6, alphabet: "0123456789"),
        PasscodePolicy(maxLength: 4, alphabet: "ΑΒΓΣ"),
        PasscodePolicy(maxLength: 4, alphabet: "Sẞ"),
        PasscodePolicy(maxLength: 4, alphabet: "Iİ"),
        PasscodePolicy(maxLength: 4, alphabet: "가각"),
        PasscodePolicy(maxLength: 4, alphabet: "\u{00C9}E"),
        PasscodePolicy(maxLength: 4, alphabet: "😀🏻12"),
        PasscodePolicy(maxLength: 64, alphabet: PasscodePolicy.defaultAlphabet + "ÉÖÄÜ"),
        PasscodePolicy(maxLength: 0, alphabet: PasscodePolicy.defaultAlphabet),
    ]

    @Test(arguments: policies)
    func ourNormaliserIsFaithfulAndHonestAboutLength(_ policy: PasscodePolicy) {
        #expect(PasscodeCheck.run(policy: policy, generatedCases: 1_000, seed: 7) == [])
    }

    /// Alphabets with characters the normaliser never outputs (lowercase letters, dashes, spaces,
    /// combining marks, conjoining jamo, other scripts' digits): the property fails on the first
    /// such character typed as the alphabet writes it, instead of holding because every code
    /// checked was drawn from the normaliser's own output.
    static let unreachable: [(policy: PasscodePolicy, first: String)] = [
        (PasscodePolicy(maxLength: 3, alphabet: "abc"), "abc"),
        (PasscodePolicy(maxLength: 8, alphabet: "0123456789-‐‑–—−－ "), "89-‐‑–—−"),
        (PasscodePolicy(maxLength: 4, alphabet: "abcXYZ\u{301}ß"), "abcX"),
        (PasscodePolicy(maxLength: 4, alphabet: "가각\u{1100}\u{1161}\u{11A8}"), "가각\u{1100}\u{1161}"),
        (PasscodePolicy(maxLength: 4, alphabet: "E\u{0301}\u{00C9}e\u{00E9}"), "E\u{0301}\u{00C9}e"),
        (PasscodePolicy(maxLength: 4, alphabet: "😀🏻12\u{FE0F}\u{20E3}"), "\u{FE0F}\u{20E3}"),
        (PasscodePolicy(maxLength: 8, alphabet: "٠١٢٣٤٥٦٧٨٩0123456789"), "٠١٢٣٤٥٦٧"),
        (PasscodePolicy(maxLength: 64, alphabet: PasscodePolicy.defaultAlphabet + "ÉÖÄÜß-"), PasscodePolicy.defaultAlphabet + "ÉÖÄÜß-"),
    ]

    @Test(arguments: 0..<unreachable.count)
    func anAlphabetTheNormaliserNeverOutputsFailsTheProperty(_ index: Int) throws {
        let (policy, first) = Self.unreachable[index]
        let violation = try #require(PasscodeCheck.run(policy: policy, generatedCases: 200, seed: 7).first, "\(policy.alphabetText) held")
        #expect(violation.message.hasPrefix("not faithful: the code \(PasscodeCheck.scalars(first)) typed as \(PasscodeCheck.scalars(first)) "
                                            + "(the alphabet's characters as the policy writes them) normalises to "), "\(violation.message)")
    }

    /// Section 5's own example: a normaliser that returns "" for everything is idempotent and within
    /// the policy, and only faithfulness catches it, shrunk to the plainest complete code.
    @Test func aNormaliserThatReturnsNothingIsCaughtAsUnfaithful() throws {
        let digits = PasscodePolicy(maxLength: 6, alphabet: "0123456789")
        let violations = PasscodeCheck.run({ _ in "" }, policy: digits)
        let violation = try #require(violations.first, "a normaliser returning \"\" passed")
        #expect(violations.count == 1)
        #expect(violation.property == .passcode)
        let zeros = #""000000" [U+0030 U+0030 U+0030 U+0030 U+0030 U+0030]"#
        #expect(violation.message == "not faithful: the code \(zeros) typed as \(zeros) (as is) normalises to \"\" []")
        // It is idempotent and within the policy on every input, so the older checks let it through.
        let report = forAll(Gen.userInput, cases: 500, seed: 1) { PasscodeCheck.problem({ _ in "" }, policy: digits, $0) == nil }
        #expect(report.isPassed)
    }

    /// The counterexample is shrunk: the first failing typed code is written in some odd way, the reported one plainly.
    @Test func anUnfaithfulCounterexampleIsShrunk() throws {
        let policy = PasscodePolicy.default
        let gen = try #require(TypedPasscode.generator(policy: policy))
        let subject = PasscodeCheck.Subject(normalise: { _ in "" }, read: nil)
        let report = forAll(gen, cases: 100, seed: 3) { PasscodeCheck.problem(subject, $0) == nil }
        let failure = try #require(report.failure)
        #expect(failure.shrunk.typed == "000000")
        #expect(failure.shrunk.how == [])
        #expect(failure.original.typed != failure.shrunk.typed, "seed 3's first case happens to be minimal already: pick another seed")
    }

    /// A normaliser that drops other scripts' digits, as ours did, is caught; so is one that keeps dashes.
    @Test func droppingOtherScriptsDigitsOrKeepingDashesIsCaught() throws {
        let policy = PasscodePolicy(maxLength: 6, alphabet: "0123456789")
        let normaliser = PasscodeNormaliser(policy: policy)
        let dropsDigits = PasscodeCheck.run({ input in
            normaliser.normalise(String(String.UnicodeScalarView(input.unicodeScalars.filter {
                $0.isASCII || $0.properties.numericType != .decimal || (0xFF10...0xFF19).contains($0.value)
            })))
        }, policy: policy)
        let dropped = try #require(dropsDigits.first?.message)
        #expect(dropped.hasPrefix("not faithful: the code \"000000\""), "\(dropped)")
        #expect(dropped.contains("Arabic-Indic digits"), "\(dropped)")

        let hyphen = PasscodePolicy(maxLength: 6, alphabet: "0123456789-")
        let keepsHyphens = PasscodeCheck.run({ input in
            String(String.UnicodeScalarView(PasscodeNormaliser(policy: policy).normalise(input.replacingOccurrences(of: "-", with: "0"))
                .unicodeScalars.prefix(6)))
        }, policy: hyphen)
        let kept = try #require(keepsHyphens.first?.message)
        #expect(kept.hasPrefix("not faithful"), "\(kept)")
        #expect(kept.contains("split by \"-\"") || kept.contains("split by \" - \""), "\(kept)")
    }

    /// A reader that cuts an overlong paste and calls it complete is caught, and so is one that calls a short code complete.
    @Test func aReaderThatHidesTheLengthIsCaught() throws {
        let normaliser = PasscodeNormaliser()
        let hidesOverlong = PasscodeCheck.run(reading: { input in
            let result = normaliser.read(input)
            guard case .overlong = result.length else { return result }
            return PasscodeNormaliser.Result(code: result.code, length: .complete)
        }, policy: .default)
        let overlong = try #require(hidesOverlong.first?.message)
        #expect(overlong.hasPrefix("not honest about length: "), "\(overlong)")
        #expect(overlong.hasSuffix("holds a code overlong by 1, but reads as a complete code"), "\(overlong)")

        let alwaysComplete = PasscodeCheck.run(reading: { PasscodeNormaliser.Result(code: normaliser.normalise($0), length: .complete) },
                                               policy: .default)
        #expect(alwaysComplete.first?.message.hasPrefix("not honest about length: ") == true)
    }

    @Test func aSevenDigitPasteMustReadAsOverlong() {
        let policy = PasscodePolicy(maxLength: 6, alphabet: "0123456789")
        let cases = PasscodeCheck.fixedTypedCodes(policy)
        #expect(cases.map(\.typed) == ["000000", "0000000", "00000"])
        #expect(cases.map(\.length) == [.complete, .overlong(extra: 1), .short(missing: 1)])
        let subject = PasscodeCheck.Subject(normalise: PasscodeNormaliser(policy: policy).normalise,
                                            read: PasscodeNormaliser(policy: policy).read)
        #expect(cases.compactMap { PasscodeCheck.problem(subject, $0) } == [])
    }

    /// The generator writes codes every way section 5 names, for a policy with digits and letters and for digits only.
    @Test func typedCodesComeInEveryForm() throws {
        func forms(_ policy: PasscodePolicy) throws -> Set<String> {
            let gen = try #require(TypedPasscode.generator(policy: policy))
            var forms: Set<String> = []
            for seed in 0..<2_000 as Range<UInt64> {
                let typed = try #require(gen.sample(seed: seed))
                forms.formUnion(typed.how.map { $0.hasPrefix("in groups") ? "groups" : $0.hasPrefix("inside") ? "surrounded" : $0 })
            }
            return forms
        }
        let both = try forms(.default)
        for form in ["full-width digits", "Arabic-Indic digits", "Persian digits", "Devanagari digits", "lowercase letters",
                     "full-width letters", "zero-width characters", "groups"] {
            #expect(both.contains(form), "\(form) never generated: \(both.sorted())")
        }
        #expect(!both.contains("surrounded"), "the default alphabet has letters: surrounding text would be part of the code")
        let digits = try forms(PasscodePolicy(maxLength: 6, alphabet: "0123456789"))
        #expect(digits.contains("surrounded"))
        #expect(!digits.contains("lowercase letters"))
        #expect(TypedPasscode.generator(policy: PasscodePolicy(maxLength: 4, alphabet: "abc")) == nil)
    }

    @Test func naiveIdempotenceBreaksOnCaseMappingThatExpands() {
        // "ß" uppercases to "SS": once cut, the second pass sees a different string.
        let policy = PasscodePolicy(maxLength: 3, alphabet: "S")
        let problem = PasscodeCheck.problem({ Self.naive($0, policy: policy) }, policy: policy, "ßß")
        #expect(problem?.hasPrefix("not idempotent") == true)
    }
}

import Foundation
