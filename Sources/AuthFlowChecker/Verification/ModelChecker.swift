import AuthFlow
import Foundation

/// A configuration of the spec's semantics: a state and the set of data keys collected.
@usableFromInline
struct Configuration: Hashable {
    @usableFromInline var state: Int32
    @usableFromInline var keys: UInt64
    @inlinable init(state: Int32, keys: UInt64) {
        self.state = state
        self.keys = keys
    }
}

/// Limits on a run, so no input can exhaust memory or time.
public struct CheckLimits: Hashable, Sendable {
    /// The default bound on stored configurations: about 5 million (a few hundred MB at most).
    public static let defaultMaxConfigurations = 5_000_000

    /// The depth bound of the runtime walk: stacks of at most `depth` forward events.
    public var depth: Int
    /// The most `(state, data keys)` configurations the complete search may store.
    public var maxConfigurations: Int
    /// Wall-clock seconds after which the run stops as `incomplete`; `nil` for none.
    public var timeout: Double?

    public init(depth: Int = 12, maxConfigurations: Int = defaultMaxConfigurations, timeout: Double? = nil) {
        self.depth = depth
        self.maxConfigurations = maxConfigurations
        self.timeout = timeout
    }
}

/// The result of the complete verification of a spec's configuration graph.
public struct SpecVerification: Sendable {
    /// One violation per site, each with a shortest counterexample, in breadth-first order.
    public var violations: [Violation]
    /// Unreachable states, dead transitions, unused data.
    public var lint: Lint
    /// Reachable states.
    public var states: Int
    /// Reachable `(state, data keys)` configurations.
    public var configurations: Int
    /// The limit that stopped the search, if one did (the verdict is then incomplete).
    public var stoppedBy: StopReason?
}

/// Decides the spec properties of section 3 completely, by breadth-first search over `(state, data keys)`.
///
/// The configuration graph is finite (data only grows, and back returns to a frame already
/// reached), so every property is decided with no depth bound. Because the search is
/// breadth-first, the first configuration found violating a site gives its shortest
/// counterexample; ties go to the earlier event in declaration order.
public enum ModelChecker {
    /// Verifies `model` completely.
    /// - Complexity: O(C · m) time and O(C) memory for C reachable configurations and m events per step.
    public static func verify(_ model: FlowModel, limits: CheckLimits = CheckLimits()) -> SpecVerification {
        let start = Date()
        let stateCount = model.stateCount
        var index: [Configuration: Int32] = [:]
        var frames: [Configuration] = []
        var parent: [Int32] = []
        var via: [Int32] = []
        var firstOfState = [Int32](repeating: -1, count: stateCount)
        var unmetAt = [Int32](repeating: -1, count: stateCount)
        var stoppedBy: StopReason?

        let requires = model.requires.map(\.bits)
        let moves = model.moves
        let progress = CheckProgress.current

        func discover(_ config: Configuration, from parentIndex: Int32, event: Int32) {
            let position = Int32(frames.count)
            index[config] = position
            frames.append(config)
            parent.append(parentIndex)
            via.append(event)
            let state = Int(config.state)
            if firstOfState[state] < 0 { firstOfState[state] = position }
            if unmetAt[state] < 0, requires[state] & ~config.keys != 0 { unmetAt[state] = position }
        }

        discover(Configuration(state: model.initial.rawValue, keys: 0), from: -1, event: -1)
        var head = 0
        search: while head < frames.count {
            let config = frames[head]
            for move in moves[Int(config.state)] {
                guard let target = move.target else { continue }
                let next = Configuration(state: target.rawValue, keys: config.keys | move.adds.bits)
                if index[next] == nil {
                    if frames.count >= limits.maxConfigurations {
                        stoppedBy = .maxConfigurations(limits.maxConfigurations)
                        break search
                    }
                    discover(next, from: Int32(head), event: move.event.rawValue)
                }
            }
            head += 1
            if head & 1023 == 0, let progress {
                var level = 0
                var cursor = parent[head - 1]
                while cursor >= 0 { level += 1; cursor = parent[Int(cursor)] }
                progress.update(.configurations, count: frames.count, depth: level)
            }
            if head & 1023 == 0, let timeout = limits.timeout, Date().timeIntervalSince(start) > timeout {
                stoppedBy = .timeout(seconds: timeout)
                break
            }
        }

        func path(to position: Int32) -> [PathStep] {
            var chain: [Int32] = []
            var cursor = position
            while cursor >= 0 {
                chain.append(cursor)
                cursor = parent[Int(cursor)]
            }
            return chain.reversed().map { at in
                let frame = frames[Int(at)]
                let event = via[Int(at)]
                return PathStep(event: event < 0 ? nil : model.events[Int(event)],
                                state: model.states[Int(frame.state)],
                                data: model.names(of: KeySet(bits: frame.keys)))
            }
        }

        let rules = SiteRules(model: model)
        var found: [(position: Int32, violation: Violation)] = []
        for state in 0..<stateCount {
            let first = firstOfState[state]
            guard first >= 0 else { continue }
            let name = model.states[state]
            var sites = rules.stateSites(state)
            if unmetAt[state] >= 0, let message = rules.unmetRequirement(state: state, keys: frames[Int(unmetAt[state])].keys) {
                sites.append(SiteRules.Site(property: .unmetRequirement, message: message))
            }
            for site in sites {
                let at = site.property == .unmetRequirement ? unmetAt[state] : first
                found.append((at, Violation(property: site.property, state: name, event: site.event,
                                            message: site.message, path: path(to: at))))
            }
        }
        // Breadth-first order, then property order, then declaration order (the index breaks ties stably).
        found = found.enumerated().sorted { lhs, rhs in
            if lhs.element.position != rhs.element.position { return lhs.element.position < rhs.element.position }
            if lhs.element.violation.property != rhs.element.violation.property {
                return lhs.element.violation.property < rhs.element.violation.property
            }
            return lhs.offset < rhs.offset
        }.map(\.element)

        // Lint.
        var lint = Lint()
        lint.unreachable = (0..<stateCount).filter { firstOfState[$0] < 0 }.map { model.states[$0] }
        for row in model.rows {
            let fires = firstOfState[row.from.index] >= 0 && moves[row.from.index].contains { $0.event == row.event }
            if !fires { lint.deadTransitions.append("\(model.states[row.from.index]).\(model.events[row.event.index])") }
        }
        var produced = KeySet()
        var required = KeySet()
        for state in 0..<stateCount {
            required = required.union(model.requires[state])
            for move in moves[state] { produced = produced.union(move.adds) }
        }
        lint.unusedData = model.names(of: produced.subtracting(required))
        if stoppedBy != nil {
            // A stopped search has not seen every reachable state: it cannot call one unreachable.
            lint.unreachable = []
            lint.deadTransitions = []
        }

        return SpecVerification(
            violations: found.map(\.violation), lint: lint,
            states: firstOfState.filter { $0 >= 0 }.count, configurations: frames.count, stoppedBy: stoppedBy)
    }
}
