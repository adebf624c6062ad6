import AuthFlow

/// An app's own back in a flow with section 5's history keys: checked against the frame the spec's back lands on.
///
/// Without those keys, the user's back is the exact undo of the last move, so the walk backtracks an app by its back
/// and checks the app's back on the way. With them, back keeps the server-side data and takes off the frames that
/// updated the screen in place (``BackFrames``): the walk then backtracks by the app's undo, snapshots or a replay
/// (``AppDriver/undo()``), and presses the app's back at every node where the spec allows it, comparing the app with
/// the frame below as back leaves it, then replays the stack.
extension Walk {
    /// How many frames the user's back takes off the stack now: the top node and each below it that updated the next one
    /// down in place; 0 when the user is on the root's screen (the history starts at ``base``, a reset's landing).
    func backFrames() -> Int {
        // The closure reads these alone: capturing the walk copied the whole struct at every call.
        let moves = table.moves, entries = table.entries, nodes = self.nodes, base = self.base
        return BackFrames.count(height: nodes.count - base) { i in
            moves[Int(entries[Int(nodes[base + i - 1].config)].moveStart + nodes[base + i].via)].replaces
        }
    }

    /// Whether the walk's undo of an app's top frame is the app's back (flows without section 5's history keys).
    func undoIsAppBack(_ entry: FrameTable.Entry) -> Bool {
        entry.facts.contains(.backAllowed) && !table.section5History
    }

    /// The frame the user's back lands on from the top node, taking `takes` frames off: the node below them, with the
    /// server-side data of the top.
    func backLanding(takes: Int) -> (index: Int, entry: FrameTable.Entry) {
        let index = nodes.count - 1 - takes
        let top = entry(at: nodes.count - 1), below = entry(at: index)
        let (keys, values) = model.layout.back(to: below.keys, below.values, server: top.keys, top.values)
        return (index, FrameTable.Entry(state: below.state, keys: keys, values: values, data: table.dataBits(keys: keys, values: values)))
    }

    /// Runs `body` with ``expected`` holding the tokens of the frame back lands on (node `index`'s, the server-side
    /// keys' as they are now), then puts the top's back.
    ///
    /// `body` must not capture the walk: a closure that does copies it whole (a retain per field), once per probe.
    func withBackTokens<Result>(landing index: Int, _ body: () -> Result) -> Result {
        let count = model.keys.count, server = model.layout.serverKeys
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { saved in
            _ = saved.initialize(from: UnsafeBufferPointer(start: UnsafePointer(expected), count: count))
            var i = log.count - 1
            while i >= Int(nodes[index + 1].logStart) {
                let change = log[i]
                if server & (1 << UInt64(change.key)) == 0 { expected[Int(change.key)] = change.previous }
                i -= 1
            }
            defer { for k in 0..<count { expected[k] = saved[k] } }
            return body()
        }
    }

    /// Presses the app's back at the top node, where the spec allows it and takes `takes` frames off, and checks the app
    /// lands on the spec's frame; then replays the stack.
    mutating func checkAppBack(_ entry: FrameTable.Entry, takes: Int) {
        let node = nodes[nodes.count - 1]
        let (index, landing) = backLanding(takes: takes)
        announce(accepted: true, state: landing.state)
        let accepted = driver.back()
        let matcher = self.matcher, height = index + 1 - base
        let lands = accepted && withBackTokens(landing: index) {
            matcher.matches(state: landing.state, values: landing.values, data: landing.data, height: height)
        }
        let found: FrameMismatch?? = !accepted ? nil : lands ? .none : .some(withBackTokens(landing: index) { mismatch(landing) })
        if accepted, found == nil {
            probeRefusals(afterBackTo: index, landing: landing)
            return resync()
        }
        let subject = self.subject, state = entry.state
        if !accepted {
            report(.undoMismatch, state: state, event: node.event, trigger: .back(landing: Int32(index))) { model in
                "back from \(model.states[Int(state)]) was refused by \(subject), which the spec allows"
            }
        } else {
            let mismatch = found ?? nil
            let problem = mismatch?.summary(subject: subject) ?? "\(subject) changed while it was compared"
            report(.undoMismatch, state: state, event: node.event, trigger: .back(landing: Int32(index)), mismatch: mismatch) { model in
                "after back from \(model.states[Int(state)]) (entered by \(model.events[Int(node.event)])), \(problem)"
            }
            checkRulesOnRuntime(trigger: .back(landing: Int32(index)), mismatch: mismatch)
        }
        resync()
    }

    /// Sends the app each event the landing's step does not emit, after a back that landed right: each must be refused
    /// and change nothing. The walk never goes on from a back landing, and only there does a request the app left in
    /// flight (back should have cancelled it) show: its answer, handled on the screen back went to.
    mutating func probeRefusals(afterBackTo index: Int, landing: FrameTable.Entry) {
        let state = Int(landing.state)
        let matcher = self.matcher, height = index + 1 - base
        for e in table.unemittedEvents(state) {
            announce(accepted: false)
            let accepted = send(EventID(e), values: 0, height: index + 2)
            if !accepted, withBackTokens(landing: index, {
                matcher.matches(state: landing.state, values: landing.values, data: landing.data, height: height)
            }) { continue }
            let subject = self.subject, trigger = WalkTrigger.backThen(landing: Int32(index), event: e)
            if accepted {
                report(.divergence, state: landing.state, event: e, trigger: trigger) { model in
                    "after back, \(subject) accepted \(model.events[Int(e)]) in \(model.states[state]), where the step does not offer it"
                }
                checkRulesOnRuntime(trigger: trigger)
            } else {
                let found = withBackTokens(landing: index) { mismatch(landing) }
                let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
                report(.undoMismatch, state: landing.state, event: e, trigger: trigger, mismatch: found) { model in
                    "after back, rejecting \(model.events[Int(e)]) changed \(subject): \(problem)"
                }
                checkRulesOnRuntime(trigger: trigger, mismatch: found)
            }
            return
        }
    }

    /// The back step of a counterexample that ends with the user's back landing on node `index` (server-side data the top's).
    func backStep(landing index: Int, step: FlowPath.Step = .back) -> PathStep {
        let landing = backLanding(takes: nodes.count - 1 - index).entry
        var values: [String: String] = [:]
        for k in 0..<model.keys.count where configBits & (1 << UInt64(k)) == 0 {
            guard let shown = model.layout.shown(k, keys: landing.keys, values: landing.values) else { continue }
            if model.secrets.contains(KeyID(Int32(k))) {
                values[model.keys[k]] = FlowReport.redacted
            } else if shown == "present" {
                let at = model.layout.serverKeys & (1 << UInt64(k)) != 0 ? nodes.count - 1 : index
                values[model.keys[k]] = token(of: k, at: at).map { RuntimeExplorer.display(.int($0)) } ?? "?"
            } else {
                values[model.keys[k]] = shown
            }
        }
        return PathStep(step: step, state: model.states[Int(landing.state)], data: model.keys.filter { values[$0] != nil }, values: values)
    }
}

extension WalkTrigger {
    /// How many steps the trigger adds to the path it ends.
    var steps: Int32 {
        if case .backThen = self { return 2 }
        return 1
    }
}
