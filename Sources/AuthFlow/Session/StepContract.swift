/// The contract of one screen of a flow: the data it needs, and the events it can send with the data each adds.
///
/// The input contract (``requires``) is what must be in the aggregated data when the state is
/// entered; the step is created with exactly those values. The output contract (``emits``) lists
/// each event the step can send and the data keys it adds with it; the session refuses any other
/// output.
public struct StepContract<Event: Hashable, Key: Hashable>: Hashable {
    /// One event of the output contract and the data keys it adds.
    public struct Emission: Hashable {
        /// The event the step sends.
        public var event: Event
        /// The keys the step adds to the data with it.
        public var adds: [Key]

        public init(_ event: Event, adds: [Key] = []) {
            self.event = event
            self.adds = adds
        }
    }

    /// The data keys that must be present when the state is entered.
    public var requires: [Key]
    /// The events the step can send, in declaration order.
    public var emits: [Emission]
    /// Whether the user can undo from this screen (`back` in a spec; default `true`).
    public var canGoBack: Bool

    public init(requires: [Key] = [], emits: [Emission] = [], canGoBack: Bool = true) {
        self.requires = requires
        self.emits = emits
        self.canGoBack = canGoBack
    }

    /// The keys `event` adds, or `nil` when the contract does not list `event`.
    @inlinable public func adds(for event: Event) -> [Key]? {
        for emission in emits where emission.event == event { return emission.adds }
        return nil
    }
}

extension StepContract: Sendable where Event: Sendable, Key: Sendable {}
extension StepContract.Emission: Sendable where Event: Sendable, Key: Sendable {}

/// What a step hands back when the user finishes a screen: an event and the data it adds.
public struct StepOutput<Event: Hashable, Key: Hashable, Value: Equatable> {
    /// The event the step sends.
    public var event: Event
    /// The data the step adds, in order.
    public var data: [(key: Key, value: Value)]

    public init(_ event: Event, data: [(Key, Value)] = []) {
        self.event = event
        self.data = data.map { (key: $0.0, value: $0.1) }
    }
}

extension StepOutput: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.event == rhs.event && lhs.data.elementsEqual(rhs.data) { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A screen of the flow as the session creates it: its state, its contract and exactly its input.
public struct FlowStep<State: Hashable, Event: Hashable, Key: Hashable, Value: Equatable> {
    /// The state this step represents.
    public var state: State
    /// The step's contract.
    public var contract: StepContract<Event, Key>
    /// Exactly the data the contract requires, and nothing else.
    public var input: [Key: Value]
}

extension FlowStep: Equatable where Value: Equatable {}
