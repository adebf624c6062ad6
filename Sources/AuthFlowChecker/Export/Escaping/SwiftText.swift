import AuthFlow

/// The one escaper for generated Swift source: string literals, identifiers and line comments.
///
/// A name or a file name goes into a generated test only through these, so none can end a
/// literal, a comment or a line early and put code of its own into the test target.
package enum SwiftText {
    /// `text` as a Swift string literal: `\`, `"` and control, invisible and line-breaking characters escaped.
    ///
    /// ```swift
    /// SwiftText.literal("a\"b\nc")   // "\"a\\\"b\\nc\""
    /// ```
    package static func literal(_ text: String) -> String {
        TextScalars.quoted(text) { scalar in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            case "\0": return "\\0"
            case _ where scalar.isControlOrInvisibleFormat || scalar.properties.isDefaultIgnorableCodePoint:
                return "\\u{" + TextScalars.hex(scalar.value) + "}"
            default: return nil
            }
        }
    }

    /// `text` as the rest of a `//` comment: on one line (breaks and invisibles as `\u{…}`), no `*/` or `/*`.
    package static func comment(_ text: String) -> String {
        TerminalText.escaped(text).replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "/*", with: "/ *")
    }

    /// An UpperCamelCase identifier made of the ASCII letters and digits of `text`'s words, `fallback` first
    /// when it would not start with a letter: always a valid Swift identifier, never a keyword once suffixed.
    package static func typeName(_ text: String, fallback: String) -> String {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        let joined = words.joined()
        return joined.first?.isLetter == true ? joined : fallback + joined
    }

    /// Whether `text` is a plain Swift identifier (ASCII letters, digits and `_`, not starting with a digit) and no keyword.
    package static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
        let keywords: Set<String> = ["class", "struct", "enum", "protocol", "func", "var", "let", "import", "init", "self", "Self",
                                     "Any", "Type", "in", "is", "as", "try", "throws", "return", "true", "false", "nil", "static"]
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !keywords.contains(text)
    }
}
