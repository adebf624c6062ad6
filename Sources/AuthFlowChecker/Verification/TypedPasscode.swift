import AuthFlow
import Foundation
import PropertyTesting

/// A code of a passcode policy written the way a person types or pastes it, and what reading it must give.
///
/// The `passcode` property's faithfulness check generates these (``generator(policy:)``): a code of
/// the policy's alphabet, then the same code in groups split by spaces or dashes, with full-width
/// or other scripts' digits (Arabic-Indic, Persian, Devanagari, Bengali, Thai), lowercase or
/// full-width letters, zero-width characters between its characters, or inside surrounding text
/// that holds nothing of the alphabet (`Your code is 123456.` when the alphabet has no letters).
/// Section 5 of the spec format requires every such form to normalise back to the code.
package struct TypedPasscode: Sendable, CustomStringConvertible {
    /// The code the input must normalise to: at most ``PasscodePolicy/maxLength`` characters.
    package var code: String
    /// The length result reading the input must give: ``PasscodeNormaliser/Length/complete`` unless
    /// the person typed fewer or more characters of the alphabet than the policy's length.
    package var length: PasscodeNormaliser.Length
    /// The input, as typed or pasted.
    package var typed: String
    /// How the code was written, for messages: `"Persian digits, in groups of 3 split by \"-\""`.
    package var how: [String]

    package var description: String {
        "\(PasscodeCheck.scalars(typed)) (\(how.isEmpty ? "as is" : how.joined(separator: ", ")))"
    }

    /// The alphabet characters a code of `policy` may hold: those a normaliser can output
    /// (``PasscodeNormaliser/outputAlphabet``), in code point order, so codes shrink toward the first.
    ///
    /// The others (lowercase letters, compatibility characters, dashes, other scripts' digits, …)
    /// are in the alphabet but become something else when typed, so no code can hold them.
    package static func codeAlphabet(_ policy: PasscodePolicy) -> [Unicode.Scalar] {
        PasscodeNormaliser(policy: policy).outputAlphabet.sorted { $0.value < $1.value }
    }

    /// Typed codes of `policy`, or nil when no code can be typed (no alphabet character can be output).
    ///
    /// Eight in ten hold exactly ``PasscodePolicy/maxLength`` characters (a complete code); one in
    /// ten is short by 1 to `maxLength` characters, one in ten is overlong by 1 to 3. Values shrink
    /// toward a complete code of the first alphabet character, written as is.
    package static func generator(policy: PasscodePolicy) -> Gen<TypedPasscode>? {
        let alphabet = codeAlphabet(policy)
        guard !alphabet.isEmpty else { return nil }
        let maxLength = policy.maxLength
        let hasDigits = alphabet.contains { ("0"..."9").contains($0) }
        let hasLetters = alphabet.contains { LetterForm.lowercase.write($0) != nil }
        let phrases = surroundings.filter { canSurround(policy, $0.prefix + $0.suffix) }
        // How many characters more (overlong) or fewer (short) than maxLength were typed.
        let extra = Gen<Int>.frequency([
            (8, .constant(0)),
            (1, maxLength > 0 ? Gen<Int>.int(in: 1...maxLength).map { -$0 } : .constant(0)),
            (1, Gen<Int>.int(in: 1...3)),
        ])
        return Gen { (source: inout ChoiceSource) throws(DiscardedCase) -> TypedPasscode in
            let count = maxLength + (try extra.generate(&source))
            let characters = try Gen<[Unicode.Scalar]>.array(of: .element(of: alphabet), count: count).generate(&source)
            var how: [String] = []
            let digits = hasDigits ? try Gen.element(of: digitScripts).generate(&source) : digitScripts[0]
            let letters = hasLetters ? try Gen.element(of: LetterForm.allCases).generate(&source) : .asIs
            var units = characters.map { scalar in digits.write(scalar) ?? letters.write(scalar) ?? String(scalar) }
            if digits.zero != "0" { how.append("\(digits.name) digits") }
            if letters != .asIs { how.append("\(letters.rawValue) letters") }
            let invisible = try Gen.bool(probability: 0.3).generate(&source)
                ? try Gen<[String]>.array(of: .element(of: invisibles), count: units.count + 1).generate(&source) : []
            if invisible.contains(where: { !$0.isEmpty }) {
                units = zip(invisible, units).map { $0 + $1 } + [invisible[units.count]]
                how.append("zero-width characters")
            }
            let group = try Gen.element(of: [0, 3, 2, 4]).generate(&source)
            let separator = try Gen.element(of: separators).generate(&source)
            var typed = ""
            for (index, unit) in units.enumerated() {
                if group > 0, index > 0, index % group == 0, index < characters.count { typed += separator }
                typed += unit
            }
            if group > 0, characters.count > group { how.append("in groups of \(group) split by \(PasscodeCheck.scalars(separator))") }
            if !phrases.isEmpty, try Gen.bool(probability: 0.3).generate(&source) {
                let phrase = try Gen.element(of: phrases).generate(&source)
                typed = phrase.prefix + typed + phrase.suffix
                how.append("inside \(PasscodeCheck.scalars(phrase.prefix + "…" + phrase.suffix))")
            }
            var code = String.UnicodeScalarView()
            code.append(contentsOf: characters.prefix(maxLength))
            let length: PasscodeNormaliser.Length = count < maxLength ? .short(missing: maxLength - count)
                : count > maxLength ? .overlong(extra: count - maxLength) : .complete
            return TypedPasscode(code: String(code), length: length, typed: typed, how: how)
        }
    }

    // MARK: Ways of writing

    /// A script's decimal digits, by its zero (the ASCII digits first: codes shrink toward them).
    struct DigitScript: Sendable {
        var name: String
        var zero: Unicode.Scalar

        /// The script's digit for an ASCII digit, or nil for anything else.
        func write(_ scalar: Unicode.Scalar) -> String? {
            guard ("0"..."9").contains(scalar) else { return nil }
            return String(Unicode.Scalar(zero.value + scalar.value - 0x30)!)
        }
    }

    static let digitScripts = [
        DigitScript(name: "ASCII", zero: "0"), DigitScript(name: "full-width", zero: "\u{FF10}"),
        DigitScript(name: "Arabic-Indic", zero: "\u{0660}"), DigitScript(name: "Persian", zero: "\u{06F0}"),
        DigitScript(name: "Devanagari", zero: "\u{0966}"), DigitScript(name: "Bengali", zero: "\u{09E6}"),
        DigitScript(name: "Thai", zero: "\u{0E50}"),
    ]

    /// How the letters of a code are written.
    enum LetterForm: String, CaseIterable, Sendable {
        case asIs = "uppercase"
        /// Every letter whose lowercase uppercases back to it alone (not `ẞ`, whose lowercase `ß` is `SS`).
        case lowercase
        /// `A`–`Z` as `Ａ`–`Ｚ`; other letters as they are.
        case fullWidth = "full-width"
        /// `A`–`Z` as `ａ`–`ｚ`; other letters lowercase, as ``lowercase`` writes them.
        case fullWidthLowercase = "full-width lowercase"

        /// The letter in this form, or nil when this form leaves it as it is.
        func write(_ scalar: Unicode.Scalar) -> String? {
            if self == .asIs { return nil }
            if self != .lowercase, ("A"..."Z").contains(scalar) {
                return String(Unicode.Scalar(scalar.value + (self == .fullWidth ? 0xFF21 : 0xFF41) - 0x41)!)
            }
            guard self != .fullWidth else { return nil }
            let lower = String(scalar).lowercased()
            let roundTrips = lower.uppercased().unicodeScalars.elementsEqual(CollectionOfOne(scalar))
            return roundTrips && !lower.unicodeScalars.elementsEqual(CollectionOfOne(scalar)) ? lower : nil
        }
    }

    /// What may sit between a code's characters, when anything does: nothing, or one zero-width or invisible character.
    static let invisibles = ["", "", "", "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{00AD}", "\u{200E}", "\u{200F}"]

    /// What splits a code's groups: spaces and dashes of every kind people and apps use.
    static let separators = [" ", "-", "  ", "\u{00A0}", "\u{2009}", "\u{3000}", "\t", "\u{2010}", "\u{2011}", "\u{2013}",
                             "\u{2014}", "\u{2212}", "\u{FF0D}", " - ", "\u{202F}"]

    /// Text a code is pasted inside, from SMS and email in several languages; none holds a digit.
    static let surroundings: [(prefix: String, suffix: String)] = [
        ("Your code is ", "."), ("Your code is: ", ". Don't share it with anyone!"), ("", " is your verification code"),
        ("Código: ", ""), ("رمز التحقق: ", ""), ("验证码：", "。请勿泄露"), ("Code : ", " (expire bientôt)"),
    ]

    /// Whether `text` can surround a code of `policy`: the alphabet has no letters, and nothing in
    /// the text, folded and uppercased, is in the alphabet or a digit.
    static func canSurround(_ policy: PasscodePolicy, _ text: String) -> Bool {
        guard !policy.alphabet.contains(where: { $0.properties.isAlphabetic }) else { return false }
        return text.decomposedStringWithCompatibilityMapping.uppercased().unicodeScalars.allSatisfy {
            !policy.alphabet.contains($0) && $0.properties.numericType == nil
        }
    }
}
