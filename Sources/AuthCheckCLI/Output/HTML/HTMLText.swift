import AuthFlow

/// Escaping for the HTML report, which is also well-formed XML (XHTML-compatible) so tests can parse it.
enum HTMLText {
    /// `text` safe in element content and in double-quoted attribute values.
    ///
    /// `&`, `<`, `>`, `"` and `'` become entities; `/` becomes `&#47;` so a name can never put a
    /// `//` (a URL) into the file; control characters XML forbids print as `\xHH`, as the DOT does.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let entity = entities[scalar] {
                out += entity
            } else if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                out += "\\x" + TextScalars.hex(scalar.value, minimumDigits: 2)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// What ``escaped(_:)`` writes for the characters markup or a URL would read.
    static let entities: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;", "/": "&#47;", "\n": "&#10;", "\t": "&#9;",
    ]

    /// An element: `<name a="v">content</name>`, attributes escaped, `content` already HTML.
    static func element(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:], _ content: String = "") -> String {
        "<\(name)\(attributeText(attributes))>\(content)</\(name)>"
    }

    /// An empty element written `<name a="v"/>`, as XML and HTML both read it.
    static func empty(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:]) -> String {
        "<\(name)\(attributeText(attributes))/>"
    }

    /// ` a="v" b="w"`; attributes whose value is `nil` are left out.
    static func attributeText(_ attributes: KeyValuePairs<String, String?>) -> String {
        attributes.compactMap { key, value in value.map { " \(key)=\"\(escaped($0))\"" } }.joined()
    }

    /// A number as SVG writes it: at most one decimal, no trailing `.0`.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
