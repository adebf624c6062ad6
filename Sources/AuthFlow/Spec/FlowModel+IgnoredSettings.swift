/// Settings a spec states that the semantics never reads: each is a spec warning, at the setting,
/// saying that it is ignored and why, so that nothing the author wrote is dropped without a word.
///
/// The flow still loads and is checked as if the setting were not there; a warning never fails a
/// check. What is ignored:
/// - `back` on a terminal step: back pops only from a non-terminal state (the flow has ended);
/// - a state in an `anywhere` entry's `except` that is terminal: the entry never applies to one;
/// - `clears` on a reset row: a reset starts again from the root, which holds no data but the config.
///
/// ```swift
/// // "home": { "back": true, ... } with home a success state
/// // warning: 9:5: $.steps.home.back: back is ignored on 'home': it is a terminal state, ...
/// ```
extension _FlowModelBuilder {
    mutating func warnIgnoredSettings() {
        let root = JSONPath.root
        for step in spec.steps {
            guard let id = stateIndex[step.state], states[id.index] == step.state, isSuccess[id.index] || isAbort[id.index] else { continue }
            let path = root.member("steps").member(step.state).member("back").text
            // Written in the file (its path has a location), or set away from the default by a Swift declaration.
            guard locations[path] != nil || !step.back else { continue }
            let kind = isSuccess[id.index] ? "a success" : "an abort"
            warn(path, "back is ignored on '\(Self.shown(step.state))': it is \(kind) state, where the flow has ended and "
                 + "there is no back (back pops only from a non-terminal state); remove it")
        }
        for (i, entry) in spec.anywhere.enumerated() {
            for (j, name) in entry.except.enumerated() {
                guard let id = stateIndex[name], states[id.index] == name, isSuccess[id.index] || isAbort[id.index] else { continue }
                warn(root.member("anywhere").index(i).member("except").index(j).text,
                     "'\(Self.shown(name))' in except is ignored: it is a terminal state, to which an anywhere entry never applies; remove it")
            }
        }
        for (i, row) in spec.transitions.enumerated() where row.reset && !row.clears.isEmpty {
            warn(root.member("transitions").index(i).member("clears").text,
                 "clears is ignored on a reset row: a reset starts the flow again with no data but the config values; remove it")
        }
    }
}
