import AuthFlow
import AuthFlowChecker

/// `paths --format json`: the tour as one object, each path its steps (authflow/2: its variant, and each step's chosen values and the values after it).
enum PathsJSON {
    static func render(_ cover: CoveringPaths, spec: String) -> String {
        // A stopped tour says so, and how far it got; a complete one keeps the members it always had.
        let stopped: [(String, JSON)] = cover.stoppedBy.map { stop in
            [("verdict", .string(Verdict.incomplete.rawValue)), ("stoppedBy", .string(stop.description)), ("covered", .int(cover.covered))]
        } ?? []
        return JSON.object(JSONObject([
            ("spec", .string(SpecRunner.displayName(spec))), ("cover", .string(cover.target.rawValue))] + stopped + [
            ("reachable", .int(cover.reachable)), ("lowerBound", .int(cover.lowerBound)), ("length", .int(cover.length)),
            ("paths", .array(cover.paths.map { path in
                guard cover.carriesValues else {
                    return .array(zip(path.events, zip(path.states, path.data)).map { event, frame in
                        .object(JSONObject([("event", .string(event)), ("state", .string(frame.0)), ("data", .array(frame.1.map(JSON.string)))]))
                    })
                }
                // authflow/2: the variant, and each step's chosen values and the values after it.
                func object(_ pairs: [(String, String)]) -> JSON { .object(JSONObject(pairs.map { ($0.0, JSON.string($0.1)) })) }
                let (events, states, data, chosen, values) = (path.events, path.states, path.data, path.chosen, path.values)
                return .object(JSONObject([
                    ("variant", object((path.variant ?? []).map { ($0.key, $0.value) })),
                    ("steps", .array(events.indices.map { i in
                        var members: [(String, JSON)] = [("event", .string(events[i]))]
                        if !chosen[i].isEmpty { members.append(("chosen", object(chosen[i].map { ($0.key, $0.value) }))) }
                        members += [("state", .string(states[i])), ("data", .array(data[i].map(JSON.string))),
                                    ("values", object((values?[i] ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))]
                        return .object(JSONObject(members))
                    })),
                ]))
            })),
        ])).rendered(pretty: true)
    }
}
