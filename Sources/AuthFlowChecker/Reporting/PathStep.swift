/// One step of a counterexample path: the event taken (none for the first) and the frame after it.
public struct PathStep: Hashable, Sendable {
    /// The event that led here; `nil` for the initial frame; `"back"` for an undo in a fuzz path.
    public var event: String?
    /// The state after the step.
    public var state: String
    /// The data keys after the step, in declaration order (every reporter lists them alike).
    public var data: [String]
    /// The data values after the step, for paths found by running the runtime; secrets are `<redacted>`.
    public var values: [String: String]?

    public init(event: String?, state: String, data: [String], values: [String: String]? = nil) {
        self.event = event
        self.state = state
        self.data = data
        self.values = values
    }
}
