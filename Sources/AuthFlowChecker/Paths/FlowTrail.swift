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
        package var steps: [PathStep]
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
    package static func entry(for violation: Violation, model: FlowModel, driver: any FlowDriver) -> FuzzRegressions.Entry {
        entry(for: violation, model: model, driver: driver, traits: .runtime)
    }

    /// The trail of `violation`, asking `driver` only what `traits` allow.
    static func entry(for violation: Violation, model: FlowModel, driver: any FlowDriver,
                      traits: DriverTraits) -> FuzzRegressions.Entry {
        let actions = violation.path.dropFirst().map { step -> FuzzAction in
            step.event == "back" ? .back : .event(step.event ?? "", values: nil)
        }
        var lockstep = Lockstep(rules: SiteRules(model: model), driver: driver, properties: [violation.property], traits: traits)
        _ = lockstep.start()
        var after: [FuzzRegressions.Frame] = []
        for action in actions {
            _ = lockstep.apply(action)
            after.append(frame(lockstep.steps[lockstep.steps.count - 1], secrets: Set(model.names(of: model.secrets))))
        }
        return FuzzRegressions.Entry(line: 1, spec: model.name, table: model.tableHash, actions: Array(actions),
                                     site: violation.site.description, variant: [:], after: after)
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
    package static func refusal(_ entry: FuzzRegressions.Entry, model: FlowModel) -> String? {
        if let spec = entry.spec, spec != model.name {
            return "recorded for the flow '\(spec)', not '\(model.name ?? "(unnamed)")'"
        }
        if let table = entry.table, table != model.tableHash {
            return "recorded against another version of the table (\(table), now \(model.tableHash)); record it again with 'authcheck explore --trail'"
        }
        guard let site = entry.site, parseSite(site, model: model) != nil else {
            return entry.site.map { "names the site '\($0)', which is no property@state of this flow" } ?? "names no \"site\""
        }
        if let unknown = entry.actions.first(where: { $0 != .back && model.event(named: $0.name) == nil }) {
            return "step \((entry.actions.firstIndex(of: unknown) ?? 0) + 1) is the event '\(unknown.name)', which the flow does not have"
        }
        return nil
    }

    /// The site `text` names (`property@state` or `property@state.event`), when its property and state exist.
    package static func parseSite(_ text: String, model: FlowModel) -> Site? {
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
    package static func replay(_ entry: FuzzRegressions.Entry, model: FlowModel, driver: any FlowDriver) -> Replay {
        replay(entry, model: model, driver: driver, traits: .runtime)
    }

    /// Runs `entry` through `driver`, asking it only what `traits` allow.
    static func replay(_ entry: FuzzRegressions.Entry, model: FlowModel, driver: any FlowDriver, traits: DriverTraits) -> Replay {
        let site = entry.site.flatMap { parseSite($0, model: model) }
        let watched: Set<Property> = Set([Property.divergence, .undoMismatch] + (site.map { [$0.property] } ?? []))
        var lockstep = Lockstep(rules: SiteRules(model: model), driver: driver, properties: watched, traits: traits)
        func ended(_ outcome: FuzzOutcome?, step: Int) -> Replay? {
            guard let outcome else { return nil }
            if outcome.site == site { return Replay(steps: lockstep.steps, ending: .reproduced(step: step), violation: outcome.violation) }
            if outcome.site.property == .divergence || outcome.site.property == .undoMismatch {
                return Replay(steps: lockstep.steps, ending: .diverged(step: step), violation: outcome.violation)
            }
            return nil   // another site of the trail's property: not the one the trail is about
        }
        if let done = ended(lockstep.start(), step: 0) { return done }
        let secrets = Set(model.names(of: model.secrets))
        for (i, action) in entry.actions.enumerated() {
            let (applicable, outcome) = lockstep.apply(action)
            guard applicable else {
                return Replay(steps: lockstep.steps, ending: .leftTrail(step: i + 1, reason:
                    "\(model.states[Int(lockstep.top.state)]) has no \(action.name) to take"), violation: nil)
            }
            if let recorded = entry.after?[i] {
                let now = frame(lockstep.steps[lockstep.steps.count - 1], secrets: secrets)
                if now.state != recorded.state || now.keys != recorded.keys {
                    return Replay(steps: lockstep.steps, ending: .leftTrail(step: i + 1, reason:
                        "the trail recorded \(recorded.state) {\(recorded.keys.joined(separator: ", "))}, "
                        + "the flow is in \(now.state) {\(now.keys.joined(separator: ", "))}"), violation: nil)
                }
            }
            if let done = ended(outcome, step: i + 1) { return done }
        }
        return Replay(steps: lockstep.steps, ending: .fixed, violation: nil)
    }
}
