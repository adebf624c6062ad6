/// The model's frame and the runtime's, at the step where they disagree, with every difference.
public struct FrameMismatch: Hashable, Sendable {
    /// One way the runtime's frame differs from the model's.
    public enum Difference: Hashable, Sendable, CustomStringConvertible {
        /// The runtime is in another state.
        case state(actual: String, expected: String)
        /// The runtime's history holds another number of frames.
        case height(actual: Int, expected: Int)
        /// The runtime holds another number of keys than the model (keys it alone knows included).
        case dataCount(actual: Int, expected: Int, keys: [String])
        /// A key's value differs; `nil` is absent, a secret's values are `<redacted>`.
        case value(key: String, actual: String?, expected: String?)

        public var description: String { description(subject: "the runtime") }

        /// The difference in words, naming the implementation under test `subject`.
        public func description(subject: String) -> String {
            switch self {
            case let .state(actual, expected):
                return "\(subject) is at \(actual), expected \(expected)"
            case let .height(actual, expected):
                return "\(subject)'s history holds \(actual) frames, expected \(expected)"
            case let .dataCount(actual, expected, keys):
                return "\(subject) holds \(actual) data keys, expected \(expected) {\(keys.joined(separator: ", "))}"
            case let .value(key, actual?, expected?) where actual == FlowReport.redacted && expected == FlowReport.redacted:
                return "\(key) is not the value expected (\(FlowReport.redacted))"
            case let .value(key, actual, expected):
                return "\(key) is \(actual ?? "absent"), expected \(expected ?? "absent")"
            }
        }
    }

    /// The frame the spec's semantics expect.
    public var expected: FrameSnapshot
    /// The frame the runtime is in.
    public var actual: FrameSnapshot
    /// Every difference, state first, then the history, the key count, and the keys in order.
    public var differences: [Difference]

    /// The differences as one sentence, as violation messages quote them.
    public var summary: String { summary(subject: "the runtime") }

    /// The differences as one sentence, naming the implementation under test `subject`.
    public func summary(subject: String) -> String { differences.map { $0.description(subject: subject) }.joined(separator: "; ") }
}
