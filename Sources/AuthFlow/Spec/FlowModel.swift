/// A validated flow with its names interned into dense ids and bit sets: what the runtime and the checker run on.
///
/// Build one from a ``FlowSpec`` (loaded from JSON by ``SpecLoader`` or declared in Swift with
/// ``FlowDefinition``); both paths produce the same model. All per-node data the checker needs
/// is in flat arrays indexed by id, so exploration touches no strings and no dictionaries.
public struct FlowModel: Sendable {
    /// One forward move a step can make: the event it sends, the keys it adds, and where the table sends it.
    public struct Move: Hashable, Sendable {
        /// The event.
        public var event: EventID
        /// The data keys the event adds.
        public var adds: KeySet
        /// The added keys in declaration order (the order values are generated and pushed).
        public var addedKeys: [KeyID]
        /// The target state, or `nil` when the table has no transition (an illegal transition).
        public var target: StateID?
    }

    /// One declared row of the transition table, by id.
    public struct Row: Hashable, Sendable {
        public var from: StateID
        public var event: EventID
        public var to: StateID

        public init(from: StateID, event: EventID, to: StateID) {
            self.from = from
            self.event = event
            self.to = to
        }
    }

    /// The spec this model was built from.
    public let spec: FlowSpec
    /// The flow's name, or `nil`.
    public var name: String? { spec.name }
    /// State names, indexed by ``StateID``, in step declaration order.
    public let states: [String]
    /// Event names, indexed by ``EventID``, in order of first appearance.
    public let events: [String]
    /// Data key names, indexed by ``KeyID``, in order of first appearance.
    public let keys: [String]
    /// The initial state.
    public let initial: StateID
    /// Whether each state is terminal (success or abort).
    public let isTerminal: [Bool]
    /// Whether each state is a success state.
    public let isSuccess: [Bool]
    /// Whether each state is an abort state.
    public let isAbort: [Bool]
    /// Each state's input contract.
    public let requires: [KeySet]
    /// Whether back is allowed from each state (`back` of its step).
    public let canGoBack: [Bool]
    /// Each state's forward moves, in emits declaration order.
    public let moves: [[Move]]
    /// The declared transition table, deduplicated, in declaration order; then, in `authflow/2`, the
    /// row each `anywhere` entry gives each state it reaches (entries in order, states in order).
    public let rows: [Row]
    /// The keys a report must never print values of.
    public let secrets: KeySet
    /// The keys the flow hands to the app that no step requires (`outputs`): not unused data.
    public let outputs: KeySet
    /// The one-time-passcode policy (the default when the spec has none).
    public let passcode: PasscodePolicy
    /// Warnings found while validating (identical duplicate transitions and the like).
    public let warnings: [SpecIssue]
    /// Where each JSON path of the spec starts in its file (`$.steps.email` → `7:22`); empty for a
    /// flow declared in Swift. ``location(ofStep:)`` and its siblings read it.
    public let locations: [String: SourceLocation]

    /// The format version the spec was written in: 1 or 2.
    package let format: Int
    /// How a frame holds the data: presence bits and packed values.
    @usableFromInline package let layout: DataLayout
    /// Each state's emissions compiled for ``successors(state:keys:values:into:)``, in declaration order.
    @usableFromInline package let emissions: [[Emission]]
    /// Each state's `anyOf` requirements: each set needs one of its keys present.
    package let anyOf: [[KeySet]]
    /// Each state's `optional` keys (read when present).
    package let optional: [KeySet]
    /// The data a variant starts with: its config keys' values.
    @usableFromInline package struct Root: Hashable, Sendable {
        @usableFromInline package var keys: UInt64
        @usableFromInline package var values: UInt64
    }
    /// One root per variant, in variant order; a flow without config has one, with no data.
    @usableFromInline package internal(set) var roots: [Root]
    /// Each variant's config values, in the order of ``roots``.
    package internal(set) var variants: [[FlowSpec.KeyValue]]
    /// `anywhere` rows a state's own emission or row overrides, as `state.event`.
    package let anywhereOverrides: [String]
    /// Per state: a screen the user is meant to leave with back (`backOnly`), never a `deadlock` or `no-exit`.
    public let isBackOnly: [Bool]
    /// The team's own rules (`properties`), in declaration order.
    public internal(set) var properties: [UserProperty]
    /// Section 6: the factor keys and the level each state asks for (nothing asked in a flow without them).
    public let assurance: FlowAssurance
    /// Whether every move is fixed by the state alone (no guard, value, clear, counter or reset):
    /// then ``moves`` lists exactly what ``successors(state:keys:values:into:)`` gives, and a search
    /// may read it instead. True of every `authflow/1` flow.
    package let isStatic: Bool

    let stateIndex: [String: StateID]
    let eventIndex: [String: EventID]
    let keyIndex: [String: KeyID]

    // Names are looked up scalar for scalar: the dictionaries hash as `String` does, which takes
    // `K` and U+212A KELVIN SIGN for one name, so a hit is checked against the name itself. A
    // flow never holds two names of one kind that `String` cannot tell apart (the builder refuses them).

    /// The id of the state named `name`, written with exactly these scalars, if the flow has it.
    public func state(named name: String) -> StateID? {
        stateIndex[name].flatMap { TextScalars.same(states[$0.index], name) ? $0 : nil }
    }
    /// The id of the event named `name`, written with exactly these scalars, if the flow has it.
    public func event(named name: String) -> EventID? {
        eventIndex[name].flatMap { TextScalars.same(events[$0.index], name) ? $0 : nil }
    }
    /// The id of the data key named `name`, written with exactly these scalars, if the flow has it.
    public func key(named name: String) -> KeyID? {
        keyIndex[name].flatMap { TextScalars.same(keys[$0.index], name) ? $0 : nil }
    }

    /// The name of `state`.
    @inlinable public func name(of state: StateID) -> String { states[state.index] }
    /// The name of `event`.
    @inlinable public func name(of event: EventID) -> String { events[event.index] }
    /// The name of `key`.
    @inlinable public func name(of key: KeyID) -> String { keys[key.index] }
    /// The names of `set`'s keys, in id order.
    public func names(of set: KeySet) -> [String] { set.map { keys[$0.index] } }

    /// The number of states.
    @inlinable public var stateCount: Int { states.count }
}
