import AuthFlow

/// The spec's own `always` and `never` properties, checked one frame at a time: what the lockstep
/// walk, the random-path tester and the conformance checks evaluate on every frame they drive.
///
/// The complete checker decides these rules on every reachable configuration of the spec
/// (``ModelChecker``). The searches that drive an implementation check them on what the
/// implementation holds after every action. Where it holds the spec's frame (the searches compare
/// that first), the frame is the spec's and so is the answer. Where it holds another one (a
/// `divergence`, or an `undo-mismatch` that left it elsewhere), the frame is read through the
/// driver (``frame(of:root:)``) and checked too: an implementation that breaks a rule the spec
/// keeps is reported as that rule, besides the disagreement itself.
///
/// `reachable` properties are about the whole graph, not a frame: only the complete checker decides them.
///
/// Most rules name the states they are about (`at`): per state, only the rules that the data could
/// break there are candidates (``candidateRange(_:)``), so a search pays for a rule only where it
/// applies, and a rule that tests only which keys are present is tested there with two masks.
///
/// ```swift
/// let rules = RuleCheck(model: model)
/// for i in rules.candidateRange(s) where rules.breaksCandidate(i, state: s, keys: k, values: v) { … }
/// ```
struct RuleCheck: Sendable {
    let model: FlowModel
    /// The `always` and `never` properties, as reports name them, in declaration order.
    let properties: [Property]
    /// Their conditions, by the same index.
    let rules: [FlowModel.UserProperty]
    /// Per state `s`, the rules some data could break in `s` are `candidateRules[candidateStart[s] ..< candidateStart[s + 1]]`.
    let candidateStart: [Int]
    let candidateRules: [Int]
    /// Per candidate, how it is tested: ``Test/masks`` and ``Test/someMask`` with the two masks, or ``Test/whole``.
    let candidateTest: [Test]
    let candidateA: [UInt64]
    let candidateB: [UInt64]

    /// How a candidate rule is tested in its state, once its `at` tests are decided by the state.
    enum Test: UInt8, Sendable {
        /// Broken when the data holds every key of A and none of B.
        case masks
        /// Broken when the data holds some key of A or lacks some key of B.
        case someMask
        /// Broken by the whole condition (values, counters, or a deeper formula).
        case whole
    }

    init(model: FlowModel) {
        self.model = model
        let kept = Property.userProperties(of: model).filter { $0.rule.map { $0.kind != .reachable } ?? false }
        self.properties = kept
        self.rules = kept.compactMap(\.rule)
        var start = [0], candidates: [Int] = [], tests: [Test] = [], a: [UInt64] = [], b: [UInt64] = []
        for state in 0..<model.stateCount {
            for (r, rule) in rules.enumerated() {
                // What breaks the rule in this state: its condition (never) or the condition's negation (always),
                // with each `at` decided by the state. A rule that nothing breaks here is no candidate.
                let broken = Self.normal(Self.deciding(rule.condition, in: Int32(state)), negated: rule.kind == .always)
                if case let .any(list) = broken, list.isEmpty { continue }
                let (test, first, second) = Self.test(broken)
                candidates.append(r)
                tests.append(test)
                a.append(first)
                b.append(second)
            }
            start.append(candidates.count)
        }
        self.candidateStart = start
        self.candidateRules = candidates
        self.candidateTest = tests
        self.candidateA = a
        self.candidateB = b
    }

    /// `condition` with each `at` replaced by whether it holds in `state` (`all []` is true, `any []` false), simplified.
    static func deciding(_ condition: Condition, in state: Int32) -> Condition {
        switch condition {
        case .present, .absent, .valueIn, .atLeast, .below: return condition
        case let .at(states): return states.contains(state) ? .all([]) : .any([])
        case let .not(inner):
            switch deciding(inner, in: state) {
            case let .all(list) where list.isEmpty: return .any([])
            case let .any(list) where list.isEmpty: return .all([])
            case let decided: return .not(decided)
            }
        case let .all(list):
            var kept: [Condition] = []
            for part in list.map({ deciding($0, in: state) }) {
                if case let .any(inner) = part, inner.isEmpty { return .any([]) }
                if case let .all(inner) = part, inner.isEmpty { continue }
                kept.append(part)
            }
            return kept.count == 1 ? kept[0] : .all(kept)
        case let .any(list):
            var kept: [Condition] = []
            for part in list.map({ deciding($0, in: state) }) {
                if case let .all(inner) = part, inner.isEmpty { return .all([]) }
                if case let .any(inner) = part, inner.isEmpty { continue }
                kept.append(part)
            }
            return kept.count == 1 ? kept[0] : .any(kept)
        }
    }

    /// `condition` (or its negation) with every `not` pushed down to a test of the data: `has` and `missing` swap.
    static func normal(_ condition: Condition, negated: Bool) -> Condition {
        switch condition {
        case let .present(k): return negated ? .absent(k) : condition
        case let .absent(k): return negated ? .present(k) : condition
        case .valueIn, .atLeast, .below, .at: return negated ? .not(condition) : condition
        case let .not(inner): return normal(inner, negated: !negated)
        case let .all(list):
            let parts = list.map { normal($0, negated: negated) }
            return negated ? .any(parts) : .all(parts)
        case let .any(list):
            let parts = list.map { normal($0, negated: negated) }
            return negated ? .all(parts) : .any(parts)
        }
    }

    /// How to test `broken` (a condition in ``normal(_:negated:)`` form): as masks when it tests only which keys are present.
    static func test(_ broken: Condition) -> (Test, UInt64, UInt64) {
        func masks(_ list: [Condition]) -> (present: UInt64, absent: UInt64)? {
            var present: UInt64 = 0, absent: UInt64 = 0
            for part in list {
                switch part {
                case let .present(k): present |= 1 << UInt64(k)
                case let .absent(k): absent |= 1 << UInt64(k)
                default: return nil
                }
            }
            return (present, absent)
        }
        switch broken {
        case .present, .absent: return masks([broken]).map { (.masks, $0.present, $0.absent) } ?? (.whole, 0, 0)
        case let .all(list): return masks(list).map { (.masks, $0.present, $0.absent) } ?? (.whole, 0, 0)
        case let .any(list): return masks(list).map { (.someMask, $0.present, $0.absent) } ?? (.whole, 0, 0)
        default: return (.whole, 0, 0)
        }
    }

    /// Where the rules some data could break in `state`, one of the spec's, are listed in ``candidateRules``.
    @inline(__always)
    func candidateRange(_ state: Int32) -> Range<Int> {
        candidateStart[Int(state)]..<candidateStart[Int(state) + 1]
    }

    /// Whether the frame `(state, keys, values)` breaks candidate `i` (of ``candidateRange(_:)`` for `state`).
    @inline(__always)
    func breaksCandidate(_ i: Int, state: Int32, keys: UInt64, values: UInt64) -> Bool {
        switch candidateTest[i] {
        case .masks: return keys & candidateA[i] == candidateA[i] && keys & candidateB[i] == 0
        case .someMask: return keys & candidateA[i] != 0 || keys & candidateB[i] != candidateB[i]
        case .whole: return breaks(candidateRules[i], state: state, keys: keys, values: values)
        }
    }

    /// Whether there is no rule to check (every `authflow/1` flow): the searches then skip the check altogether.
    var isEmpty: Bool { rules.isEmpty }

    /// The rules' positions.
    var indices: Range<Int> { rules.indices }

    /// Whether the frame `(state, keys, values)` breaks rule `r`.
    @inline(__always)
    func breaks(_ r: Int, state: Int32, keys: UInt64, values: UInt64) -> Bool {
        rules[r].isViolated(state: state, keys: keys, values: values, layout: model.layout)
    }

    /// What a report says about a frame that breaks `rule`: the complete checker's words for a frame of the spec
    /// (`subject` nil), and for a frame an implementation holds where the spec holds another, what `subject` holds.
    static func message(_ rule: FlowModel.UserProperty, state: String, data: String, subject: String? = nil) -> String {
        let reached = subject.map { "\($0) is at \(state) with the data \(data)" } ?? "\(state) is reached with the data \(data)"
        return rule.kind == .always ? "\(rule.id) says always \(rule.text), but \(reached), where it does not hold"
                                    : "\(rule.id) says never \(rule.text), but \(reached), where it holds"
    }

    /// ``message(_:state:data:subject:)`` for rule `r` broken by the frame `(state, keys, values)` (config values shown, as the checker shows them).
    func message(_ r: Int, state: String, keys: UInt64, values: UInt64, subject: String? = nil) -> String {
        Self.message(rules[r], state: state, data: model.dataText(keys: keys, values: values), subject: subject)
    }

    /// The bits of the config keys: a frame's data shows them in the variant, not in the data.
    var configBits: UInt64 { model.layout.configKeys }

    /// The frame `driver` holds now, in the model's terms, in the variant whose root is `root`; `nil` when
    /// the model cannot write it (a value outside its key's domain, a count outside its counter's range).
    ///
    /// A key the driver has a value for is present; a valued key's value is its index in the domain,
    /// a counter's its count (absent: 0); config keys are the variant's, which the runtime does not hold as data.
    /// An implementation's state the spec does not name keeps its id past the model's states, where no `at` holds.
    /// - Complexity: O(keys); asked only where the implementation left the spec's frame.
    func frame(of driver: some FlowDriver, root: FlowModel.Root) -> (state: Int32, keys: UInt64, values: UInt64)? {
        let layout = model.layout
        var keys = root.keys & configBits
        var values = root.values & layout.configValues
        for k in model.keys.indices where !layout.isConfig[k] {
            guard let value = driver.value(of: KeyID(Int32(k))) else { continue }
            switch layout.kinds[k] {
            case .presence:
                keys |= 1 << UInt64(k)
            case let .valued(count):
                guard case let .string(text) = value, let index = layout.domains[k].firstIndex(of: text), index < count else { return nil }
                keys |= 1 << UInt64(k)
                values = layout.setting(k, to: index, in: values)
            case let .counter(max):
                guard case let .int(count) = value, (0...max).contains(count) else { return nil }
                values = layout.setting(k, to: count, in: values)
            }
        }
        return (driver.state.rawValue, keys, values)
    }

    /// The name of state `id` of `driver`: the spec's, or the implementation's own for a state the spec does not name.
    func stateName(_ id: Int32, of driver: some FlowDriver) -> String {
        if id >= 0 && Int(id) < model.stateCount { return model.states[Int(id)] }
        return (driver as? NamesUnknownStates)?.name(of: StateID(id)) ?? "state \(id)"
    }
}
