import AuthFlow

/// The one escaper for text in a Mermaid diagram (stateDiagram-v2 and flowchart, Mermaid 11).
///
/// Names never become ids: writers number their nodes (`s0`, `s1`, …) and put each name in a label
/// through ``label(_:)``, which writes every character Mermaid's grammar or its preprocessor could
/// read as syntax as one of Mermaid's entity codes (`#58;` for `:`), which Mermaid turns back into
/// the character when it draws the label:
///
/// - `:` and `;` end a transition's or a note's text, `"` a state's; `#` starts an entity code;
/// - `%` starts a comment or a `%%{init: …}%%` directive anywhere in the text; `{` and `}` open blocks;
/// - `[`, `]`, `<`, `>` make a state a fork, join or choice (`x[[fork]]`, `<<choice>>`), `&` an entity,
///   `` ` `` a Markdown string, `\` an escape;
/// - any line holding `direction` and then `TB`, `BT`, `LR` or `RL` is read as a direction statement,
///   whatever else it holds, so the `n` of every `direction` is written `#110;`;
/// - control and invisible characters are shown as `\u{…}`, an empty label as one space, and a label
///   longer than ``maxLabelCharacters`` characters is cut there with `…`.
///
/// Titles go in the YAML front matter instead, through ``title(_:)``. A test parses every
/// writer's output with Mermaid's own parser and compares the labels it reads with the names.
package enum MermaidText {
    /// The most characters a label shows: longer names are cut with `…` (Mermaid refuses diagrams over 50,000 characters).
    package static let maxLabelCharacters = 160

    /// `text` as the text of a Mermaid label: inside a state's quotes, after a transition's or a note's `:`.
    /// `limit` is the most characters shown (`nil`: all of them, for the writer's own text).
    package static func label(_ text: String, limit: Int? = maxLabelCharacters) -> String {
        if text.isEmpty { return "#32;" }
        let scalars = Array(TerminalText.escaped(limit.map { cut(text, after: $0) } ?? text).unicodeScalars)
        var out = ""
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"": out += "#quot;"
            case "&": out += "#amp;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case ":", ";", "#", "%", "[", "]", "{", "}", "\\", "`", "|":
                out += "#\(scalar.value);"
            case _ where (scalar == "n" || scalar == "N") && index >= 8
                && String(String.UnicodeScalarView(scalars[(index - 8)..<index])).lowercased() == "directio":
                out += "#\(scalar.value);"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` as the value of the front matter's `title:`, a YAML double-quoted string.
    package static func title(_ text: String) -> String {
        var out = "\""
        for scalar in TerminalText.escaped(cut(text, after: maxLabelCharacters)).unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `text` cut after `limit` characters with `…`, never inside a character.
    static func cut(_ text: String, after limit: Int) -> String {
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end < text.endIndex else {
            return text
        }
        return text[..<end] + "…"
    }
}
