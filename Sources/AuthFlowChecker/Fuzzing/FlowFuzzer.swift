import AuthFlow
import Foundation
import PropertyTesting

/// The random-path property tester: seeded walks with back through the runtime in lockstep with the model.
///
/// Each run walks up to `maxSteps` actions chosen among the enabled events, back (where the spec
/// allows it) and events with no transition (which must be rejected without change), with random
/// values for the data each event adds. Every property of section 3, and the spec's own `always`/`never`
/// rules, are checked after every step.
/// A failure is shrunk by ``PathShrinker``, guided by the model's shortest routes and loops,
/// replaying each candidate through the runtime, until no smaller failing path is found.
///
/// ```swift
/// let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 500, seed: 42))
/// if let failure = report.failure { print(failure.shrunk) }
/// ```
public struct FlowFuzzer {
    public let model: FlowModel
    let makeDriver: () -> any FlowDriver
    let rules: SiteRules
    /// The spec's own `always`/`never` rules, checked after every step.
    let userRules: RuleCheck
    /// What the runs may ask the driver and what they call it (``DriverTraits``).
    let traits: DriverTraits
    /// Per state: the events it does not emit, which runs also send when ``traits`` probe every event.
    let unemitted: [[Int32]]
    /// The one search of the flow's configurations: the runs' frame moves, the coverage denominators and the shrinker's guide.
    let analysis: FlowAnalysis
    /// For a flow whose moves depend on its data: every configuration's moves (`deadlock`, `no-exit` per frame).
    let frameMoves: FrameMoves?

    /// A fuzzer for `model`; `makeDriver` builds the runtime under test (by default a fresh ``FlowSession``).
    /// - Parameter deadline: when the search for a `/2` flow's frame moves stops (its unsearched frames are then
    ///   never called stuck); the run that follows stops at once, incomplete, if it has passed.
    public init(model: FlowModel, makeDriver: (() -> any FlowDriver)? = nil, deadline: Deadline = .none) {
        self.init(model: model, traits: .runtime, makeDriver: makeDriver ?? { SessionDriver(model: model) }, deadline: deadline)
    }

    /// A fuzzer for `model` that asks the driver only what `traits` allow.
    init(model: FlowModel, traits: DriverTraits, makeDriver: @escaping () -> any FlowDriver, deadline: Deadline = .none) {
        self.model = model
        self.makeDriver = makeDriver
        self.rules = SiteRules(model: model)
        self.userRules = RuleCheck(model: model)
        self.traits = traits
        self.unemitted = model.emissions.map { emissions in
            guard traits.probesEveryEvent else { return [] }
            let emitted = Set(emissions.map(\.event.rawValue))
            return (0..<Int32(model.events.count)).filter { !emitted.contains($0) }
        }
        self.analysis = FlowAnalysis(model: model, limits: .supporting)
        self.frameMoves = analysis.frameMoves(within: deadline)
    }

    /// The per-run seed derived from the fuzz seed, so one run replays alone.
    public static func runSeed(_ seed: UInt64, run: Int) -> UInt64 {
        var mix = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: run) &* 0x9E37_79B9_7F4A_7C15))
        return mix.next()
    }

    /// Walks `options.runs` random paths (after replaying `regressions`), stopping at the first failure and shrinking it.
    /// - Parameters:
    ///   - clock: where the report's seconds are read (the timeout runs on the wall clock).
    ///   - start: when the run began on the wall clock, for `options.timeout` (before loading, for a command); `nil` for now.
    public func run(_ options: FuzzOptions = FuzzOptions(), regressions: [[FuzzAction]] = [],
                    clock: CheckClock = .system, start: Date? = nil) -> FuzzReport {
        let start = start ?? Date()
        let clockStart = clock.now()
        let deadline = Deadline(start: start, timeout: options.timeout)
        // One search of the configuration graph: the coverage denominators and the shrinker's guide.
        let graph = analysis.graph(within: deadline)
        var coverage = FuzzCoverageTracker(graph: graph, frameMoves: frameMoves)
        var totalSteps = 0
        let progress = FuzzProgress.current
        for (i, path) in regressions.enumerated() {
            if let outcome = replay(path, properties: options.properties, variant: 0) {
                let failure = shrink(outcome, seed: options.seed, run: -(i + 1), options: options, graph: graph, deadline: deadline)
                return FuzzReport(runs: 0, steps: 0, seed: options.seed, failure: failure, regressionsReplayed: i + 1,
                                  coverage: coverage.summary, seconds: clock.seconds(since: clockStart))
            }
        }
        var aims = FuzzAims(graph: graph)
        for run in 0..<max(0, options.runs) {
            if let timeout = options.timeout, Date().timeIntervalSince(start) > timeout {
                return FuzzReport(runs: run, steps: totalSteps, seed: options.seed, failure: nil,
                                  regressionsReplayed: regressions.count, coverage: coverage.summary,
                                  seconds: clock.seconds(since: clockStart), stoppedBy: .timeout(seconds: timeout))
            }
            var rng = SeededGenerator(seed: Self.runSeed(options.seed, run: run))
            var lockstep = Lockstep(rules: rules, userRules: userRules, driver: makeDriver(), properties: options.properties, traits: traits,
                                    frameMoves: frameMoves)
            // Each run drives one variant, drawn from its seed; a run that aims at a configuration no run has entered starts
            // in its variant and takes the shortest path there (``FuzzAims``), then goes on at random.
            let aim = aims.aim(run: run, using: &rng)
            var outcome = lockstep.start(variant: aim?.variant ?? (model.roots.count > 1 ? Int(rng.draw(below: UInt64(model.roots.count))) : 0))
            coverage.enter(Int(lockstep.top.state))
            aims.entered(lockstep.top)
            var steps = 0
            for action in aim?.actions ?? [] where outcome == nil {
                let (applicable, found) = lockstep.apply(action)
                outcome = found
                steps += 1
                coverage.enter(Int(lockstep.top.state))
                aims.entered(lockstep.top)
                if !applicable { break }
            }
            // Swarm: this run leaves out some events entirely.
            var excluded = Set<Int32>()
            if options.swarm && run % 4 != 0 {
                for event in 0..<model.events.count where rng.bool(probability: 0.4) { excluded.insert(Int32(event)) }
            }
            // A run of many steps reads the clock every 1,024: --timeout ends a long walk too.
            func timeUp() -> Bool { steps & 1023 == 1023 && deadline.hasPassed }
            while outcome == nil && steps < options.maxSteps && !timeUp() {
                let state = Int(lockstep.top.state)
                let emissions = model.emissions[state]
                var choices: [(weight: Int, action: Int)] = []   // action: emission index, -1 for back, -2 to end the run, -3 an unemitted event
                let allowed = emissions.indices.filter { !excluded.contains(emissions[$0].event.rawValue) }
                var offered = false
                for index in (allowed.isEmpty ? Array(emissions.indices) : allowed) {
                    let now = model.offers(emissions[index], state: state, keys: lockstep.top.keys, values: lockstep.top.packed)
                    offered = offered || now
                    choices.append((now ? weight(of: index, state: state, frame: lockstep.top, options: options) : options.illegalWeight, index))
                }
                appendOtherChoices(&choices, state: state, stuck: !offered, backAllowed: lockstep.backAllowed, options: options)
                guard let chosen = Self.choose(choices, using: &rng) else { break }   // nothing to do: the run is over
                if chosen == -2 { break }
                let action: FuzzAction
                if chosen == -3 {
                    action = unemittedAction(state, using: &rng)
                } else if chosen < 0 {
                    action = .back
                } else {
                    // A valued key takes one of its values (the system's answer); a presence key what a user might type.
                    let emission = emissions[chosen]
                    action = .event(model.events[emission.event.index], values: .ordered(emission.outputKeys(keyCount: model.keys.count).map { key in
                        let domain = model.layout.domains[key]
                        // Only the answers the emission lists for the key (its whole domain unless it lists some).
                        let choices = emission.addValued.firstIndex(of: key).map { emission.addChoices[$0] } ?? Array(domain.indices)
                        return choices.isEmpty ? Self.randomValue(for: model.keys[key], using: &rng) : domain[choices[Int(rng.draw(below: UInt64(choices.count)))]]
                    }))
                    coverage.tried(state: state, event: Int(emission.event.rawValue))
                }
                outcome = lockstep.apply(action).outcome
                coverage.enter(Int(lockstep.top.state))
                aims.entered(lockstep.top)
                if chosen >= 0, lockstep.rowFired { coverage.fired(state: state, event: Int(emissions[chosen].event.rawValue)) }
                steps += 1
            }
            totalSteps += steps
            coverage.endRun(run + 1)
            progress?.update(runs: run + 1, steps: totalSteps)
            if let outcome {
                progress?.startShrinking()
                let failure = shrink(outcome, seed: options.seed, run: run, options: options, graph: graph, deadline: deadline)
                return FuzzReport(runs: run + 1, steps: totalSteps, seed: options.seed, failure: failure,
                                  regressionsReplayed: regressions.count, coverage: coverage.summary,
                                  seconds: clock.seconds(since: clockStart))
            }
        }
        return FuzzReport(runs: options.runs, steps: totalSteps, seed: options.seed, failure: nil,
                          regressionsReplayed: regressions.count, coverage: coverage.summary,
                          seconds: clock.seconds(since: clockStart))
    }

    /// The choices besides the step's events: back where the spec allows it (where it forbids it
    /// — the root, `back: false`, a terminal state — back is tried as often as an illegal event, and
    /// must be refused); with nothing else to do (`stuck` and no back), ending the run four times in
    /// five; an event the step does not emit, as often as one with no transition.
    func appendOtherChoices(_ choices: inout [(weight: Int, action: Int)], state: Int, stuck: Bool, backAllowed: Bool, options: FuzzOptions) {
        choices.append((backAllowed ? options.backWeight : options.illegalWeight, -1))
        if stuck && !backAllowed { choices.append((4, -2)) }
        if !unemitted[state].isEmpty { choices.append((options.illegalWeight, -3)) }
    }

    /// One of `choices`' actions, drawn by weight; `nil` when no weight is positive.
    static func choose(_ choices: [(weight: Int, action: Int)], using rng: inout SeededGenerator) -> Int? {
        let total = choices.reduce(0) { $0 + max(0, $1.weight) }
        guard total > 0 else { return nil }
        var pick = Int(rng.draw(below: UInt64(total)))
        for choice in choices where choice.weight > 0 {
            if pick < choice.weight { return choice.action }
            pick -= choice.weight
        }
        return choices[0].action
    }

    /// An event the step of `state` does not emit, drawn at random (an app's table must refuse it).
    func unemittedAction(_ state: Int, using rng: inout SeededGenerator) -> FuzzAction {
        let others = unemitted[state]
        return .event(model.events[Int(others[Int(rng.draw(below: UInt64(others.count)))])])
    }

    /// Replays `path` from the root; returns the first violation, or nil when the path is clean or not applicable.
    /// - Parameter variant: the `authflow/2` variant to run it in (an index of ``FlowModel/variantNames``).
    public func replay(_ path: [FuzzAction], properties: Set<Property>? = nil, variant: Int = 0) -> FuzzOutcome? {
        var lockstep = Lockstep(rules: rules, userRules: userRules, driver: makeDriver(), properties: properties, traits: traits,
                                frameMoves: frameMoves)
        if let outcome = lockstep.start(variant: variant) { return outcome }
        for action in path {
            let (applicable, outcome) = lockstep.apply(action)
            if !applicable { return nil }
            if let outcome { return outcome }
        }
        return nil
    }

    /// How often a run picks emission `index` of `state`, offered on `frame`: where its values cannot change
    /// what it does, by where it leads (a terminal state less often, so runs last; no row as often as an
    /// illegal event); otherwise as any move.
    func weight(of index: Int, state: Int, frame: Lockstep.Frame, options: FuzzOptions) -> Int {
        guard model.emissions[state][index].branchCount(model.layout) == 1 else { return 4 }
        switch model.move(state: state, emission: index, branch: 0, keys: frame.keys, values: frame.packed).outcome {
        case .illegal: return options.illegalWeight
        case let .push(to, _, _), let .replace(to, _, _): return model.isTerminal[to.index] ? options.terminalWeight : 4
        case .reset: return 4
        }
    }

    /// Shrinks a failing path with ``PathShrinker``, guided by the model and replaying every candidate through the runtime.
    /// - Parameter deadline: when shrinking stops with the best path so far (the failure is reported all the same).
    func shrink(_ outcome: FuzzOutcome, seed: UInt64, run: Int, options: FuzzOptions,
                graph: ConfigurationGraph? = nil, deadline: Deadline = .none) -> FuzzFailure {
        let graph = graph ?? analysis.graph(within: .none)
        let guide = ShrinkGuide(graph: graph, probesEveryEvent: traits.probesEveryEvent)
        let shrunk = PathShrinker(maxReplays: options.maxShrinkReplays, guide: guide, deadline: deadline).shrink(outcome) { candidate in
            replay(candidate, properties: options.properties, variant: outcome.variant)
        }
        var failure = FuzzFailure(seed: seed, run: run, site: shrunk.outcome.site, original: outcome.actions,
                                  shrunk: shrunk.outcome.actions, violation: shrunk.outcome.violation, shrinkReplays: shrunk.replays)
        failure.variant = outcome.variant
        failure.shrinkStoppedBy = shrunk.stoppedBy
        failure.shortestKnown = deadline.hasPassed ? nil : shortestKnown(failure.site, within: failure.shrunk.count, graph: graph,
                                                                         timeout: deadline.remaining.map { min(2, $0) } ?? 2)
        return failure
    }

    /// The shortest counterexample length of `site` that the complete checker, or the exhaustive walk
    /// up to `depth` events (for at most two seconds), knows.
    ///
    /// The spec's own rules are decided on the graph too: a rule the spec breaks has the checker's
    /// shortest; one only the runtime breaks, the walk's (which checks the rules on every frame it drives).
    func shortestKnown(_ site: Site, within depth: Int, graph: ConfigurationGraph, timeout: Double = 2) -> Int? {
        if Property.specProperties.contains(site.property) || site.property.isUserDefined,
           let decided = ModelChecker.verify(graph).violations.first(where: { $0.site == site }) {
            return decided.length
        }
        if Property.specProperties.contains(site.property) { return nil }
        let walk = RuntimeExplorer(model: model, traits: traits).explore(makeDriver(), depth: depth, timeout: timeout)
        if let exact = walk.violations.first(where: { $0.site == site })?.length { return exact }
        guard !traits.readsInternals else { return nil }
        // An app's finding is always known: the walk may name the site by the state the event was sent
        // from (a reset, a probe) where the random path names the state it led to; and when the walk
        // does not finish, the shrunk path is itself the shortest counterexample known.
        let sameEvent = walk.violations.filter { $0.site.property == site.property && $0.site.event == site.event }.map(\.length)
        return min(sameEvent.min() ?? depth, depth)
    }

    /// A value a user might type for `key`: ASCII, Unicode, empty, long.
    static func randomValue(for key: String, using rng: inout SeededGenerator) -> String {
        let samples = ["a@b.c", "Ünïcödé@例え.jp", "", " ", "１２３４５６", "x\u{200B}y", "🙂", "O'Brien", "\"quoted\"", "ß"]
        let base = samples[Int(rng.draw(below: UInt64(samples.count)))]
        return "\(base)#\(rng.draw(below: 1_000_000))"
    }
}
