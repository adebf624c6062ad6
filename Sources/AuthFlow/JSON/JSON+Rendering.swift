extension JSON {
    /// The value as JSON text, pretty (the default) or compact; equal values give identical text.
    ///
    /// Pretty text indents by two spaces, writes `"key": value`, puts each element and member on
    /// its own line and writes empty arrays and objects as `[]` and `{}`. Compact text has no
    /// whitespace at all. Neither ends with a newline.
    ///
    /// Strings escape `"` and `\` with a backslash; control characters as `\b \f \n \r \t`, or
    /// else `\u00XX` (lowercase hex); everything else, `/` and non-ASCII included, is written as is.
    /// Integers are written in decimal. Doubles are written in Swift's shortest form that reads
    /// back to the same value, which keeps a fraction or an exponent (`2.0`, `0.004`, `1e+16`,
    /// `5e-324`), so a whole double stays distinguishable from an ``int(_:)``; a non-finite double
    /// (infinity, NaN) has no JSON form and is written `null`.
    ///
    /// ```swift
    /// JSON(["a": [1, 2], "b": [:]]).rendered()
    /// // {
    /// //   "a": [
    /// //     1,
    /// //     2
    /// //   ],
    /// //   "b": {}
    /// // }
    /// ```
    /// - Parameter pretty: whether to indent, or write everything on one line with no spaces.
    /// - Returns: the JSON text.
    /// - Complexity: O(*n*) in the size of the output.
    package func rendered(pretty: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, pretty: pretty, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as a JSON string literal, quoted and escaped, e.g. `"a\"b"`.
    package static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        writeString(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // Explicit stack-free recursion is fine here: values are built by the program, and their
    // depth is the program's choice; parsed values are bounded by JSONLimits.maxDepth.
    private func write(into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i):
            out.append(contentsOf: String(i).utf8)
        case .double(let d):
            out.append(contentsOf: (d.isFinite ? d.description : "null").utf8)
        case .string(let s):
            Self.writeString(s, into: &out)
        case .array(let elements):
            guard !elements.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(into: &out, indent: indent + 1) }
                element.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.members.isEmpty else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(into: &out, indent: indent + 1) }
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                member.value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(into out: inout [UInt8], indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// Appends `s` as a JSON string literal, quoted and escaped as ``rendered(pretty:)`` writes strings.
    package static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hexDigits = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
