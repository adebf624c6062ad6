import AuthFlow

/// The lockstep run's steps: each event is decided by the one semantics on the frame, with the values
/// the run sends, for a static table as for a flow whose moves depend on its data.
extension Lockstep {
    /// Applies `.event(name, values)`; `values` are the output keys' values
    /// (``FlowModel/Emission/outputKeys(keyCount:)``), `nil` for simple defaults (a valued key's first value).
    mutating func applyByFrame(_ action: FuzzAction, event: EventID, name: String, values: [String]?) -> (applicable: Bool, outcome: FuzzOutcome?) {
        let state = Int(top.state)
        let layout = model.layout
        rowFired = false
        guard let index = model.emissions[state].firstIndex(where: { $0.event == event }) else {
            // An event the step does not emit: an app's table must refuse it too.
            guard traits.probesEveryEvent, values?.isEmpty ?? true else { return (false, nil) }
            actions.append(action)
            let step = actions.count
            let accepted = driver.send(event) { .string(Self.simpleValue(model.keys[$0.index], step: step)) }
            steps.append(pathStep(.event(name)))
            return (true, refusal(of: name, accepted: accepted))
        }
        let emission = model.emissions[state][index]
        let keys = emission.outputKeys(keyCount: model.keys.count)
        if let values, values.count != keys.count { return (false, nil) }
        actions.append(action)
        let step = actions.count
        var sent: [Int: String] = [:]
        for (i, key) in keys.enumerated() {
            sent[key] = values?[i] ?? (layout.isValued(key) ? layout.domains[key][0] : Self.simpleValue(model.keys[key], step: step))
        }
        let accepted = driver.send(event) { key in .string(sent[key.index] ?? "") }
        // What the spec does with it: not offered now, a value outside a domain, no row, a reset or a push.
        // The branch the values name (only the answers the emission lists for a key make one).
        let indices = emission.addValued.map { key in layout.domains[key].firstIndex(of: sent[key] ?? "") ?? -1 }
        let branch = emission.branch(values: indices) ?? 0
        let inDomain = emission.branch(values: indices) != nil
        let from = top
        guard inDomain, model.offers(emission, state: state, keys: from.keys, values: from.packed) else {
            steps.append(pathStep(.event(name)))
            return (true, refusal(of: name, accepted: accepted))
        }
        // The model's move for the branch the values name: the one semantics decides where it leads.
        let target: StateID
        let move = model.move(state: state, emission: index, branch: branch, keys: from.keys, values: from.packed)
        switch move.outcome {
        case .illegal:
            steps.append(pathStep(.event(name)))
            return (true, refusal(of: name, accepted: accepted))
        case let .reset(rootKeys, rootValues):
            // The variant's root, with the presence keys the row keeps holding what the app held (or sent now).
            var kept: [Int: String] = [:]
            for key in model.keys.indices where rootKeys & (1 << UInt64(key)) != 0 && !layout.isConfig[key] && !layout.isValued(key) {
                if let value = keys.contains(key) ? sent[key] : expected[key] { kept[key] = value }
            }
            frames = [Frame(state: model.initial.rawValue, keys: rootKeys, values: kept, event: nil, packed: rootValues)]
            expected = kept
            target = model.initial
        case let .push(to, childKeys, childValues), let .replace(to, childKeys, childValues):
            var set: [Int: String] = [:]
            for key in keys where !layout.isValued(key) { set[key] = sent[key] }
            // A presence key the row's own effects or the target's entry add, not sent: the runtime holds the text the model shows.
            if let row = emission.rows.first(where: { $0.row == move.row }), row.hasEffects {
                let added = (row.effects.addKeys | row.entry.addKeys) & childKeys
                for key in model.keys.indices where added & (1 << UInt64(key)) != 0 && set[key] == nil { set[key] = FrameTable.presentText }
            }
            // A screen updated in place is a frame of its own, marked, as the runtime keeps it: back takes it off with the one below.
            var frame = Frame(state: to.rawValue, keys: childKeys, values: set, event: name, packed: childValues)
            if case .replace = move.outcome { frame.replaces = true }
            frames.append(frame)
            for (key, value) in set { expected[key] = value }
            target = to
        }
        rowFired = true
        steps.append(pathStep(.event(name)))
        if !accepted {
            let resets = frames.count == 1 && target == model.initial
            return (true, violation(.divergence, state: from.state, event: name,
                                    "\(subject) rejected \(name) from \(model.states[state]), which the spec \(resets ? "resets" : "sends") to \(model.states[target.index])"))
        }
        if let found = mismatch() {
            return (true, violation(.divergence, state: top.state, event: name, "after \(name), \(found.summary(subject: subject))", mismatch: found))
        }
        return (true, check(after: name))
    }

    /// The keys the runtime holds as data in the top frame: present keys but config, and counters above 0.
    var dataBits: UInt64 {
        var bits = top.keys & ~configBits
        for k in model.keys.indices where model.layout.isCounter(k) && model.layout.field(k, in: top.packed) > 0 { bits |= 1 << UInt64(k) }
        return bits
    }

    /// The value the runtime must hold for `key` in the top frame.
    func expectedValue(_ key: KeyID) -> FlowValue {
        let k = key.index, layout = model.layout
        if layout.isCounter(k) { return .int(layout.field(k, in: top.packed)) }
        if layout.isValued(k) { return .string(layout.domains[k][layout.field(k, in: top.packed)]) }
        return .string(expected[k] ?? "")
    }

    func frameMismatch() -> FrameMismatch? {
        FrameComparator(model: model).compare(driver, state: top.state, height: traits.readsInternals ? frames.count : nil, keys: dataBits,
                                              expected: expectedValue, display: { "\($0)" })
    }

    /// The top frame as a path step: present keys and counters as data, with their values (secrets redacted).
    ///
    /// Config keys are left out of both, as the complete checker's paths leave them out: they never change
    /// along a path, and the violation names its variant.
    func framePathStep(_ step: FlowPath.Step?) -> PathStep {
        var values: [String: String] = [:]
        var data: [String] = []
        for k in model.keys.indices where configBits & (1 << UInt64(k)) == 0 {
            guard let shown = model.layout.shown(k, keys: top.keys, values: top.packed) else { continue }
            let name = model.keys[k]
            data.append(name)
            values[name] = model.secrets.contains(KeyID(Int32(k))) ? FlowReport.redacted
                : shown == "present" ? (expected[k] ?? "?") : shown
        }
        return PathStep(step: step, state: model.states[Int(top.state)], data: data, values: values)
    }

    /// The spec sites of the top frame, as the complete checker decides them for its configuration.
    mutating func checkFrame() -> FuzzOutcome? {
        let state = Int(top.state)
        if let unmet = rules.unmetRequirement(state: state, keys: top.keys, values: top.packed),
           let found = violation(unmet.property, state: top.state, event: nil, unmet.message) {
            return found
        }
        guard frameMoves != nil else {
            // A static table's moves depend on the state alone (no frame moves were expanded): its sites are the state's.
            for site in rules.stateSites(state) {
                if let found = violation(site.property, state: top.state, event: site.event, site.message) { return found }
            }
            return checkAssurance() ?? checkUserRules()
        }
        model.successors(state: state, keys: top.keys, values: top.packed, into: &successors)
        for successor in successors where successor.outcome == .illegal {
            let message = frameMoves?.illegalMessage(state: state, event: successor.event, keys: successor.effectKeys, values: successor.effectValues)
                ?? "\(model.states[state]) emits \(model.events[successor.event.index]), but no row of the table holds for the data after it"
            if let found = violation(.illegalTransition, state: top.state, event: model.events[successor.event.index], message) { return found }
        }
        if model.isTerminal[state], let exit = rules.terminalExit(state),
           let found = violation(exit.property, state: top.state, event: nil, exit.message) {
            return found
        }
        if let frameMoves, let i = frameMoves.graph.index[Configuration(state: top.state, keys: top.keys, values: top.packed)],
           let property = frameMoves.stuck(Int(i)),
           let found = violation(property, state: top.state, event: nil, frameMoves.stuckMessage(property, at: Int(i))) {
            return found
        }
        return checkAssurance() ?? checkUserRules()
    }

    /// The `assurance` violation of the top frame (which the runtime holds), unless seen or filtered out:
    /// its factor keys do not meet the level its step asks for (``AssuranceCheck``).
    mutating func checkAssurance() -> FuzzOutcome? {
        let state = Int(top.state)
        guard AssuranceCheck.breaks(model, state: state, keys: top.keys) else { return nil }
        return violation(.assurance, state: top.state, event: nil, AssuranceCheck.message(model, state: state, keys: top.keys))
    }
}
