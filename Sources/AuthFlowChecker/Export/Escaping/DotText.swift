import AuthFlow

/// The one escaper for Graphviz DOT: quoted ids and labels, each at most ``maxBytes`` bytes.
///
/// Graphviz refuses a quoted string longer than 16,384 bytes, so ``label(_:)`` cuts long text with
/// `…` (never inside a character); the graph's own name is cut the same way, and a node's id is
/// its state's name, which a spec holds to 128 bytes.
package enum DotText {
    /// The most bytes of UTF-8 a label keeps before it is cut with `…`, well under Graphviz's 16,384.
    package static let maxBytes = 2_000

    /// `text` as a quoted DOT id: `"` and `\` escaped, a line break as `\n`, other control and invisible
    /// characters as `\u{…}` text. Distinct names give distinct ids: a spec's names hold no control
    /// characters, and the escaping of the rest is injective.
    package static func quoted(_ text: String) -> String {
        TextScalars.quoted(text) { scalar in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case _ where scalar.isControlOrInvisibleFormat: return "\\\\u{" + TextScalars.hex(scalar.value) + "}"
            default: return nil
            }
        }
    }

    /// `text` as a quoted DOT label: cut to ``maxBytes``, `&` written `&amp;` so it never reads as an entity.
    package static func label(_ text: String) -> String {
        quoted(cut(text).replacingOccurrences(of: "&", with: "&amp;"))
    }

    /// `text` whole when it is at most ``maxBytes`` bytes, else its first characters that fit and `…`.
    package static func cut(_ text: String) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var bytes = 0
        var end = text.startIndex
        for index in text.indices {
            let next = text.index(after: index)
            bytes += text.utf8.distance(from: index, to: next)
            if bytes > maxBytes - 3 { break }
            end = next
        }
        return text[..<end] + "…"
    }
}
