import AuthFlow

/// A violated site with its shortest counterexample.
public struct Violation: Hashable, Sendable {
    /// The property violated.
    public var property: Property
    /// The state of the site; `nil` for a violated `reachable` property, which no one configuration shows.
    public var state: String?
    /// The event of the site (for `illegal-transition`; the offending event for runtime properties).
    public var event: String?
    /// Why it is a violation, in words.
    public var message: String
    /// The path from the initial frame, with its variant; its length is `path.count - 1` steps.
    public var path: FlowPath
    /// For a runtime that is not where the spec says after the last step: the expected and the actual frame.
    public var mismatch: FrameMismatch?
    /// The variant the path ran in: an `authflow/2` flow's config values, keys in declaration order
    /// (empty when it has no `config`); `nil` for an `authflow/1` flow. The path's own (``FlowPath/variant``).
    public var variant: [FlowSpec.KeyValue]? {
        get { path.variant }
        set { path.variant = newValue }
    }
    /// For a violated `reachable` property, which no one path shows: each variant in which no reachable
    /// configuration satisfies it (an empty list of values for a flow without `config`); `nil` otherwise.
    public var unsatisfiedIn: [[FlowSpec.KeyValue]]?
    /// The counterexample's number of events when its path was left out to keep the report bounded
    /// (``ModelChecker/reportedPathSteps``); `nil` when `path` is the whole counterexample.
    ///
    /// Every site of a long chain of states would otherwise carry the whole chain: the report's
    /// paths, and its memory, would grow with the square of the states.
    public var cutLength: Int?

    public init(property: Property, state: String?, event: String? = nil, message: String, path: FlowPath,
                mismatch: FrameMismatch? = nil, variant: [FlowSpec.KeyValue]? = nil) {
        self.property = property
        self.state = state
        self.event = event
        self.message = message
        self.path = path
        self.mismatch = mismatch
        self.path.variant = variant ?? path.variant
    }

    /// Where it is violated, in words: `password on resend`, `password`, or for a violated `reachable`
    /// property, which no configuration shows, `no reachable configuration`.
    public var place: String {
        guard let state else { return "no reachable configuration" }
        return event.map { "\(state) on \($0)" } ?? state
    }

    /// For a violated `reachable` property: `no reachable configuration satisfies it`, and where the flow
    /// has `config`, `in lockout=off` (the variants, `;` between two).
    public var unsatisfiedSummary: String {
        let variants = (unsatisfiedIn ?? []).filter { !$0.isEmpty }.map { $0.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") }
        return "no reachable configuration satisfies it" + (variants.isEmpty ? "" : " in \(variants.joined(separator: "; "))")
    }

    /// The number of events in the counterexample.
    public var length: Int { cutLength ?? max(0, path.count - 1) }

    /// Whether the counterexample has steps to show, printed or cut (``cutLength``).
    public var hasPath: Bool { !path.isEmpty || cutLength != nil }

    /// Where it is violated; prints as `property@state` or `property@state.event`.
    /// A spec's own property is one site, whatever the state it is violated in.
    public var site: Site { property.isUserDefined ? Site(property: property, state: nil) : Site(property: property, state: state, event: event) }
}
