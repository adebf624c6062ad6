/// The limits a spec is held to beyond its format, which keep loading any file bounded in time and memory.
///
/// Specs come from colleagues, generators and servers, so nothing in a file may make the loader
/// trap, hang or use memory out of proportion to the file's size. Besides the file size
/// (``SpecLoader/defaultMaxBytes``) and the parser's nesting and string limits (``JSONLimits``),
/// a spec file is held to these; each one broken is reported as an ordinary ``SpecIssue``:
///
/// - a state, event or data-key name is at most ``maxNameBytes`` bytes of UTF-8, and neither it
///   nor the flow's `name` contains a control or invisible formatting character (reports print
///   them: an escape sequence would drive the terminal, a bidi override reorder the line);
/// - a list of data keys (`requires`, the keys an event adds, `secrets`) has at most
///   ``maxKeysPerList`` entries, since a flow has at most that many distinct keys
///   (``KeySet/capacity``);
/// - an ``InvalidSpecError`` lists at most ``maxIssues`` problems; a last issue counts the rest.
///
/// Messages quote a name of more than ``shownNameLength`` characters cut short, with `…`, and
/// show control and invisible characters in any text they quote as `\u{…}` escapes.
public enum SpecLimits {
    /// The longest state, event or data-key name a spec file may use, in bytes of UTF-8.
    ///
    /// Every JSON path under a name repeats it, so without a bound a long step name over many
    /// short entries would cost memory quadratic in the file's size.
    public static let maxNameBytes = 128

    /// The most entries one list of data keys may have: a flow uses at most ``KeySet/capacity`` keys.
    public static let maxKeysPerList = KeySet.capacity

    /// The most problems one ``InvalidSpecError`` lists; a last issue says how many more were found.
    public static let maxIssues = 100

    /// How many characters of a name a message quotes before cutting it short with `…`.
    public static let shownNameLength = 64

    /// `name` as a message quotes it: whole when short, else its first ``shownNameLength``
    /// characters, `…` and its length in bytes.
    ///
    /// Control and invisible formatting characters are shown as `\u{…}` escapes, so that a name
    /// cannot hide itself, reorder the line (bidi overrides) or drive the terminal (ANSI escapes)
    /// when a message is printed.
    static func shown(_ name: String) -> String {
        TerminalText.escaped(name, limit: shownNameLength)
    }
}

extension SpecLimits {
    /// What is wrong with `name` as the name of a `what` (too long, or a control or invisible character), or nil.
    static func nameProblem(_ name: String, what: String) -> String? {
        let bytes = name.utf8.count
        if bytes > maxNameBytes {
            return "\(what) '\(shown(name))' is \(bytes) bytes long; names may be at most \(maxNameBytes) bytes"
        }
        return visibilityProblem(name, what: what)
    }

    /// What is wrong with `text` if it holds a control or invisible formatting character, or nil.
    static func visibilityProblem(_ text: String, what: String) -> String? {
        guard let scalar = text.unicodeScalars.first(where: \.isControlOrInvisibleFormat) else { return nil }
        let code = scalar.codePoint
        let kind = switch scalar.properties.generalCategory {
        case .control: "a control character"
        case .format, .lineSeparator, .paragraphSeparator: "an invisible formatting character"
        default: "a default-ignorable character, drawn as nothing"
        }
        return "\(what) '\(shown(text))' contains \(code), \(kind); names may not contain control or invisible formatting characters"
    }
}

extension SpecLimits {
    /// The message for `name`, a `what`, met where `existing` was named already: the two are equal
    /// to Swift's `==` (canonically equivalent) but not the same scalars, or nil when they are the same.
    ///
    /// Such names look alike in every report, yet a file or a trace that writes one never matches
    /// the other byte for byte: a spec may not hold both (see ``TextScalars/same(_:_:)``).
    static func normalisationProblem(_ name: String, _ existing: String, what: String, existingWhat: String) -> String? {
        guard !TextScalars.same(name, existing) else { return nil }
        let (here, there) = TextScalars.normalisationDifference(name, existing)
        return "\(what) '\(shown(name))' differs from \(existingWhat) '\(shown(existing))' only by Unicode normalisation "
            + "(\(here) here, \(there) there): the two look the same but are different names; write both the same way"
    }
}
