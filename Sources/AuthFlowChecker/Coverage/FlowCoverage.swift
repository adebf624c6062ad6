import AuthFlow
import Foundation

/// Which states a flow reaches and which transitions it fires, with how often, as `authcheck coverage` reports.
///
/// The counts, precisely (section 4 of the contract):
/// - per state, `configurations`: the reachable `(state, data keys)` configurations whose state it
///   is. They sum to the flow's `configurations`.
/// - per state, `stacks`: the distinct undo stacks of at most `depth` forward events whose top frame
///   is in that state. They sum to the flow's `stacks` at that depth (the root stack included).
/// - per transition, `stacks`: the distinct undo stacks of at most `depth` events whose top frame
///   that transition pushed. When two events of one step push the same frame, the stack is one and
///   counts for the earlier event in the step's `emits`. They sum to `stacks − 1` (every stack but
///   the root).
/// - a transition is *fired* when its `from` state is reachable and emits its event; otherwise it
///   is *dead* (the checker's lint). A fired transition can still count 0 stacks at a small depth.
///
/// Stacks are the paths from the root in the configuration graph whose edges are deduplicated per
/// parent exactly as ``RuntimeExplorer/countStacks(depth:)`` and the runtime walk do, so they are
/// counted level by level rather than enumerated: time O(depth · E) and memory O(C + E) for C
/// configurations and E deduplicated edges, whatever the number of stacks. Counts that would
/// overflow saturate at `Int.max` (``saturated``).
public struct FlowCoverage: Sendable {
    /// One state's coverage.
    public struct StateCoverage: Hashable, Sendable {
        public var name: String
        public var isInitial: Bool
        public var isSuccess: Bool
        public var isAbort: Bool
        public var reachable: Bool
        /// Reachable `(state, data keys)` configurations of this state.
        public var configurations: Int
        /// Stacks of at most `depth` events whose top frame is in this state.
        public var stacks: Int
        /// Whether the spec allows back from this state (its step does not say `back: false`);
        /// terminal states refuse back whatever this says.
        public var backAllowed: Bool = true

        /// `initial`, `success`, `abort` (or several, `initial, success`), or empty.
        public var role: String {
            var roles: [String] = []
            if isInitial { roles.append("initial") }
            if isSuccess { roles.append("success") }
            if isAbort { roles.append("abort") }
            return roles.joined(separator: ", ")
        }
    }

    /// One declared transition's coverage.
    public struct TransitionCoverage: Hashable, Sendable {
        public var from: String
        public var event: String
        public var to: String
        /// Whether it fires from some reachable configuration (not dead).
        public var fired: Bool
        /// Stacks of at most `depth` events whose top frame this transition pushed.
        public var stacks: Int
        /// `authflow/2`: when the step offers the event (its emission's `when`), in words; `nil` when always.
        public var offeredWhen: String? = nil
        /// `authflow/2`: the row's own guard, in words; `nil` when the row always holds.
        public var condition: String? = nil
        /// `authflow/2`: whether the event is the system's (a backend's answer, a timer), not the user's.
        public var bySystem = false
        /// `authflow/2`: whether the row starts the flow again (`to` is the initial state).
        public var reset = false

        /// `from.event`, as the lint names dead transitions.
        public var id: String { "\(from).\(event)" }

        /// The event with its guards, as an edge label shows it: `forgot if attempts ≥ 1 [recovery = code]`;
        /// a system event is marked `⚙`, a row that starts the flow again `⟲`.
        public var label: String {
            var text = (bySystem ? "⚙ " : "") + (reset ? "⟲ " : "") + event
            if let offeredWhen { text += " if \(offeredWhen)" }
            if let condition { text += " [\(condition)]" }
            return text
        }
    }

    /// One `authflow/2` variant's coverage: what its own root reaches.
    public struct VariantCoverage: Hashable, Sendable {
        /// Its config values, `recovery=code, mfa=on`.
        public var name: String
        /// Reachable configurations from its root.
        public var configurations: Int
        /// Distinct stacks of at most `depth` events from its root, the root included.
        public var stacks: Int
        /// States some configuration of it is in, and transitions it fires.
        public var statesReached: Int
        public var transitionsFired: Int
    }

    /// Every state, in step declaration order.
    public var states: [StateCoverage]
    /// Every declared transition, in table order (identical duplicates once).
    public var transitions: [TransitionCoverage]
    /// The depth bound of the stack counts.
    public var depth: Int
    /// Reachable `(state, data keys)` configurations.
    public var configurations: Int
    /// Distinct stacks of at most `depth` events, the root included.
    public var stacks: Int
    /// The limit that stopped the count early, if one did (the counts are then lower bounds).
    public var stoppedBy: StopReason?
    /// Whether some count reached `Int.max` and stopped growing.
    public var saturated: Bool
    /// `authflow/2` with `config`: each variant's coverage, in variant order; empty for a flow with one variant.
    public var variants: [VariantCoverage] = []

    /// Computes the coverage of `model`.
    /// - Parameters:
    ///   - depth: the stack bound (at most `depth` forward events).
    ///   - limits: `maxConfigurations` bounds the configurations stored; `timeout` the time.
    ///   - progress: called after each level of the stack count with the configurations found and the depth reached.
    /// - Complexity: O(C · m + depth · E) time and O(C + E) memory for C configurations, m events
    ///   per step and E deduplicated configuration edges.
    public static func compute(_ model: FlowModel, depth: Int, limits: CheckLimits = CheckLimits(),
                        progress: ((_ configurations: Int, _ depth: Int) -> Void)? = nil) -> FlowCoverage {
        let start = Date()
        return FlowCoverage(analysis: FlowAnalysis(model: model, limits: limits, edges: true), depth: depth,
                            timeout: limits.timeout, start: start, progress: progress)
    }

    /// The coverage of a searched configuration graph, with stacks of at most `depth` events.
    /// - Complexity: O(depth · E) time and O(C) memory beyond the graph.
    package init(graph: ConfigurationGraph, depth: Int, timeout: Double? = nil, start: Date = Date(),
                 progress: ((_ configurations: Int, _ depth: Int) -> Void)? = nil) {
        self.init(analysis: FlowAnalysis(graph: graph), depth: depth, timeout: timeout, start: start, progress: progress)
    }

    /// The coverage of a flow's analysis, with stacks of at most `depth` events: its graph searched (with edges) and its moves
    /// expanded until `timeout` seconds after `start`, or read from the analysis when a phase before made them.
    /// - Complexity: O(depth · E) time and O(C) memory beyond the analysis.
    package init(analysis: FlowAnalysis, depth: Int, timeout: Double? = nil, start: Date = Date(),
                 progress: ((_ configurations: Int, _ depth: Int) -> Void)? = nil) {
        let deadline = Deadline(start: start, timeout: timeout)
        let graph = analysis.graph(within: deadline)
        let model = graph.model
        let counts = graph.countStacks(depth: depth, timeout: timeout, start: start) { height in
            progress?(graph.count, height)
        }
        var configurationsOf = [Int](repeating: 0, count: model.stateCount)
        for configuration in graph.configurations { configurationsOf[Int(configuration.state)] += 1 }
        let states = model.states.indices.map { state in
            StateCoverage(name: model.states[state], isInitial: state == model.initial.index,
                          isSuccess: model.isSuccess[state], isAbort: model.isAbort[state],
                          reachable: configurationsOf[state] > 0, configurations: configurationsOf[state],
                          stacks: counts.perState[state], backAllowed: model.canGoBack[state])
        }
        // A row fires when some configuration's successor takes it, in `/1` and `/2` alike. The expansion stops at
        // the deadline too; a row not seen fired then is not called dead (the coverage is incomplete).
        let moves = analysis.moves(within: deadline)
        let facts = moves.facts
        var transitions = model.rows.enumerated().map { i, row in
            TransitionCoverage(from: model.states[row.from.index], event: model.events[row.event.index],
                               to: model.states[row.to.index], fired: facts.hasFired(i), stacks: counts.perRow[i])
        }
        // Every row's guard, offer and kind; a `/1` row has none of them, and keeps the defaults.
        for list in model.emissions {
            for emission in list {
                for row in emission.rows where row.row < transitions.count {
                    transitions[row.row].offeredWhen = emission.when.map { $0.text(model) }
                    transitions[row.row].condition = row.when.map { $0.text(model) }
                    transitions[row.row].bySystem = emission.bySystem
                    transitions[row.row].reset = row.reset
                }
            }
        }
        self.states = states
        self.transitions = transitions
        self.depth = depth
        self.configurations = graph.count
        self.stacks = counts.total
        self.stoppedBy = graph.stoppedBy ?? counts.stoppedBy ?? (moves.isCut ? deadline.stopReason : nil)
        self.saturated = counts.saturated
        if model.roots.count > 1 {
            self.variants = model.roots.indices.map { variant in
                let single = model.keepingVariant(variant)
                let variantAnalysis = FlowAnalysis(model: single, limits: CheckLimits(maxConfigurations: max(1, graph.count)), edges: true)
                let graph = variantAnalysis.graph(within: deadline)
                let counts = graph.countStacks(depth: depth, timeout: timeout, start: start)
                let fired = variantAnalysis.moves(within: deadline).facts.firedRows
                return VariantCoverage(name: model.variantNames[variant], configurations: graph.count, stacks: counts.total,
                                       statesReached: graph.reachableStates, transitionsFired: fired.count)
            }
        }
    }
}
