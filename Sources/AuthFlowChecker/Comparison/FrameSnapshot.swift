/// A frame as a report shows it: the state, the history height (when the implementation has one the checker can read) and each data key's value.
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
    /// How many frames the history holds (1 at the root); `nil` when the frame comes from an
    /// implementation whose history the checker cannot read (an app's own coordinator).
    public var height: Int?
    /// The keys that have a value, in the flow's key order.
    public var data: [Entry]
    /// How many keys the runtime says it holds (keys the flow does not know included).
    public var dataCount: Int

    public init(state: String, height: Int?, data: [Entry], dataCount: Int? = nil) {
        self.state = state
        self.height = height
        self.data = data
        self.dataCount = dataCount ?? data.count
    }
}
