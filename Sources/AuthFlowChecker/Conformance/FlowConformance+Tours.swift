import AuthFlow

extension FlowConformance {
    /// Drives a fresh implementation through `tour` (a covering path of `authcheck paths`), checking it after every step; what went wrong, or nil.
    ///
    /// After each event the implementation's state and data must equal the spec's frame (and
    /// the spec's own rules hold), as in ``explore(depth:timeout:)``. `chosen` gives, by step
    /// index (0 for the first event), the value the system chose for each valued key the event
    /// adds; every other key the event carries gets a value of the checker's. This is what the
    /// tests `authcheck paths --format swift --adapter TYPE` writes call, one per tour:
    ///
    /// ```swift
    /// #expect(conformance.problem(tour: ["startAuth", "knownEmail", "passwordAccepted"]) == nil)
    /// ```
    /// - Parameter variant: the `authflow/2` variant to run it in (an index of ``FlowModel/variantNames``; 0 without config).
    /// - Returns: nil when every step conforms; else the step and what went wrong, also when a step is
    ///   not a move of the spec (the spec changed since the tour was written: regenerate it).
    /// - Complexity: O(tour length) actions of the implementation; the flow's analysis is made once
    ///   per ``FlowConformance`` and reused (see ``replay(_:)``).
    public func problem(tour: [String], chosen: [Int: [String: String]] = [:], variant: Int = 0) -> String? {
        checks.replays.withFuzzer(checks) { $0.tourProblem(tour, chosen: chosen, variant: variant) }
    }
}

extension FlowFuzzer {
    /// The first problem of `tour` run in lockstep, as ``FlowConformance/problem(tour:chosen:variant:)`` words it.
    func tourProblem(_ tour: [String], chosen: [Int: [String: String]], variant: Int) -> String? {
        guard model.roots.indices.contains(variant) else {
            return "the flow has no variant \(variant) (it has \(model.roots.count)): regenerate the tests from the spec"
        }
        var lockstep = Lockstep(rules: rules, userRules: userRules, driver: makeDriver(), properties: nil, traits: traits,
                                frameMoves: frameMoves)
        if let outcome = lockstep.start(variant: variant) { return "at the start: \(outcome.violation.message)" }
        for (i, name) in tour.enumerated() {
            let step = "step \(i + 1) (\(name))"
            guard let event = model.event(named: name) else { return "\(step): the spec has no such event: regenerate the tests from the spec" }
            let state = Int(lockstep.top.state)
            let values = model.emissions[state].first { $0.event == event }.map { emission in
                emission.outputKeys(keyCount: model.keys.count).map { key in
                    chosen[i]?[model.keys[key]] ?? (model.layout.isValued(key) ? model.layout.domains[key][0]
                                                    : Lockstep.simpleValue(model.keys[key], step: i + 1))
                }
            }
            let (applicable, outcome) = lockstep.apply(.event(name, values: .init(ordered: values)))
            // An event the spec refuses here is checked as a refusal by the searches; in a tour it means the tour is stale.
            guard applicable, lockstep.rowFired else {
                return "\(step) is not a move of the spec from \(model.states[state]): regenerate the tests from the spec"
            }
            if let outcome { return "\(step): \(outcome.violation.message)" }
        }
        return nil
    }
}
