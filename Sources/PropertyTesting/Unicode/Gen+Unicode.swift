extension Gen where Value == String {
    /// Returns a generator of strings from one ``UnicodeClass``, sized like ``Gen/array(of:)``.
    ///
    /// A string is a run of *units*: one scalar for most classes, a base with stacked marks for
    /// ``UnicodeClass/combiningMarks``, a whole emoji sequence for ``UnicodeClass/emoji``. Strings
    /// shrink toward fewer units and toward the first scalars of the class's repertoire.
    public static func unicode(_ unicodeClass: UnicodeClass) -> Gen<String> {
        joined(unit(of: unicodeClass))
    }

    /// Returns a generator of strings of `count` units from one ``UnicodeClass``.
    public static func unicode(_ unicodeClass: UnicodeClass, count: ClosedRange<Int>) -> Gen<String> {
        joined(unit(of: unicodeClass), count: count)
    }

    /// Returns a generator of one unit of `unicodeClass`: a scalar, a marked base, or an emoji sequence.
    public static func unit(of unicodeClass: UnicodeClass) -> Gen<String> {
        switch unicodeClass {
        case .combiningMarks: return combiningUnit
        case .emoji: return emojiUnit
        default: return scalarUnit(UnicodeTables.scalars(of: unicodeClass))
        }
    }

    /// Strings of ASCII digits `0`–`9`, what a user meant to type into a passcode field.
    public static var asciiDigits: Gen<String> { joined(scalarUnit(UnicodeTables.asciiDigits)) }
    /// Strings of printable ASCII, U+0020–U+007E.
    public static var asciiPrintable: Gen<String> { unicode(.asciiPrintable) }
    /// Strings of Latin-1 Supplement characters, U+00A0–U+00FF.
    public static var latin1: Gen<String> { unicode(.latin1) }
    /// Strings of full-width ASCII forms, U+FF01–U+FF5E.
    public static var fullWidth: Gen<String> { unicode(.fullWidth) }
    /// Strings of digits and letters carrying stacked combining marks, sometimes a mark with no base.
    public static var combiningMarks: Gen<String> { unicode(.combiningMarks) }
    /// Strings of emoji, including skin tones, ZWJ sequences, flags, keycaps and tag sequences.
    public static var emoji: Gen<String> { unicode(.emoji) }
    /// Strings of the 25 Unicode White_Space characters.
    public static var whitespace: Gen<String> { unicode(.whitespace) }
    /// Strings of zero-width, format and bidi control characters and variation selectors.
    public static var invisibles: Gen<String> { unicode(.invisibles) }
    /// Strings of characters whose case mapping changes length or script or does not round-trip.
    public static var caseMappingTraps: Gen<String> { unicode(.caseMappingTraps) }
    /// Strings of decimal digits from scripts other than ASCII.
    public static var otherScriptDigits: Gen<String> { unicode(.otherScriptDigits) }
    /// Strings of superscripts, subscripts, Roman numerals and circled digits.
    public static var numberForms: Gen<String> { unicode(.numberForms) }

    /// Strings like what users type and paste: mostly digits and ASCII, laced with every class above.
    ///
    /// A string is a run of short chunks; each chunk is 1–4 units of ASCII digits (most often),
    /// printable ASCII, whitespace, invisibles, or any other ``UnicodeClass``. It shrinks toward
    /// fewer chunks and toward digits, so a minimal counterexample shows only the characters that
    /// matter.
    public static var userInput: Gen<String> {
        let chunk = Gen.frequency([
            (6, joined(scalarUnit(UnicodeTables.asciiDigits), count: 1...4)),
            (3, unicode(.asciiPrintable, count: 1...4)),
            (2, unicode(.whitespace, count: 1...4)),
            (2, unicode(.invisibles, count: 1...4)),
            (1, unicode(.latin1, count: 1...4)),
            (1, unicode(.fullWidth, count: 1...4)),
            (1, unicode(.combiningMarks, count: 1...4)),
            (1, unicode(.emoji, count: 1...4)),
            (1, unicode(.caseMappingTraps, count: 1...4)),
            (1, unicode(.otherScriptDigits, count: 1...4)),
            (1, unicode(.numberForms, count: 1...4)),
        ])
        return joined(chunk).resized { $0 / 4 }
    }

    // MARK: Units

    private static func scalarUnit(_ scalars: [Unicode.Scalar]) -> Gen<String> {
        Gen<Unicode.Scalar>.element(of: scalars).map { String($0) }
    }

    private static func scalarString(_ scalars: [Unicode.Scalar]) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// A base with 1–8 stacked marks, or (one time in six) marks with no base at all.
    private static var combiningUnit: Gen<String> {
        let base = Gen<Unicode.Scalar>.element(of: UnicodeTables.combiningBases)
        let marks = Gen<[Unicode.Scalar]>.array(
            of: Gen<Unicode.Scalar>.element(of: UnicodeTables.combiningMarks),
            count: 1...8
        )
        return Gen<(Unicode.Scalar?, [Unicode.Scalar])>.zip(
            Gen<Unicode.Scalar?>.frequency([(5, base.map { $0 }), (1, .constant(nil))]),
            marks
        ).map { base, marks in
            scalarString((base.map { [$0] } ?? []) + marks)
        }
    }

    /// One emoji: a pictograph, a toned person, a ZWJ sequence, a flag, a keycap or a tag flag.
    private static var emojiUnit: Gen<String> {
        typealias Tables = UnicodeTables
        let pictograph = Gen<Unicode.Scalar>.element(of: Tables.emojiPictographs).map { String($0) }
        let textDefault = Gen<(Unicode.Scalar, Unicode.Scalar?)>.zip(
            .element(of: Tables.textDefaultPictographs),
            .element(of: [Tables.emojiPresentation, Tables.textPresentation, nil])
        ).map { scalar, selector in scalarString([scalar] + (selector.map { [$0] } ?? [])) }
        let tone = Gen<Unicode.Scalar>.element(of: Tables.skinTones)
        let person = Gen<(Unicode.Scalar, Unicode.Scalar?)>.zip(
            .element(of: Tables.modifierBases),
            tone.optional
        ).map { base, tone in [base] + (tone.map { [$0] } ?? []) }
        let composedZWJ = Gen<([Unicode.Scalar], Unicode.Scalar)>.zip(
            person,
            .element(of: Tables.zwjObjects)
        ).map { person, object in scalarString(person + [Tables.zeroWidthJoiner, object]) }
        let fixedZWJ = Gen<[UInt32]>.element(of: Tables.zwjSequences).map(unicodeString)
        let indicator = Gen<Unicode.Scalar>.element(of: Tables.regionalIndicators)
        let flag = Gen<(Unicode.Scalar, Unicode.Scalar)>.zip(indicator, indicator).map { scalarString([$0, $1]) }
        let keycap = Gen<Unicode.Scalar>.element(of: Tables.keycapBases).map { base in
            scalarString([base, Tables.emojiPresentation, Tables.combiningKeycap])
        }
        let tagFlag = Gen<[UInt32]>.element(of: Tables.tagFlags).map(unicodeString)
        return Gen.frequency([
            (3, pictograph),
            (2, textDefault),
            (2, person.map(scalarString)),
            (2, fixedZWJ),
            (1, composedZWJ),
            (2, flag),
            (1, keycap),
            (1, tagFlag),
        ])
    }

    @Sendable
    private static func unicodeString(_ values: [UInt32]) -> String {
        scalarString(values.map { Unicode.Scalar($0)! })
    }
}
