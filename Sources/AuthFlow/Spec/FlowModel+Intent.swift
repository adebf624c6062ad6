/// What only the author knows, compiled: screens meant to be left with back, and the team's own rules.
extension FlowModel {
    /// A user property compiled to the model's ids: its condition is evaluated on a frame like a guard.
    public struct UserProperty: Hashable, Sendable {
        /// The id printed and taken by `--property`.
        public let id: String
        /// The author's words for it, if any.
        public let description: String?
        /// `always`, `never` or `reachable`.
        public let kind: FlowSpec.UserProperty.Kind
        /// The condition as written, for messages.
        public let written: FlowSpec.Guard
        /// The condition over the frame `(state, keys, values)`.
        @usableFromInline package let condition: Condition
        /// The condition in words, with the flow's names (`at signedIn ∧ has mfaChallenge`).
        public internal(set) var text = ""

        /// Whether the frame `(state, keys, values)` violates the property: for `always`, the condition
        /// fails; for `never`, it holds. A `reachable` property is never violated by one frame.
        @inlinable package func isViolated(state: Int32, keys: UInt64, values: UInt64, layout: DataLayout) -> Bool {
            switch kind {
            case .always: return !condition.holds(state: state, keys: keys, values: values, layout: layout)
            case .never: return condition.holds(state: state, keys: keys, values: values, layout: layout)
            case .reachable: return false
            }
        }

        /// Whether the frame satisfies the condition (what `reachable` looks for).
        @inlinable package func isSatisfied(state: Int32, keys: UInt64, values: UInt64, layout: DataLayout) -> Bool {
            condition.holds(state: state, keys: keys, values: values, layout: layout)
        }
    }
}

extension FlowSpec.UserProperty {
    /// The ids of the built-in properties: a user property may not take one.
    public static let reservedIDs = ["illegal-transition", "unmet-requirement", "deadlock", "no-exit", "terminal-exit",
                                     "undo-mismatch", "divergence", "passcode", "assurance"]

    /// Whether `id` is written like the built-in ids: lowercase letters and digits in words joined by
    /// single hyphens, starting with a letter, at most 64 characters.
    public static func isWellFormed(_ id: String) -> Bool {
        let scalars = Array(id.unicodeScalars)
        guard (1...64).contains(scalars.count), let first = scalars.first, ("a"..."z").contains(first), scalars.last != "-" else { return false }
        var previous: Unicode.Scalar = first
        for scalar in scalars.dropFirst() {
            let allowed = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || (scalar == "-" && previous != "-")
            guard allowed else { return false }
            previous = scalar
        }
        return true
    }
}

extension _FlowModelBuilder {
    /// Reads `backOnly` and `properties`: a back-only screen must allow back (not `back: false`, not the
    /// initial state, not terminal); a property needs a well-formed id of its own and a guard over known
    /// keys, values and states.
    mutating func readIntent() {
        let root = JSONPath.root
        isBackOnly = [Bool](repeating: false, count: states.count)
        for step in spec.steps where step.backOnly {
            guard let id = stateIndex[step.state], states[id.index] == step.state else { continue }
            let path = root.member("steps").member(step.state).member("backOnly").text
            let name = Self.shown(step.state)
            if !step.back {
                fail(path, "'\(name)' is back-only but sets back to false: a back-only screen is left with back")
            } else if id == initial {
                fail(path, "'\(name)' is back-only but is the initial state, where there is nothing to go back to")
            } else if isSuccess[id.index] || isAbort[id.index] {
                fail(path, "'\(name)' is back-only but is terminal: back is not possible from a terminal state")
            } else {
                isBackOnly[id.index] = true
            }
        }
        var first: [String: Int] = [:]
        for (i, property) in spec.properties.enumerated() {
            let path = root.member("properties").index(i)
            let id = property.id
            if !FlowSpec.UserProperty.isWellFormed(id) {
                fail(path.member("id").text, "property id '\(Self.shown(id))' must be lowercase words joined by hyphens (like 'mfa-before-session'), at most 64 characters")
            } else if FlowSpec.UserProperty.reservedIDs.contains(id) {
                fail(path.member("id").text, "'\(id)' is a built-in property's id; give the rule an id of its own")
            } else if let earlier = first[id] {
                let at = locations[root.member("properties").index(earlier).text].map { " (line \($0.line))" } ?? ""
                fail(path.member("id").text, "property id '\(id)' is already the id of properties[\(earlier)]\(at); each rule needs an id of its own")
            } else {
                first[id] = i
            }
            guard let condition = condition(property.condition, at: path.member(property.kind.rawValue)) else { continue }
            userProperties.append(FlowModel.UserProperty(id: id, description: property.description, kind: property.kind,
                                                         written: property.condition, condition: condition))
        }
    }
}
