/// Section 6 compiled by the model builder: `factors` checked against the flow's data keys and
/// each step's `assurance` attached to its state.
extension _FlowModelBuilder {
    /// Reads `factors` and the steps' `assurance`.
    ///
    /// A factor must name a data key of the flow that a frame can hold or lack: a presence or a
    /// valued key. A counter (always defined) or a config key (fixed per variant) proves nothing
    /// about the user and is refused at its path, as is a key the flow never uses. A
    /// `phishingResistant` factor that is not a possession factor is accepted with a warning: it
    /// raises no level.
    mutating func readAssurance() {
        let root = JSONPath.root
        var factorKeys: [Int] = [], kinds: [FlowSpec.FactorKind] = [], resistant: [Bool] = []
        for factor in spec.factors {
            let path = root.member("factors").member(factor.key)
            let name = Self.shown(factor.key)
            guard let key = keyIndex[factor.key], TextScalars.same(keys[key.index], factor.key) else {
                let hint = SpecLoader.suggestion(for: factor.key, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
                fail(path.text, "'\(name)' is not a data key of this flow\(hint); a factor is a key some step's event adds "
                     + "(a verified password, a passed code): add it there, or declare it in data")
                continue
            }
            if refusedKeys.contains(key) { continue }
            if configKeys.contains(key) {
                fail(path.text, "'\(name)' is a config key, fixed for the whole variant: it proves nothing about the user; "
                     + "name the data key a passed check adds")
                continue
            }
            if isCounter(key) {
                fail(path.text, "'\(name)' is a counter, always defined: a count proves no factor; "
                     + "name the presence or valued key a passed check adds")
                continue
            }
            if factor.phishingResistant && factor.kind != .possession {
                warn(path.member("phishingResistant").text, "phishingResistant counts only on a possession factor; '\(name)' is "
                     + "\(factor.kind.rawValue), so it raises no level (make it kind possession, or leave phishingResistant out)")
            }
            factorKeys.append(key.index)
            kinds.append(factor.kind)
            resistant.append(factor.phishingResistant)
        }
        var required = [AssuranceLevel](repeating: .none, count: states.count)
        for step in spec.steps {
            guard let level = step.assurance, let id = stateIndex[step.state], states[id.index] == step.state else { continue }
            required[id.index] = level
        }
        let used = !spec.factors.isEmpty || spec.steps.contains { $0.assurance != nil }
        assurance = FlowAssurance(factorKeys: factorKeys, factorKinds: kinds, phishingResistant: resistant, required: required, isUsed: used)
    }
}

extension FlowModel {
    /// The names of the factor keys present in `keys`, sorted by name: how reports list a way in.
    public func factorNames(keys: UInt64) -> [String] {
        assurance.factorKeys.filter { keys & (1 << UInt64($0)) != 0 }.map { self.keys[$0] }.sorted()
    }
}
