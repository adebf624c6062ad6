import AuthFlow
import AuthFlowChecker

/// Renders a ``TraceReport`` as JSON for CI, keys in a fixed order, like `check`'s report.
///
/// ```json
/// { "spec": "Specs/email-first.json", "verdict": "violated", "files": ["sessions.jsonl"],
///   "violations": [ { "session": "s17", "file": "sessions.jsonl", "line": 57, "property": "illegal-transition",
///                     "state": "email", "event": "cancel", "message": "cancel from email goes to cancelled, not password" } ],
///   "problems": [ { "file": "sessions.jsonl", "line": 88, "kind": "malformed", "session": null, "message": "…" } ],
///   "sessions": { "total": 200, "succeeded": 120, "aborted": 31, "abandoned": 49, "broken": 3, "peakOpen": 50 },
///   "counts": { "violations": { "illegal-transition": 1 }, "problems": { "malformed": 1 } },
///   "skipped": [],
///   "funnel": { "states": [ … ], "transitions": [ … ], "neverTaken": ["mfaCode.resend"], "offSpec": [ … ] },
///   "stats": { "lines": 1205, "records": 1204, "sessions": 200, "seconds": 0.004 } }
/// ```
enum TracesJSON {
    static func render(_ report: TraceReport, strict: Bool) -> JSON {
        let status = TracesText.exitStatus(report, strict: strict)
        let violations: [JSON] = report.findings.map { finding in
            .object(JSONObject([
                ("session", .string(finding.session)),
                ("file", .string(finding.file)),
                ("line", .int(finding.line)),
                ("property", .string(finding.property.rawValue)),
                ("state", .string(finding.state)),
                ("event", finding.event.map(JSON.string) ?? .null),
                ("message", .string(finding.message)),
            ]))
        }
        let problems: [JSON] = report.problems.map { problem in
            .object(JSONObject([
                ("file", .string(problem.file)),
                ("line", .int(problem.line)),
                ("kind", .string(problem.kind.rawValue)),
                ("session", problem.session.map(JSON.string) ?? .null),
                ("message", .string(problem.message)),
            ]))
        }
        let states: [JSON] = report.states.map { state in
            .object(JSONObject(CoverageJSON.stateHeader(state.name, initial: state.isInitial, success: state.isSuccess,
                                                        abort: state.isAbort, reachable: state.reachable) + [
                ("sessions", .int(state.sessions)),
                ("entries", .int(state.entries)),
                ("exits", .int(state.exits)),
                ("backs", .int(state.backs)),
                ("refused", .int(state.rejections)),
                ("dropped", .int(state.dropped)),
                ("ended", .int(state.completed)),
            ]))
        }
        let transitions: [JSON] = report.transitions.map { transition in
            .object(JSONObject(CoverageJSON.transitionHeader(from: transition.from, on: transition.event, to: transition.to,
                                                             fired: transition.fired) + [("taken", .int(transition.taken))]))
        }
        let offSpec: [JSON] = report.offSpec.map { move in
            .object(JSONObject([("from", .string(move.from)), ("on", .string(move.event)), ("to", .string(move.to)), ("taken", .int(move.count))]))
        }
        func counts<Key: RawRepresentable & CaseIterable>(_ counts: [Key: Int]) -> JSON where Key.RawValue == String {
            .object(JSONObject(Key.allCases.compactMap { key in counts[key].map { (key.rawValue, JSON.int($0)) } }))
        }
        let sessions = report.sessions
        return .object(JSONObject([
            ("spec", .string(report.spec)),
            ("verdict", .string(status == 0 ? "holds" : "violated")),
            ("files", .array(report.files.map(JSON.string))),
            ("violations", .array(violations)),
            ("problems", .array(problems)),
            ("sessions", .object(JSONObject([
                ("total", .int(sessions.total)), ("succeeded", .int(sessions.succeeded)), ("aborted", .int(sessions.aborted)),
                ("abandoned", .int(sessions.abandoned)), ("broken", .int(sessions.broken)), ("peakOpen", .int(sessions.peakOpen)),
            ]))),
            ("counts", .object(JSONObject([("violations", counts(report.findingCounts)), ("problems", counts(report.problemCounts))]))),
            ("skipped", .array(report.skipped.map(JSON.string))),
            ("funnel", .object(JSONObject([
                ("states", .array(states)),
                ("transitions", .array(transitions)),
                ("neverTaken", .array(report.neverTaken.map { JSON.string($0.id) })),
                ("offSpec", .array(offSpec)),
            ]))),
            ("stats", .object(JSONObject([
                ("lines", .int(report.lines)), ("records", .int(report.records)), ("sessions", .int(sessions.total)),
                ("seconds", .double((report.seconds * 1000).rounded() / 1000)),
            ]))),
        ]))
    }
}
