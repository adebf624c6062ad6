import AuthFlow
import PropertyTesting

/// Checks the `passcode` property: the normaliser is idempotent and its output stays within the policy.
package enum PasscodeCheck {
    /// Inputs every run tries: what users type and paste, and the traps that break naive filters.
    package static let corpus: [String] = [
        "", " ", "123456", " 123 456 ", "１２３４５６", "abc123", "ß", "ẞ", "ŉ1", "ﬀ", "ﬁ2", "ı", "İ", "ǰ",
        "A\u{301}", "\u{301}A", "e\u{301}\u{302}", "12\u{200B}34\u{FEFF}56", "\u{00AD}1\u{2060}2", "\u{202E}654321",
        "१२३", "٠١٢", "²³", "Ⅻ", "①②", "👍🏽1", "1\u{FE0F}\u{20E3}", "\t1\n2\r3", "\u{3000}7\u{00A0}8",
        "Your code is 123 456.", String(repeating: "9", count: 100), "ᄀ\u{1161}", "\u{1100}\u{1161}\u{11A8}",
        "\u{FF21}\u{FF42}", "ǅ", "ᾳ", "և", "ſ", "K", "Å", "ﾊﾟ", "㍿", "㈱",
    ]

    /// Runs the corpus and `generatedCases` generated inputs; returns at most one violation (the first, shrunk).
    package static func run(policy: PasscodePolicy, generatedCases: Int = 2_000, seed: UInt64 = 0x5EED) -> [Violation] {
        let normaliser = PasscodeNormaliser(policy: policy)
        return run(normaliser.normalise, policy: policy, generatedCases: generatedCases, seed: seed)
    }

    /// Runs the corpus and generated inputs through any normalising function; at most one violation, shrunk.
    package static func run(_ normalise: (String) -> String, policy: PasscodePolicy, generatedCases: Int = 2_000,
                           seed: UInt64 = 0x5EED) -> [Violation] {
        for input in corpus {
            if let problem = problem(normalise, policy: policy, input) { return [violation(input, problem)] }
        }
        guard generatedCases > 0 else { return [] }
        let report = withoutActuallyEscaping(normalise) { normalise in
            forAll(Gen.userInput, cases: generatedCases, seed: seed) { problem(normalise, policy: policy, $0) == nil }
        }
        if let failure = report.failure {
            return [violation(failure.shrunk, problem(normalise, policy: policy, failure.shrunk) ?? "fails")]
        }
        return []
    }

    /// What is wrong with `normalise(input)`, or nil.
    package static func problem(_ normaliser: PasscodeNormaliser, _ input: String) -> String? {
        problem(normaliser.normalise, policy: normaliser.policy, input)
    }

    /// What is wrong with `normalise(input)` for any normalising function under `policy`, or nil.
    package static func problem(_ normalise: (String) -> String, policy: PasscodePolicy, _ input: String) -> String? {
        let once = normalise(input)
        let twice = normalise(once)
        // Compare scalars: String's == treats canonically equivalent strings as equal, hiding exactly these bugs.
        if !once.unicodeScalars.elementsEqual(twice.unicodeScalars) {
            return "not idempotent: normalise(\(scalars(input))) = \(scalars(once)), but normalising that again gives \(scalars(twice))"
        }
        if !policy.admits(once) {
            return "normalise(\(scalars(input))) = \(scalars(once)) breaks the policy (max \(policy.maxLength) characters from the alphabet)"
        }
        return nil
    }

    static func violation(_ input: String, _ problem: String) -> Violation {
        Violation(property: .passcode, state: "passcode", event: nil, message: problem, path: [])
    }

    /// `"1 2"` as `"1 2" [U+0031 U+0020 U+0032]`, so invisible characters show.
    package static func scalars(_ text: String) -> String {
        let codes = text.unicodeScalars.map(\.codePoint)
        return "\"\(text.debugDescription.dropFirst().dropLast())\" [\(codes.joined(separator: " "))]"
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
