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

    /// The code point `value` as Unicode writes it, `U+` and at least four hex digits: `U+001B`, `U+1F600`.
    package static func codePoint(_ value: UInt32) -> String {
        "U+" + hex(value, minimumDigits: 4)
    }
}

extension Unicode.Scalar {
    /// Whether the scalar is a control character (C0, DEL, C1) or an invisible formatting character
    /// (bidi controls, zero widths, line and paragraph separators): general category Cc, Cf, Zl or Zp.
    ///
    /// These are the characters a printed name could hide in, reorder a line with, or drive the
    /// terminal with; spec names may not contain them and paths and messages escape them.
    package var isControlOrInvisibleFormat: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// The scalar as Unicode writes it, `U+` and at least four hex digits: `U+001B`, `U+1F600`.
    package var codePoint: String { TextScalars.codePoint(value) }
}
