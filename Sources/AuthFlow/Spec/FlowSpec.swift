/// An `authflow/1` flow spec by name, as written in a JSON file or declared in Swift.
///
/// A spec is only a description; ``FlowModel/init(spec:)`` validates it and interns its names
/// into the dense model the runtime and the checker run on. Order is kept everywhere (steps,
/// events, transitions) because it fixes which shortest counterexample is reported.
public struct FlowSpec: Hashable, Sendable {
    /// One screen: its input contract, output contract and whether back is allowed.
    public struct Step: Hashable, Sendable {
        public var state: String
        public var requires: [String]
        public var emits: [Emission]
        public var back: Bool
        /// `authflow/2`: each list needs at least one of its keys present.
        public var anyOf: [[String]] = []
        /// `authflow/2`: the index in the written `requires` array of each list of ``anyOf``, where keys
        /// and lists may be mixed; empty when the lists follow the keys (a flow declared in Swift).
        var anyOfPositions: [Int] = []
        /// `authflow/2`: keys the step reads when present (they count as used).
        public var optional: [String] = []
        /// `authflow/2`: a screen the user is meant to leave with back (help, information): never a
        /// `deadlock` or `no-exit`. It must allow back and not be the initial or a terminal state.
        public var backOnly = false
        /// `authflow/2`, section 6: how strongly the user must have proved who they are to reach this screen.
        public var assurance: AssuranceLevel?
        /// `authflow/2`: effects applied on every forward move into this step, after the row's (never by back).
        public var entry: Effects?

        public init(_ state: String, requires: [String] = [], emits: [Emission] = [], back: Bool = true) {
            self.state = state
            self.requires = requires
            self.emits = emits
            self.back = back
        }
    }

    /// One event a step can send and the data keys it adds.
    public struct Emission: Hashable, Sendable {
        public var event: String
        public var adds: [String]
        /// `authflow/2`: clears, set and increment (its adds are ``adds``).
        public var clears: [String] = []
        public var set: [KeyValue] = []
        public var increment: [String] = []
        /// `authflow/2`: the step offers the event only when this holds.
        public var when: Guard?
        /// `authflow/2`: who sends it.
        public var by: Sender = .user
        /// `authflow/2`: valued keys of ``adds`` answered with these values only (a subset of the key's
        /// domain, in this order), one branch per listed value; a key not listed takes each value of its domain.
        public var answers: [KeyValues] = []
        /// Whether the file wrote the emission as the list of keys it adds (every `/1` emission, the
        /// `/2` shorthand `"event": ["key"]`) rather than as an object: the JSON paths of its keys
        /// are then `emits.event[0]`, not `emits.event.adds[0]`.
        ///
        /// How the emission was written, not what it means: two emissions that differ only here are equal.
        @NotCompared public var writtenAsList = false

        public init(_ event: String, adds: [String] = []) {
            self.event = event
            self.adds = adds
        }

        /// The JSON path of the `index`th key the emission adds, under the emission's own path.
        package func addsPath(_ index: Int, under path: JSONPath, format: Int) -> JSONPath {
            format < 2 || writtenAsList ? path.index(index) : path.member("adds").index(index)
        }
    }

    /// One row of the transition table.
    public struct TransitionRow: Hashable, Sendable {
        public var from: String
        public var on: String
        public var to: String
        /// `authflow/2`: the row fires only when this holds on the data after the emission's effects.
        public var when: Guard?
        /// `authflow/2`: keys cleared when the row fires.
        public var clears: [String] = []
        /// `authflow/2`: the row starts the flow again (`to` is the initial state).
        public var reset = false
        /// `authflow/2`: the row's own effects, applied after its ``clears`` (presence keys added, values set,
        /// counters incremented); not on a reset row.
        public var adds: [String] = []
        public var set: [KeyValue] = []
        public var increment: [String] = []
        /// `authflow/2`, reset rows: keys whose values (after the emission's effects) the new run starts with.
        public var keeps: [String] = []
        /// Section 5, `"history": "replace"`: the move updates the screen in place (`to` equals `from`), replacing the
        /// top frame of the history instead of pushing one; back afterwards goes to the frame below.
        public var replace = false

        public init(from: String, on: String, to: String) {
            self.from = from
            self.on = on
            self.to = to
        }
    }

    /// The format version the spec was written in: 1 or 2.
    public var format = 1
    /// `authflow/2`: declared data keys, in declaration order.
    public var data: [DataDeclaration] = []
    /// `authflow/2`: configuration keys; every combination of values is a variant.
    public var config: [ConfigKey] = []
    /// `authflow/2`: global rows.
    public var anywhere: [AnywhereRow] = []
    /// `authflow/2`: the team's own rules, decided like the built-in properties.
    public var properties: [UserProperty] = []
    /// `authflow/2`, section 6: the data keys that prove an authentication factor, in declaration order.
    public var factors: [Factor] = []
    public var name: String?
    public var description: String?
    public var initial: String
    public var success: [String]
    public var abort: [String]
    public var steps: [Step]
    public var transitions: [TransitionRow]
    public var passcode: PasscodePolicy?
    public var secrets: [String]
    /// Keys the flow hands to the app (a session token) that no step requires: not unused data.
    public var outputs: [String]

    public init(
        name: String? = nil, description: String? = nil, initial: String,
        success: [String], abort: [String], steps: [Step], transitions: [TransitionRow],
        passcode: PasscodePolicy? = nil, secrets: [String] = [], outputs: [String] = []
    ) {
        self.name = name
        self.description = description
        self.initial = initial
        self.success = success
        self.abort = abort
        self.steps = steps
        self.transitions = transitions
        self.passcode = passcode
        self.secrets = secrets
        self.outputs = outputs
    }
}

