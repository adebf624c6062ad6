import AuthFlow
import PropertyTesting

/// Generates large, valid, realistic sign-in flows that hold every property: inputs for benchmarks and scale tests.
///
/// A generated flow is a chain of *stages* (a few screens each, like "email", "password", "MFA"),
/// followed by `authenticated` (success, requires `session`) and `cancelled` (abort):
///
/// - every screen has `next` (to the next screen, or to the next stage's entry, adding that
///   stage's key), so a terminal is always reachable and nothing deadlocks;
/// - screens may `retry` (a self-loop), `resend` (a self-loop that adds a key again), `skip`
///   ahead, `edit` (a back-edge to their stage's entry), `startOver` (to the previous stage's
///   entry), take an `alternative` branch that adds an optional key, and `cancel` to abort;
/// - some screens have `back: false`;
/// - only the last stage signs in, and `signIn` adds `session`, the credential success requires.
///
/// Each screen's `requires` is drawn from the keys it is guaranteed to hold on every path (a
/// must-analysis over the generated graph), so `unmet-requirement` holds by construction, and
/// every produced key is required somewhere, so lint is clean. Stage keys are reused once the
/// key budget runs out and at most five keys are optional, which keeps the `(state, data keys)`
/// configurations within a small multiple of the states however large the flow.
///
/// ```swift
/// let spec = SyntheticFlow.make(states: 1_000, keys: 16, seed: 7)
/// let model = try FlowModel(spec: spec)
/// ModelChecker.verify(model).violations.isEmpty   // true
/// ```
package enum SyntheticFlow {
    /// Returns a flow of `states` states (screens plus the two terminals) over `keys` data keys.
    ///
    /// - Parameters:
    ///   - states: how many states, at least 4.
    ///   - keys: how many data keys, `session` included: 2 to 64.
    ///   - seed: the generator's seed; the same arguments always give the same flow.
    ///   - stageSize: how many screens a stage has, drawn per stage.
    ///   - name: the flow's name; by default one that states the arguments.
    /// - Returns: a spec that ``FlowModel/init(spec:locations:file:)`` accepts, in which every property holds.
    /// - Complexity: O(states · keys) per pass of the must-analysis, which converges in a few passes.
    package static func make(states: Int, keys: Int, seed: UInt64, stageSize: ClosedRange<Int> = 3...7,
                            name: String? = nil) -> FlowSpec {
        precondition(states >= 4, "a synthetic flow needs at least 4 states")
        precondition((2...KeySet.capacity).contains(keys), "a synthetic flow needs 2 to \(KeySet.capacity) keys")
        precondition(stageSize.lowerBound >= 1, "a stage has at least one screen")
        var random = SplitMix64(seed: seed)
        let screens = states - 2
        let success = screens, abort = screens + 1

        // Keys: 0 is the credential; the rest are split into stage keys and optional (branch) keys.
        let keyNames = (0..<keys).map { $0 == 0 ? "session" : keyName($0) }
        // At most 5 optional keys: they persist once collected, so each doubles the configurations at worst.
        let optionalKeys = Array(keys - min(keys / 4, 5) ..< keys)
        let stageKeys = Array(1 ..< keys - optionalKeys.count)

        // Stages: consecutive runs of screens.
        var stageStart: [Int] = []
        var position = 0
        while position < screens {
            stageStart.append(position)
            position += random.int(in: stageSize)
        }
        var stageOf = [Int](repeating: 0, count: screens)
        for (stage, start) in stageStart.enumerated() {
            let end = stage + 1 < stageStart.count ? stageStart[stage + 1] : screens
            for screen in start..<end { stageOf[screen] = stage }
        }
        func stageEnd(_ stage: Int) -> Int { stage + 1 < stageStart.count ? stageStart[stage + 1] : screens }
        func exitKey(_ stage: Int) -> KeySet {
            stageKeys.isEmpty ? KeySet() : KeySet([KeyID(stageKeys[stage % stageKeys.count])])
        }

        // Branch screens: reached only through their predecessor's `alternative`, which adds an optional key.
        var branchKey = [Int](repeating: -1, count: screens)
        if !optionalKeys.isEmpty {
            for screen in 1..<screens where stageStart[stageOf[screen]] < screen && branchKey[screen - 1] < 0 && random.chance(0.12) {
                branchKey[screen] = optionalKeys[random.int(in: 0...optionalKeys.count - 1)]
            }
        }

        // Edges, per screen in emits order: (event, adds, target).
        struct Edge { var event: String; var adds: KeySet; var target: Int }
        var edges = [[Edge]](repeating: [], count: screens)
        var back = [Bool](repeating: true, count: screens)
        back[0] = false
        for screen in 0..<screens {
            let stage = stageOf[screen]
            let entry = stageStart[stage]
            let isLastStage = stage == stageStart.count - 1
            // The screens ahead in this stage that `next` and `skip` may reach (branch screens are not).
            let ahead = (screen + 1 ..< stageEnd(stage)).filter { branchKey[$0] < 0 }
            // Out of the stage: to the next stage's entry with the stage's key, or signing in.
            func exit(_ event: String) -> Edge {
                isLastStage ? Edge(event: event == "next" ? "signIn" : "quickSignIn", adds: KeySet([KeyID(0)]), target: success)
                            : Edge(event: event, adds: exitKey(stage), target: stageEnd(stage))
            }
            var list: [Edge] = [ahead.isEmpty ? exit("next") : Edge(event: "next", adds: KeySet(), target: ahead[0])]
            if !ahead.isEmpty, random.chance(0.25) {
                list.append(ahead.count > 1 ? Edge(event: "skip", adds: KeySet(), target: ahead[1]) : exit("skip"))
            }
            if screen + 1 < screens, branchKey[screen + 1] >= 0 {
                list.append(Edge(event: "alternative", adds: KeySet([KeyID(branchKey[screen + 1])]), target: screen + 1))
            }
            if random.chance(0.3) { list.append(Edge(event: "retry", adds: KeySet(), target: screen)) }
            if stage > 0, random.chance(0.15) {
                // Re-collects the key the previous stage ended with: present already, a new value.
                list.append(Edge(event: "resend", adds: exitKey(stage - 1), target: screen))
            }
            if screen > entry, random.chance(0.25) { list.append(Edge(event: "edit", adds: KeySet(), target: entry)) }
            if stage > 0, random.chance(0.05) {
                list.append(Edge(event: "startOver", adds: KeySet(), target: stageStart[stage - 1]))
            }
            if screen == 0 || random.chance(0.85) { list.append(Edge(event: "cancel", adds: KeySet(), target: abort)) }
            edges[screen] = list
            if screen > 0, random.chance(0.1) { back[screen] = false }
        }

        // Must-analysis: the keys every path from the initial state brings to each screen.
        let all = KeySet(bits: keys == 64 ? ~0 : (1 << UInt64(keys)) - 1)
        var guaranteed = [KeySet](repeating: all, count: states)
        guaranteed[0] = KeySet()
        var changed = true
        while changed {
            changed = false
            for screen in 0..<screens {
                for edge in edges[screen] {
                    let brought = KeySet(bits: guaranteed[edge.target].bits & (guaranteed[screen].bits | edge.adds.bits))
                    if edge.target != 0, brought != guaranteed[edge.target] {
                        guaranteed[edge.target] = brought
                        changed = true
                    }
                }
            }
        }

        // Requirements: a random part of what is guaranteed, then every produced key required somewhere.
        var requires = [KeySet](repeating: KeySet(), count: states)
        requires[success] = KeySet([KeyID(0)])
        for screen in 1..<screens {
            for key in guaranteed[screen] where random.chance(0.35) { requires[screen].insert(key) }
        }
        var produced = KeySet()
        for list in edges { for edge in list { produced = produced.union(edge.adds) } }
        var required = requires.reduce(KeySet()) { $0.union($1) }
        for key in produced.subtracting(required) {
            if let screen = (1..<screens).first(where: { guaranteed[$0].contains(key) }) {
                requires[screen].insert(key)
                required.insert(key)
            }
        }

        let stateNames = (0..<screens).map { screenName($0, stage: stageOf[$0], entry: stageStart[stageOf[$0]]) }
            + ["authenticated", "cancelled"]
        var steps: [FlowSpec.Step] = []
        var rows: [FlowSpec.TransitionRow] = []
        for screen in 0..<screens {
            steps.append(FlowSpec.Step(
                stateNames[screen], requires: requires[screen].map { keyNames[$0.index] },
                emits: edges[screen].map { FlowSpec.Emission($0.event, adds: $0.adds.map { keyNames[$0.index] }) },
                back: back[screen]))
            for edge in edges[screen] {
                rows.append(FlowSpec.TransitionRow(from: stateNames[screen], on: edge.event, to: stateNames[edge.target]))
            }
        }
        steps.append(FlowSpec.Step("authenticated", requires: ["session"]))
        steps.append(FlowSpec.Step("cancelled"))
        return FlowSpec(
            name: name ?? "synthetic flow (\(states) states, \(keys) keys, seed \(seed))",
            description: "Generated by SyntheticFlow.make: \(stageStart.count) stages of screens, retries, back-edges, branches and cancel.",
            initial: stateNames[0], success: ["authenticated"], abort: ["cancelled"],
            steps: steps, transitions: rows, secrets: ["session"])
    }

    /// Realistic names for the first keys, then numbered ones.
    static let commonKeys = ["email", "account", "password", "otp", "device", "phone", "consent", "profile",
                             "recovery", "invitation", "ssoProvider", "captcha", "locale", "terms", "pushToken",
                             "passkey", "backupCode", "address", "birthdate", "referral"]

    static func keyName(_ index: Int) -> String {
        index - 1 < commonKeys.count ? commonKeys[index - 1] : "field\(index)"
    }

    static func screenName(_ screen: Int, stage: Int, entry: Int) -> String {
        "stage\(stage).screen\(screen - entry)"
    }
}

/// A seed always gives the same flow: SplitMix64 is the same on every platform.
private extension SplitMix64 {
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < probability
    }
}
