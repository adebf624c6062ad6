import AuthFlow
import PropertyTesting

/// Checks the `passcode` property, section 5 of the spec format: the normaliser is idempotent, its
/// output stays within the policy, it is faithful, and it is honest about length.
///
/// - Idempotent and within the policy: on a fixed ``corpus`` of traps and on generated user input
///   (`Gen.userInput`), `normalise(normalise(x))` is `normalise(x)` scalar for scalar, and the
///   policy admits it.
/// - Faithful: every code of the policy, written the ways people type or paste it
///   (``TypedPasscode``: groups split by spaces or dashes, full-width or other scripts' digits,
///   lowercase letters, zero-width characters, surrounding text), normalises back to the code. A
///   normaliser that returns `""` for everything is idempotent and within the policy, and fails here.
/// - Honest about length, when the normaliser reports one (``PasscodeNormaliser/read(_:)``): a
///   complete code reads as complete, a short one as short by the characters missing, an overlong
///   paste (a code and one more character) as overlong by the characters cut.
///
/// A run reports at most one violation: the first it finds, shrunk to a small counterexample.
package enum PasscodeCheck {
    /// Inputs every run tries: what users type and paste, and the traps that break naive filters.
    package static let corpus: [String] = [
        "", " ", "123456", " 123 456 ", "１２３４５６", "abc123", "ß", "ẞ", "ŉ1", "ﬀ", "ﬁ2", "ı", "İ", "ǰ",
        "A\u{301}", "\u{301}A", "e\u{301}\u{302}", "12\u{200B}34\u{FEFF}56", "\u{00AD}1\u{2060}2", "\u{202E}654321",
        "१२३", "٠١٢", "²³", "Ⅻ", "①②", "👍🏽1", "1\u{FE0F}\u{20E3}", "\t1\n2\r3", "\u{3000}7\u{00A0}8",
        "Your code is 123 456.", String(repeating: "9", count: 100), "ᄀ\u{1161}", "\u{1100}\u{1161}\u{11A8}",
        "\u{FF21}\u{FF42}", "ǅ", "ᾳ", "և", "ſ", "K", "Å", "ﾊﾟ", "㍿", "㈱", "۱۲۳ ۴۵۶", "١٢٣٤٥٦٧", "12-34–56−7",
        "٣\u{301}", "-\u{301}1",
    ]

    /// Checks ``PasscodeNormaliser`` under `policy`, its length result included.
    /// - Parameters:
    ///   - policy: the policy.
    ///   - generatedCases: how many generated inputs, and how many generated typed codes, it tries.
    ///   - seed: the seed of both generated runs.
    /// - Returns: no violation, or one: the first found, shrunk.
    package static func run(policy: PasscodePolicy, generatedCases: Int = 2_000, seed: UInt64 = 0x5EED) -> [Violation] {
        let normaliser = PasscodeNormaliser(policy: policy)
        return run(Subject(normalise: normaliser.normalise, read: normaliser.read), policy: policy,
                   generatedCases: generatedCases, seed: seed)
    }

    /// Checks any normalising function: idempotence, the policy and faithfulness; a bare `String` has
    /// no length result, so honesty about length is not checked.
    package static func run(_ normalise: (String) -> String, policy: PasscodePolicy, generatedCases: Int = 2_000,
                           seed: UInt64 = 0x5EED) -> [Violation] {
        withoutActuallyEscaping(normalise) { normalise in
            run(Subject(normalise: normalise, read: nil), policy: policy, generatedCases: generatedCases, seed: seed)
        }
    }

    /// Checks any function that reads a code and its length, as ``PasscodeNormaliser/read(_:)`` does:
    /// everything, honesty about length included.
    package static func run(reading read: (String) -> PasscodeNormaliser.Result, policy: PasscodePolicy,
                            generatedCases: Int = 2_000, seed: UInt64 = 0x5EED) -> [Violation] {
        withoutActuallyEscaping(read) { read in
            run(Subject(normalise: { read($0).code }, read: read), policy: policy, generatedCases: generatedCases, seed: seed)
        }
    }

    /// What a run checks: a normalising function, and the length result when it gives one.
    struct Subject {
        var normalise: (String) -> String
        var read: ((String) -> PasscodeNormaliser.Result)?
    }

    private static func run(_ subject: Subject, policy: PasscodePolicy, generatedCases: Int, seed: UInt64) -> [Violation] {
        let normalise = subject.normalise
        for input in corpus {
            if let problem = problem(normalise, policy: policy, input) { return [violation(input, problem)] }
        }
        let typedCodes = TypedPasscode.generator(policy: policy)
        if generatedCases > 0 {
            let report = forAll(Gen.userInput, cases: generatedCases, seed: seed) { problem(normalise, policy: policy, $0) == nil }
            if let failure = report.failure {
                return [violation(failure.shrunk, problem(normalise, policy: policy, failure.shrunk) ?? "fails")]
            }
            if let typedCodes {
                let report = forAll(typedCodes, cases: generatedCases, seed: seed) { problem(subject, $0) == nil }
                if let failure = report.failure {
                    return [violation(failure.shrunk.typed, problem(subject, failure.shrunk) ?? "fails")]
                }
            }
        }
        // Whatever the generated runs drew: a complete code, one a character short, and an overlong paste;
        // then every character of the alphabet as the policy writes it, which a user copies from it.
        for typed in fixedTypedCodes(policy) + writtenAlphabetCodes(policy) {
            if let problem = problem(subject, typed) { return [violation(typed.typed, problem)] }
        }
        return []
    }

    /// The first code-alphabet character repeated to `maxLength` characters, one fewer, and one more, written as is.
    static func fixedTypedCodes(_ policy: PasscodePolicy) -> [TypedPasscode] {
        guard let first = TypedPasscode.codeAlphabet(policy).first else { return [] }
        let code = String(repeating: String(first), count: policy.maxLength)
        var cases = [
            TypedPasscode(code: code, length: .complete, typed: code, how: []),
            TypedPasscode(code: code, length: .overlong(extra: 1), typed: code + String(first), how: ["one character too many"]),
        ]
        if policy.maxLength > 0 {
            let short = String(repeating: String(first), count: policy.maxLength - 1)
            cases.append(TypedPasscode(code: short, length: .short(missing: 1), typed: short, how: ["one character too few"]))
        }
        return cases
    }

    /// Every character of the policy's alphabet, as the policy writes it, in codes of ``PasscodePolicy/maxLength``
    /// characters (the last one may be short), each expected to read back as itself.
    ///
    /// The generated codes are drawn from what the normaliser can output
    /// (``TypedPasscode/codeAlphabet(_:)``); these are drawn from the alphabet itself, so an alphabet
    /// the normaliser can never output (`"abc"`: it uppercases) fails here, at its first such
    /// character, instead of holding because no code was ever typed from it. Each character is in
    /// one code: the work is linear in the alphabet's length.
    static func writtenAlphabetCodes(_ policy: PasscodePolicy) -> [TypedPasscode] {
        guard policy.maxLength > 0 else { return [] }
        var seen = Set<Unicode.Scalar>()
        let written = Array(policy.alphabetText.unicodeScalars.filter { seen.insert($0).inserted })
        return stride(from: 0, to: written.count, by: policy.maxLength).map { start in
            let chunk = written[start..<min(start + policy.maxLength, written.count)]
            let code = String(String.UnicodeScalarView(chunk))
            let length: PasscodeNormaliser.Length = chunk.count < policy.maxLength ? .short(missing: policy.maxLength - chunk.count) : .complete
            return TypedPasscode(code: code, length: length, typed: code, how: ["the alphabet's characters as the policy writes them"])
        }
    }

    /// What is wrong with how `subject` reads a typed code, or nil.
    static func problem(_ subject: Subject, _ typed: TypedPasscode) -> String? {
        let code = subject.normalise(typed.typed)
        if !code.unicodeScalars.elementsEqual(typed.code.unicodeScalars) {
            return "not faithful: the code \(scalars(typed.code)) typed as \(typed) normalises to \(scalars(code))"
        }
        guard let read = subject.read else { return nil }
        let result = read(typed.typed)
        if !result.code.unicodeScalars.elementsEqual(typed.code.unicodeScalars) {
            return "read and normalise disagree: the code \(scalars(typed.code)) typed as \(typed) reads as \(scalars(result.code))"
        }
        if result.length != typed.length {
            return "not honest about length: \(typed) holds \(describe(typed.length)), but reads as \(describe(result.length))"
        }
        return nil
    }

    /// `a complete code`, `a code short by 2` or `a code overlong by 1`.
    static func describe(_ length: PasscodeNormaliser.Length) -> String {
        switch length {
        case .complete: "a complete code"
        case .short(let missing): "a code short by \(missing)"
        case .overlong(let extra): "a code overlong by \(extra)"
        }
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
