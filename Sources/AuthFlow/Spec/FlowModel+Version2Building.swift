/// The passes that compile a spec into the semantics' form: data layout, variants, emissions with guards and effects, guarded rows.
///
/// A `/1` spec compiles too (presence keys only, one row at most per emission), so every flow is
/// run by the same ``FlowModel/successors(state:keys:values:into:)``. The `/2` checks report what
/// a `/2` file can get wrong, at its JSON path: a guard naming an unknown key, a value outside a
/// key's domain, a counter used where it cannot be, a configuration key changed by a step, a key
/// named twice in one emission's effects, a reset row that does not go to the initial state.
extension _FlowModelBuilder {
    /// Reads `data` and `config` before the steps, so declared keys get the first ids, in declaration order.
    mutating func readDeclarations() {
        let root = JSONPath.root
        for declaration in spec.data {
            let path = root.member("data").member(declaration.key)
            guard let key = key(declaration.key, at: path.text) else { continue }
            if declaration.server { serverKeys.append(key) }
            switch declaration.kind {
            case .presence:
                kinds[key.index] = .presence
            case let .valued(values):
                if let problem = Self.domainProblem(values) {
                    fail(path.member("values").text, problem)
                    refusedKeys.insert(key)
                } else {
                    kinds[key.index] = .valued(count: values.count)
                    domains[key.index] = values
                }
            case let .counter(max):
                if (1...255).contains(max) {
                    kinds[key.index] = .counter(max: max)
                } else {
                    fail(path.member("max").text, "a counter's max must be from 1 to 255, found \(max)")
                    refusedKeys.insert(key)
                }
            }
        }
        var variants = 1
        for config in spec.config {
            let path = root.member("config").member(config.key)
            guard let key = key(config.key, at: path.text) else { continue }
            if spec.data.contains(where: { $0.key == config.key }) {
                fail(path.text, "'\(Self.shown(config.key))' is declared in both data and config")
                refusedKeys.insert(key)
                continue
            }
            if let problem = Self.domainProblem(config.values) {
                fail(path.text, problem)
                refusedKeys.insert(key)
                continue
            }
            kinds[key.index] = .valued(count: config.values.count)
            domains[key.index] = config.values
            configKeys.append(key)
            variants *= config.values.count
            if variants > 1_024 {
                fail(path.text, "the config keys make more than 1024 variants; a flow is checked in every one")
                return
            }
        }
    }

    /// What is wrong with a domain of values, or nil: 1 to 64 distinct values.
    static func domainProblem(_ values: [String]) -> String? {
        if values.isEmpty || values.count > 64 { return "a key takes 1 to 64 values, found \(values.count)" }
        // String's == also finds a value written in another normalisation: refused as such, not as a repeat.
        if let (offset, repeated) = values.enumerated().first(where: { values[..<$0.offset].contains($0.element) }) {
            let first = values[..<offset].first { $0 == repeated } ?? repeated
            return SpecLimits.normalisationProblem(repeated, first, what: "the value", existingWhat: "the value")
                ?? "the value '\(shown(repeated))' is listed twice"
        }
        return nil
    }

    // MARK: Guards

    /// Compiles `guardSpec` at `path`; reports every unknown key, value or bound, and returns nil if there was one.
    mutating func condition(_ guardSpec: FlowSpec.Guard, at path: JSONPath) -> Condition? {
        switch guardSpec {
        case let .has(name), let .missing(name):
            let op = { if case .has = guardSpec { return "has" } else { return "missing" } }()
            guard let key = knownKey(name, at: path.member(op)) else { return nil }
            if isCounter(key) {
                fail(path.member(op).text, "'\(Self.shown(name))' is a counter, always defined: test it with atLeast or below")
                return nil
            }
            return op == "has" ? .present(key.index) : .absent(key.index)
        case let .equals(pairs):
            var conditions: [Condition] = []
            for pair in pairs {
                guard let (key, index) = keyValue(pair.key, pair.value, at: path.member("equals").member(pair.key)) else { return nil }
                conditions.append(.valueIn(key.index, mask: 1 << UInt64(index)))
            }
            return Condition.all(folding: conditions)
        case let .isIn(lists):
            var conditions: [Condition] = []
            for list in lists {
                var mask: UInt64 = 0
                for (i, value) in list.values.enumerated() {
                    guard let (_, index) = keyValue(list.key, value, at: path.member("in").member(list.key).index(i)) else { return nil }
                    mask |= 1 << UInt64(index)
                }
                guard let key = keyIndex[list.key] else { return nil }
                conditions.append(.valueIn(key.index, mask: mask))
            }
            return Condition.all(folding: conditions)
        case let .atLeast(bounds), let .below(bounds):
            let op = { if case .atLeast = guardSpec { return "atLeast" } else { return "below" } }()
            var conditions: [Condition] = []
            for bound in bounds {
                let boundPath = path.member(op).member(bound.counter)
                guard let key = knownKey(bound.counter, at: boundPath) else { return nil }
                guard case let .counter(max) = kinds[key.index] else {
                    fail(boundPath.text, "\(op) takes counters; '\(Self.shown(bound.counter))' is not one")
                    return nil
                }
                guard (0...max).contains(bound.bound) else {
                    fail(boundPath.text, "'\(Self.shown(bound.counter))' counts from 0 to \(max); \(bound.bound) is out of range")
                    return nil
                }
                conditions.append(op == "atLeast" ? .atLeast(key.index, bound.bound) : .below(key.index, bound.bound))
            }
            return Condition.all(folding: conditions)
        case let .all(guards), let .any(guards):
            let op = { if case .all = guardSpec { return "all" } else { return "any" } }()
            var conditions: [Condition] = []
            var failed = false
            for (i, inner) in guards.enumerated() {
                if let compiled = condition(inner, at: path.member(op).index(i)) { conditions.append(compiled) } else { failed = true }
            }
            return failed ? nil : (op == "all" ? .all(conditions) : .any(conditions))
        case let .not(inner):
            return condition(inner, at: path.member("not")).map { .not($0) }
        case let .at(names):
            var states = Set<Int32>()
            for (i, name) in names.enumerated() {
                if let state = checkState(name, at: path.member("at").index(i).text, role: "state") { states.insert(state.rawValue) }
            }
            return .at(states)
        }
    }

    /// The id of a key a guard or an effect names; an unknown one is reported at `path`.
    ///
    /// A key whose declaration was refused is known but yields nil without a second report: its
    /// uses would only repeat the declaration's mistake.
    mutating func knownKey(_ name: String, at path: JSONPath) -> KeyID? {
        if let key = keyIndex[name] {
            if let problem = SpecLimits.normalisationProblem(name, keys[key.index], what: "data key", existingWhat: "the data key") {
                fail(path.text, problem)
                return nil
            }
            return refusedKeys.contains(key) ? nil : key
        }
        let hint = SpecLoader.suggestion(for: name, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
        fail(path.text, "'\(Self.shown(name))' is not a data key of this flow\(hint)")
        return nil
    }

    /// A valued key and the index of `value` in its domain; reported at `path` when either is wrong.
    /// - Parameter setting: whether a step sets the value (`set`) rather than a guard testing it, for the hint given for a counter.
    mutating func keyValue(_ name: String, _ value: String, at path: JSONPath, setting: Bool = false) -> (KeyID, Int)? {
        guard let key = knownKey(name, at: path) else { return nil }
        guard case .valued = kinds[key.index] else {
            if isCounter(key) {
                fail(path.text, "'\(Self.shown(name))' is a counter: " + (setting ? "increment it, or clear it to 0" : "test it with atLeast or below"))
            } else {
                fail(path.text, "'\(Self.shown(name))' is not a valued key (declare it in data with \"values\")")
            }
            return nil
        }
        if let index = domains[key.index].firstIndex(of: value),
           let problem = SpecLimits.normalisationProblem(value, domains[key.index][index], what: "the value",
                                                         existingWhat: "the value") {
            fail(path.text, problem)
            return nil
        }
        guard let index = domains[key.index].firstIndex(of: value) else {
            let message = "'\(Self.shown(value))' is not a value of '\(Self.shown(name))' (values: \(Self.listed(domains[key.index])))"
            fail(path.text, message)
            return nil
        }
        return (key, index)
    }

    func isCounter(_ key: KeyID) -> Bool {
        if case .counter = kinds[key.index] { return true }
        return false
    }

    // MARK: Effects

    /// Compiles one emission's effects (reporting misuse at its paths); the rows are filled in later.
    mutating func compileEmission(_ emission: FlowSpec.Emission, event: EventID, state: StateID,
                                  at makePath: @autoclosure () -> JSONPath) -> FlowModel.Emission {
        var compiled = FlowModel.Emission(event: event, bySystem: emission.by == .system, when: nil, clearKeys: 0, clearValues: 0,
                                          addKeys: 0, addValued: [], setKeys: [], setValues: [], increment: [], rows: [])
        // The common case, every /1 emission: distinct presence keys added, nothing else. No path is built.
        if emission.when == nil, emission.clears.isEmpty, emission.set.isEmpty, emission.increment.isEmpty, emission.answers.isEmpty {
            var bits: UInt64 = 0
            var plain = true
            for name in emission.adds {
                guard let key = keyIndex[name], case .presence = kinds[key.index], bits & (1 << UInt64(key.index)) == 0,
                      !configKeys.contains(key) else { plain = false; break }
                bits |= 1 << UInt64(key.index)
            }
            if plain {
                compiled.addKeys = bits
                return compiled
            }
        }
        let path = makePath()
        var names = EffectNames(seen: [], owner: "this emission's effects")
        // A list (every /1 emission, a /2 shorthand) holds only adds, at the emission's own path.
        let format = spec.format
        func effectPath(_ list: String, _ i: Int) -> JSONPath {
            list == "adds" ? emission.addsPath(i, under: path, format: format) : path.member(list).index(i)
        }
        (compiled.clearKeys, compiled.clearValues) = compileClears(emission.clears, at: { effectPath("clears", $0) }, &names)
        for (i, name) in emission.adds.enumerated() {
            guard let key = mutableKey(name, at: effectPath("adds", i), &names) else { continue }
            switch kinds[key.index] {
            case .presence:
                compiled.addKeys |= 1 << UInt64(key.index)
                if emission.answers.contains(where: { $0.key == name }) {
                    fail(effectPath("adds", i).member(name).text, "'\(Self.shown(name))' is a presence key, which has no values to answer with; "
                         + "write \"\(Self.shown(name))\", or declare it in data with \"values\"")
                }
            case .valued:
                compiled.addValued.append(key.index)
                compiled.addChoices.append(addChoices(key, name, answers: emission.answers, at: effectPath("adds", i)))
            case .counter: fail(effectPath("adds", i).text, "'\(Self.shown(name))' is a counter: increment it, or clear it to 0")
            }
        }
        (compiled.setKeys, compiled.setValues) = compileSet(emission.set, under: path, &names)
        compiled.increment = compileIncrement(emission.increment, under: path, &names)
        if let when = emission.when { compiled.when = condition(when, at: path.member("when")) }
        return compiled
    }

    /// The value-field mask of `key` in the layout being built (counters and valued keys).
    func layoutMask(_ key: KeyID) -> UInt64 {
        fieldMasks.indices.contains(key.index) ? fieldMasks[key.index] : 0
    }
}

extension _FlowModelBuilder {
    /// Compiles the semantics' form: the layout, each step's emissions with their rows, `anyOf`, `optional`, `anywhere`.
    mutating func compileSemantics() {
        // Past the key limit the spec is invalid already (reported once): there is no layout to build.
        guard !keyOverflow, keys.count <= KeySet.capacity else { return }
        // Keys first named in `anyOf`, `optional` or an `anywhere` entry's `adds` get their ids before the layout is fixed.
        for (s, step) in spec.steps.enumerated() where !step.anyOf.isEmpty || !step.optional.isEmpty {
            if timeUp(s) { return }
            let stepPath = JSONPath.root.member("steps").member(step.state)
            let positions = step.requirementIndices.anyOf
            for (i, list) in step.anyOf.enumerated() {
                for (j, name) in list.enumerated() {
                    _ = key(name, at: stepPath.member("requires").index(positions[i]).member("anyOf").index(j).text)
                }
            }
            for (i, name) in step.optional.enumerated() { _ = key(name, at: stepPath.member("optional").index(i).text) }
        }
        // An `anywhere` entry adds keys as a step's emission does: a key it first names is a presence key of the flow.
        for (i, entry) in spec.anywhere.enumerated() {
            for (j, name) in entry.adds.enumerated() { _ = key(name, at: JSONPath.root.member("anywhere").index(i).member("adds").index(j).text) }
        }
        internEffectKeys()
        guard !keyOverflow else { return }
        let keyCount = keys.count
        let kindsUsed = Array(kinds.prefix(keyCount))
        guard let layout = DataLayout(kinds: kindsUsed, domains: Array(domains.prefix(keyCount)),
                                      isConfig: (0..<keyCount).map { configKeys.contains(KeyID($0)) },
                                      isServer: (0..<keyCount).map { serverKeys.contains(KeyID($0)) }) else {
            fail("$.data", "the valued keys and counters need \(DataLayout.bitsNeeded(kindsUsed)) bits; a flow's may take at most \(DataLayout.valueBits)")
            return
        }
        self.layout = layout
        fieldMasks = (0..<keyCount).map { layout.mask($0) }
        let root = JSONPath.root
        emissions = Array(repeating: [], count: states.count)
        anyOf = Array(repeating: [], count: states.count)
        optional = Array(repeating: KeySet(), count: states.count)
        for (s, step) in spec.steps.enumerated() {
            if timeUp(s) { return }
            guard let state = stateIndex[step.state], states[state.index] == step.state, emissions[state.index].isEmpty else { continue }
            func stepPath() -> JSONPath { root.member("steps").member(step.state) }
            // Paths index the written `requires` array, where keys and anyOf lists may be mixed.
            let positions = step.requires.isEmpty && step.anyOf.isEmpty ? (keys: [Int](), anyOf: [Int]()) : step.requirementIndices
            for (i, name) in step.requires.enumerated() {
                if let key = keyIndex[name], isCounter(key) {
                    fail(stepPath().member("requires").index(positions.keys[i]).text,
                         "'\(Self.shown(name))' is a counter, always defined: a step cannot require it")
                }
            }
            for (i, list) in step.anyOf.enumerated() {
                var set = KeySet()
                for (j, name) in list.enumerated() {
                    let path = stepPath().member("requires").index(positions.anyOf[i]).member("anyOf").index(j)
                    guard let key = key(name, at: path.text) else { continue }
                    if isCounter(key) { fail(path.text, "'\(Self.shown(name))' is a counter, always defined: anyOf cannot list it") }
                    set.insert(key)
                }
                anyOf[state.index].append(set)
            }
            for (i, name) in step.optional.enumerated() {
                let path = stepPath().member("optional").index(i)
                guard let key = key(name, at: path.text) else { continue }
                if isCounter(key) {
                    fail(path.text, "'\(Self.shown(name))' is a counter, always defined: a step reads it without listing it in optional")
                }
                optional[state.index].insert(key)
            }
            // A set, not a search of the emissions so far: a step of 130,000 events took minutes to load.
            var emitted = Set<EventID>()
            for (e, emission) in step.emits.enumerated() where emission.event != "back" {
                if timeUp(e) { return }
                guard let event = eventIndex[emission.event], emitted.insert(event).inserted else { continue }
                emissions[state.index].append(compileEmission(emission, event: event, state: state,
                                                              at: stepPath().member("emits").member(emission.event)))
            }
        }
        compileEntries()
        compileAnywhere()
        compileRows()
    }

    /// Expands each `anywhere` entry into an emission and a row of every non-terminal state it reaches; a state's own wins.
    ///
    /// Each expanded row is a row of ``FlowModel/rows`` of its own (from the state, on the event),
    /// so coverage counts it and lint reports it like a row of the table. Two entries for the same
    /// event are an invalid spec: the second would be overridden by the first everywhere.
    mutating func compileAnywhere() {
        let root = JSONPath.root
        var entryOf: [EventID: Int] = [:]
        for (i, entry) in spec.anywhere.enumerated() {
            let path = root.member("anywhere").index(i)
            // `stay`: each state the entry reaches goes back to itself; `to` is then unused.
            if entry.replace && !entry.stay {
                fail(path.member("history").text, "\"history\": \"replace\" updates the screen in place, so an anywhere entry that takes it "
                     + "must stay on that screen (stay: true)")
                continue
            }
            let target = entry.stay ? nil : checkState(entry.to, at: path.member("to").text, role: "anywhere target")
            guard entry.stay || target != nil, let templateState = target ?? initial else { continue }
            var excluded = Set<Int>()
            for (j, name) in entry.except.enumerated() {
                if let state = checkState(name, at: path.member("except").index(j).text, role: "excepted state") { excluded.insert(state.index) }
            }
            if entry.on == "back" {
                fail(path.member("on").text, "'back' is reserved for undo; it cannot be used in a transition")
                continue
            }
            let event = internEvent(entry.on, at: path.member("on").text)
            if let earlier = entryOf[event] {
                fail(path.member("on").text, "anywhere[\(earlier)] already handles '\(Self.shown(entry.on))'; "
                     + "combine the two entries, or give the states their own rows")
                continue
            }
            entryOf[event] = i
            var emission = FlowSpec.Emission(entry.on, adds: entry.adds)
            emission.set = entry.set
            emission.increment = entry.increment
            emission.when = entry.when
            emission.by = entry.by
            let template = compileEmission(emission, event: event, state: templateState, at: path)
            var clearKeys: UInt64 = 0
            var clearValues: UInt64 = 0
            for (j, name) in entry.clears.enumerated() {
                guard let key = knownKey(name, at: path.member("clears").index(j)) else { continue }
                if configKeys.contains(key) {
                    fail(path.member("clears").index(j).text, "'\(Self.shown(name))' is a config key, fixed when the flow starts; no row may clear it")
                    continue
                }
                clearKeys |= 1 << UInt64(key.index)
                clearValues |= layoutMask(key)
            }
            for state in 0..<states.count where !(isSuccess[state] || isAbort[state]) && !excluded.contains(state) {
                let declares = emissions[state].contains { $0.event == event }
                    || rows.contains { $0.from.index == state && $0.event == event }
                if declares {
                    anywhereOverrides.append("\(states[state]).\(entry.on)")
                    continue
                }
                // Each state the entry reaches gets a row of its own, after the declared ones.
                var own = template
                let to = target ?? StateID(state)
                var row = FlowModel.GuardedRow(when: nil, to: to, clearKeys: clearKeys, clearValues: clearValues, reset: false, row: rows.count)
                if entries.indices.contains(to.index) {
                    row.entry = entries[to.index]
                    row.hasEffects = !row.entry.isEmpty
                }
                row.replace = entry.replace
                own.rows = [row]
                emissions[state].append(own)
                rows.append(FlowModel.Row(from: StateID(state), event: event, to: to))
            }
        }
    }

    /// Attaches each accepted row of the table to the emission it takes, in declaration order.
    mutating func compileRows() {
        let root = JSONPath.root
        // Each (state, event)'s emission, the first when an event repeats: found once, not searched for per row.
        var emissionOf: [Int64: Int] = [:]
        for (state, list) in emissions.enumerated() {
            for (e, emission) in list.enumerated() where emissionOf[Int64(state) << 32 | Int64(emission.event.rawValue)] == nil {
                emissionOf[Int64(state) << 32 | Int64(emission.event.rawValue)] = e
            }
        }
        for (i, row) in spec.transitions.enumerated() {
            if timeUp(i) { return }
            guard let index = rowOfTransition[i] else { continue }
            let compiledRow = rows[index]
            func rowPath() -> JSONPath { root.member("transitions").index(i) }
            var guarded = FlowModel.GuardedRow(when: nil, to: compiledRow.to, clearKeys: 0, clearValues: 0, reset: row.reset, row: index)
            if let when = row.when { guarded.when = condition(when, at: rowPath().member("when")) }
            for (j, name) in row.clears.enumerated() {
                guard let key = knownKey(name, at: rowPath().member("clears").index(j)) else { continue }
                if configKeys.contains(key) {
                    fail(rowPath().member("clears").index(j).text, "'\(Self.shown(name))' is a config key, fixed when the flow starts; no row may clear it")
                    continue
                }
                guarded.clearKeys |= 1 << UInt64(key.index)
                guarded.clearValues |= layoutMask(key)
            }
            compileRowEffects(row, into: &guarded, at: rowPath())
            if row.replace {
                if row.reset {
                    fail(rowPath().member("history").text, "a reset row starts a new history of one frame, so it replaces nothing; "
                         + "remove \"history\" (or \"reset\")")
                } else if compiledRow.to != compiledRow.from {
                    fail(rowPath().member("history").text, "\"history\": \"replace\" updates the screen in place, so the row must go back "
                         + "to its own state: it goes from '\(Self.shown(row.from))' to '\(Self.shown(row.to))'; "
                         + "write \"to\": \"\(Self.shown(row.from))\", or remove \"history\" to open a new screen")
                } else {
                    guarded.replace = true
                }
            }
            let state = compiledRow.from.index
            if let e = emissionOf[Int64(state) << 32 | Int64(compiledRow.event.rawValue)] {
                emissions[state][e].rows.append(guarded)
            }
        }
    }

    /// The roots, one per variant (config keys in declaration order, the first varying slowest), with each variant's values.
    func variants() -> (roots: [(keys: UInt64, values: UInt64)], descriptions: [[FlowSpec.KeyValue]]) {
        guard let layout else { return ([(0, 0)], [[]]) }
        var roots: [(keys: UInt64, values: UInt64)] = [(0, 0)]
        var descriptions: [[FlowSpec.KeyValue]] = [[]]
        for key in configKeys {
            var nextRoots: [(keys: UInt64, values: UInt64)] = []
            var nextDescriptions: [[FlowSpec.KeyValue]] = []
            for (root, description) in zip(roots, descriptions) {
                for (index, value) in domains[key.index].enumerated() {
                    nextRoots.append((root.keys | 1 << UInt64(key.index), layout.setting(key.index, to: index, in: root.values)))
                    nextDescriptions.append(description + [FlowSpec.KeyValue(keys[key.index], value)])
                }
            }
            roots = nextRoots
            descriptions = nextDescriptions
        }
        return (roots, descriptions)
    }
}
