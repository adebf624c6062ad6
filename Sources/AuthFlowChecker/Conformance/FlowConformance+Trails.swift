import AuthFlow

/// How a trail ran on an implementation, step by step.
public struct TrailReplay: Sendable {
    /// The frame after each step taken, the initial frame first (secrets redacted).
    public var steps: FlowPath
    /// Whether the trail's violation happened again.
    public var reproduced: Bool
    /// Whether every step followed the trail and the violation did not happen.
    public var fixed: Bool
    /// Why the run stopped short, when it left the trail or the implementation diverged from the spec.
    public var problem: String?
    /// The violation that ended the run, when it was reproduced or the implementation diverged.
    public var violation: Violation?
}

/// A trail that cannot be replayed on this flow: unreadable, for another flow, or naming an event the flow does not have.
public struct TrailRefusal: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var reason: String
    public var description: String { "\(file): \(reason)" }
}

extension FlowConformance {
    /// Replays the trail file at `path` (written by `authcheck explore --trail`) on a fresh implementation, step by step.
    ///
    /// The same run `authcheck replay` makes on the built-in runtime, on the app's own coordinator:
    /// after each step the implementation is compared with the spec, and the spec's frame with the
    /// one the trail recorded; the run stops at the first difference.
    ///
    /// ```swift
    /// let replay = try FlowConformance(model: model) { SignInCoordinator() }.replay(trail: "trails/1-no-exit@help.json")
    /// #expect(replay.fixed)
    /// ```
    /// - Throws: ``TrailRefusal`` when the file cannot be read, is for another flow, or names an unknown event. A trail recorded
    ///   against another version of the table is replayed: after a fix, that is what it is for.
    /// - Complexity: O(trail length) steps of the implementation.
    public func replay(trail path: String) throws(TrailRefusal) -> TrailReplay {
        let entries: [FuzzRegressions.Entry]
        do {
            entries = try FuzzRegressions.read(path)
        } catch {
            throw TrailRefusal(file: path, reason: error.message)
        }
        guard let entry = entries.first, entries.count == 1 else {
            throw TrailRefusal(file: path, reason: entries.isEmpty ? "holds no trail" : "holds \(entries.count) entries; a trail is one")
        }
        if let reason = FlowTrail.refusal(entry, model: model) { throw TrailRefusal(file: path, reason: reason) }
        let run = FlowTrail.replay(entry, model: model, driver: checks.driver(), traits: .app)
        var problem: String?
        switch run.ending {
        case let .leftTrail(step, reason): problem = "step \(step) left the trail: \(reason)"
        case let .diverged(step): problem = "step \(step): \(run.violation?.message ?? "the implementation diverged from the spec")"
        case .reproduced, .fixed: break
        }
        if case .fixed = run.ending {
            return TrailReplay(steps: run.steps, reproduced: false, fixed: true, problem: nil, violation: nil)
        }
        return TrailReplay(steps: run.steps, reproduced: run.reproduced, fixed: false, problem: problem, violation: run.violation)
    }
}
