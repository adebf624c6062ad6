import PropertyTesting
import Testing
@testable import AuthFlow

/// One row of the passcode table: an input, the policy, and the exact expected output.
struct PasscodeCase: CustomTestStringConvertible, Sendable {
    var note: String
    var input: String
    var policy: PasscodePolicy = .default
    var expected: String

    var testDescription: String { note }
}

/// The policies every property is checked under, chosen for the ways they can break idempotence.
enum PasscodePolicies {
    static let digitsOnly = PasscodePolicy(maxLength: 6, alphabet: "0123456789")
    /// Lowercase letters can never be output: uppercasing changes them.
    static let lowercase = PasscodePolicy(maxLength: 8, alphabet: "abcxyz0123")
    /// Mixed case: only the uppercase half is reachable.
    static let mixedCase = PasscodePolicy(maxLength: 8, alphabet: "aAbBsS")
    /// A combining acute accent, and both forms of É.
    static let combining = PasscodePolicy(maxLength: 8, alphabet: "E\u{0301}\u{00C9}e\u{00E9}")
    /// Compatibility characters and invisible ones in the alphabet itself.
    static let compatibility = PasscodePolicy(maxLength: 8, alphabet: "\u{FB01}²Ⅻ FI2X\u{200B}\u{FEFF}")
    /// Hangul syllables and conjoining jamo.
    static let hangul = PasscodePolicy(maxLength: 4, alphabet: "가각\u{1100}\u{1161}\u{11A8}")
    static let turkish = PasscodePolicy(maxLength: 4, alphabet: "Iİ")
    static let greek = PasscodePolicy(maxLength: 4, alphabet: "ΑΒΓΣ")
    static let sharpS = PasscodePolicy(maxLength: 4, alphabet: "Sẞ")
    static let emoji = PasscodePolicy(maxLength: 4, alphabet: "😀🏻12\u{FE0F}\u{20E3}")
    /// A hyphen in the alphabet: dash-like separators are removed, so it is never output.
    static let withHyphen = PasscodePolicy(maxLength: 6, alphabet: "0123456789-")
    /// Arabic-Indic digits in the alphabet: every decimal digit becomes ASCII, so they are never output.
    static let arabicIndic = PasscodePolicy(maxLength: 6, alphabet: "٠١٢٣٤٥٦٧٨٩0123")
    static let empty = PasscodePolicy(maxLength: 0, alphabet: PasscodePolicy.defaultAlphabet)
    static let long = PasscodePolicy(maxLength: 64, alphabet: PasscodePolicy.defaultAlphabet + "ÉÖÄÜß-")

    static let all: [PasscodePolicy] = [
        .default, digitsOnly, lowercase, mixedCase, combining, compatibility, hangul, turkish, greek,
        sharpS, emoji, withHyphen, arabicIndic, empty, long,
    ]
}

@Suite struct PasscodeNormaliserTests {
    static let cases: [PasscodeCase] = [
        // Plain codes and folding
        .init(note: "a plain code", input: "123456", expected: "123456"),
        .init(note: "full-width digits", input: "１２３４５６", expected: "123456"),
        .init(note: "full-width letters", input: "ｃｏｄｅ", expected: "CODE"),
        .init(note: "circled digits", input: "①②③", expected: "123"),
        .init(note: "mathematical bold digits", input: "𝟏𝟐𝟑", expected: "123"),
        .init(note: "superscript two", input: "x²", expected: "X2"),
        .init(note: "roman numeral twelve", input: "Ⅻ", expected: "XII"),
        .init(note: "ff ligature", input: "ﬀ12", expected: "FF12"),
        .init(note: "fi ligature", input: "ﬁ", expected: "FI"),
        .init(note: "square hPa", input: "㍱", expected: "HPA"),
        .init(note: "keycap emoji digits", input: "1️⃣2️⃣", expected: "12"),
        // Whitespace and invisible characters
        .init(note: "a space", input: "123 456", expected: "123456"),
        .init(note: "a tab", input: "123\t456", expected: "123456"),
        .init(note: "no-break space", input: "123\u{00A0}456", expected: "123456"),
        .init(note: "ideographic space", input: "123\u{3000}456", expected: "123456"),
        .init(note: "line breaks and separators", input: "\n12\r\n34\u{2028}56\u{2029}", expected: "123456"),
        .init(note: "zero-width space and joiner", input: "12\u{200B}34\u{200D}56", expected: "123456"),
        .init(note: "byte-order mark", input: "\u{FEFF}123456", expected: "123456"),
        .init(note: "soft hyphen", input: "12\u{00AD}3456", expected: "123456"),
        .init(note: "bidi marks", input: "\u{200E}123456\u{200F}", expected: "123456"),
        .init(note: "variation selector", input: "12\u{FE0F}34", expected: "1234"),
        .init(note: "a control character", input: "\u{0000}12\u{007F}", expected: "12"),
        // Case
        .init(note: "lowercase letters", input: "abc123", expected: "ABC123"),
        .init(note: "punctuation dropped", input: "aBc-12_3", expected: "ABC123"),
        .init(note: "sharp s expands to SS", input: "ß", expected: "SS"),
        .init(note: "sharp s expansion is cut", input: "straße", expected: "STRASS"),
        .init(note: "dotless i uppercases to I", input: "ı", expected: "I"),
        .init(note: "dotted capital İ is not in the alphabet", input: "İ1", expected: "1"),
        .init(note: "apostrophe n", input: "ŉ", expected: "N"),
        .init(note: "j with caron uppercases to J and a mark", input: "ǰ", expected: "J"),
        // Marks, other scripts, emoji
        .init(note: "E and a combining acute compose to É, dropped", input: "E\u{0301}1", expected: "1"),
        .init(note: "precomposed é uppercases to É, dropped", input: "é2", expected: "2"),
        .init(note: "a combining mark on a digit is dropped", input: "1\u{0301}2", expected: "12"),
        .init(note: "emoji dropped", input: "😀123", expected: "123"),
        .init(note: "Arabic-Indic digits become ASCII", input: "١٢٣٤٥٦", expected: "123456"),
        .init(note: "Persian digits become ASCII", input: "۱۲۳۴۵۶", expected: "123456"),
        .init(note: "Devanagari digits become ASCII", input: "१२३४५६", expected: "123456"),
        .init(note: "Bengali and Thai digits become ASCII", input: "০১২๓๔๕", expected: "012345"),
        .init(note: "Arabic-Indic digits, digits only", input: "١٢٣٤٥٦",
              policy: PasscodePolicies.digitsOnly, expected: "123456"),
        .init(note: "scripts mixed in one code", input: "١٢۳4５६", expected: "123456"),
        .init(note: "Arabic-Indic digits after a right-to-left mark", input: "\u{200F}٩٨٧ ٦٥٤", expected: "987654"),
        .init(note: "a mark on an Arabic-Indic digit is dropped, the digit kept", input: "٣\u{0301}", expected: "3"),
        // Dash-like separators
        .init(note: "hyphen-minus between groups", input: "123-456", expected: "123456"),
        .init(note: "en dash, minus sign, non-breaking hyphen", input: "12–34−56‑", expected: "123456"),
        .init(note: "a hyphen is removed even when the alphabet lists it", input: "12-34‐56",
              policy: PasscodePolicies.withHyphen, expected: "123456"),
        .init(note: "full-width and small hyphen-minus are removed", input: "12－34﹣5⁻6",
              policy: PasscodePolicies.withHyphen, expected: "123456"),
        // Pasted text and length
        .init(note: "pasted sentence, default alphabet", input: "Your code is 123 456", expected: "YOURCO"),
        .init(note: "pasted sentence, digits only", input: "Your code is 123 456",
              policy: PasscodePolicies.digitsOnly, expected: "123456"),
        .init(note: "too long input is cut", input: "12345678", expected: "123456"),
        .init(note: "the empty string", input: "", expected: ""),
        .init(note: "nothing in the alphabet", input: "¿?! …", expected: ""),
        .init(note: "maxLength 0 outputs nothing", input: "123456", policy: PasscodePolicies.empty, expected: ""),
        // Unusual alphabets
        .init(note: "lowercase alphabet: letters unreachable", input: "abcABC123",
              policy: PasscodePolicies.lowercase, expected: "123"),
        .init(note: "mixed-case alphabet keeps the uppercase", input: "aAbß",
              policy: PasscodePolicies.mixedCase, expected: "AABSS"),
        .init(note: "combining alphabet: E + acute composes to É", input: "E\u{0301}",
              policy: PasscodePolicies.combining, expected: "É"),
        .init(note: "combining alphabet: é uppercases to É", input: "ée\u{0301}E",
              policy: PasscodePolicies.combining, expected: "ÉÉE"),
        .init(note: "combining alphabet: a lone acute is dropped", input: "\u{0301}E\u{200B}\u{0301}",
              policy: PasscodePolicies.combining, expected: "E"),
        .init(note: "compatibility alphabet: ﬁ, ², Ⅻ fold to FI, 2, XII", input: "ﬁ²Ⅻ f i",
              policy: PasscodePolicies.compatibility, expected: "FI2XIIFI"),
        .init(note: "Hangul jamo compose into a syllable", input: "\u{1100}\u{1161}",
              policy: PasscodePolicies.hangul, expected: "가"),
        .init(note: "Hangul syllable and trailing jamo compose", input: "가\u{11A8}가",
              policy: PasscodePolicies.hangul, expected: "각가"),
        .init(note: "a lone jamo is dropped", input: "\u{1100}\u{11A8}",
              policy: PasscodePolicies.hangul, expected: ""),
        .init(note: "Turkish i forms", input: "iıİ", policy: PasscodePolicies.turkish, expected: "IIİ"),
        .init(note: "Greek final sigma uppercases", input: "σςαβ", policy: PasscodePolicies.greek, expected: "ΣΣΑΒ"),
        .init(note: "capital sharp s kept, small sharp s becomes SS", input: "ẞß",
              policy: PasscodePolicies.sharpS, expected: "ẞSS"),
        .init(note: "half-width katakana and voiced mark fold to one letter", input: "ｶﾞｶ",
              policy: PasscodePolicy(maxLength: 4, alphabet: "カガ"), expected: "ガカ"),
        .init(note: "a supplementary character and a mark stay apart", input: "\u{20041}\u{0335}\u{2006B}\u{0301}",
              expected: ""),
        .init(note: "emoji alphabet: modifiers are separate scalars", input: "😀🏻1️⃣",
              policy: PasscodePolicies.emoji, expected: "😀🏻1"),
    ]

    @Test(arguments: cases)
    func normalisesToTheExpectedCode(_ row: PasscodeCase) {
        let normaliser = PasscodeNormaliser(policy: row.policy)
        #expect(scalars(normaliser.normalise(row.input)) == scalars(row.expected))
    }

    @Test(arguments: cases)
    func everyExpectedOutputIsAFixedPointWithinItsPolicy(_ row: PasscodeCase) {
        let normaliser = PasscodeNormaliser(policy: row.policy)
        #expect(scalars(normaliser.normalise(row.expected)) == scalars(row.expected))
        #expect(row.policy.admits(row.expected))
        #expect(normaliser.isNormalised(row.expected))
    }

    /// Every table input under every policy: idempotent, and admitted.
    @Test(arguments: PasscodePolicies.all)
    func idempotentAndAdmittedOnEveryTableInput(_ policy: PasscodePolicy) {
        let normaliser = PasscodeNormaliser(policy: policy)
        for row in Self.cases {
            let once = normaliser.normalise(row.input)
            #expect(scalars(normaliser.normalise(once)) == scalars(once), "input \(row.note)")
            #expect(policy.admits(once), "input \(row.note)")
            #expect(normaliser.isNormalised(once), "input \(row.note)")
        }
    }

    /// Seeded random strings over scalars chosen to be troublesome, under every policy.
    @Test(arguments: PasscodePolicies.all)
    func idempotentAndAdmittedOnRandomInputs(_ policy: PasscodePolicy) {
        let seed: UInt64 = 0x5EED_CAFE
        var rng = SplitMix64(seed: seed)
        let normaliser = PasscodeNormaliser(policy: policy)
        let pool = Self.troublesomeScalars + policy.alphabet.sorted { $0.value < $1.value }
        for iteration in 0..<2_000 {
            var input = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 12) {
                if rng.next() % 4 == 0 {
                    input.append(Self.randomScalar(&rng))
                } else {
                    input.append(pool[Int(rng.next() % UInt64(pool.count))])
                }
            }
            let text = String(input)
            let once = normaliser.normalise(text)
            let ok = scalars(normaliser.normalise(once)) == scalars(once) && policy.admits(once)
            #expect(ok, "seed \(seed) iteration \(iteration): \(scalars(text)) -> \(scalars(once))")
            if !ok { return }
        }
    }

    /// Any two output scalars side by side stay as they are: nothing the normaliser emits composes.
    @Test(arguments: PasscodePolicies.all.filter { $0.maxLength >= 2 })
    func outputScalarsNeverComposeWithANeighbour(_ policy: PasscodePolicy) {
        let normaliser = PasscodeNormaliser(policy: policy)
        let stable = normaliser.outputAlphabet
        for first in stable {
            for second in stable {
                var pair = String.UnicodeScalarView()
                pair.append(first)
                pair.append(second)
                let code = String(pair)
                #expect(scalars(normaliser.normalise(code)) == scalars(code))
            }
        }
    }

    @Test func theDefaultAlphabetIsEntirelyReachable() {
        let normaliser = PasscodeNormaliser()
        #expect(normaliser.outputAlphabet == PasscodePolicy.default.alphabet)
        #expect(normaliser.unreachableAlphabet == [])
    }

    /// A spec's alphabet and `--alphabet` are refused when they hold a character the normaliser never outputs, with the fix.
    @Test func anAlphabetTheNormaliserCannotOutputIsRefusedWithTheFix() {
        #expect(PasscodePolicy.alphabetProblem(PasscodePolicy.defaultAlphabet) == nil)
        #expect(PasscodePolicy.alphabetProblem("0123456789") == nil)
        #expect(PasscodePolicy.alphabetProblem("abc")?.hasSuffix(#"; write "ABC", as the normaliser outputs them"#) == true)
        #expect(PasscodePolicy.alphabetProblem("\u{0660}\u{0661}")?.hasSuffix(#"; write "01", as the normaliser outputs them"#) == true)
        #expect(PasscodePolicy.alphabetProblem(" ")?.hasSuffix("; remove it; nothing of the alphabet is left, so write the characters a code holds") == true)
        #expect(PasscodePolicy.alphabetProblem("0123456789-")?.hasSuffix(#"; remove it: write "0123456789""#) == true)
        #expect(PasscodePolicy.alphabetProblem("abcdefghij")?.contains("'h' (U+0068) and 2 more;") == true)
        for policy in PasscodePolicies.all {
            let refused = PasscodePolicy.alphabetProblem(policy.alphabetText) != nil
            #expect(refused == !PasscodeNormaliser(policy: policy).unreachableAlphabet.isEmpty, "\(policy.alphabetText)")
        }
    }

    @Test func unreachableAlphabetCharactersAreListed() {
        #expect(PasscodeNormaliser(policy: PasscodePolicies.lowercase).unreachableAlphabet == ["a", "b", "c", "x", "y", "z"])
        #expect(PasscodeNormaliser(policy: PasscodePolicies.combining).unreachableAlphabet == ["e", "\u{E9}", "\u{301}"])
        #expect(PasscodeNormaliser(policy: PasscodePolicies.compatibility).unreachableAlphabet
            == [" ", "\u{B2}", "\u{200B}", "\u{216B}", "\u{FB01}", "\u{FEFF}"])
        #expect(PasscodeNormaliser(policy: PasscodePolicies.hangul).unreachableAlphabet == ["\u{1100}", "\u{1161}", "\u{11A8}"])
        #expect(PasscodeNormaliser(policy: PasscodePolicies.emoji).unreachableAlphabet == ["\u{20E3}", "\u{FE0F}"])
        #expect(PasscodeNormaliser(policy: PasscodePolicies.withHyphen).unreachableAlphabet == ["-"])
        #expect(PasscodeNormaliser(policy: PasscodePolicies.arabicIndic).unreachableAlphabet
            == (0x660...0x669).map { Unicode.Scalar($0)! })
        #expect(PasscodeNormaliser(policy: PasscodePolicies.long).unreachableAlphabet == ["-", "ß"])
    }

    @Test func changingThePolicyRebuildsTheTable() {
        var normaliser = PasscodeNormaliser()
        #expect(normaliser.normalise("ab 12 cd") == "AB12CD")
        normaliser.policy = PasscodePolicies.digitsOnly
        #expect(normaliser.normalise("ab 12 cd") == "12")
        normaliser.policy = PasscodePolicy(maxLength: 3, alphabet: "ABCD")
        #expect(normaliser.normalise("ab 12 cd") == "ABC")
    }

    @Test func lengthIsCountedInUnicodeScalars() {
        let normaliser = PasscodeNormaliser(policy: PasscodePolicy(maxLength: 3, alphabet: "😀🏻A"))
        // "😀🏻" is one Character but two scalars.
        #expect(normaliser.normalise("😀🏻😀🏻") == "😀🏻😀")
        #expect(normaliser.normalise("😀🏻😀🏻").unicodeScalars.count == 3)
    }

    // MARK: Length

    @Test func aSevenDigitPasteIsReportedOverlong() {
        let result = PasscodeNormaliser().read("1234567")
        #expect(result.code == "123456")
        #expect(result.length == .overlong(extra: 1))
    }

    @Test(arguments: [
        (input: "123456", policy: PasscodePolicy.default, code: "123456", length: PasscodeNormaliser.Length.complete),
        ("١٢٣٤٥٦", PasscodePolicies.digitsOnly, "123456", .complete),
        ("۱۲۳ ۴۵۶", PasscodePolicies.digitsOnly, "123456", .complete),
        ("१२३-४५६", PasscodePolicies.digitsOnly, "123456", .complete),
        ("１２３４５６", PasscodePolicies.digitsOnly, "123456", .complete),
        ("Your code is 123 456.", PasscodePolicies.digitsOnly, "123456", .complete),
        // The examples in the documentation.
        ("Your code is ١٢٣ ٤٥٦.", PasscodePolicies.digitsOnly, "123456", .complete),
        ("123 45", PasscodePolicies.digitsOnly, "12345", .short(missing: 1)),
        ("١٢٣-٤٥٦", .default, "123456", .complete),
        ("123", .default, "123", .short(missing: 3)),
        ("", .default, "", .short(missing: 6)),
        ("¿?", .default, "", .short(missing: 6)),
        ("12 34 56 78", .default, "123456", .overlong(extra: 2)),
        // Extra characters are counted after normalising: the sentence's letters are in the alphabet.
        ("Your code is 123 456", .default, "YOURCO", .overlong(extra: 10)),
        // ß uppercases to SS: two alphabet characters.
        ("12345ß", .default, "12345S", .overlong(extra: 1)),
        // Characters outside the alphabet are not extra.
        ("123456!?", .default, "123456", .complete),
        ("123456\u{200B}-", .default, "123456", .complete),
        ("", PasscodePolicies.empty, "", .complete),
        ("1", PasscodePolicies.empty, "", .overlong(extra: 1)),
    ])
    func readReportsTheLength(input: String, policy: PasscodePolicy, code: String, length: PasscodeNormaliser.Length) {
        let result = PasscodeNormaliser(policy: policy).read(input)
        #expect(scalars(result.code) == scalars(code))
        #expect(result.length == length)
        #expect(result.isComplete == (length == .complete))
    }

    /// `read` and `normalise` agree on the code, for every table input under every policy and random input.
    @Test(arguments: PasscodePolicies.all)
    func readGivesTheCodeNormaliseGives(_ policy: PasscodePolicy) {
        let normaliser = PasscodeNormaliser(policy: policy)
        var rng = SplitMix64(seed: 0x1E57)
        let pool = Self.troublesomeScalars + policy.alphabet.sorted { $0.value < $1.value }
        let random = (0..<500).map { _ in
            String(String.UnicodeScalarView((0..<Int(rng.next() % 16)).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }))
        }
        for input in Self.cases.map(\.input) + random {
            let result = normaliser.read(input)
            let code = normaliser.normalise(input)
            #expect(scalars(result.code) == scalars(code), "\(scalars(input))")
            switch result.length {
            case .complete: #expect(code.unicodeScalars.count == policy.maxLength)
            case .short(let missing): #expect(missing > 0 && code.unicodeScalars.count + missing == policy.maxLength)
            case .overlong(let extra): #expect(extra > 0 && code.unicodeScalars.count == policy.maxLength)
            }
        }
    }

    /// The property checks above can fail: a naive filter (drop what is outside the alphabet, cut,
    /// then uppercase, as the seed article does) breaks them.
    @Test func theChecksCatchANaiveFilter() {
        func naive(_ input: String, _ policy: PasscodePolicy) -> String {
            let kept = input.unicodeScalars.filter { policy.alphabet.contains($0) && !$0.properties.isWhitespace }
            return String(String.UnicodeScalarView(kept.prefix(policy.maxLength))).uppercased()
        }
        func holds(_ normalise: (String) -> String, _ input: String, _ policy: PasscodePolicy) -> Bool {
            let once = normalise(input)
            return scalars(normalise(once)) == scalars(once) && policy.admits(once)
        }
        let lower = PasscodePolicies.lowercase
        #expect(!holds({ naive($0, lower) }, "a1", lower))
        #expect(holds(PasscodeNormaliser(policy: lower).normalise, "a1", lower))
        let sharp = PasscodePolicy(maxLength: 2, alphabet: "ßS")
        #expect(!holds({ naive($0, sharp) }, "ßß", sharp))
        #expect(holds(PasscodeNormaliser(policy: sharp).normalise, "ßß", sharp))
        // A kept E and a kept combining acute: not a normal form, the fold composes them.
        let combined = naive("E\u{0301}", PasscodePolicies.combining)
        #expect(!PasscodeNormaliser(policy: PasscodePolicies.combining).isNormalised(combined))
    }

    // MARK: Helpers

    static let troublesomeScalars: [Unicode.Scalar] = Array((
        "aAzZ09ßẞıİiŉǰΐﬀﬁﬃ²Ⅻ①１ｚ𝟏٣१😀🏻\u{FE0F}\u{20E3}" +
        " \t\n\u{A0}\u{3000}\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}\u{AD}\u{200E}\u{202E}\u{E0001}\u{180E}" +
        "\u{301}\u{308}\u{327}\u{345}\u{3099}\u{309A}\u{FF9E}\u{0B3E}\u{0B47}\u{0CC2}\u{0CC6}\u{1161}\u{11A8}\u{1100}" +
        "가각éÉEe\u{0F73}\u{0344}\u{16D63}\u{16D67}ǅǆΣσς\u{1E9B}\u{0958}\u{2126}\u{212B}\u{1F1FA}\u{1F1F8}" +
        "-‐‑–—−－﹣⁻₋٠۹०৯๓\u{1D7D8}"
    ).unicodeScalars)

    static func randomScalar(_ rng: inout SplitMix64) -> Unicode.Scalar {
        while true {
            let value = UInt32(truncatingIfNeeded: rng.next() % 0x3_0000)
            if let scalar = Unicode.Scalar(value) { return scalar }
        }
    }
}

/// The scalars of a string, as `U+XXXX`, for exact comparison.
///
/// `String`'s `==` is canonical equivalence: `"각"` equals `"가\u{11A8}"` and `"É"` equals
/// `"E\u{301}"`, so it would hide exactly the composition bugs these tests look for.
func scalars(_ text: String) -> [String] {
    text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
}
