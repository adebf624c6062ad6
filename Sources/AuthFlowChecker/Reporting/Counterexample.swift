import AuthFlow

/// Renders counterexamples for people: numbered steps, the data after each, the breaking step marked.
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
    public static func render(_ violation: Violation, number: Int, replay: String?, secrets: Set<String> = [],
                              style: TextStyle = .plain) -> String {
        var lines: [String] = []
        let site = violation.event.map { "\(violation.state) on \($0)" } ?? violation.state
        lines.append("\(number)) \(style.bad(violation.property.id)) at \(site)"
                     + (violation.path.isEmpty ? "" : " — \(violation.length) step\(violation.length == 1 ? "" : "s")"))
        lines.append("   \(violation.message)")
        if !violation.path.isEmpty {
            let eventWidth = max(5, violation.path.map { ($0.event ?? "(start)").count }.max() ?? 0)
            let stateWidth = max(5, violation.path.map(\.state.count).max() ?? 0)
            let last = violation.path.count - 1
            for (i, step) in violation.path.enumerated() {
                let marker = i == last ? style.bad("✗") : " "
                let event = (step.event ?? "(start)").padding(toLength: eventWidth, withPad: " ", startingAt: 0)
                let state = step.state.padding(toLength: stateWidth, withPad: " ", startingAt: 0)
                var line = " \(marker) \(String(i).leftPadded(2, with: " ")). \(event)  → \(state)  \(dataText(step, secrets: secrets))"
                if i == last { line += "   " + style.bad("← \(violation.property.id)") }
                lines.append(line.trailingSpacesTrimmed)
            }
        }
        if let replay { lines.append("   replay: \(replay)") }
        return lines.joined(separator: "\n")
    }

    /// `{email, session}` or, with values, `{email=a@b.c, session=<redacted>}`.
    public static func dataText(_ step: PathStep, secrets: Set<String>) -> String {
        guard let values = step.values else { return "{\(step.data.joined(separator: ", "))}" }
        let pairs = step.data.map { key in "\(key)=\(secrets.contains(key) ? "<redacted>" : (values[key] ?? "?"))" }
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
