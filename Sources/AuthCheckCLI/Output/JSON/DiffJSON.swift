import AuthFlow
import AuthFlowChecker

/// Renders a ``FlowDiffReport`` as JSON: `identical`, `differences` and `violations`, for a program to read.
enum DiffJSON {
    static func render(_ report: FlowDiffReport, old: String, new: String) -> String {
        var members: [(String, JSON)] = [("old", .string(old)), ("new", .string(new)), ("identical", .bool(report.identical))]
        if let stop = report.stoppedBy {
            members += [("verdict", .string(Verdict.incomplete.rawValue)), ("stoppedBy", .string(stop.description))]
        }
        if let depth = report.depth { members.append(("depth", .int(depth))) }
        members.append(("differences", .array(report.differences.map(difference))))
        let changes = report.properties
        members.append(("violations", .object(JSONObject([
            ("new", .array(changes.new.map(site))), ("fixed", .array(changes.fixed.map(site))),
        ]))))
        members.append(("rules", .object(JSONObject([
            ("added", .array(changes.rulesAdded.map(JSON.string))), ("dropped", .array(changes.rulesDropped.map(JSON.string))),
        ]))))
        members.append(("newStates", .array(changes.newStates.map(JSON.string))))
        members.append(("newRows", .array(changes.newRows.map { row in
            .object(JSONObject([("from", .string(row.from)), ("event", .string(row.event)), ("to", .string(row.to))]))
        })))
        return JSON.object(JSONObject(members)).rendered(pretty: true)
    }

    static func values(_ values: [FlowSpec.KeyValue]) -> JSON {
        .object(JSONObject(values.map { ($0.key, JSON.string($0.value)) }))
    }

    static func difference(_ d: FlowDiffReport.Difference) -> JSON {
        .object(JSONObject([
            ("kind", .string(d.kind.rawValue)),
            ("state", d.state.map(JSON.string) ?? .null),
            ("event", d.event.map(JSON.string) ?? .null),
            ("values", values(d.values)),
            ("variant", values(d.variant)),
            ("length", .int(d.length)),
            ("path", .array(d.path.map { step in
                var members: [(String, JSON)] = [("event", .string(step.event))]
                if !step.chosen.isEmpty { members.append(("chosen", values(step.chosen))) }
                members.append(("state", .string(step.state)))
                return .object(JSONObject(members))
            })),
            ("old", result(d.old)),
            ("new", result(d.new)),
        ]))
    }

    static func data(_ data: [FlowDiffReport.Datum]) -> JSON {
        .object(JSONObject(data.map { ($0.key, $0.value.map(JSON.string) ?? .bool(true)) }))
    }

    /// `{"moves": true, "state": …, "data": {…}}` and its siblings; `null` when the version does not take the move.
    static func result(_ result: FlowDiffReport.Result) -> JSON {
        switch result {
        case let .moves(state, values):
            return .object(JSONObject([("outcome", .string("push")), ("state", .string(state)), ("data", data(values))]))
        case let .updates(state, values):
            return .object(JSONObject([("outcome", .string("replace")), ("state", .string(state)), ("data", data(values))]))
        case let .returns(state, values):
            return .object(JSONObject([("outcome", .string("back")), ("state", .string(state)), ("data", data(values))]))
        case let .resets(state, values):
            return .object(JSONObject([("outcome", .string("reset")), ("state", .string(state)), ("data", data(values))]))
        case .notOffered: return .null
        case .back: return .object(JSONObject([("outcome", .string("back"))]))
        case .noBack: return .null
        case let .starts(state): return .object(JSONObject([("outcome", .string("start")), ("state", .string(state))]))
        case .noVariant: return .null
        }
    }

    static func site(_ site: Site) -> JSON {
        .object(JSONObject([("property", .string(site.property.id)), ("state", site.state.map(JSON.string) ?? .null),
                            ("event", site.event.map(JSON.string) ?? .null)]))
    }
}
