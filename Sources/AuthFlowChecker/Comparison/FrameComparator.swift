import AuthFlow

/// A frame as a report shows it: the state, the history height and each data key's value.
public struct FrameSnapshot: Hashable, Sendable {
    /// One data key and its value as printed (`<redacted>` for a secret).
    public struct Entry: Hashable, Sendable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The state's name.
    public var state: String
    /// How many frames the history holds (1 at the root).
    public var height: Int
    /// The keys that have a value, in the flow's key order.
    public var data: [Entry]
    /// How many keys the runtime says it holds (keys the flow does not know included).
    public var dataCount: Int

    public init(state: String, height: Int, data: [Entry], dataCount: Int? = nil) {
        self.state = state
        self.height = height
        self.data = data
        self.dataCount = dataCount ?? data.count
    }
}

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

        public var description: String {
            switch self {
            case let .state(actual, expected):
                return "the runtime is at \(actual), expected \(expected)"
            case let .height(actual, expected):
                return "the runtime's history holds \(actual) frames, expected \(expected)"
            case let .dataCount(actual, expected, keys):
                return "the runtime holds \(actual) data keys, expected \(expected) {\(keys.joined(separator: ", "))}"
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
    public var summary: String { differences.map(\.description).joined(separator: "; ") }
}

/// Compares the runtime under test with the model's frame: the one comparator every search uses.
///
/// The exhaustive walk and the random-path tester both ask it, after every move they check, what
/// differs between the runtime and the frame the spec's semantics expect. It returns every
/// difference, not the first: a runtime that corrupts two keys is reported with both. Values are
/// compared exactly and shown through the caller's `display` (the walk's `#N` tokens, the
/// tester's strings); a secret key's values print as `<redacted>`.
struct FrameComparator {
    let model: FlowModel

    /// The mismatch between `driver` and the frame `(state, keys)` at history height `height`, or nil when they agree.
    /// - Parameters:
    ///   - expected: the value the model expects for each key in `keys`.
    ///   - display: how a value prints.
    /// - Complexity: O(k) driver queries for k keys in the flow.
    func compare<Driver: FlowDriver>(_ driver: Driver, state: Int32, height: Int, keys: UInt64,
                                     expected: (KeyID) -> FlowValue, display: (FlowValue) -> String) -> FrameMismatch? {
        var differences: [FrameMismatch.Difference] = []
        let actualState = driver.state
        let expectedState = model.states[Int(state)]
        let actualStateName = actualState.index >= 0 && actualState.index < model.stateCount
            ? model.states[actualState.index] : "\(actualState)"
        if actualState.rawValue != state {
            differences.append(.state(actual: actualStateName, expected: expectedState))
        }
        if driver.height != height {
            differences.append(.height(actual: driver.height, expected: height))
        }
        let expectedSet = KeySet(bits: keys)
        if driver.dataCount != expectedSet.count {
            differences.append(.dataCount(actual: driver.dataCount, expected: expectedSet.count, keys: model.names(of: expectedSet)))
        }
        var expectedData: [FrameSnapshot.Entry] = []
        var actualData: [FrameSnapshot.Entry] = []
        for index in model.keys.indices {
            let key = KeyID(Int32(index))
            let secret = model.secrets.contains(key)
            func shown(_ value: FlowValue) -> String { secret ? FlowReport.redacted : display(value) }
            let want = expectedSet.contains(key) ? expected(key) : nil
            let have = driver.value(of: key)
            if let want { expectedData.append(.init(key: model.keys[index], value: shown(want))) }
            if let have { actualData.append(.init(key: model.keys[index], value: shown(have))) }
            if want != have {
                differences.append(.value(key: model.keys[index], actual: have.map(shown), expected: want.map(shown)))
            }
        }
        guard !differences.isEmpty else { return nil }
        return FrameMismatch(
            expected: FrameSnapshot(state: expectedState, height: height, data: expectedData),
            actual: FrameSnapshot(state: actualStateName, height: driver.height, data: actualData, dataCount: driver.dataCount),
            differences: differences)
    }
}

/// Conventions every report shares.
enum FlowReport {
    /// What a secret key's value prints as.
    static let redacted = "<redacted>"
}
