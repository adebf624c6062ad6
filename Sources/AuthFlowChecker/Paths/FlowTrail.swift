import AuthFlow

/// Trails: one counterexample saved as a file that `authcheck replay` runs step by step, like a SPIN trail.
///
/// A trail is a ``FuzzRegressions/Entry`` with its `site`, `variant` and `after` frames: the
/// same reader and writer as the regressions file, one entry per file. Writing one replays the
/// violation's events through the runtime in lockstep (so the recorded values are the ones replay
/// pushes); replaying one walks the same ``Lockstep`` the random-path tester walks, comparing the
/// frame after each step with the one recorded, and stops at the first step that differs.
///
/// ```swift
/// let entry = FlowTrail.entry(for: report.violations[0], model: model, driver: SessionDriver(model: model))
/// let replay = FlowTrail.replay(entry, model: model, driver: SessionDriver(model: model))
/// replay.reproduced   // true while the flow still has the violation
/// ```
package enum FlowTrail {
    /// How a replay ended.
    package enum Ending: Equatable, Sendable {
        /// The trail's violation happened again, after `step` steps.
        case reproduced(step: Int)
        /// Every step followed the trail and the violation did not happen: fixed.
        case fixed
        /// At `step` the flow was not where the trail recorded (or could not take the step): why, in words.
        case leftTrail(step: Int, reason: String)
        /// At `step` the runtime was not where the spec says: the violation (`divergence`, `undo-mismatch`).
        case diverged(step: Int)
    }

    /// One trail run: the frames reached and how it ended.
    package struct Replay: Sendable {
        /// The frame after each step taken, the initial frame first (values as the runtime holds them; secrets redacted).
        package var steps: FlowPath
        /// How it ended.
        package var ending: Ending
        /// The violation that ended it, when it was reproduced or the runtime diverged from the spec.
        package var violation: Violation?
        /// Whether the trail's violation happened again.
        package var reproduced: Bool { if case .reproduced = ending { return true } else { return false } }
    }

    /// The trail of `violation`: its events run through `driver` in lockstep, with the frame after each step.
    ///
    /// Values are the simple ones replay pushes (`email-1`); secret values are left out.
    /// - Complexity: O(path length) runtime steps.
    /// - Parameter analysis: the run's analysis of `model`, shared by every trail it writes; a search of its own without one.
    package static func entry(for violation: Violation, model: FlowModel, driver: any FlowDriver,
                              analysis: FlowAnalysis? = nil) -> FuzzRegressions.Entry {
        entry(for: violation, model: model, driver: driver, traits: .runtime, analysis: analysis)
    }

    /// The trail of `violation`, asking `driver` only what `traits` allow.
    static func entry(for violation: Violation, model: FlowModel, driver: any FlowDriver,
                      traits: DriverTraits, analysis: FlowAnalysis? = nil) -> FuzzRegressions.Entry {
        let actions = violation.path.dropFirst().map { $0.step ?? .event("") }
        var variant = [String: String]()
        for value in violation.variant ?? [] { variant[value.key] = value.value }
        let chosen = choices(along: violation.path, model: model, variant: variantIndex(variant, model: model) ?? 0)
        var entry = FuzzRegressions.Entry(line: 1, spec: model.name, table: model.tableHash, actions: Array(actions),
                                          site: violation.site.description, variant: variant, after: nil,
                                          chosen: chosen.contains { !$0.isEmpty } ? chosen : nil)
        // The frames the same run reaches, so a replay of the file follows them exactly.
        var lockstep = Lockstep(rules: SiteRules(model: model), driver: driver, properties: [violation.property], traits: traits,
                                frameMoves: frameMoves(model, analysis: analysis, deadline: .none))
        _ = lockstep.start(variant: variantIndex(variant, model: model) ?? 0)
        var after: [FuzzRegressions.Frame] = []
        let secrets = Set(model.names(of: model.secrets))
        for (i, action) in actions.enumerated() {
            guard !lockstep.frames.isEmpty else { break }
            let sent = (try? resolved(action, chosen: entry.chosen?[i] ?? [:], step: i + 1, lockstep: lockstep).get()) ?? action
            _ = lockstep.apply(sent)
            after.append(frame(lockstep.steps[lockstep.steps.count - 1], secrets: secrets))
        }
        entry.after = after.count == actions.count ? after : nil
        return entry
    }

    /// A trail step that cannot be sent as recorded: why, in words.
    struct ChoiceError: Error { var reason: String }

    /// `action` with the values to send: the `chosen` value of each valued key its emission adds here (the
    /// first value of one not chosen), the simple value of each other key; `action` itself when nothing is chosen.
    /// - Returns: an error naming a key the step does not add or a value outside its key's values.
    static func resolved(_ action: FuzzAction, chosen: [String: String], step: Int, lockstep: Lockstep) -> Result<FuzzAction, ChoiceError> {
        let model = lockstep.model
        guard !chosen.isEmpty, case let .event(name, .simple) = action, !lockstep.frames.isEmpty,
              let event = model.event(named: name),
              let emission = model.emissions[Int(lockstep.top.state)].first(where: { $0.event == event }) else { return .success(action) }
        let layout = model.layout
        for (key, value) in chosen.sorted(by: { $0.key < $1.key }) {
            guard let k = model.key(named: key)?.index, emission.addValued.contains(k) else {
                return .failure(ChoiceError(reason: "the trail chooses \(key) for \(name), which \(name) does not add in \(model.states[Int(lockstep.top.state)])"))
            }
            guard layout.domains[k].contains(value) else {
                return .failure(ChoiceError(reason: "the trail chooses \(key)=\(value), which is not one of its values (\(layout.domains[k].joined(separator: ", ")))"))
            }
        }
        return .success(.event(name, values: .ordered(emission.outputKeys(keyCount: model.keys.count).map { k in
            layout.isValued(k) ? chosen[model.keys[k]] ?? layout.domains[k][0] : Lockstep.simpleValue(model.keys[k], step: step)
        })))
    }

    /// For a flow whose moves depend on its data, every configuration's moves, so a run checks `deadlock` and `no-exit` per frame:
    /// `analysis`'s, or a search of its own under the supporting limits.
    static func frameMoves(_ model: FlowModel, analysis: FlowAnalysis?, deadline: Deadline) -> FrameMoves? {
        (analysis ?? FlowAnalysis(model: model, limits: .supporting)).frameMoves(within: deadline)
    }

    /// A covering path (``CoveringPaths/Path``) as a trail with no site: its variant, each step's chosen values, and the
    /// frame after each step, so ``replay(_:model:driver:)`` drives it through a runtime and checks where it is after every step.
    ///
    /// Replayed, it ends ``Ending/fixed`` when the runtime follows the spec along the whole path, and
    /// ``Ending/diverged(step:)`` where it does not.
    package static func entry(for path: CoveringPaths.Path, model: FlowModel) -> FuzzRegressions.Entry {
        var variant: [String: String] = [:]
        for value in path.variant ?? [] { variant[value.key] = value.value }
        let chosen = path.chosen.map { pairs in
            var picked: [String: String] = [:]
            for pair in pairs where pair.value != FlowReport.redacted { picked[pair.key] = pair.value }
            return picked
        }
        let after = path.frames.dropFirst().map { frame in
            FuzzRegressions.Frame(state: frame.state, keys: frame.data, values: (frame.values ?? [:]).filter { $0.value != FlowReport.redacted })
        }
        return FuzzRegressions.Entry(line: 1, spec: model.name, table: model.tableHash, actions: path.steps.map { .event($0.event ?? "") },
                                     site: nil, variant: variant, after: after, chosen: chosen.contains { !$0.isEmpty } ? chosen : nil)
    }

    /// The variant `values` names (an index of ``FlowModel/roots``), or nil when the flow has no such variant.
    ///
    /// A flow without `config` has one variant, named by no values (`{}`).
    package static func variantIndex(_ values: [String: String], model: FlowModel) -> Int? {
        model.variants.firstIndex { variant in
            variant.count == values.count && variant.allSatisfy { values[$0.key] == $0.value }
        }
    }

    /// For each step of `path` (a violation's, its initial frame first), the value each non-secret valued key the step adds takes.
    ///
    /// The path is followed on the model from the root of `variant`: at each step the move of its
    /// event that reaches the state and the values the step shows is the one taken (the first such,
    /// or the first move when none matches); a back pops the frame.
    /// - Complexity: O(path length · moves per frame).
    static func choices(along path: FlowPath, model: FlowModel, variant: Int) -> [[String: String]] {
        let layout = model.layout
        let root = model.roots[variant]
        var frames: [(state: Int, keys: UInt64, values: UInt64)] = [(model.initial.index, root.keys, root.values)]
        var successors: [FlowModel.Successor] = []
        var chosen: [[String: String]] = []
        /// Where `successor` leads, or nil for an illegal move.
        func landing(_ successor: FlowModel.Successor) -> (state: Int, keys: UInt64, values: UInt64)? {
            successor.outcome.landing(initial: model.initial).map { ($0.state.index, $0.keys, $0.values) }
        }
        /// Whether the frame `to` is the one `step` shows: its state, and each valued key's and counter's value it shows.
        func shows(_ step: PathStep, _ to: (state: Int, keys: UInt64, values: UInt64)) -> Bool {
            guard model.states[to.state] == step.state else { return false }
            for k in model.keys.indices where layout.isValued(k) || layout.isCounter(k) {
                guard let theirs = step.values?[model.keys[k]], theirs != FlowReport.redacted else { continue }
                if layout.shown(k, keys: to.keys, values: to.values) != theirs { return false }
            }
            return true
        }
        for step in path.dropFirst() {
            guard step.step?.isBack != true else {
                if frames.count > 1 { frames.removeLast() }
                chosen.append([:])
                continue
            }
            let top = frames[frames.count - 1]
            model.successors(state: top.state, keys: top.keys, values: top.values, into: &successors)
            let moves = successors.filter { model.events[$0.event.index] == step.step?.event && landing($0) != nil }
            guard let taken = moves.first(where: { shows(step, landing($0)!) }) ?? moves.first, let to = landing(taken) else {
                chosen.append([:])   // an event the flow refuses here: nothing is added
                continue
            }
            var picked: [String: String] = [:]
            for k in model.emissions[top.state][taken.emission].addValued where !model.secrets.contains(KeyID(Int32(k))) {
                picked[model.keys[k]] = layout.domains[k][layout.field(k, in: taken.effectValues)]
            }
            chosen.append(picked)
            if case .reset = taken.outcome { frames = [to] } else { frames.append(to) }
        }
        return chosen
    }

    /// The trail frame of a path step: its state, keys, and the values of the non-secret keys.
    static func frame(_ step: PathStep, secrets: Set<String>) -> FuzzRegressions.Frame {
        FuzzRegressions.Frame(state: step.state, keys: step.data,
                              values: (step.values ?? [:]).filter { !secrets.contains($0.key) })
    }

    /// The file name of the `number`th trail (1-based), for `site`: `01-unmet-requirement@authenticated.json`.
    package static func fileName(number: Int, site: Site) -> String {
        let safe = site.description.map { $0.isLetter || $0.isNumber || "@.-_".contains($0) ? $0 : "_" }
        return "\(String(number).leftPadded(2, with: "0"))-\(String(safe)).json"
    }

    /// Why `entry` cannot be replayed against `model`, or nil when it can.
    ///
    /// Refused: a trail recorded for a flow of another name or another table (any change to the
    /// table may change where the path goes), one without a site, or one naming an event the flow
    /// does not have.
    /// A trail recorded against another version of the table is not refused (see ``tableNote(_:model:)``): replaying it
    /// after a fix is what it is for, and the flow's own steps say where it no longer follows.
    package static func refusal(_ entry: FuzzRegressions.Entry, model: FlowModel) -> String? {
        if let spec = entry.spec, spec != model.name {
            return "recorded for the flow '\(spec)', not '\(model.name ?? "(unnamed)")'"
        }
        guard let site = entry.site, parseSite(site, model: model) != nil else {
            return entry.site.map { "names the site '\($0)', which is no property@state or rule of this flow" } ?? "names no \"site\""
        }
        if parseSite(site, model: model)?.property.rule?.kind == .reachable {
            return "names the rule '\(site)', a reachable rule, which no one path shows; 'authcheck check' decides it"
        }
        if variantIndex(entry.variant ?? [:], model: model) == nil {
            let named = (entry.variant ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            return "recorded in the variant {\(named)}, which is not among the variants run (\(model.variantNames.joined(separator: "; ")))"
        }
        if let unknown = entry.actions.first(where: { $0 != .back && model.event(named: $0.name) == nil }) {
            return "step \((entry.actions.firstIndex(of: unknown) ?? 0) + 1) is the event '\(unknown.name)', which the flow does not have"
        }
        return nil
    }

    /// The note for a trail recorded against another version of the table, as `fuzz --regressions` gives it; `nil` for the same table.
    package static func tableNote(_ entry: FuzzRegressions.Entry, model: FlowModel) -> String? {
        guard let table = entry.table, table != model.tableHash else { return nil }
        return "replayed, though recorded against another version of the table (\(table), now \(model.tableHash))"
    }

    /// The site `text` names (`property@state` or `property@state.event`), when its property and state exist.
    package static func parseSite(_ text: String, model: FlowModel) -> Site? {
        if !text.contains("@"), let rule = Property.userProperties(of: model).first(where: { $0.id == text }) {
            return Site(property: rule, state: nil)
        }
        guard let at = text.firstIndex(of: "@"),
              let property = Property.all(of: model).first(where: { $0.id == text[..<at] }) else { return nil }
        let rest = String(text[text.index(after: at)...])
        if model.states.contains(rest) { return Site(property: property, state: rest) }
        guard let dot = rest.lastIndex(of: "."), model.states.contains(String(rest[..<dot])) else { return nil }
        return Site(property: property, state: String(rest[..<dot]), event: String(rest[rest.index(after: dot)...]))
    }

    /// Runs `entry` through `driver` in lockstep with `model`, step by step, stopping at the first step off the trail.
    ///
    /// After each step the runtime is compared with the spec (a difference is a `divergence` or
    /// `undo-mismatch`, which ends the run) and the spec's frame with the one the trail recorded
    /// (state and keys; a difference ends the run off the trail). The run ends reproduced when the
    /// trail's site is violated, fixed when every step is taken without it. Call
    /// ``refusal(_:model:)`` first.
    /// - Complexity: O(path length) runtime steps.
    /// - Parameters:
    ///   - analysis: the run's analysis of `model`, searched once for every trail; a search of its own without one.
    ///   - deadline: when that search stops: frames it did not reach are never called stuck, so a trail of
    ///     `deadlock` or `no-exit` may end ``Ending/fixed`` where the analysis was cut (its `stoppedBy` says so).
    package static func replay(_ entry: FuzzRegressions.Entry, model: FlowModel, driver: any FlowDriver,
                               analysis: FlowAnalysis? = nil, deadline: Deadline = .none) -> Replay {
        replay(entry, model: model, driver: driver, traits: .runtime, analysis: analysis, deadline: deadline)
    }

    /// Runs `entry` through `driver`, asking it only what `traits` allow.
    static func replay(_ entry: FuzzRegressions.Entry, model: FlowModel, driver: any FlowDriver, traits: DriverTraits,
                       analysis: FlowAnalysis? = nil, deadline: Deadline = .none) -> Replay {
        let site = entry.site.flatMap { parseSite($0, model: model) }
        let watched: Set<Property> = Set([Property.divergence, .undoMismatch] + (site.map { [$0.property] } ?? []))
        var lockstep = Lockstep(rules: SiteRules(model: model), driver: driver, properties: watched, traits: traits,
                                frameMoves: frameMoves(model, analysis: analysis, deadline: deadline))
        func ended(_ outcome: FuzzOutcome?, step: Int) -> Replay? {
            guard let outcome else { return nil }
            if outcome.site == site { return Replay(steps: lockstep.steps, ending: .reproduced(step: step), violation: outcome.violation) }
            if outcome.site.property == .divergence || outcome.site.property == .undoMismatch {
                return Replay(steps: lockstep.steps, ending: .diverged(step: step), violation: outcome.violation)
            }
            return nil   // another site of the trail's property: not the one the trail is about
        }
        let variant = variantIndex(entry.variant ?? [:], model: model) ?? 0
        if let done = ended(lockstep.start(variant: variant), step: 0) { return done }
        if lockstep.frames.isEmpty {
            return Replay(steps: [], ending: .leftTrail(step: 0, reason: "\(traits.subject) cannot run the variant \(model.variantNames[variant])"),
                          violation: nil)
        }
        let secrets = Set(model.names(of: model.secrets))
        let layout = model.layout
        for (i, action) in entry.actions.enumerated() {
            let sent: FuzzAction
            switch resolved(action, chosen: entry.chosen?[i] ?? [:], step: i + 1, lockstep: lockstep) {
            case let .success(resolved): sent = resolved
            case let .failure(error): return Replay(steps: lockstep.steps, ending: .leftTrail(step: i + 1, reason: error.reason), violation: nil)
            }
            let (applicable, outcome) = lockstep.apply(sent)
            guard applicable else {
                return Replay(steps: lockstep.steps, ending: .leftTrail(step: i + 1, reason:
                    "\(model.states[Int(lockstep.top.state)]) has no \(action.name) to take"), violation: nil)
            }
            if let recorded = entry.after?[i] {
                let now = frame(lockstep.steps[lockstep.steps.count - 1], secrets: secrets)
                // The keys as a set: a trail written before runtime paths listed their keys in declaration order has them sorted.
                if now.state != recorded.state || Set(now.keys) != Set(recorded.keys) {
                    return Replay(steps: lockstep.steps, ending: .leftTrail(step: i + 1, reason:
                        "the trail recorded \(recorded.state) {\(recorded.keys.joined(separator: ", "))}, "
                        + "the flow is in \(now.state) {\(now.keys.joined(separator: ", "))}"), violation: nil)
                }
                // The values of valued keys and counters too: another answer is another path.
                for k in model.keys.indices where layout.isValued(k) || layout.isCounter(k) {
                    let name = model.keys[k]
                    if let was = recorded.values[name], let holds = now.values[name], was != holds {
                        return Replay(steps: lockstep.steps, ending: .leftTrail(step: i + 1, reason:
                            "the trail recorded \(name)=\(was) in \(recorded.state), the flow holds \(name)=\(holds)"), violation: nil)
                    }
                }
            }
            if let done = ended(outcome, step: i + 1) { return done }
        }
        return Replay(steps: lockstep.steps, ending: .fixed, violation: nil)
    }
}
