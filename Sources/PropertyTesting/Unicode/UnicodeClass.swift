/// A family of characters that users type or paste and that text handling tends to get wrong.
///
/// Each class lists its ``repertoire``: every scalar its generator (``Gen/unicode(_:)``) can
/// produce, the simplest first. Tests of this module check that each generator stays inside its
/// repertoire and, over enough draws, produces all of it.
public enum UnicodeClass: String, CaseIterable, Hashable, Sendable {
    /// The printable ASCII characters, U+0020–U+007E.
    case asciiPrintable
    /// The Latin-1 Supplement's printable half, U+00A0–U+00FF (no-break space, soft hyphen, ß, µ, ÿ…).
    case latin1
    /// The full-width forms of ASCII, U+FF01–U+FF5E, including the full-width digits ０–９.
    case fullWidth
    /// Combining diacritical marks U+0300–U+036F, alone or stacked on a digit or letter.
    case combiningMarks
    /// Emoji: pictographs, skin tones, ZWJ sequences, flags, keycaps and tag sequences.
    case emoji
    /// All 25 characters with the Unicode White_Space property.
    case whitespace
    /// Zero-width, format and bidi control characters and variation selectors: invisible when printed.
    case invisibles
    /// Characters whose case mapping changes length, script or does not round-trip (ß, ﬁ, ı, İ, ſ, K…).
    case caseMappingTraps
    /// Decimal digits of other scripts: Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, Thai, math bold.
    case otherScriptDigits
    /// Number forms that are not plain digits: superscripts, subscripts, Roman numerals, circled digits.
    case numberForms

    /// Every scalar the class's generator can produce, the simplest first.
    public var repertoire: [Unicode.Scalar] {
        switch self {
        case .combiningMarks:
            return UnicodeTables.combiningBases + UnicodeTables.combiningMarks
        case .emoji:
            return UnicodeTables.emojiRepertoire
        default:
            return UnicodeTables.scalars(of: self)
        }
    }
}

/// The scalar tables behind ``UnicodeClass``.
enum UnicodeTables {
    /// The scalars of a class that is generated one scalar at a time.
    static func scalars(of unicodeClass: UnicodeClass) -> [Unicode.Scalar] {
        switch unicodeClass {
        case .asciiPrintable: return asciiPrintable
        case .latin1: return latin1
        case .fullWidth: return fullWidth
        case .combiningMarks: return combiningMarks
        case .emoji: return emojiRepertoire
        case .whitespace: return whitespace
        case .invisibles: return invisibles
        case .caseMappingTraps: return caseMappingTraps
        case .otherScriptDigits: return otherScriptDigits
        case .numberForms: return numberForms
        }
    }

    static let asciiDigits = scalars(0x30...0x39)
    static let asciiPrintable = scalars(0x20...0x7E)
    static let latin1 = scalars(0xA0...0xFF)
    static let fullWidth = scalars(0xFF01...0xFF5E)

    /// The bases marks are stacked on: the digits a passcode holds and a few letters.
    static let combiningBases = scalars(0x30...0x39) + scalars([0x61, 0x65, 0x6E, 0x6F, 0x75, 0x41])
    static let combiningMarks = scalars(0x0300...0x036F)

    /// Every White_Space character, U+0020 first as the most ordinary.
    static let whitespace = scalars([0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0xA0, 0x1680])
        + scalars(0x2000...0x200A)
        + scalars([0x2028, 0x2029, 0x202F, 0x205F, 0x3000])

    /// Zero-width, format and bidi controls, and the variation selectors.
    static let invisibles = scalars(0x200B...0x200F)
        + scalars(0x2060...0x2064)
        + scalars([0xFEFF, 0x00AD, 0x061C, 0x180E, 0x034F])
        + scalars(0x202A...0x202E)
        + scalars(0x2066...0x2069)
        + scalars(0xFE00...0xFE0F)

    /// Characters whose case mapping is not a simple one-to-one swap within the same script.
    static let caseMappingTraps = scalars([
        0x00DF,  // ß: uppercases to "SS"
        0x1E9E,  // ẞ: lowercases to ß, which uppercases to "SS"
        0x0149,  // ŉ: uppercases to ʼN
        0x01F0,  // ǰ: uppercases to J + combining caron
        0x0390,  // ΐ: uppercases to three scalars
        0x03B0,  // ΰ: uppercases to three scalars
        0xFB00, 0xFB01, 0xFB02, 0xFB03, 0xFB04, 0xFB05, 0xFB06,  // ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ
        0xFB13,  // ﬓ: Armenian ligature
        0x0587,  // և: uppercases to ԵՒ
        0x0131,  // ı: dotless i uppercases to ASCII I
        0x0130,  // İ: lowercases to i + combining dot
        0x017F,  // ſ: long s uppercases to ASCII S
        0x212A,  // K: Kelvin sign lowercases to ASCII k
        0x212B,  // Å: Angstrom sign
        0x2126,  // Ω: Ohm sign
        0x00B5,  // µ: micro sign uppercases to Greek Μ
        0x03C2,  // ς: final sigma
        0x03D0,  // ϐ: Greek beta symbol
        0x1FB3,  // ᾳ: uppercases to ΑΙ
        0x1FBC,  // ᾼ: titlecase letter
        0x1FF3,  // ῳ: uppercases to ΩΙ
        0x1E96,  // ẖ: uppercases to H + combining macron below
        0x1E98,  // ẘ: uppercases to W + combining ring
        0x01C5,  // ǅ: titlecase digraph
    ])

    /// Decimal digits outside ASCII, in blocks of ten from zero to nine.
    static let otherScriptDigits = scalars(0x0660...0x0669)  // Arabic-Indic
        + scalars(0x06F0...0x06F9)  // Extended Arabic-Indic (Persian)
        + scalars(0x0966...0x096F)  // Devanagari
        + scalars(0x09E6...0x09EF)  // Bengali
        + scalars(0x0E50...0x0E59)  // Thai
        + scalars(0x1D7CE...0x1D7D7)  // Mathematical bold digits

    /// Superscripts, subscripts, Roman numerals and circled digits.
    static let numberForms = scalars([0x2070, 0x00B9, 0x00B2, 0x00B3])
        + scalars(0x2074...0x2079)  // superscripts ⁴–⁹
        + scalars(0x2080...0x2089)  // subscripts ₀–₉
        + scalars(0x2160...0x217F)  // Roman numerals Ⅰ–ⅿ
        + scalars(0x2460...0x2473)  // circled ①–⑳
        + scalars([0x24EA])  // circled ⓪
        + scalars(0x2776...0x277F)  // dingbat negative circled ❶–❿

    // MARK: Emoji parts

    /// Pictographs shown as emoji by default.
    static let emojiPictographs = scalars([
        0x1F600, 0x1F602, 0x1F62D, 0x1F525, 0x1F511, 0x1F512, 0x1F4F1, 0x1F4BB, 0x1F680, 0x1F308, 0x2705,
    ])
    /// Pictographs shown as text unless followed by U+FE0F.
    static let textDefaultPictographs = scalars([0x2764, 0x1F3F3, 0x1F441, 0x1F5E8, 0x2620, 0x263A])
    /// People and hands that take a skin-tone modifier.
    static let modifierBases = scalars([0x1F44D, 0x1F44B, 0x1F469, 0x1F468, 0x1F9D1, 0x1F467, 0x1F466])
    /// The five Fitzpatrick skin-tone modifiers.
    static let skinTones = scalars(0x1F3FB...0x1F3FF)
    /// Regional indicator letters 🇦–🇿; two make a flag.
    static let regionalIndicators = scalars(0x1F1E6...0x1F1FF)
    /// The characters a keycap sequence is built on.
    static let keycapBases = scalars(0x30...0x39) + scalars([0x23, 0x2A])
    /// Objects joined to a person by ZWJ in composed sequences.
    static let zwjObjects = scalars([0x1F4BB, 0x1F680, 0x1F525])
    /// Well-formed multi-person and multi-part ZWJ sequences.
    static let zwjSequences: [[UInt32]] = [
        [0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467, 0x200D, 0x1F466],  // family
        [0x1F469, 0x200D, 0x1F4BB],  // woman technologist
        [0x1F9D1, 0x1F3FD, 0x200D, 0x1F680],  // astronaut, medium skin tone
        [0x1F3F3, 0xFE0F, 0x200D, 0x1F308],  // rainbow flag
        [0x1F441, 0xFE0F, 0x200D, 0x1F5E8, 0xFE0F],  // eye in speech bubble
        [0x2764, 0xFE0F, 0x200D, 0x1F525],  // heart on fire
        [0x1F3F4, 0x200D, 0x2620, 0xFE0F],  // pirate flag
    ]
    /// Subdivision flags as tag sequences: England, Scotland, Wales.
    static let tagFlags: [[UInt32]] = [
        [0x1F3F4, 0xE0067, 0xE0062, 0xE0065, 0xE006E, 0xE0067, 0xE007F],
        [0x1F3F4, 0xE0067, 0xE0062, 0xE0073, 0xE0063, 0xE0074, 0xE007F],
        [0x1F3F4, 0xE0067, 0xE0062, 0xE0077, 0xE006C, 0xE0073, 0xE007F],
    ]
    static let zeroWidthJoiner = Unicode.Scalar(0x200D)!
    static let emojiPresentation = Unicode.Scalar(0xFE0F)!
    static let textPresentation = Unicode.Scalar(0xFE0E)!
    static let combiningKeycap = Unicode.Scalar(0x20E3)!
    static let blackFlag = Unicode.Scalar(0x1F3F4)!

    /// Every scalar the emoji generator can produce, in ascending order.
    static let emojiRepertoire: [Unicode.Scalar] = {
        var all = Set(emojiPictographs + textDefaultPictographs + modifierBases + skinTones)
        all.formUnion(regionalIndicators + keycapBases + zwjObjects)
        all.formUnion([zeroWidthJoiner, emojiPresentation, textPresentation, combiningKeycap, blackFlag])
        all.formUnion((zwjSequences + tagFlags).joined().map { Unicode.Scalar($0)! })
        return all.sorted { $0.value < $1.value }
    }()

    private static func scalars(_ range: ClosedRange<UInt32>) -> [Unicode.Scalar] {
        range.map { Unicode.Scalar($0)! }
    }

    private static func scalars(_ values: [UInt32]) -> [Unicode.Scalar] {
        values.map { Unicode.Scalar($0)! }
    }
}
