/// A JSON path such as `$.steps.email.requires[0]`, as errors and reports print it.
///
/// Member names that are not plain identifiers are quoted: `$.steps["mfa code"]`, with quotes,
/// backslashes, control characters and invisible formatting characters escaped as in JSON
/// (`$.steps["a\u202eb"]`).
package struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// The path's text.
    package private(set) var text: String

    /// The document's root, `$`.
    package static let root = JSONPath(text: "$")

    /// The path of member `name` of the object at this path.
    package func member(_ name: String) -> JSONPath {
        if Self.isIdentifier(name) { return JSONPath(text: text + "." + name) }
        var quoted = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.isControlOrInvisibleFormat:
                // Escaped as JSON does, so that no name can hide in, reorder or drive the terminal.
                for unit in String(scalar).utf16 {
                    quoted += "\\u" + TextScalars.hex(unit, minimumDigits: 4, uppercase: false)
                }
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return JSONPath(text: text + "[\"" + quoted + "\"]")
    }

    /// The path of element `index` of the array at this path.
    package func index(_ index: Int) -> JSONPath { JSONPath(text: text + "[\(index)]") }

    package var description: String { text }

    /// Whether `name` is written bare: an ASCII letter or `_`, then ASCII letters, digits, `_` and `-`.
    ///
    /// Read byte by byte, with no Unicode property look-up: every path of a spec's every name asks.
    static func isIdentifier(_ name: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        var bytes = name.utf8.makeIterator()
        guard let first = bytes.next(), first == UInt8(ascii: "_") || isLetter(first) else { return false }
        while let byte = bytes.next() {
            guard isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
        }
        return true
    }
}
