import AuthFlow
import AuthFlowChecker

/// A spec's coverage together with the check that decided its properties: what every coverage format renders.
struct CoverageReport: Sendable {
    /// The spec's path as given.
    var spec: String
    /// The flow's name, if it has one.
    var name: String?
    /// The counts.
    var coverage: FlowCoverage
    /// The check of the spec properties (its stats carry the coverage's stack count).
    var check: CheckReport
    /// What recorded sessions walked (`authcheck traces`): when set, the pictures show the funnel
    /// (sessions, drop-off, transitions taken) in place of the configuration and stack counts.
    var funnel: TraceReport? = nil

    /// The violations whose site is a state of the flow, by state name.
    var violationsByState: [String: [Violation]] {
        let names = Set(coverage.states.map(\.name))
        var grouped: [String: [Violation]] = [:]
        for violation in check.violations { if let state = violation.state, names.contains(state) { grouped[state, default: []].append(violation) } }
        return grouped
    }

    /// How a violation is named next to its state: `deadlock`, or `illegal-transition on resend`.
    static func label(_ violation: Violation) -> String {
        violation.event.map { "\(violation.property.id) on \($0)" } ?? violation.property.id
    }

    /// The edges that break the properties, for the pictures to draw in red.
    ///
    /// An `illegal-transition` names an event the table has no row for: it is `refused`, a state and
    /// an event with no transition. Any other violation is broken by the last step of its
    /// counterexample, the table row `from.event` in `steps`.
    var breakingEdges: (steps: Set<String>, refused: [(state: String, event: String)]) {
        var steps: Set<String> = []
        var refused: [(state: String, event: String)] = []
        for violation in check.violations {
            if violation.property.id == "illegal-transition", let event = violation.event, let state = violation.state {
                if !refused.contains(where: { $0.state == state && $0.event == event }) {
                    refused.append((state, event))
                }
            } else if violation.path.count >= 2, let event = violation.path.last?.event {
                steps.insert("\(violation.path[violation.path.count - 2].state).\(event)")
            }
        }
        return (steps, refused)
    }

    /// The states that are not reachable, in declaration order.
    var unreachable: [FlowCoverage.StateCoverage] { coverage.states.filter { !$0.reachable } }
    /// The transitions that never fire, in table order.
    var dead: [FlowCoverage.TransitionCoverage] { coverage.transitions.filter { !$0.fired } }

    /// The funnel of each state, by name, when there is one.
    var funnelStates: [String: TraceReport.StateFunnel] {
        Dictionary((funnel?.states ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// How often each declared transition was taken, in table order (the order of `coverage.transitions`), when there is a funnel.
    var taken: [Int] { (funnel?.transitions ?? []).map(\.taken) }

    /// How a state is labelled on a funnel picture: its sessions, and how many of them left there.
    static func funnelLabel(_ state: TraceReport.StateFunnel) -> String {
        var text = "\(TracesText.counted(state.sessions, "session"))"
        if state.isSuccess || state.isAbort {
            text += " · \(TracesText.grouped(state.completed)) ended"
        } else if state.dropped > 0 {
            text += " · \(TracesText.grouped(state.dropped)) left (\(TracesText.percent(state.dropRate)))"
        }
        return text
    }
}
