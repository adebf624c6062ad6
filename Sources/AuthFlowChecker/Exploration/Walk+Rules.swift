import AuthFlow

/// The spec's own `always`/`never` rules on every frame the walk drives (``RuleCheck``).
///
/// Each rule is one site, whatever the state: the walk keeps its first occurrence in breadth-first
/// order, as it keeps every site's. Where the runtime holds the spec's frame, the rule is checked on
/// that frame, in the complete checker's words; where an action left the runtime elsewhere (the walk
/// reports that as `divergence` or `undo-mismatch`), the frame the runtime holds is read through the
/// driver and checked as well, so a runtime that breaks a rule the spec keeps is reported as that rule too.
extension Walk {
    /// Checks the rules on the frame of the node just entered (configuration `id`), which the runtime holds.
    ///
    /// The frame is the spec's, so which rules it breaks is a fact of the configuration: decided once, at its
    /// first visit, from the rules the data could break in its state, and read back at every other stack.
    @inline(__always)
    mutating func checkRules(_ id: Int32) {
        if rules.isEmpty { return }
        if !table.entries[Int(id)].facts.contains(.rulesDecided) { decideRules(id) }
        let entry = table.entries[Int(id)]
        if entry.ruleStart < entry.ruleEnd { recordRules(entry) }
    }

    @inline(never)
    mutating func decideRules(_ id: Int32) {
        let entry = table.entries[Int(id)], rules = self.rules
        let broken = rules.candidateRange(entry.state).filter {
            rules.breaksCandidate($0, state: entry.state, keys: entry.keys, values: entry.values)
        }
        table.decideRules(id, broken: broken.map { Int32(rules.candidateRules[$0]) })
    }

    /// Records each rule `entry` breaks at this stack, unless it was found at a shorter one.
    @inline(never)
    mutating func recordRules(_ entry: FrameTable.Entry) {
        let length = Int32(nodes.count - 1)
        for k in Int(entry.ruleStart)..<Int(entry.ruleEnd) {
            let r = Int(table.brokenRules[k])
            guard ruleFound[r] >= length else { continue }
            ruleFound[r] = length
            let rules = self.rules, state = entry.state, keys = entry.keys, values = entry.values
            record(Site(property: rules.properties[r], state: nil), state: model.states[Int(state)], trigger: nil, mismatch: nil) { model in
                rules.message(r, state: model.states[Int(state)], keys: keys, values: values)
            }
        }
    }

    /// Checks the rules on the frame the runtime holds after `trigger` (nil: the move to the top node) left it
    /// where the spec does not say; `mismatch` is how it differs, when the walk compared it.
    mutating func checkRulesOnRuntime(trigger: WalkTrigger?, mismatch: FrameMismatch? = nil) {
        guard !rules.isEmpty || checksAssurance, let frame = rules.frame(of: driver, root: model.roots[variant]) else { return }
        let name = rules.stateName(frame.state, of: driver)
        for r in rules.indices where rules.breaks(r, state: frame.state, keys: frame.keys, values: frame.values) {
            let rules = self.rules, subject = self.subject
            record(Site(property: rules.properties[r], state: nil), state: name, trigger: trigger, mismatch: mismatch) { _ in
                rules.message(r, state: name, keys: frame.keys, values: frame.values, subject: subject)
            }
        }
        // Section 6 on the frame the implementation holds: an app that skips the second factor is at a protected screen
        // below its level, whatever the spec's frame says.
        let state = Int(frame.state)
        if checksAssurance, state >= 0, state < model.stateCount, AssuranceCheck.breaks(assurance, state: state, keys: frame.keys) {
            record(Site(property: .assurance, state: name), state: name, trigger: trigger, mismatch: mismatch) { model in
                AssuranceCheck.message(model, state: state, keys: frame.keys)
            }
        }
    }

    /// Checks the frame of the node just entered (which the runtime holds) against the level its step asks
    /// for (section 6, ``AssuranceCheck``): one site per step, its first occurrence in breadth-first order.
    @inline(never)
    mutating func checkAssurance(_ entry: FrameTable.Entry) {
        let state = Int(entry.state), keys = entry.keys
        guard AssuranceCheck.breaks(assurance, state: state, keys: keys) else { return }
        let name = model.states[state]
        record(Site(property: .assurance, state: name), state: name, trigger: nil, mismatch: nil) { model in
            AssuranceCheck.message(model, state: state, keys: keys)
        }
    }
}
