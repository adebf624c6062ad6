import AuthFlow

/// Runs actions through a runtime and the model side by side, checking every property after every step.
///
/// The random walker and replay share it, so a saved path replays through exactly the code
/// that found it. The spec's own `always`/`never` rules are checked on every frame, as the walk checks
/// them (``RuleCheck``): on the spec's frame where the runtime holds it; where the runtime holds
/// another, the run reports the `divergence` or `undo-mismatch` when that is checked, and otherwise
/// (`--property` a rule) the rule the runtime's frame breaks, read through the driver.
struct Lockstep {
    struct Frame {
        var state: Int32
        var keys: UInt64
        var values: [Int: String]   // what this frame set, for the expected data after an undo
        var event: String?          // the event that pushed it (nil at the root)
        var packed: UInt64 = 0      // authflow/2: the valued keys' and counters' fields (``DataLayout``)
        var replaces = false        // section 5: it updated the frame below in place (the user's back takes both off)
    }

    /// How many frames the user's back takes off: the top one and each frame that updated it in place; 0 at the root's screen.
    var backFrames: Int { BackFrames.count(height: frames.count) { frames[$0].replaces } }

    let model: FlowModel
    let driver: any FlowDriver
    let rules: SiteRules
    /// The spec's own `always`/`never` rules.
    let userRules: RuleCheck
    let properties: Set<Property>?
    /// What the run may ask the driver and what it calls it (``DriverTraits``).
    let traits: DriverTraits
    var subject: String { traits.subject }
    var frames: [Frame] = []
    var expected: [Int: String] = [:]
    var steps: FlowPath = []
    var actions: [FuzzAction] = []
    /// The sites already reported in this run (spec properties are reported once per site).
    var seen: Set<Site> = []
    /// For a flow whose moves depend on its data: every configuration's moves, for `deadlock` and `no-exit` per frame.
    let frameMoves: FrameMoves?
    /// The `authflow/2` variant this run drives (an index of ``FlowModel/roots``).
    var variant = 0
    /// Bits of the config keys: the variant's, not data the runtime holds.
    let configBits: UInt64
    var successors: [FlowModel.Successor] = []
    /// Whether the last event of a data-dependent flow fired a row (pushed or reset), by the spec.
    var rowFired = false

    /// A lockstep run of `driver` against `rules.model` (the rules are computed once per fuzzer, not per run).
    init(rules: SiteRules, userRules: RuleCheck? = nil, driver: any FlowDriver, properties: Set<Property>?,
         traits: DriverTraits = .runtime, frameMoves: FrameMoves? = nil) {
        self.model = rules.model
        self.userRules = userRules ?? RuleCheck(model: rules.model)
        self.traits = traits
        self.driver = driver
        self.properties = properties
        self.rules = rules
        self.frameMoves = frameMoves
        let layout = rules.model.layout
        self.configBits = layout.configKeys
    }

    var top: Frame { frames[frames.count - 1] }

    /// Whether the user may go back now, by the spec.
    var backAllowed: Bool {
        backFrames > 0 && !model.isTerminal[Int(top.state)] && model.canGoBack[Int(top.state)]
    }

    /// Starts at the root of `variant`; returns a violation found there, if any (`nil` too when the driver cannot run the variant).
    mutating func start(variant: Int = 0) -> FuzzOutcome? {
        self.variant = variant
        if !driver.start(variant: variant) { return nil }
        let root = model.roots[variant]
        frames = [Frame(state: model.initial.rawValue, keys: root.keys, values: [:], event: nil, packed: root.values)]
        expected = [:]
        actions = []
        steps = []
        steps = [pathStep(nil)]
        seen = []
        return check(after: nil)
    }

    /// The simple value of `key` pushed at step `index`.
    static func simpleValue(_ key: String, step index: Int) -> String { "\(key)-\(index)" }

    /// Applies `action`; `nil` when it is not applicable here (replay of an invalid shrink candidate).
    mutating func apply(_ action: FuzzAction) -> (applicable: Bool, outcome: FuzzOutcome?) {
        switch action {
        case .back where !backAllowed:
            // Back where the spec forbids it must be refused and change nothing.
            actions.append(action)
            let accepted = driver.back()
            steps.append(pathStep(.back))
            let name = model.states[Int(top.state)]
            if accepted {
                return (true, violation(.divergence, state: top.state, event: nil,
                                        "\(subject) let the user go back from \(name), which the spec forbids"))
            }
            if let found = mismatch() {
                return (true, violation(.undoMismatch, state: top.state, event: nil,
                                        "a refused back changed \(subject): \(found.summary(subject: subject))", mismatch: found))
            }
            return (true, nil)
        case .back:
            actions.append(action)
            let accepted = driver.back()
            let leaving = frames.count - backFrames
            let popped = frames[frames.count - 1]
            var set = popped.values
            for frame in frames[leaving...].dropLast() { set.merge(frame.values) { new, _ in new } }
            frames.removeLast(frames.count - leaving)
            let layout = model.layout
            // Section 5: back leaves the server-side keys as they are; every other key is what the frames below say.
            if layout.hasServerKeys {
                let below = frames[frames.count - 1]
                (frames[frames.count - 1].keys, frames[frames.count - 1].packed) = layout.back(to: below.keys, below.packed,
                                                                                              server: popped.keys, popped.packed)
            }
            for key in set.keys where !layout.isServer[key] {
                expected[key] = frames.reversed().lazy.compactMap { $0.values[key] }.first
            }
            steps.append(pathStep(.back))
            if !accepted {
                return (true, violation(.undoMismatch, state: popped.state, event: popped.event,
                                        "back from \(model.states[Int(popped.state)]) was refused by \(subject), which the spec allows"))
            }
            if let found = mismatch() {
                return (true, violation(.undoMismatch, state: popped.state, event: popped.event,
                                        "after back from \(model.states[Int(popped.state)]), \(found.summary(subject: subject))", mismatch: found))
            }
            return (true, check(after: "back"))
        case let .event(name, values), let .reset(name, values):
            guard let event = model.event(named: name) else { return (false, nil) }
            switch values {
            case .simple: return applyByFrame(action, event: event, name: name, values: nil)
            case let .ordered(values): return applyByFrame(action, event: event, name: name, values: values)
            case .named: return applyByFrame(action, event: event, name: name, values: ordered(values.named, for: event))
            }
        case .undo:
            return (false, nil)   // the app's own undo: no step a user takes
        }
    }

    /// `named` in the contract order of `event`'s emission here: a key not named its first value (valued) or a simple one.
    func ordered(_ named: [String: String], for event: EventID) -> [String]? {
        guard !frames.isEmpty, let emission = model.emissions[Int(top.state)].first(where: { $0.event == event }) else { return nil }
        let layout = model.layout
        return emission.outputKeys(keyCount: model.keys.count).map { key in
            named[model.keys[key]] ?? (layout.isValued(key) ? layout.domains[key][0] : Self.simpleValue(model.keys[key], step: actions.count + 1))
        }
    }

    /// The violation of sending `name`, which has no transition here, when the driver accepted it or changed.
    mutating func refusal(of name: String, accepted: Bool) -> FuzzOutcome? {
        if accepted {
            return violation(.divergence, state: top.state, event: name,
                             "\(subject) accepted \(name) in \(model.states[Int(top.state)]), which has no transition")
        }
        if let found = mismatch() {
            return violation(.undoMismatch, state: top.state, event: name,
                             "rejecting \(name) changed \(subject): \(found.summary(subject: subject))", mismatch: found)
        }
        return nil
    }

    func pathStep(_ step: FlowPath.Step?) -> PathStep { framePathStep(step) }

    /// Every difference between the runtime and the model's top frame, or nil.
    func mismatch() -> FrameMismatch? { frameMismatch() }

    /// The variant an `authflow/2` violation names, as the complete checker's do: its own field, never part of the
    /// message, so the same finding reads the same from every reporter.
    var variantValues: [FlowSpec.KeyValue]? { model.format >= 2 ? model.variants[variant] : nil }

    func includes(_ property: Property) -> Bool { properties?.contains(property) ?? true }

    /// Checks the spec properties at the current frame; returns the first violation of an unseen site.
    mutating func check(after event: String?) -> FuzzOutcome? { checkFrame() }

    /// The first of the spec's own rules the top frame (which the runtime holds) breaks, unless seen or filtered out.
    mutating func checkUserRules() -> FuzzOutcome? {
        for i in userRules.candidateRange(top.state) where userRules.breaksCandidate(i, state: top.state, keys: top.keys, values: top.packed) {
            let r = userRules.candidateRules[i]
            let name = model.states[Int(top.state)]
            let message = userRules.message(r, state: name, keys: top.keys, values: top.packed)
            if let found = ruleViolation(r, state: name, message) { return found }
        }
        return nil
    }

    /// The first of the spec's own rules that the frame the runtime holds breaks, where it holds another than the
    /// spec's (read through the driver), unless seen or filtered out.
    mutating func checkUserRulesOnRuntime() -> FuzzOutcome? {
        guard !userRules.isEmpty, let frame = userRules.frame(of: driver, root: model.roots[variant]) else { return nil }
        let name = userRules.stateName(frame.state, of: driver)
        for r in userRules.indices where userRules.breaks(r, state: frame.state, keys: frame.keys, values: frame.values) {
            let message = userRules.message(r, state: name, keys: frame.keys, values: frame.values, subject: subject)
            if let found = ruleViolation(r, state: name, message, mismatch: mismatch()) { return found }
        }
        return nil
    }

    /// A violation of rule `r` at the current path, in `state` (named), unless seen or filtered out.
    mutating func ruleViolation(_ r: Int, state: String, _ message: String, mismatch: FrameMismatch? = nil) -> FuzzOutcome? {
        let property = userRules.properties[r]
        let site = Site(property: property, state: nil)
        guard includes(property), seen.insert(site).inserted else { return nil }
        let violation = Violation(property: property, state: state, message: message, path: steps, mismatch: mismatch,
                                  variant: variantValues)
        return FuzzOutcome(violation: violation, site: site, actions: actions, variant: variant)
    }

    /// A violation at the current path, unless the site was already reported in this run or its property is filtered out.
    ///
    /// A runtime property that is filtered out gives way to the rules the runtime's frame breaks, if any
    /// (the runtime is where it disagrees with the spec, and a rule may be all that is checked).
    mutating func violation(_ property: Property, state: Int32, event: String?, _ message: String,
                            mismatch: FrameMismatch? = nil) -> FuzzOutcome? {
        guard includes(property) else {
            return property == .divergence || property == .undoMismatch ? checkUserRulesOnRuntime() : nil
        }
        let site = Site(property: property, state: model.states[Int(state)], event: event)
        guard seen.insert(site).inserted else { return nil }
        let violation = Violation(property: property, state: site.state, event: event, message: message, path: steps,
                                  mismatch: mismatch, variant: variantValues)
        return FuzzOutcome(violation: violation, site: site, actions: actions, variant: variant)
    }
}
