/// The one escaper for text a terminal shows: every report, table and error message that echoes a name,
/// a file name or a value a user typed or loaded passes it through ``escaped(_:)``.
///
/// Control and invisible formatting characters (``Swift/Unicode/Scalar/isControlOrInvisibleFormat``)
/// become visible `\u{…}` escapes, so a name cannot hide itself, reorder the line (bidi overrides),
/// or drive the terminal (an ESC sequence that retitles or clears it). Everything else is kept.
/// Columns are measured with ``width(_:)``, by what a terminal shows, not by characters.
///
/// ```swift
/// TerminalText.escaped("a\u{1B}]0;owned\u{07}")   // "a\u{1B}]0;owned\u{7}"
/// TerminalText.width("日本")                       // 4
/// TerminalText.padded("é", toWidth: 3)             // "é  "
/// ```
package enum TerminalText {
    /// `text` with each control and invisible formatting character written as `\u{…}`.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: \.isControlOrInvisibleFormat) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isControlOrInvisibleFormat {
                out += "\\u{" + TextScalars.hex(scalar.value) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` escaped as ``escaped(_:)`` except its line breaks and tabs: a message of several lines,
    /// as the console writes every diagnostic to stderr, whatever user input it quotes.
    package static func escapedKeepingLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.isControlOrInvisibleFormat && $0 != "\n" && $0 != "\t" }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { escaped(String($0)).replacingOccurrences(of: "\\u{9}", with: "\t") }.joined(separator: "\n")
    }

    /// `text` escaped, cut after `limit` characters (never inside one) with `…` and, when `counted`, its length in bytes.
    package static func escaped(_ text: String, limit: Int, counted: Bool = true) -> String {
        var count = 0
        var end = text.endIndex
        for index in text.indices {
            if count == limit { end = index; break }
            count += 1
        }
        guard end < text.endIndex else { return escaped(text) }
        return escaped(String(text[..<end])) + (counted ? "…(\(text.utf8.count) bytes)" : "…")
    }

    /// How many terminal columns `text` takes: East Asian wide and emoji characters 2, combining
    /// marks and zero-width characters 0, others 1; a grapheme is as wide as its widest scalar.
    package static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// How many columns one grapheme takes.
    package static func width(of character: Character) -> Int {
        var widest = 0
        var emojiPresentation = false
        for scalar in character.unicodeScalars {
            if scalar == "\u{FE0F}" { emojiPresentation = true }
            widest = max(widest, width(of: scalar))
        }
        // A text-default symbol asked for as emoji (❤️, ☎️) takes two columns, as terminals draw it.
        if emojiPresentation, widest == 1 { return 2 }
        return widest
    }

    /// `text` followed by spaces up to `width` columns; text already as wide or wider is returned whole.
    package static func padded(_ text: String, toWidth width: Int) -> String {
        let shown = self.width(text)
        return shown >= width ? text : text + String(repeating: " ", count: width - shown)
    }

    /// The columns one scalar takes on its own.
    private static func width(of scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default: break
        }
        if scalar.value == 0x200B || (0x1160...0x11FF).contains(scalar.value) { return 0 }   // zero width space, Hangul medial jamo
        if properties.isEmojiPresentation { return 2 }
        return isEastAsianWide(scalar.value) ? 2 : 1
    }

    /// Whether `value` is East Asian Wide or Fullwidth (UAX #11), by the blocks that hold such characters.
    private static func isEastAsianWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
