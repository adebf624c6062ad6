/// The one home for how AuthFlow classifies and writes unicode scalars in messages, paths and reports.
///
/// Every "is this character invisible?" question in the runtime starts from
/// ``Swift/Unicode/Scalar/isControlOrInvisibleFormat``; a user that must remove more (the passcode
/// normaliser also drops whitespace and default-ignorable code points) composes it with the
/// other properties, and says why. Every hexadecimal code point a message prints comes from
/// ``TextScalars/hex(_:minimumDigits:uppercase:)``.
package enum TextScalars {
    /// `value` in hexadecimal, padded with zeros to at least `minimumDigits` digits.
    ///
    /// ```swift
    /// TextScalars.hex(0x1B, minimumDigits: 4)                    // "001B"
    /// TextScalars.hex(0x202e, minimumDigits: 4, uppercase: false) // "202e"
    /// ```
    package static func hex<T: BinaryInteger>(_ value: T, minimumDigits: Int = 1, uppercase: Bool = true) -> String {
        let digits = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, minimumDigits - digits.count)) + digits
    }

    /// `text` between double quotes, each scalar written as `escape` says (`nil`: as it is).
    ///
    /// The one loop every output language's quoting shares; each language says only what it escapes.
    package static func quoted(_ text: String, escape: (Unicode.Scalar) -> String?) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
        }
        return out + "\""
    }

    /// The code point `value` as Unicode writes it, `U+` and at least four hex digits: `U+001B`, `U+1F600`.
    package static func codePoint(_ value: UInt32) -> String {
        "U+" + hex(value, minimumDigits: 4)
    }
}

extension Unicode.Scalar {
    /// Whether the scalar is a control character (C0, DEL, C1) or an invisible one: general category
    /// Cc, Cf, Zl or Zp (bidi controls, zero widths, line and paragraph separators), or a
    /// default-ignorable code point (``isDefaultIgnorable``: the combining grapheme joiner, Hangul
    /// fillers, variation selectors, tags).
    ///
    /// These are the characters a printed name could hide in, reorder a line with, or drive the
    /// terminal with; spec names may not contain them and paths and messages escape them.
    package var isControlOrInvisibleFormat: Bool {
        // Printable ASCII, what nearly every name is made of, without the table look-up.
        if value >= 0x20 && value < 0x7F { return false }
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return isDefaultIgnorable
        }
    }

    /// Whether the scalar is in Unicode's Default_Ignorable_Code_Point set, which renderers draw as
    /// nothing: `U+00AD`, `U+034F`, `U+061C`, `U+115F`–`U+1160`, `U+17B4`–`U+17B5`,
    /// `U+180B`–`U+180F`, `U+200B`–`U+200F`, `U+202A`–`U+202E`, `U+2060`–`U+206F`, `U+3164`,
    /// `U+FE00`–`U+FE0F`, `U+FEFF`, `U+FFA0`, `U+FFF0`–`U+FFF8`, `U+1BCA0`–`U+1BCA3`,
    /// `U+1D173`–`U+1D17A` and `U+E0000`–`U+E0FFF`.
    ///
    /// The set is written out rather than read from the toolchain's tables, so that what a spec
    /// may name does not change with the Swift version; it is the set of Unicode 16, reserved code
    /// points included (those ranges are kept ignorable for the future characters they will hold).
    package var isDefaultIgnorable: Bool {
        switch value {
        case 0x00AD, 0x034F, 0x061C, 0x115F...0x1160, 0x17B4...0x17B5, 0x180B...0x180F, 0x200B...0x200F,
             0x202A...0x202E, 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0...0xFFF8,
             0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF:
            return true
        default:
            return false
        }
    }

    /// The scalar as Unicode writes it, `U+` and at least four hex digits: `U+001B`, `U+1F600`.
    package var codePoint: String { TextScalars.codePoint(value) }
}

extension TextScalars {
    /// Whether `a` and `b` are the same text scalar for scalar: what names compare by.
    ///
    /// `String`'s `==` and hashing treat canonically equivalent strings as equal: `"K"` written
    /// with U+212A KELVIN SIGN equals `"K"`, and `"é"` precomposed equals `e` and U+0301. Names
    /// that differ that way are different names that look the same; callers that meet two
    /// strings `==` holds for and this does not refuse them (``normalisationDifference(_:_:)``).
    package static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// How `a` differs from `b`, canonically equivalent to it, as messages print it: the code points
    /// each has where the other differs, `("U+212A", "U+004B")` for the Kelvin sign and `K`.
    ///
    /// The common first and last scalars are left out; at most eight code points of each side are
    /// listed, then `…`.
    package static func normalisationDifference(_ a: String, _ b: String) -> (String, String) {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var start = 0
        while start < x.count, start < y.count, x[start] == y[start] { start += 1 }
        var end = 0
        while end < x.count - start, end < y.count - start, x[x.count - 1 - end] == y[y.count - 1 - end] { end += 1 }
        func listed(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
            if scalars.isEmpty { return "nothing" }
            let shown = scalars.prefix(8).map(\.codePoint).joined(separator: " ")
            return scalars.count > 8 ? shown + " …" : shown
        }
        return (listed(x[start..<(x.count - end)]), listed(y[start..<(y.count - end)]))
    }
}
