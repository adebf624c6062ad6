import AuthFlow
import AuthFlowChecker

/// Renders a ``CoverageReport`` as JSON for CI (key order fixed).
///
/// ```json
/// { "spec": "Specs/a.json", "name": "…", "verdict": "holds", "depth": 12,
///   "states": [ { "state": "start", "initial": true, "success": false, "abort": false,
///                 "reachable": true, "configurations": 1, "stacks": 1, "violations": [] } ],
///   "transitions": [ { "from": "start", "on": "go", "to": "end", "fired": true, "stacks": 1 } ],
///   "lint": { "unreachable": [], "deadTransitions": [], "unusedData": [] },
///   "stats": { "states": 2, "configurations": 2, "depth": 12, "stacks": 2, "seconds": 0.001 } }
/// ```
enum CoverageJSON {
    /// The members that open a state's object in coverage and in traces: its name, its role and whether the spec reaches it.
    static func stateHeader(_ name: String, initial: Bool, success: Bool, abort: Bool, reachable: Bool) -> [(String, JSON)] {
        [("state", .string(name)), ("initial", .bool(initial)), ("success", .bool(success)), ("abort", .bool(abort)),
         ("reachable", .bool(reachable))]
    }

    /// The members that open a transition's object in coverage and in traces: the spec's row and whether it fired.
    static func transitionHeader(from: String, on event: String, to: String, fired: Bool) -> [(String, JSON)] {
        [("from", .string(from)), ("on", .string(event)), ("to", .string(to)), ("fired", .bool(fired))]
    }

    static func render(_ report: CoverageReport) -> JSON {
        let coverage = report.coverage
        let violations = report.violationsByState
        let states: [JSON] = coverage.states.map { state in
            .object(JSONObject(stateHeader(state.name, initial: state.isInitial, success: state.isSuccess, abort: state.isAbort,
                                           reachable: state.reachable) + [
                ("configurations", .int(state.configurations)),
                ("stacks", .int(state.stacks)),
                ("violations", .array((violations[state.name] ?? []).map { violation in
                    .object(JSONObject([
                        ("property", .string(violation.property.id)),
                        ("event", violation.event.map(JSON.string) ?? .null),
                        ("message", .string(violation.message)),
                    ]))
                })),
            ]))
        }
        let transitions: [JSON] = coverage.transitions.map { transition in
            var members = transitionHeader(from: transition.from, on: transition.event, to: transition.to, fired: transition.fired)
                + [("stacks", .int(transition.stacks))]
            // authflow/2 only: the guards in words, who sends the event, a row that starts again.
            if let offered = transition.offeredWhen { members.append(("offeredWhen", .string(offered))) }
            if let condition = transition.condition { members.append(("when", .string(condition))) }
            if transition.bySystem { members.append(("by", .string("system"))) }
            if transition.reset { members.append(("reset", .bool(true))) }
            return .object(JSONObject(members))
        }
        let variants: [JSON] = coverage.variants.map { variant in
            .object(JSONObject([
                ("variant", .string(variant.name)),
                ("states", .int(variant.statesReached)),
                ("transitions", .int(variant.transitionsFired)),
                ("configurations", .int(variant.configurations)),
                ("stacks", .int(variant.stacks)),
            ]))
        }
        let lint = report.check.lint
        var stats: [(String, JSON)] = [
            ("states", .int(coverage.states.filter(\.reachable).count)),
            ("configurations", .int(coverage.configurations)),
            ("depth", .int(coverage.depth)),
            ("stacks", .int(coverage.stacks)),
            ("seconds", .double((report.check.stats.seconds * 1000).rounded() / 1000)),
        ]
        if let stop = coverage.stoppedBy ?? report.check.stoppedBy { stats.append(("stoppedBy", .string(stop.description))) }
        if coverage.saturated { stats.append(("saturated", .bool(true))) }
        return .object(JSONObject([
            ("spec", .string(report.spec)),
            ("name", report.name.map(JSON.string) ?? .null),
            ("verdict", .string(report.check.verdict.rawValue)),
            ("depth", .int(coverage.depth)),
            ("states", .array(states)),
            ("transitions", .array(transitions)),
            ("lint", .object(JSONObject([
                ("unreachable", .array(lint.unreachable.map(JSON.string))),
                ("deadTransitions", .array(lint.deadTransitions.map(JSON.string))),
                ("unusedData", .array(lint.unusedData.map(JSON.string))),
            ]))),
            ("stats", .object(JSONObject(stats))),
        ] + (variants.isEmpty ? [] : [("variants", .array(variants))])))
    }
}
