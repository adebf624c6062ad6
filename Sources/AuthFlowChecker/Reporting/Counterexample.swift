import AuthFlow

/// Renders counterexamples for people: numbered steps, what each changed in the data, the breaking step marked and whole.
///
/// Shared by the library's CI gate and the `authcheck` command, so a failing `swift test` and a
/// failing `authcheck check` print the same text.
public enum CounterexampleRenderer {
    /// The lines of one violation's counterexample, without a trailing newline.
    /// - Parameters:
    ///   - violation: the violation.
    ///   - number: its number in the report (1-based).
    ///   - replay: the command line that reproduces it, if any.
    ///   - secrets: keys whose values print as `<redacted>` whatever the path says.
    ///   - subject: what the frame diff calls the implementation under test.
    ///   - legend: whether to print the ``legend`` above the steps, for a counterexample read on its own (a JUnit
    ///     failure); a report prints it once, above its first counterexample.
    public static func render(_ violation: Violation, number: Int, replay: String?, secrets: Set<String> = [],
                              style: TextStyle = .plain, subject: String = "the runtime", legend: Bool = false) -> String {
        var lines: [String] = []
        let place = violation.state == nil ? " — no reachable configuration satisfies it" : " at \(violation.place)"
        let steps = stepCount(violation)
        lines.append("\(number)) \(style.bad(violation.property.id))\(place)"
                     + (violation.hasPath ? " — \(steps) step\(steps == 1 ? "" : "s")" : ""))
        lines += wrappedText(violation.message, first: "   ", rest: "     ")
        // A spec's own property: the rule in the team's words, under the checker's.
        if let rule = violation.property.rule?.description, !rule.isEmpty {
            lines += wrappedText(rule, first: "   rule: ", rest: "         ")
        }
        if let variant = violation.variant, !variant.isEmpty {
            lines += wrappedText(variant.map { "\($0.key)=\($0.value)" }.joined(separator: ", "), first: "   variant: ", rest: "            ")
        }
        if violation.cutLength != nil {
            lines.append("   path: not shown, to keep the report bounded (\(cutNote))")
        }
        if legend && violation.path.count > 1 { lines.append("   \(Self.legend)") }
        // An illegal transition's path ends at the state that emits the event; the event it
        // cannot take is shown as a step of its own, marked, so the reader sees what was pressed.
        lines += stepLines(violation.path, refused: violation.property == .illegalTransition ? violation.event : nil,
                           refusedFrom: violation.state ?? "?", property: violation.property.id, secrets: secrets, style: style)
        if let mismatch = violation.mismatch {
            lines += frameDiff(mismatch, step: violation.length, style: style, subject: subject)
        }
        if let replay { lines += wrappedReplay(replay) }
        return lines.joined(separator: "\n")
    }

    /// Why a violation's path is not shown, in words (``Violation/cutLength``).
    public static let cutNote = "a report shows its first violations' paths, \(ModelChecker.reportedPathSteps) steps in all"

    /// The expected and the actual frame as one listing where only the lines that differ carry `−` or `+`.
    ///
    /// The history line is left out when neither frame has one (an app's coordinator keeps no
    /// history the checker reads); `subject` names the implementation in the legend.
    ///
    /// ```
    ///    frame after step 2 (− expected by the spec, + actual in the runtime):
    ///        state    password
    ///      − history  3 frames
    ///      + history  2 frames
    ///        email    #2
    ///      − account  #2
    /// ```
    public static func frameDiff(_ mismatch: FrameMismatch, step: Int, style: TextStyle = .plain,
                                 subject: String = "the runtime") -> [String] {
        let expected = mismatch.expected, actual = mismatch.actual
        // Each field: its id (frame fields apart from data keys, which may be named `state`), name and values.
        func frames(_ height: Int?) -> String? { height.map { "\($0) frame\($0 == 1 ? "" : "s")" } }
        var fields: [(id: String, name: String, expected: String?, actual: String?)] = [("/state", "state", expected.state, actual.state)]
        if expected.height != nil || actual.height != nil {
            fields.append(("/history", "history", frames(expected.height), frames(actual.height)))
        }
        let actualValues = Dictionary(actual.data.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        var listed = Set<String>()
        for entry in expected.data {
            listed.insert(entry.key)
            fields.append((entry.key, entry.key, entry.value, actualValues[entry.key]))
        }
        for entry in actual.data where !listed.contains(entry.key) { fields.append((entry.key, entry.key, nil, entry.value)) }
        let known = actual.data.count
        if actual.dataCount != known {
            fields.append(("/other", "(other keys)", nil, "\(actual.dataCount - known) the flow does not declare"))
        }
        // Which lines differ comes from the comparison, not from the printed values: two secrets both print `<redacted>`.
        var differing = Set<String>()
        for difference in mismatch.differences {
            switch difference {
            case .state: differing.insert("/state")
            case .height: differing.insert("/history")
            case .dataCount: differing.insert("/other")
            case let .value(key, _, _): differing.insert(key)
            }
        }
        let width = fields.map { TerminalText.width($0.name) }.max() ?? 0
        var lines = ["   frame after step \(step) (− expected by the spec, + actual in \(subject)):"]
        for field in fields {
            let name = TerminalText.padded(field.name, toWidth: width)
            if !differing.contains(field.id) {
                lines.append("       \(name)  \(field.expected ?? "")".trailingSpacesTrimmed)
                continue
            }
            if let value = field.expected { lines.append("     " + style.bad("− \(name)  \(value)")) }
            if let value = field.actual { lines.append("     " + style.good("+ \(name)  \(value)")) }
        }
        return lines
    }

    /// `{email, session}` or, with values, `{email=a@b.c, session=<redacted>}`.
    ///
    /// A key with no value in a path that has values (a presence key of an `authflow/2` flow, whose
    /// model knows only that it is there) shows as its name.
    public static func dataText(_ step: PathStep, secrets: Set<String>) -> String {
        guard let values = step.values else { return "{\(step.data.joined(separator: ", "))}" }
        let pairs = step.data.map { key in
            values[key].map { "\(key)=\(secrets.contains(key) ? FlowReport.redacted : $0)" } ?? key
        }
        return "{\(pairs.joined(separator: ", "))}"
    }
}

/// How text output is styled: plain for pipes and `NO_COLOR`, ANSI colour on a terminal.
public struct TextStyle: Sendable {
    public var colour: Bool

    public static let plain = TextStyle(colour: false)
    public static let ansi = TextStyle(colour: true)

    public init(colour: Bool) { self.colour = colour }

    public func bad(_ text: String) -> String { colour ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
    public func good(_ text: String) -> String { colour ? "\u{1B}[32m\(text)\u{1B}[0m" : text }
    public func warn(_ text: String) -> String { colour ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
    public func dim(_ text: String) -> String { colour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
}

extension String {
    var trailingSpacesTrimmed: String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
