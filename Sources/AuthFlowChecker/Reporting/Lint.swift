/// Findings that are reported but are not violations (unless `--strict`).
public struct Lint: Hashable, Sendable {
    /// Steps no configuration reaches.
    public var unreachable: [String] = []
    /// Declared transitions never fired from a reachable configuration, as `from.event`.
    public var deadTransitions: [String] = []
    /// Data keys some step produces but no step requires.
    public var unusedData: [String] = []
    /// `authflow/2`: reachable non-terminal states whose only moves are system events, with no back (a spinner with no cancel).
    public var waitsOnSystem: [String] = []
    /// `authflow/2`: rows that never fire because earlier rows for the same `from` and `on` always hold first, as `from.event→to`.
    public var shadowedRows: [String] = []
    /// `authflow/2`: `anywhere` rows a state's own emission or row overrides, as `state.event`.
    public var overriddenAnywhere: [String] = []

    public init(unreachable: [String] = [], deadTransitions: [String] = [], unusedData: [String] = []) {
        self.unreachable = unreachable
        self.deadTransitions = deadTransitions
        self.unusedData = unusedData
    }

    /// One line per kind of finding there is: `unreachable states: legacyLogin`.
    public var lines: [String] {
        var lines: [String] = []
        if !unreachable.isEmpty { lines.append("unreachable states: \(unreachable.joined(separator: ", "))") }
        if !deadTransitions.isEmpty { lines.append("dead transitions: \(deadTransitions.joined(separator: ", "))") }
        if !unusedData.isEmpty { lines.append("data produced but never required: \(unusedData.joined(separator: ", "))") }
        if !waitsOnSystem.isEmpty { lines.append("waits on the system, with no way for the user to leave: \(waitsOnSystem.joined(separator: ", "))") }
        if !shadowedRows.isEmpty { lines.append("rows shadowed by earlier rows that always hold: \(shadowedRows.joined(separator: ", "))") }
        if !overriddenAnywhere.isEmpty { lines.append("anywhere rows overridden by a state's own: \(overriddenAnywhere.joined(separator: ", "))") }
        return lines
    }

    /// A table row as lint names it: `from.event`, or `from.event→to` when `to` is given.
    ///
    /// A name holding `.`, `→`, `,`, `"` or `\` is written in double quotes (with `"` and `\`
    /// escaped), so that two rows never print alike: `"a.b".c` and `a."b.c"`, not `a.b.c` twice.
    public static func rowName(from: String, on event: String, to: String? = nil) -> String {
        func part(_ name: String) -> String {
            guard name.contains(where: { ".→,\"\\".contains($0) }) || name.isEmpty else { return name }
            return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return part(from) + "." + part(event) + (to.map { "→" + part($0) } ?? "")
    }

    /// Whether there is nothing to report.
    public var isEmpty: Bool {
        unreachable.isEmpty && deadTransitions.isEmpty && unusedData.isEmpty && waitsOnSystem.isEmpty && shadowedRows.isEmpty
            && overriddenAnywhere.isEmpty
    }
}
