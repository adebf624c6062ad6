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

        /// `from.event`, as the lint names dead transitions.
        public var id: String { "\(from).\(event)" }
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

    /// Computes the coverage of `model`.
    /// - Parameters:
    ///   - depth: the stack bound (at most `depth` forward events).
    ///   - limits: `maxConfigurations` bounds the configurations stored; `timeout` the time.
    ///   - progress: called now and then with the configurations found and the depth reached.
    /// - Complexity: O(C · m + depth · E) time and O(C + E) memory for C configurations, m events
    ///   per step and E deduplicated configuration edges.
    public static func compute(_ model: FlowModel, depth: Int, limits: CheckLimits = CheckLimits(),
                        progress: ((_ configurations: Int, _ depth: Int) -> Void)? = nil) -> FlowCoverage {
        let start = Date()
        func timedOut() -> Bool {
            guard let timeout = limits.timeout else { return false }
            return Date().timeIntervalSince(start) > timeout
        }
        typealias Frame = Configuration

        var rowOf: [Int64: Int] = [:]
        for (i, row) in model.rows.enumerated() {
            rowOf[Int64(row.from.rawValue) << 32 | Int64(row.event.rawValue)] = i
        }

        // The configuration graph, breadth-first, with each frame's children deduplicated.
        var index: [Frame: Int32] = [:]
        var frames: [Frame] = []
        var edgeStart: [Int] = []
        var edgeTarget: [Int32] = []
        var edgeRow: [Int32] = []
        var stoppedBy: StopReason?
        let root = Frame(state: model.initial.rawValue, keys: 0)
        index[root] = 0
        frames.append(root)
        var head = 0
        search: while head < frames.count {
            let frame = frames[head]
            edgeStart.append(edgeTarget.count)
            let first = edgeTarget.count
            for move in model.moves[Int(frame.state)] {
                guard let target = move.target else { continue }
                let child = Frame(state: target.rawValue, keys: frame.keys | move.adds.bits)
                let position: Int32
                if let known = index[child] {
                    position = known
                } else {
                    if frames.count >= limits.maxConfigurations {
                        stoppedBy = .maxConfigurations(limits.maxConfigurations)
                        break search
                    }
                    position = Int32(frames.count)
                    index[child] = position
                    frames.append(child)
                }
                // Only siblings can push the same frame; the earlier event keeps it.
                if edgeTarget[first...].contains(position) { continue }
                edgeTarget.append(position)
                edgeRow.append(Int32(rowOf[Int64(frame.state) << 32 | Int64(move.event.rawValue)]!))
            }
            head += 1
            if head & 1023 == 0 {
                progress?(frames.count, 0)
                if timedOut() {
                    stoppedBy = .timeout(seconds: limits.timeout!)
                    break
                }
            }
        }
        // Frames the search did not expand (it stopped early) have no edges: the counts are then lower bounds.
        while edgeStart.count < frames.count { edgeStart.append(edgeTarget.count) }
        edgeStart.append(edgeTarget.count)

        var configurationsOf = [Int](repeating: 0, count: model.stateCount)
        for frame in frames { configurationsOf[Int(frame.state)] += 1 }

        // Stacks, level by level: ways[f] is the number of stacks of the current height ending at f.
        var saturated = false
        func add(_ a: inout Int, _ b: Int) {
            let (sum, overflow) = a.addingReportingOverflow(b)
            if overflow { saturated = true; a = Int.max } else { a = sum }
        }
        var stacksOf = [Int](repeating: 0, count: model.stateCount)
        var stacksVia = [Int](repeating: 0, count: model.rows.count)
        var ways = [Int](repeating: 0, count: frames.count)
        var next = [Int](repeating: 0, count: frames.count)
        var level: [Int32] = [0]
        ways[0] = 1
        stacksOf[Int(root.state)] = 1
        var total = 1
        var height = 0
        while height < depth, !level.isEmpty {
            if stoppedBy == nil, timedOut() {
                stoppedBy = .timeout(seconds: limits.timeout!)
                break
            }
            height += 1
            var nextLevel: [Int32] = []
            for parent in level {
                let count = ways[Int(parent)]
                for edge in edgeStart[Int(parent)]..<edgeStart[Int(parent) + 1] {
                    let child = Int(edgeTarget[edge])
                    if next[child] == 0 { nextLevel.append(Int32(child)) }
                    add(&next[child], count)
                    add(&stacksVia[Int(edgeRow[edge])], count)
                    add(&stacksOf[Int(frames[child].state)], count)
                    add(&total, count)
                }
            }
            for parent in level { ways[Int(parent)] = 0 }
            swap(&ways, &next)
            level = nextLevel
            progress?(frames.count, height)
        }

        var fired = [Bool](repeating: false, count: model.rows.count)
        for (i, row) in model.rows.enumerated() {
            fired[i] = configurationsOf[row.from.index] > 0 && model.moves[row.from.index].contains { $0.event == row.event }
        }
        let states = model.states.indices.map { state in
            StateCoverage(name: model.states[state], isInitial: state == model.initial.index,
                          isSuccess: model.isSuccess[state], isAbort: model.isAbort[state],
                          reachable: configurationsOf[state] > 0, configurations: configurationsOf[state],
                          stacks: stacksOf[state])
        }
        let transitions = model.rows.enumerated().map { i, row in
            TransitionCoverage(from: model.states[row.from.index], event: model.events[row.event.index],
                               to: model.states[row.to.index], fired: fired[i], stacks: stacksVia[i])
        }
        return FlowCoverage(states: states, transitions: transitions, depth: depth, configurations: frames.count,
                            stacks: total, stoppedBy: stoppedBy, saturated: saturated)
    }
}
