/// Compiling section 5's effects: a row's own effects and `keeps`, each step's `entry`, an
/// emission's answers drawn from part of a key's domain.
///
/// Each misuse is an invalid spec at its JSON path: a key named twice across one row's effects, a
/// valued key or a counter added by a row or an entry (they never branch), effects or `keeps` on
/// the wrong kind of row, an `entry` on the initial step, an answer outside its key's domain.
extension _FlowModelBuilder {
    /// Compiles `clears`, `adds`, `set` and `increment` that never branch (an `entry`, a row's own effects).
    ///
    /// - Parameters:
    ///   - named: keys already named by the same effects (a row's `clears`, compiled elsewhere).
    ///   - owner: what the effects belong to, as messages name it ("this row's effects", "this entry").
    mutating func compileEffects(clears: [String], adds: [String], set: [FlowSpec.KeyValue], increment: [String],
                                 at path: JSONPath, named: [String] = [], owner: String) -> FlowModel.Effects {
        var effects = FlowModel.Effects()
        var names = EffectNames(seen: Set(named), owner: owner + "; name each key once across clears, adds, set and increment")
        (effects.clearKeys, effects.clearValues) = compileClears(clears, at: { path.member("clears").index($0) }, &names)
        for (i, name) in adds.enumerated() {
            let at = path.member("adds").index(i)
            guard let key = mutableKey(name, at: at, &names) else { continue }
            switch kinds[key.index] {
            case .presence: effects.addKeys |= 1 << UInt64(key.index)
            case .valued:
                fail(at.text, "'\(Self.shown(name))' is a valued key, and \(owner) never branch: adds takes presence keys here; "
                     + "set it to one value ({\"set\": {\"\(Self.shown(name))\": \"...\"}}), or add it in the emission")
            case .counter: fail(at.text, "'\(Self.shown(name))' is a counter: increment it, or clear it to 0")
            }
        }
        (effects.setKeys, effects.setValues) = compileSet(set, under: path, &names)
        effects.increment = compileIncrement(increment, under: path, &names)
        return effects
    }

    /// `name` as a key effects may change: known, named once across the effects, not a config key; `nil` after failing.
    mutating func mutableKey(_ name: String, at path: JSONPath, _ names: inout EffectNames) -> KeyID? {
        guard let key = knownKey(name, at: path), namedOnce(name, at: path, &names) else { return nil }
        if configKeys.contains(key) {
            fail(path.text, "'\(Self.shown(name))' is a config key, fixed when the flow starts; no step may change it")
            return nil
        }
        return key
    }

    /// Whether `name` is named here for the first time across the effects; fails at `path` when not.
    mutating func namedOnce(_ name: String, at path: JSONPath, _ names: inout EffectNames) -> Bool {
        if names.seen.insert(name).inserted { return true }
        fail(path.text, "'\(Self.shown(name))' is named twice in \(names.owner)")
        return false
    }

    /// The presence bits and value fields `clears` names (the `i`-th at `pathOf(i)`).
    mutating func compileClears(_ clears: [String], at pathOf: (Int) -> JSONPath, _ names: inout EffectNames)
        -> (keys: UInt64, values: UInt64) {
        var keys: UInt64 = 0, values: UInt64 = 0
        for (i, name) in clears.enumerated() {
            guard let key = mutableKey(name, at: pathOf(i), &names) else { continue }
            keys |= 1 << UInt64(key.index)
            values |= layoutMask(key)
        }
        return (keys, values)
    }

    /// The keys `set` names under `path`, each with the index of its value.
    mutating func compileSet(_ set: [FlowSpec.KeyValue], under path: JSONPath, _ names: inout EffectNames) -> (keys: [Int], values: [Int]) {
        var keys: [Int] = [], values: [Int] = []
        for pair in set {
            let at = path.member("set").member(pair.key)
            guard keyIndex[pair.key] == nil || namedOnce(pair.key, at: at, &names) else { continue }
            guard let (key, index) = keyValue(pair.key, pair.value, at: at, setting: true) else { continue }
            if configKeys.contains(key) {
                fail(at.text, "'\(Self.shown(pair.key))' is a config key, fixed when the flow starts; no step may change it")
                continue
            }
            keys.append(key.index)
            values.append(index)
        }
        return (keys, values)
    }

    /// The counters `increment` names under `path`.
    mutating func compileIncrement(_ increment: [String], under path: JSONPath, _ names: inout EffectNames) -> [Int] {
        var counters: [Int] = []
        for (i, name) in increment.enumerated() {
            let at = path.member("increment").index(i)
            guard let key = mutableKey(name, at: at, &names) else { continue }
            if isCounter(key) {
                counters.append(key.index)
            } else {
                fail(at.text, "'\(Self.shown(name))' is not a counter (declare it in data with \"max\")")
            }
        }
        return counters
    }

    /// Gives an id to each key a row's `adds` or a step's `entry.adds` names first (a presence key, as anywhere else).
    mutating func internEffectKeys() {
        let root = JSONPath.root
        for (i, row) in spec.transitions.enumerated() where !row.adds.isEmpty {
            for (j, name) in row.adds.enumerated() { _ = key(name, at: root.member("transitions").index(i).member("adds").index(j).text) }
        }
        for step in spec.steps {
            guard let entry = step.entry else { continue }
            for (j, name) in entry.adds.enumerated() {
                _ = key(name, at: root.member("steps").member(step.state).member("entry").member("adds").index(j).text)
            }
        }
    }

    /// Compiles each step's `entry` (``entries``, per state); refuses one on the initial step.
    mutating func compileEntries() {
        entries = Array(repeating: FlowModel.Effects(), count: states.count)
        for step in spec.steps {
            guard let entry = step.entry, let state = stateIndex[step.state], states[state.index] == step.state else { continue }
            let path = JSONPath.root.member("steps").member(step.state).member("entry")
            if state == initial {
                fail(path.text, "the initial step takes no entry: the flow starts there and a reset returns there without entering it; "
                     + "put these effects on the rows that lead to it")
                continue
            }
            entries[state.index] = compileEffects(clears: entry.clears, adds: entry.adds, set: entry.set, increment: entry.increment,
                                                  at: path, owner: "this entry")
        }
    }

    /// Adds to `guarded` the row's own effects and its target's entry, or for a reset row what it keeps.
    mutating func compileRowEffects(_ row: FlowSpec.TransitionRow, into guarded: inout FlowModel.GuardedRow, at rowPath: JSONPath) {
        if row.reset {
            if let (list, _) = [("adds", row.adds.isEmpty), ("set", row.set.isEmpty), ("increment", row.increment.isEmpty)].first(where: { !$0.1 }) {
                fail(rowPath.member(list).text, "a reset row starts the flow again, so its own effects would be lost; "
                     + "apply them in the emission, or name the keys the new run starts with in keeps")
            }
            guarded.keepKeys = 0
            guarded.keepValues = 0
            // Config values stay the variant's; server-side keys are never undone by a reset (its clears still apply).
            for key in configKeys + serverKeys {
                guarded.keepKeys |= 1 << UInt64(key.index)
                guarded.keepValues |= layoutMask(key)
            }
            var kept = Set<String>()
            for (i, name) in row.keeps.enumerated() {
                let at = rowPath.member("keeps").index(i)
                guard let key = knownKey(name, at: at) else { continue }
                if !kept.insert(name).inserted {
                    fail(at.text, "'\(Self.shown(name))' is kept twice; list each key once")
                } else if configKeys.contains(key) {
                    fail(at.text, "'\(Self.shown(name))' is a config key: every reset keeps the variant's config values; remove it from keeps")
                } else if serverKeys.contains(key) {
                    fail(at.text, "'\(Self.shown(name))' is a server-side key: every reset keeps it as it is; remove it from keeps")
                } else if isCounter(key) {
                    fail(at.text, "'\(Self.shown(name))' is a counter: a new run starts it at 0; keeps takes presence and valued keys")
                } else {
                    guarded.keepKeys |= 1 << UInt64(key.index)
                    guarded.keepValues |= layoutMask(key)
                }
            }
            guarded.keepKeys &= ~guarded.clearKeys
            guarded.keepValues &= ~guarded.clearValues
            return
        }
        if !row.keeps.isEmpty {
            fail(rowPath.member("keeps").text, "keeps names what a reset row carries into the new run; this row does not reset "
                 + "(add \"reset\": true, or remove keeps)")
        }
        guarded.effects = compileEffects(clears: [], adds: row.adds, set: row.set, increment: row.increment,
                                         at: rowPath, named: row.clears, owner: "this row's effects")
        if entries.indices.contains(guarded.to.index) { guarded.entry = entries[guarded.to.index] }
        guarded.hasEffects = !guarded.effects.isEmpty || !guarded.entry.isEmpty
    }

    /// The value indices a valued key added by an emission may take: those `answers` lists for it (each
    /// checked at its path), or its whole domain.
    mutating func addChoices(_ key: KeyID, _ name: String, answers: [FlowSpec.KeyValues], at path: JSONPath) -> [Int] {
        let domain = Array(domains[key.index].indices)
        guard let answer = answers.first(where: { $0.key == name }) else { return domain }
        let answerPath = path.member(name)
        if answer.values.isEmpty {
            let values = Self.listed(domains[key.index])
            fail(answerPath.text, "'\(Self.shown(name))' lists no answer; list at least one of its values (\(values)), "
                 + "or write \"\(Self.shown(name))\" for each of them")
            return domain
        }
        var choices: [Int] = []
        for (i, value) in answer.values.enumerated() {
            guard let (_, index) = keyValue(name, value, at: answerPath.index(i)) else { continue }
            if choices.contains(index) {
                fail(answerPath.index(i).text, "the answer '\(Self.shown(value))' is listed twice; list each value once")
                continue
            }
            choices.append(index)
        }
        return choices.isEmpty ? domain : choices
    }
}

/// The keys one set of effects (an emission's, a row's, an entry's) has named so far, and how a
/// "named twice" error speaks of them.
struct EffectNames {
    var seen: Set<String>
    /// "this emission's effects", or a row's or an entry's with the advice that follows.
    let owner: String
}
