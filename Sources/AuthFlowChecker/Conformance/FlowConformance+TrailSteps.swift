import AuthFlow

extension FlowConformance {
    /// Drives a fresh implementation through `trail` (a counterexample saved as a trail), checking it after every step; what went wrong, or nil.
    ///
    /// After each step the implementation's state and data must equal the spec's frame, as in
    /// ``problem(tour:chosen:variant:)``: an event the spec refuses there must be refused with no
    /// change, a back restores exactly the frame below (or is refused where the spec forbids it). When
    /// `site` names the trail's violation (`unmet-requirement@authenticated`, `divergence@password`),
    /// the run also fails where it happens again. This is what the tests `authcheck replay --format
    /// swift --adapter TYPE` writes call, one per trail, so a conformance bug the gate found stays a
    /// regression test:
    ///
    /// ```swift
    /// #expect(conformance.problem(trail: [.event("startAuth"), .event("knownEmail"), .back], site: "divergence@email") == nil)
    /// ```
    /// - Parameter variant: the `authflow/2` variant to run it in (an index of ``FlowModel/variantNames``; 0 without config).
    /// - Returns: nil when every step conforms and the violation did not happen; else the step and what went wrong, also
    ///   when the spec changed so that a `.reset` is no longer a reset (or an `.event` now is one), or `site` is no longer
    ///   one of its sites: record the trail again.
    /// - Complexity: O(trail length) actions of the implementation, after the first call (see ``replay(_:)``).
    public func problem(trail: [TrailStep], variant: Int = 0, site: String? = nil) -> String? {
        checks.replays.withFuzzer(checks) { $0.trailProblem(trail, variant: variant, site: site) }
    }
}

extension FlowFuzzer {
    /// The first problem of `trail` run in lockstep, as ``FlowConformance/problem(trail:variant:site:)`` words it.
    func trailProblem(_ trail: [TrailStep], variant: Int, site text: String?) -> String? {
        guard model.roots.indices.contains(variant) else {
            return "the flow has no variant \(variant) (it has \(model.roots.count)): record the trail again"
        }
        var site: Site?
        if let text {
            guard let parsed = FlowTrail.parseSite(text, model: model), parsed.property.rule?.kind != .reachable else {
                return "the spec has no site \(text) (a property@state, or an always or never rule): record the trail again"
            }
            site = parsed
        }
        let watched = Set([Property.divergence, .undoMismatch] + (site.map { [$0.property] } ?? []))
        var lockstep = Lockstep(rules: rules, userRules: userRules, driver: makeDriver(), properties: watched, traits: traits,
                                frameMoves: frameMoves)
        /// What `outcome` means for the test: the trail's own violation again, or the implementation away from the spec.
        func problem(_ outcome: FuzzOutcome?, at step: String) -> String? {
            guard let outcome else { return nil }
            if outcome.site == site { return "\(step): the trail's violation happened again: \(outcome.violation.message)" }
            if outcome.site.property == .divergence || outcome.site.property == .undoMismatch { return "\(step): \(outcome.violation.message)" }
            return nil   // another site of the trail's property: not the one the trail is about
        }
        if let found = problem(lockstep.start(variant: variant), at: "at the start") { return found }
        if lockstep.frames.isEmpty { return "the implementation cannot run the variant \(model.variantNames[variant])" }
        for (i, step) in trail.enumerated() {
            let label = "step \(i + 1) (\(step))"
            switch step {
            case .back:
                if let found = problem(lockstep.apply(.back).outcome, at: label) { return found }
            case .undo:
                return "\(label): an undo is no step a user takes (write .back): record the trail again"
            case let .event(name, values), let .reset(name, values):
                guard let event = model.event(named: name) else { return "\(label): the spec has no such event: record the trail again" }
                let state = Int(lockstep.top.state)
                let named = values.named
                let sent = values.ordered ?? model.emissions[state].first { $0.event == event }.map { emission in
                    emission.outputKeys(keyCount: model.keys.count).map { key in
                        named[model.keys[key]] ?? (model.layout.isValued(key) ? model.layout.domains[key][0]
                                                    : Lockstep.simpleValue(model.keys[key], step: i + 1))
                    }
                }
                let (_, outcome) = lockstep.apply(.event(name, values: .init(ordered: sent)))
                if let found = problem(outcome, at: label) { return found }
                // A row that fired lands on a frame with no event only by a reset: the step must say which it is.
                let resets = lockstep.rowFired && lockstep.top.event == nil
                if case .reset = step, !resets {
                    return "\(label) is no reset of the spec from \(model.states[state]): record the trail again"
                }
                if case .event = step, resets {
                    return "\(label) starts the flow again by the spec (a reset row from \(model.states[state])): write it .reset(\"\(name)\")"
                }
            }
        }
        return nil
    }
}

extension Violation {
    /// This finding as a trail file's text, as `authcheck explore --trail DIR` writes one: save it, and `authcheck replay --format swift` makes it a test.
    ///
    /// For a finding of the conformance checks (``FlowConformance/explore(depth:timeout:)``, a
    /// ``FuzzReport/failure``'s violation) or of the checker on `model`: the path's events, the
    /// values the system chose, the variant, and the spec's frame after each step. Saved under a
    /// trail directory, `authcheck replay --format swift --adapter TYPE SPEC TRAIL...` writes a test
    /// that drives the app through it, so the bug stays found once it is fixed:
    ///
    /// ```swift
    /// let finding = conformance.explore(depth: 12).violations[0]
    /// try finding.trail(for: conformance.model).write(toFile: "Trails/01-divergence.json", atomically: true, encoding: .utf8)
    /// ```
    /// - Complexity: O(path length) steps of the spec's runtime.
    public func trail(for model: FlowModel) -> String {
        FuzzRegressions.line(for: FlowTrail.entry(for: self, model: model, driver: SessionDriver(model: model)), model: model) + "\n"
    }
}
