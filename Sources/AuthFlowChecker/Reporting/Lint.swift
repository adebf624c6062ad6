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

    /// Whether there is nothing to report.
    public var isEmpty: Bool { unreachable.isEmpty && deadTransitions.isEmpty && unusedData.isEmpty }
}
