import AuthFlow
import Foundation
import PropertyTesting

/// How the random-path tester walks.
public struct FuzzOptions: Hashable, Sendable {
    /// How many random paths to walk.
    public var runs: Int
    /// The most actions in one path.
    public var maxSteps: Int
    /// The seed; the same seed walks the same paths on every toolchain.
    public var seed: UInt64
    /// Relative weight of back against each enabled event (events weigh 4).
    public var backWeight: Int
    /// Relative weight of sending an event the table has no transition for (events weigh 4).
    public var illegalWeight: Int
    /// Relative weight of an event that ends the flow (its target is terminal; other events weigh 4).
    /// Below 4 so paths run long: retries, resends and back loops before the user finishes.
    public var terminalWeight: Int
    /// Swarm testing: each run leaves out a random subset of events, so deep paths are walked too.
    public var swarm: Bool
    /// Only these properties are checked; `nil` checks all of section 3.
    public var properties: Set<Property>?
    /// The most replays shrinking may spend.
    public var maxShrinkReplays: Int
    /// Wall-clock seconds after which no new run starts (the report is then incomplete); `nil` for none.
    public var timeout: Double?

    public init(runs: Int = 1_000, maxSteps: Int = 60, seed: UInt64 = 1, backWeight: Int = 1, illegalWeight: Int = 1,
                terminalWeight: Int = 1, swarm: Bool = true, properties: Set<Property>? = nil, maxShrinkReplays: Int = 20_000, timeout: Double? = nil) {
        self.timeout = timeout
        self.runs = runs
        self.maxSteps = maxSteps
        self.seed = seed
        self.backWeight = backWeight
        self.illegalWeight = illegalWeight
        self.terminalWeight = terminalWeight
        self.swarm = swarm
        self.properties = properties
        self.maxShrinkReplays = maxShrinkReplays
    }
}

/// What the random runs covered.
public struct FuzzCoverage: Hashable, Sendable {
    /// States entered at least once, and how many states the model reaches.
    public var statesHit: Int
    public var statesReachable: Int
    /// Declared transitions fired at least once, and how many fire from reachable configurations.
    public var transitionsHit: Int
    public var transitionsLive: Int
    /// `(state, event)` pairs tried (legal or not), and how many exist at reachable states.
    public var pairsHit: Int
    public var pairsReachable: Int
    /// The run (1-based) after which everything reachable was covered; `nil` if it never was.
    public var runsToFullCoverage: Int?
}

/// A failure the random-path tester found, with its shrunk counterexample.
public struct FuzzFailure: Sendable {
    /// The seed of the whole fuzz run.
    public var seed: UInt64
    /// The run (0-based) that failed.
    public var run: Int
    /// The site violated.
    public var site: Site
    /// The path as walked, up to the failure.
    public var original: [FuzzAction]
    /// The shrunk path: no deletion, pair drop or value simplification keeps it failing.
    public var shrunk: [FuzzAction]
    /// The violation at the end of the shrunk path (path steps carry values; secrets redacted).
    public var violation: Violation
    /// Replays spent shrinking.
    public var shrinkReplays: Int
}

/// The result of a fuzz run.
public struct FuzzReport: Sendable {
    public var runs: Int
    public var steps: Int
    public var seed: UInt64
    public var failure: FuzzFailure?
    /// Regression paths replayed before the random runs, and the first one that failed, if any.
    public var regressionsReplayed: Int
    public var coverage: FuzzCoverage
    public var seconds: Double
    /// The limit that stopped the runs before they were all walked, if one did.
    public var stoppedBy: StopReason? = nil

    /// `violated` with a failure, else `incomplete` when a limit stopped the runs, else `holds`.
    public var verdict: Verdict { failure != nil ? .violated : (stoppedBy != nil ? .incomplete : .holds) }
}

/// The random-path property tester: seeded walks with back through the runtime in lockstep with the model.
///
/// Each run walks up to `maxSteps` actions chosen among the enabled events, back (where the spec
/// allows it) and events with no transition (which must be rejected without change), with random
/// values for the data each event adds. Every property of section 3 is checked after every step.
/// A failure is shrunk by deleting segments and single steps, dropping forward/back pairs and
/// simplifying values, replaying each candidate, until no smaller failing path exists.
///
/// ```swift
/// let report = FlowFuzzer(model: model).run(FuzzOptions(runs: 500, seed: 42))
/// if let failure = report.failure { print(failure.shrunk) }
/// ```
public struct FlowFuzzer {
    public let model: FlowModel
    let makeDriver: () -> any FlowDriver
    let rules: SiteRules

    /// A fuzzer for `model`; `makeDriver` builds the runtime under test (by default a fresh ``FlowSession``).
    public init(model: FlowModel, makeDriver: (() -> any FlowDriver)? = nil) {
        self.model = model
        self.makeDriver = makeDriver ?? { SessionDriver(model: model) }
        self.rules = SiteRules(model: model)
    }

    /// The per-run seed derived from the fuzz seed, so one run replays alone.
    public static func runSeed(_ seed: UInt64, run: Int) -> UInt64 {
        var mix = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: run) &* 0x9E37_79B9_7F4A_7C15))
        return mix.next()
    }

    /// Walks `options.runs` random paths (after replaying `regressions`), stopping at the first failure and shrinking it.
    public func run(_ options: FuzzOptions = FuzzOptions(), regressions: [[FuzzAction]] = []) -> FuzzReport {
        let start = Date()
        var coverage = CoverageTracker(model: model)
        var totalSteps = 0
        for (i, path) in regressions.enumerated() {
            if let outcome = replay(path, properties: options.properties) {
                let failure = shrink(outcome, seed: options.seed, run: -(i + 1), options: options)
                return FuzzReport(runs: 0, steps: 0, seed: options.seed, failure: failure, regressionsReplayed: i + 1,
                                  coverage: coverage.summary, seconds: Date().timeIntervalSince(start))
            }
        }
        for run in 0..<max(0, options.runs) {
            if let timeout = options.timeout, Date().timeIntervalSince(start) > timeout {
                return FuzzReport(runs: run, steps: totalSteps, seed: options.seed, failure: nil,
                                  regressionsReplayed: regressions.count, coverage: coverage.summary,
                                  seconds: Date().timeIntervalSince(start), stoppedBy: .timeout(seconds: timeout))
            }
            var rng = SeededGenerator(seed: Self.runSeed(options.seed, run: run))
            var lockstep = Lockstep(rules: rules, driver: makeDriver(), properties: options.properties)
            var outcome = lockstep.start()
            coverage.enter(Int(lockstep.top.state))
            // Swarm: this run leaves out some events entirely.
            var excluded = Set<Int32>()
            if options.swarm && run % 4 != 0 {
                for event in 0..<model.events.count where rng.bool(probability: 0.4) { excluded.insert(Int32(event)) }
            }
            var steps = 0
            while outcome == nil && steps < options.maxSteps {
                let state = Int(lockstep.top.state)
                let moves = model.moves[state]
                var choices: [(weight: Int, action: Int)] = []   // action: move index, or -1 for back
                let allowed = moves.indices.filter { !excluded.contains(moves[$0].event.rawValue) }
                for index in (allowed.isEmpty ? Array(moves.indices) : allowed) {
                    let weight = moves[index].target.map { model.isTerminal[$0.index] ? options.terminalWeight : 4 } ?? options.illegalWeight
                    choices.append((weight, index))
                }
                if lockstep.backAllowed { choices.append((options.backWeight, -1)) }
                let total = choices.reduce(0) { $0 + max(0, $1.weight) }
                guard total > 0 else { break }   // a terminal state, or nothing to do: the run is over
                var pick = Int(rng.draw(below: UInt64(total)))
                var chosen = choices[0].action
                for choice in choices where choice.weight > 0 {
                    if pick < choice.weight { chosen = choice.action; break }
                    pick -= choice.weight
                }
                let action: FuzzAction
                if chosen < 0 {
                    action = .back
                } else {
                    let move = moves[chosen]
                    action = .event(model.events[move.event.index], values: move.addedKeys.map { key in
                        Self.randomValue(for: model.keys[key.index], using: &rng)
                    })
                    coverage.tried(state: state, event: Int(move.event.rawValue))
                }
                outcome = lockstep.apply(action).outcome
                coverage.enter(Int(lockstep.top.state))
                if chosen >= 0, moves[chosen].target != nil { coverage.fired(state: state, event: Int(moves[chosen].event.rawValue)) }
                steps += 1
            }
            totalSteps += steps
            coverage.endRun(run + 1)
            if let outcome {
                let failure = shrink(outcome, seed: options.seed, run: run, options: options)
                return FuzzReport(runs: run + 1, steps: totalSteps, seed: options.seed, failure: failure,
                                  regressionsReplayed: regressions.count, coverage: coverage.summary,
                                  seconds: Date().timeIntervalSince(start))
            }
        }
        return FuzzReport(runs: options.runs, steps: totalSteps, seed: options.seed, failure: nil,
                          regressionsReplayed: regressions.count, coverage: coverage.summary,
                          seconds: Date().timeIntervalSince(start))
    }

    /// Replays `path` from the root; returns the first violation, or nil when the path is clean or not applicable.
    public func replay(_ path: [FuzzAction], properties: Set<Property>? = nil) -> FuzzOutcome? {
        var lockstep = Lockstep(rules: rules, driver: makeDriver(), properties: properties)
        if let outcome = lockstep.start() { return outcome }
        for action in path {
            let (applicable, outcome) = lockstep.apply(action)
            if !applicable { return nil }
            if let outcome { return outcome }
        }
        return nil
    }

    /// Shrinks a failing path with ``PathShrinker``, replaying every candidate through the runtime.
    func shrink(_ outcome: FuzzOutcome, seed: UInt64, run: Int, options: FuzzOptions) -> FuzzFailure {
        let shrunk = PathShrinker(maxReplays: options.maxShrinkReplays).shrink(outcome) { candidate in
            replay(candidate, properties: options.properties)
        }
        return FuzzFailure(seed: seed, run: run, site: shrunk.outcome.site, original: outcome.actions,
                           shrunk: shrunk.outcome.actions, violation: shrunk.outcome.violation, shrinkReplays: shrunk.replays)
    }

    /// A value a user might type for `key`: ASCII, Unicode, empty, long.
    static func randomValue(for key: String, using rng: inout SeededGenerator) -> String {
        let samples = ["a@b.c", "Ünïcödé@例え.jp", "", " ", "１２３４５６", "x\u{200B}y", "🙂", "O'Brien", "\"quoted\"", "ß"]
        let base = samples[Int(rng.draw(below: UInt64(samples.count)))]
        return "\(base)#\(rng.draw(below: 1_000_000))"
    }
}

/// Counts what random runs hit.
struct CoverageTracker {
    let model: FlowModel
    var states: Set<Int> = []
    var fired: Set<Int> = []
    var pairs: Set<Int> = []
    let reachable: Set<Int>
    let live: Set<Int>
    let reachablePairs: Set<Int>
    var fullAt: Int?

    /// Reachability comes from the configuration graph, by index (a search stopped by its limit
    /// counts only what it found).
    init(model: FlowModel) {
        self.model = model
        let graph = ConfigurationGraph(model: model, limits: CheckLimits(maxConfigurations: 1_000_000))
        let reachable = Set((0..<model.stateCount).filter(graph.isReachable))
        self.reachable = reachable
        let stride = max(1, model.events.count)
        self.live = Set(reachable.flatMap { state in model.moves[state].filter { $0.target != nil }.map { state * stride + $0.event.index } })
        self.reachablePairs = Set(reachable.flatMap { state in model.moves[state].map { state * stride + $0.event.index } })
    }

    mutating func enter(_ state: Int) { states.insert(state) }
    mutating func tried(state: Int, event: Int) { pairs.insert(state * max(1, model.events.count) + event) }
    mutating func fired(state: Int, event: Int) { fired.insert(state * max(1, model.events.count) + event) }
    mutating func endRun(_ run: Int) {
        if fullAt == nil, reachable.isSubset(of: states), live.isSubset(of: fired), reachablePairs.isSubset(of: pairs) { fullAt = run }
    }

    var summary: FuzzCoverage {
        FuzzCoverage(statesHit: states.count, statesReachable: reachable.count,
                     transitionsHit: fired.intersection(live).count, transitionsLive: live.count,
                     pairsHit: pairs.intersection(reachablePairs).count, pairsReachable: reachablePairs.count,
                     runsToFullCoverage: fullAt)
    }
}
