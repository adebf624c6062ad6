/// Findings that are reported but are not violations (unless `--strict`).
public struct Lint: Hashable, Sendable {
    /// Steps no configuration reaches.
    public var unreachable: [String] = []
    /// Declared transitions never fired from a reachable configuration, as `from.event`.
    public var deadTransitions: [String] = []
    /// Data keys some step produces but no step requires.
    public var unusedData: [String] = []

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
        return lines
    }

    /// Whether there is nothing to report.
    public var isEmpty: Bool { unreachable.isEmpty && deadTransitions.isEmpty && unusedData.isEmpty }
}
