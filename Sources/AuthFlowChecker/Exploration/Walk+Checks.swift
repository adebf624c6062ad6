import AuthFlow

/// What the walk checks at every node: the runtime's frame, enabled and rejected events, the back policy.
extension Walk {
    /// Whether the runtime is exactly at the model's frame: state, history height (when it is read), data values.
    @inline(__always)
    func matches(state: Int32, keys: UInt64) -> Bool {
        // An app is compared in one call, which answers faster than key by key. The cast is decided
        // when the walk is compiled for its driver: the runtime's walk has no trace of it.
        if let app = driver as? ErasedAppDriver, !readsInternals {
            return app.isAt(StateID(state), keys: KeySet(bits: keys), values: UnsafePointer(expected))
        }
        if driver.state.rawValue != state || (readsInternals && driver.height != nodes.count) || driver.dataCount != keys.nonzeroBitCount {
            return false
        }
        var rest = keys
        while rest != 0 {
            let key = rest.trailingZeroBitCount
            rest &= rest &- 1
            guard case .int(let value)? = driver.value(of: KeyID(key)), value == expected[key] else { return false }
        }
        return true
    }

    /// Compares the runtime with the model's frame `(state, keys)` at the top of the walk's stack; every difference, or nil.
    func mismatch(state: Int32, keys: UInt64) -> FrameMismatch? {
        FrameComparator(model: model).compare(driver, state: state, height: readsInternals ? nodes.count : nil, keys: keys,
                                              expected: { .int(expected[$0.index]) }, display: RuntimeExplorer.display)
    }


    /// Checks the node just entered: frame, enabled events, rejected events, back policy.
    mutating func checkNode() {
        let node = nodes[nodes.count - 1]
        let state = Int(node.state)
        // What findings call the implementation is read only on the way to a finding: copying the
        // string per node would retain it in the hot loop.
        if !matches(state: node.state, keys: node.keys) {
            let subject = self.subject
            let found = mismatch(state: node.state, keys: node.keys)
            let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
            report(.divergence, state: node.state, event: node.event, mismatch: found) { model in
                node.event < 0 ? "at the start, \(problem)" : "after \(model.events[Int(node.event)]), \(problem)"
            }
            if checksRules { checkRulesOnRuntime(trigger: nil, mismatch: found) }
            if nodes.count > 1 { prune() } else { resync() }
            return
        }
        // The runtime holds the spec's frame: the team's rules are checked on it (every frame, before any probe).
        if checksRules { checkRules(state: node.state, keys: node.keys) }
        // An app is probed (events with no row, back where the spec forbids it) once per
        // configuration, at the shallowest stack that reaches it, and replayed afterwards: a
        // refused probe may change what the app keeps hidden, and every counterexample must
        // replay from the path it prints.
        if !readsInternals {
            guard firstProbe(state: node.state, keys: node.keys) else { return }
        }
        defer { if !readsInternals { resync() } }
        for m in table.moves(of: state) {
            let legal = table.target[m] >= 0
            let event = EventID(table.event[m])
            if readsInternals && driver.canHandle(event) != legal {
                report(.divergence, state: node.state, event: event.rawValue) { model in
                    "the runtime says \(model.events[event.index]) is \(legal ? "not " : "")enabled in \(model.states[state]); the table says it is \(legal ? "" : "not ")"
                }
                continue
            }
            if !legal {
                // An illegal event must be rejected and change nothing.
                let height = nodes.count + 1
                if driver.send(event, value: { .int(RuntimeExplorer.token(height: height, event: event, key: $0)) }) {
                    let subject = self.subject
                    report(.divergence, state: node.state, event: event.rawValue, trigger: .event(event.rawValue)) { model in
                        "\(subject) accepted \(model.events[event.index]) in \(model.states[state]), which has no transition"
                    }
                    if checksRules { checkRulesOnRuntime(trigger: .event(event.rawValue)) }
                    resync()
                    // An app's every wrong answer at this node is a site of its own: probe the rest too.
                    if readsInternals { return } else { continue }
                }
                if !matches(state: node.state, keys: node.keys) {
                    let subject = self.subject
                    let found = mismatch(state: node.state, keys: node.keys)
                    let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
                    report(.undoMismatch, state: node.state, event: event.rawValue, trigger: .event(event.rawValue), mismatch: found) { model in
                        "rejecting \(model.events[event.index]) changed \(subject): \(problem)"
                    }
                    if checksRules { checkRulesOnRuntime(trigger: .event(event.rawValue), mismatch: found) }
                    resync()
                    if readsInternals { return }
                }
            }
        }
        let backAllowed = nodes.count > 1 && table.backAllowed[state]
        // An app cannot say whether back is possible: it is only tried, at the root too.
        if readsInternals && driver.canGoBack != backAllowed {
            report(.divergence, state: node.state, event: -1) { model in
                "the runtime says back is \(backAllowed ? "not " : "")possible in \(model.states[state]); the spec says it is \(backAllowed ? "" : "not")"
            }
        } else if !backAllowed && (nodes.count > 1 || !readsInternals) {
            if driver.back() {
                let subject = self.subject
                report(.divergence, state: node.state, event: -1, trigger: .forbiddenBack) { model in
                    "\(subject) let the user go back from \(model.states[state]), which the spec forbids"
                }
                if checksRules { checkRulesOnRuntime(trigger: .forbiddenBack) }
                resync()
            } else if !matches(state: node.state, keys: node.keys) {
                let subject = self.subject
                let found = mismatch(state: node.state, keys: node.keys)
                let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
                report(.undoMismatch, state: node.state, event: -1, trigger: .forbiddenBack, mismatch: found) { _ in
                    "a refused back changed \(subject): \(problem)"
                }
                if checksRules { checkRulesOnRuntime(trigger: .forbiddenBack, mismatch: found) }
                resync()
            }
        }
    }

    /// Whether the configuration `(state, keys)` is reached here by a shorter stack than any it was probed at; records it if so.
    /// (Not inlined: only an app's walk asks, and the runtime's `checkNode` stays as small as before.)
    @inline(never)
    mutating func firstProbe(state: Int32, keys: UInt64) -> Bool {
        let configuration = Configuration(state: state, keys: keys)
        if let depth = probedAt[configuration], depth <= nodes.count { return false }
        probedAt[configuration] = nodes.count
        return true
    }

    /// Puts the runtime back in step with the model after a disagreement: reset and replay the path.
    mutating func resync() {
        driver.reset()
        for (i, node) in nodes.enumerated().dropFirst() {
            let event = EventID(node.event)
            _ = driver.send(event) { .int(RuntimeExplorer.token(height: i + 1, event: event, key: $0)) }
        }
    }

    /// Records a violation at a site, keeping the shortest (then first) occurrence; `message` is
    /// only evaluated when this occurrence is kept.
    mutating func report(_ property: Property, state: Int32, event: Int32, trigger: WalkTrigger? = nil,
                         mismatch: FrameMismatch? = nil, _ message: (FlowModel) -> String) {
        let site = Site(property: property, state: model.states[Int(state)], event: event < 0 ? nil : model.events[Int(event)])
        record(site, state: site.state ?? "", trigger: trigger, mismatch: mismatch, message)
    }

    /// Records a violation of `site` in `state` (named), found at the current path (then `trigger`),
    /// keeping the shortest (then first) occurrence; `message` is only evaluated when this occurrence is kept.
    mutating func record(_ site: Site, state: String, trigger: WalkTrigger?, mismatch: FrameMismatch?,
                         _ message: (FlowModel) -> String) {
        var order = [Int32(nodes.count - 1 + (trigger == nil ? 0 : 1))]
        order.reserveCapacity(nodes.count)
        for node in nodes.dropFirst() { order.append(node.viaMove) }
        if let existing = sites[site], !order.lexicographicallyPrecedes(existing.order) { return }
        func step(_ event: String?, at i: Int) -> PathStep {
            let node = nodes[i]
            return PathStep(event: event, state: model.states[Int(node.state)], data: model.names(of: KeySet(bits: node.keys)),
                            values: values(after: i, keys: node.keys))
        }
        var path = nodes.indices.map { i in step(nodes[i].event < 0 ? nil : model.events[Int(nodes[i].event)], at: i) }
        // The action that broke the site without pushing a frame is a numbered step of its own,
        // followed by the frame the spec expects after it.
        switch trigger {
        case .undo?:
            // The user's back where the spec allows it; the explorer's own backtrack (past a
            // `back: false` screen or a terminal state) where it does not.
            let userBack = table.backAllowed[Int(nodes[nodes.count - 1].state)]
            path.append(step(userBack ? "back" : "undo", at: nodes.count - 2))
        case .forbiddenBack?: path.append(step("back", at: nodes.count - 1))
        case let .event(rejected)?: path.append(step(model.events[Int(rejected)], at: nodes.count - 1))
        case nil: break
        }
        // An `authflow/2` flow whose moves the state alone decides has one variant, which its violations name, as the checker's do.
        sites[site] = FoundViolation(order: order, violation: Violation(
            property: site.property, state: state, event: site.event, message: message(model), path: path, mismatch: mismatch,
            variant: model.format >= 2 ? model.variants.first : nil))
    }

    /// The values the model expects after step `i` of the current path, secrets redacted.
    func values(after i: Int, keys: UInt64) -> [String: String] {
        var result: [String: String] = [:]
        for key in KeySet(bits: keys) {
            if model.secrets.contains(key) {
                result[model.keys[key.index]] = FlowReport.redacted
                continue
            }
            // The token of the last frame at or below i that set the key.
            var token = -1
            for j in stride(from: i, through: 1, by: -1) {
                let node = nodes[j]
                let move = model.moves[Int(nodes[j - 1].state)][Int(node.viaMove)]
                if move.adds.contains(key) {
                    token = RuntimeExplorer.token(height: j + 1, event: EventID(node.event), key: key)
                    break
                }
            }
            result[model.keys[key.index]] = token < 0 ? "?" : RuntimeExplorer.display(.int(token))
        }
        return result
    }
}

/// The action that broke a site when it pushed no frame: the counterexample shows it as a step of its own.
enum WalkTrigger: Equatable {
    /// Undoing the top frame (the next frame is the parent).
    case undo
    /// A back where the spec forbids it (nothing changes).
    case forbiddenBack
    /// An event sent at the node that the table has no row for (its raw id).
    case event(Int32)
}
