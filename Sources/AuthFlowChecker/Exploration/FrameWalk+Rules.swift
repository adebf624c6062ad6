import AuthFlow

/// The spec's own `always`/`never` rules on every frame the walk over frames drives, as ``Walk`` checks them
/// (see `Walk+Rules.swift`): on the spec's frame where the runtime holds it, on the frame read through
/// the driver where an action left the runtime elsewhere.
extension FrameWalk {
    /// Checks the rules on the frame of the node just entered, which the runtime holds.
    /// Only the rules the data could break in `state` are evaluated (none, in most states of most flows).
    @inline(__always)
    mutating func checkRules(state: Int32, keys: UInt64, values: UInt64) {
        if rules.isEmpty { return }
        let range = rules.candidateRange(state)
        if range.isEmpty { return }
        checkEachRule(range, state: state, keys: keys, values: values)
    }

    @inline(never)
    mutating func checkEachRule(_ range: Range<Int>, state: Int32, keys: UInt64, values: UInt64) {
        let length = Int32(nodes.count - 1)
        for i in range {
            let r = rules.candidateRules[i]
            guard ruleFound[r] >= length && rules.breaksCandidate(i, state: state, keys: keys, values: values) else { continue }
            ruleFound[r] = length
            let rules = self.rules
            record(Site(property: rules.properties[r], state: nil), state: model.states[Int(state)], trigger: nil, mismatch: nil) { model in
                rules.message(r, state: model.states[Int(state)], keys: keys, values: values)
            }
        }
    }

    /// Checks the rules on the frame the runtime holds after `trigger` (nil: the move to the top node) left it
    /// where the spec does not say; `mismatch` is how it differs, when the walk compared it.
    mutating func checkRulesOnRuntime(trigger: WalkTrigger?, mismatch: FrameMismatch? = nil) {
        guard !rules.isEmpty, let frame = rules.frame(of: driver, root: model.roots[variant]) else { return }
        let name = rules.stateName(frame.state, of: driver)
        for r in rules.indices where rules.breaks(r, state: frame.state, keys: frame.keys, values: frame.values) {
            let rules = self.rules, subject = self.subject
            record(Site(property: rules.properties[r], state: nil), state: name, trigger: trigger, mismatch: mismatch) { _ in
                rules.message(r, state: name, keys: frame.keys, values: frame.values, subject: subject)
            }
        }
    }
}
