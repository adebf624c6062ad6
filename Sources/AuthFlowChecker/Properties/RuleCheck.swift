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
/// ```swift
/// let rules = RuleCheck(model: model)
/// for r in rules.indices where rules.breaks(r, state: s, keys: k, values: v) { … }
/// ```
struct RuleCheck: Sendable {
    let model: FlowModel
    /// The `always` and `never` properties, as reports name them, in declaration order.
    let properties: [Property]
    /// Their conditions, by the same index.
    let rules: [FlowModel.UserProperty]

    init(model: FlowModel) {
        self.model = model
        let kept = Property.userProperties(of: model).filter { $0.rule.map { $0.kind != .reachable } ?? false }
        self.properties = kept
        self.rules = kept.compactMap(\.rule)
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
    var configBits: UInt64 {
        model.layout.isConfig.indices.reduce(0) { model.layout.isConfig[$1] ? $0 | 1 << UInt64($1) : $0 }
    }

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
        var values: UInt64 = 0
        for k in model.keys.indices where layout.isConfig[k] { values |= root.values & layout.mask(k) }
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
