import AuthFlow

/// What changed between two versions of a flow for its user: the behavioural differences and the property changes.
///
/// `identical` holds when there is no difference and no property change, even when the two files
/// differ (renamed descriptions, reordered keys, reordered rows that fire as before).
public struct FlowDiffReport: Hashable, Sendable {
    /// What kind of difference a site is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A move offered legally by the new version only (or a variant only the new version has).
        case addedMove = "added-move"
        /// A move offered legally by the old version only (or a variant only the old version has).
        case removedMove = "removed-move"
        /// Both versions take the move and land on different screens (or start on different screens).
        case differentState = "different-state"
        /// Both versions land on the same screen with different data or a different history.
        case differentData = "different-data"
        /// Back allowed by the new version only.
        case addedBack = "added-back"
        /// Back allowed by the old version only.
        case removedBack = "removed-back"
    }

    /// One key of the data a screen holds: its value, or `nil` for a presence key (secrets redacted).
    public struct Datum: Hashable, Sendable {
        public var key: String
        public var value: String?
    }

    /// What one version does with a site's move.
    public enum Result: Hashable, Sendable {
        /// The move pushes the screen `state` with `data` (config keys left out: the variant names them).
        case moves(state: String, data: [Datum])
        /// A `"history": "replace"` row: the screen `state` is updated in place with `data` (section 5), so back skips it.
        case updates(state: String, data: [Datum])
        /// Back lands on the screen `state` with `data`: the frame below with the server-side keys as they are (section 5).
        case returns(state: String, data: [Datum])
        /// A reset row: the flow starts again at `state` (the initial one) with `data`.
        case resets(state: String, data: [Datum])
        /// The step does not offer the move, or offers it with no row to take (an illegal transition).
        case notOffered
        /// Back is allowed (it returns to the screen before).
        case back
        /// Back is not allowed here.
        case noBack
        /// The version has the variant, starting at `state`.
        case starts(state: String)
        /// The version does not have the variant.
        case noVariant
    }

    /// One step of a path: the event, the values the system chose for the keys it adds, and the screen after it.
    public struct Step: Hashable, Sendable {
        public var event: String
        public var chosen: [FlowSpec.KeyValue]
        public var state: String
    }

    /// A transition row as the user sees it: from a screen, on an event, to a screen.
    public struct Row: Hashable, Sendable, CustomStringConvertible {
        public var from: String
        public var event: String
        public var to: String

        public init(from: String, event: String, to: String) {
            self.from = from
            self.event = event
            self.to = to
        }

        /// `email.skip→done`, as the lint names rows.
        public var description: String { Lint.rowName(from: from, on: event, to: to) }
    }

    /// One site where the two versions behave differently, with its shortest path from the root.
    public struct Difference: Hashable, Sendable {
        public var kind: Kind
        /// The screen where the move is compared; `nil` for a changed `initial` or a variant in one version only.
        public var state: String?
        /// The event, `back` for back; `nil` for a changed `initial` or a one-sided variant.
        public var event: String?
        /// The values the system chose for the keys the move adds; a one-sided variant's config values.
        public var values: [FlowSpec.KeyValue]
        /// The variant the path runs in (its config values; empty for a flow without `config`).
        public var variant: [FlowSpec.KeyValue]
        /// The moves before the site: the path ends at the screen both versions agree on.
        public var path: [Step]
        /// What each version does.
        public var old: Result
        public var new: Result

        /// The number of moves before the site.
        public var length: Int { path.count }
    }

    /// How the checker's verdicts changed between the versions.
    public struct PropertyChanges: Hashable, Sendable {
        /// Sites violated only in the new version (`illegal-transition@email.next`), in the new report's order.
        public var new: [Site] = []
        /// Sites violated only in the old version.
        public var fixed: [Site] = []
        /// The spec's own rules (`properties`) only the new version states, and only the old one.
        public var rulesAdded: [String] = []
        public var rulesDropped: [String] = []
        /// States the new version reaches that the old one does not (by name), in the new version's order.
        public var newStates: [String] = []
        /// Rows the new version fires that the old one never fires (compared by screen, event and target), in the new file's order.
        public var newRows: [Row] = []
        /// The new version's violations at the sites of ``new``, whole (their counterexamples), for SARIF.
        public var newViolations: [Violation] = []
        /// The depth bound of the checks' runtime walk, which a violation's replay command repeats.
        public var checkDepth = CheckLimits().depth

        /// Whether no verdict and no rule changed (new states follow from a difference, so they do not count).
        public var isEmpty: Bool { new.isEmpty && fixed.isEmpty && rulesAdded.isEmpty && rulesDropped.isEmpty }
    }

    /// The behavioural differences, in breadth-first order (shortest first).
    public var differences: [Difference]
    /// The property changes; empty when they were not asked for.
    public var properties: PropertyChanges
    /// The limit that stopped the search (or a check) before it was complete, if one did.
    public var stoppedBy: StopReason?
    /// The depth bound, when `--depth` gave one: differences further from the root were not looked for.
    public var depth: Int?
    /// The pairs of configurations compared.
    public var pairs: Int

    /// Whether the versions behave alike and no property changed.
    public var identical: Bool { differences.isEmpty && properties.isEmpty }

    /// The exit status: 0 identical, 1 different, 3 a limit stopped the comparison before any difference.
    public var exitCode: Int32 {
        if !identical { return 1 }
        return stoppedBy == nil ? 0 : 3
    }
}
