/// What `authflow/2` adds to a spec, by name: declared data, configuration, guards, effects and global rows.
///
/// A `/1` spec leaves all of it empty; ``FlowSpec/format`` says which version a spec was written
/// in, and the loader refuses the new keys in a `/1` file.
extension FlowSpec {
    /// A declared data key and what it can hold.
    public struct DataDeclaration: Hashable, Sendable {
        /// What a key can hold.
        public enum Kind: Hashable, Sendable {
            /// Absent or present, as every key in `authflow/1`.
            case presence
            /// Absent, or one of these 1–64 distinct values.
            case valued([String])
            /// A number from 0 to `max` (1…255), 0 until incremented; never absent.
            case counter(max: Int)
        }

        public var key: String
        public var kind: Kind
        /// Section 5: a **server-side** key (a failed-attempt counter, a lockout): the user's back and a reset leave it
        /// as it is, only effects change it.
        public var server: Bool

        public init(_ key: String, _ kind: Kind, server: Bool = false) {
            self.key = key
            self.kind = kind
            self.server = server
        }
    }

    /// A configuration key (a feature flag, an A/B variant): read-only, fixed when the flow starts.
    public struct ConfigKey: Hashable, Sendable {
        public var key: String
        public var values: [String]

        public init(_ key: String, values: [String]) {
            self.key = key
            self.values = values
        }
    }

    /// A key with a value, in `equals` and `set`.
    public struct KeyValue: Hashable, Sendable {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// A key with the values it may have, in `in`.
    public struct KeyValues: Hashable, Sendable {
        public var key: String
        public var values: [String]

        public init(_ key: String, _ values: [String]) {
            self.key = key
            self.values = values
        }
    }

    /// A counter with a bound, in `atLeast` and `below`.
    public struct CounterBound: Hashable, Sendable {
        public var counter: String
        public var bound: Int

        public init(_ counter: String, _ bound: Int) {
            self.counter = counter
            self.bound = bound
        }
    }

    /// A condition on the data (and, in properties, the state), by name.
    public indirect enum Guard: Hashable, Sendable {
        /// The key is present (a valued key: has any value).
        case has(String)
        /// The key is absent.
        case missing(String)
        /// Every key has the value (an absent key equals nothing).
        case equals([KeyValue])
        /// Every key has one of the values.
        case isIn([KeyValues])
        /// Every counter is at least its bound.
        case atLeast([CounterBound])
        /// Every counter is below its bound.
        case below([CounterBound])
        /// Every guard holds (true when empty).
        case all([Guard])
        /// Some guard holds (false when empty).
        case any([Guard])
        /// The guard does not hold.
        case not(Guard)
        /// The state is one of these (in properties only).
        case at([String])
    }

    /// A rule the team states about every reachable configuration, by name (top-level `properties`).
    public struct UserProperty: Hashable, Sendable {
        /// What the rule demands of the reachable configurations.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// Every reachable configuration satisfies the guard.
            case always
            /// No reachable configuration satisfies the guard.
            case never
            /// In every variant, some reachable configuration satisfies the guard.
            case reachable
        }

        /// The id printed and taken by `--property`: lowercase words joined by hyphens, not a built-in id.
        public var id: String
        public var description: String?
        public var kind: Kind
        /// The condition, over the data and (with `at`) the state.
        public var condition: Guard

        public init(_ id: String, _ kind: Kind, _ condition: Guard, description: String? = nil) {
            self.id = id
            self.kind = kind
            self.condition = condition
            self.description = description
        }
    }

    /// Who sends an event: the person, or the system (a backend's answer, a timer).
    public enum Sender: String, Hashable, Sendable {
        case user, system
    }

    /// A global row: every non-terminal state but the excepted ones emits `on` and goes to `to`.
    public struct AnywhereRow: Hashable, Sendable {
        public var on: String
        /// Where the row goes; ignored when ``stay`` is set.
        public var to: String
        /// Whether the row goes back to the state it leaves, in each state it reaches (instead of ``to``).
        public var stay = false
        /// Section 5, `"history": "replace"` (with ``stay`` only): the move updates the screen in place, replacing the
        /// top frame of the history instead of pushing one.
        public var replace = false
        public var by: Sender
        public var when: Guard?
        public var except: [String]
        /// The emission's effects, as a step's emission has them (`adds`, `set`, `increment`).
        public var adds: [String]
        public var set: [KeyValue]
        public var increment: [String]
        /// Keys the row clears when it fires.
        public var clears: [String]

        public init(on: String, to: String, by: Sender = .user, when: Guard? = nil, except: [String] = [],
                    adds: [String] = [], set: [KeyValue] = [], increment: [String] = [], clears: [String] = []) {
            self.on = on
            self.to = to
            self.by = by
            self.when = when
            self.except = except
            self.adds = adds
            self.set = set
            self.increment = increment
            self.clears = clears
        }
    }

    /// Effects a step applies on every forward move into it (`entry`), in the order clears, adds, set, increment.
    public struct Effects: Hashable, Sendable {
        /// Keys that become absent (a counter becomes 0).
        public var clears: [String]
        /// Presence keys that become present.
        public var adds: [String]
        /// Valued keys that take the given value.
        public var set: [KeyValue]
        /// Counters that count one more (staying at their max).
        public var increment: [String]

        public init(clears: [String] = [], adds: [String] = [], set: [KeyValue] = [], increment: [String] = []) {
            self.clears = clears
            self.adds = adds
            self.set = set
            self.increment = increment
        }
    }
}

extension FlowSpec.Step {
    /// Where each key of ``requires`` and each list of ``anyOf`` stands in the written `requires` array.
    ///
    /// Errors name a requirement by its real position (`requires[2].anyOf[0]`), not by its place
    /// among the keys or among the lists. Without recorded positions the lists follow the keys.
    var requirementIndices: (keys: [Int], anyOf: [Int]) {
        let total = requires.count + anyOf.count
        let lists = Set(anyOfPositions)
        guard anyOfPositions.count == anyOf.count, lists.count == anyOf.count, anyOfPositions.allSatisfy({ (0..<total).contains($0) }) else {
            return (Array(0..<requires.count), Array(requires.count..<total))
        }
        return ((0..<total).filter { !lists.contains($0) }, anyOfPositions)
    }
}
