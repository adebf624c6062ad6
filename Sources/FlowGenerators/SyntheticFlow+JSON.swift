import AuthFlow

extension SyntheticFlow {
    /// Writes `spec` as an `authflow/1` document that ``SpecLoader`` loads back to the same spec.
    ///
    /// For generated flows that should live in a file: `authcheck check`, SPIN comparisons, bug reports.
    ///
    /// ```swift
    /// let text = SyntheticFlow.json(SyntheticFlow.make(states: 300, keys: 16, seed: 1))
    /// try SpecLoader.load(json: text).spec == SyntheticFlow.make(states: 300, keys: 16, seed: 1)   // true
    /// ```
    /// - Complexity: O(size of the spec).
    package static func json(_ spec: FlowSpec) -> String {
        var root: [(String, JSON)] = [("format", "authflow/1")]
        if let name = spec.name { root.append(("name", .string(name))) }
        if let description = spec.description { root.append(("description", .string(description))) }
        root.append(("initial", .string(spec.initial)))
        root.append(("success", .array(spec.success.map(JSON.string))))
        root.append(("abort", .array(spec.abort.map(JSON.string))))
        if !spec.secrets.isEmpty { root.append(("secrets", .array(spec.secrets.map(JSON.string)))) }
        root.append(("steps", .object(JSONObject(spec.steps.map { step in
            var members: [(String, JSON)] = []
            if !step.back { members.append(("back", false)) }
            if !step.requires.isEmpty { members.append(("requires", .array(step.requires.map(JSON.string)))) }
            if !step.emits.isEmpty {
                members.append(("emits", .object(JSONObject(step.emits.map { ($0.event, .array($0.adds.map(JSON.string))) }))))
            }
            return (step.state, .object(JSONObject(members)))
        }))))
        root.append(("transitions", .array(spec.transitions.map { row in
            .object(JSONObject([("from", .string(row.from)), ("on", .string(row.on)), ("to", .string(row.to))]))
        })))
        if let passcode = spec.passcode {
            root.append(("passcode", .object(JSONObject([("maxLength", .int(passcode.maxLength)),
                                                         ("alphabet", .string(passcode.alphabetText))]))))
        }
        return JSON.object(JSONObject(root)).rendered() + "\n"
    }
}
