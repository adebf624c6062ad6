import AuthFlow

extension FlowTrail {
    /// A trail's steps as a test writes them (``TrailStep``), with the spec's frame after each: what `replay --format swift` prints.
    package struct TestSteps: Sendable {
        /// One typed step per action of the trail: an event with the values it sends, a reset, or back.
        package var steps: [TrailStep]
        /// The spec's frame after each step, the initial frame first (fewer when a step could not be taken on the spec).
        package var frames: FlowPath
        /// The variant the trail runs in (an index of ``FlowModel/variantNames``).
        package var variant: Int
        /// The indices of the steps the spec refuses where they are sent (the app must refuse them too, changing nothing).
        package var refused: Set<Int> = []
    }

    /// The steps of `entry` (a trail, or an entry of a regressions file) run on the spec's runtime, each typed as the spec takes it.
    ///
    /// Each event gets the values the trail chose for the valued keys it adds (and any value the
    /// entry gives a key), and is a ``TrailStep/reset(_:values:)`` where the spec's move is a reset.
    /// Call ``refusal(_:model:)`` first for a trail; an entry without a site is taken as it is.
    /// - Complexity: O(trail length) runtime steps.
    package static func testSteps(_ entry: FuzzRegressions.Entry, model: FlowModel) -> TestSteps {
        let variant = variantIndex(entry.variant ?? [:], model: model) ?? 0
        var lockstep = Lockstep(rules: SiteRules(model: model), driver: SessionDriver(model: model), properties: [], traits: .runtime,
                                frameMoves: nil)
        _ = lockstep.start(variant: variant)
        let secrets = Set(model.names(of: model.secrets))
        var steps: [TrailStep] = []
        var refused: Set<Int> = []
        for (i, action) in entry.actions.enumerated() {
            guard let name = action.event, case let .event(_, values: stepValues) = action else {
                steps.append(.back)
                if !lockstep.frames.isEmpty {
                    if !lockstep.backAllowed { refused.insert(i) }
                    _ = lockstep.apply(.back)
                }
                continue
            }
            var values = (entry.chosen?.indices.contains(i) ?? false) ? entry.chosen?[i] ?? [:] : [:]
            guard !lockstep.frames.isEmpty, let event = model.event(named: name) else {
                steps.append(.event(name, values: .init(named: values)))
                continue
            }
            let emission = model.emissions[Int(lockstep.top.state)].first { $0.event == event }
            // Values the entry spells out (a regressions file's), by the keys the event adds here.
            if let given = stepValues.ordered, let keys = emission?.outputKeys(keyCount: model.keys.count), keys.count == given.count {
                for (key, value) in zip(keys, given) where !secrets.contains(model.keys[key]) { values[model.keys[key]] = value }
            }
            let sent = (try? resolved(.event(name), chosen: values.filter { key, _ in
                model.key(named: key).map { model.layout.isValued($0.index) } ?? false
            }, step: i + 1, lockstep: lockstep).get()) ?? action
            _ = lockstep.apply(sent)
            if !lockstep.rowFired { refused.insert(i) }
            steps.append(lockstep.rowFired && lockstep.top.event == nil ? .reset(name, values: .init(named: values)) : .event(name, values: .init(named: values)))
        }
        return TestSteps(steps: steps, frames: lockstep.steps, variant: variant, refused: refused)
    }
}
