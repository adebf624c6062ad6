import AuthFlow

/// The spec's own `always`/`never` rules on every frame the walk drives (``RuleCheck``).
///
/// Each rule is one site, whatever the state: the walk keeps its first occurrence in breadth-first
/// order, as it keeps every site's. Where the runtime holds the spec's frame, the rule is checked on
/// that frame, in the complete checker's words; where an action left the runtime elsewhere (the walk
/// reports that as `divergence` or `undo-mismatch`), the frame the runtime holds is read through the
/// driver and checked as well, so a runtime that breaks a rule the spec keeps is reported as that rule too.
extension Walk {
    /// Checks the rules on the frame of the node just entered, which the runtime holds (a static flow's values are all 0).
    @inline(never)
    mutating func checkRules(state: Int32, keys: UInt64) {
        let length = Int32(nodes.count - 1)
        for i in rules.candidateRange(state) {
            let r = rules.candidateRules[i]
            guard ruleFound[r] >= length && rules.breaksCandidate(i, state: state, keys: keys, values: 0) else { continue }
            ruleFound[r] = length
            let rules = self.rules
            record(Site(property: rules.properties[r], state: nil), state: model.states[Int(state)], trigger: nil, mismatch: nil) { model in
                rules.message(r, state: model.states[Int(state)], keys: keys, values: 0)
            }
        }
    }

    /// Checks the rules on the frame the runtime holds after `trigger` (nil: the move to the top node)
    /// left it where the spec does not say; `mismatch` is how it differs, when the walk compared it.
    @inline(never)
    mutating func checkRulesOnRuntime(trigger: WalkTrigger?, mismatch: FrameMismatch? = nil) {
        guard let frame = rules.frame(of: driver, root: model.roots[0]) else { return }
        let name = rules.stateName(frame.state, of: driver)
        for r in rules.indices where rules.breaks(r, state: frame.state, keys: frame.keys, values: frame.values) {
            let rules = self.rules, subject = self.subject
            record(Site(property: rules.properties[r], state: nil), state: name, trigger: trigger, mismatch: mismatch) { _ in
                rules.message(r, state: name, keys: frame.keys, values: frame.values, subject: subject)
            }
        }
    }
}
