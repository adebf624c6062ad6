import AuthFlow
import Foundation

/// Checks an app's own implementation of a flow against its spec: the exhaustive walk and the random-path tester, in the app's terms.
///
/// Both searches drive the implementation through a ``FlowUnderTest`` in lockstep with the spec's
/// semantics and check, after every action: its state and data equal the spec's frame
/// (`divergence`); an event with no row in the spec, whether or not the step emits it, is refused
/// and changes nothing; back is refused exactly where the spec forbids it, changing nothing, and
/// elsewhere restores exactly the previous state and data (`undo-mismatch`). Both check the team's
/// own `always`/`never` rules (`properties` in an `authflow/2` spec) on every frame the app holds,
/// also where it is not the spec's: an app that skips a screen the rule demands breaks the rule,
/// and the walk reports it by the rule's id as well as the divergence. The random-path tester also
/// checks the spec's built-in properties along its paths. Nothing is asked that the app cannot
/// answer: a finding is always about what the implementation did.
///
/// ```swift
/// let model = try SpecLoader.load(file: "Specs/email-first.json")
/// let conformance = FlowConformance(model: model) { SignInCoordinator() }
/// conformance.explore(depth: 12).violations      // [] when every stack of 12 events conforms
/// conformance.fuzz(FuzzOptions(seed: 7)).failure  // nil when 1,000 random paths conform
/// ```
public struct FlowConformance<Flow: FlowUnderTest> {
    /// The checks, with the app's type erased: everything below is compiled once, for any app.
    @usableFromInline var checks: AppConformance

    /// The spec's model.
    public var model: FlowModel { checks.model }
    /// Whether the walk may backtrack with the app's undo or snapshots (``UndoableFlowUnderTest``,
    /// ``RestorableFlowUnderTest``); off, it replays from a fresh instance as for an app without them.
    public var usesCapabilities: Bool {
        get { checks.usesCapabilities }
        set { checks.usesCapabilities = newValue }
    }

    /// Checks the implementations `make` returns (each a fresh one, at the spec's initial state with no data) against `model`.
    ///
    /// Inlinable: the drivers it makes are compiled where `Flow` is known, so every step of the
    /// searches calls the app's own code directly (see ``AppDriver``).
    /// Every `authflow/1` and `authflow/2` flow is checked: guards, valued keys, counters, clears,
    /// first-match rows, system events (delivered by ``FlowUnderTest/receive(_:data:)``), resets and
    /// `anywhere` rows. For a flow with `config`, the same kind of app is made for every variant; use
    /// ``init(model:variants:)`` to make each for its variant.
    @inlinable
    public init(model: FlowModel, make: @escaping () -> Flow) {
        self.checks = AppConformance(model: model, drivers: .of(make))
    }

    /// Checks the implementations `make` returns for each variant of `model` (its `config` values; one variant without config).
    @inlinable
    public init(model: FlowModel, variants make: @escaping (FlowVariant) -> Flow) {
        self.checks = AppConformance(model: model, drivers: .of(variants: make))
    }

    func driver() -> ErasedAppDriver { checks.driver() }

    /// Walks every undo stack of at most `depth` events, in lockstep with the spec.
    ///
    /// At every stack each legal event is sent and checked, then backtracked (by back where the
    /// spec allows it, so back is checked everywhere it is allowed); every other event is sent and
    /// must be refused without change; back is tried where the spec forbids it and must be refused.
    /// Each violated site is reported once, with its shortest path.
    /// - Parameters:
    ///   - depth: the bound on forward events.
    ///   - timeout: wall-clock seconds after which the walk stops (``ConformanceWalk/stoppedBy``).
    /// - Complexity: O(S · E) actions for S stacks and E events, each as costly as the app makes
    ///   it, plus a replay of O(depth) events per backtrack where back is not allowed, unless the
    ///   app can undo or restore; O(depth) memory.
    public func explore(depth: Int, timeout: Double? = nil) -> ConformanceWalk {
        checks.explore(depth: depth, timeout: timeout)
    }

    /// Walks `options.runs` random paths with back and events the spec has no row for, stopping
    /// at the first failure and shrinking it with the model-guided ``PathShrinker``.
    /// - Complexity: O(runs · maxSteps) actions, plus at most `options.maxShrinkReplays` replays.
    public func fuzz(_ options: FuzzOptions = FuzzOptions()) -> FuzzReport {
        checks.fuzzer().run(options)
    }

    /// Replays `path` on a fresh implementation; the first violation, or nil when it conforms (or the path does not apply).
    ///
    /// Cheap to call often (a test per tour, a loop over findings): the flow's analysis and the
    /// driver are made on the first call and reused, each replay starting from a fresh app.
    /// - Complexity: O(path length) actions of the app, after the first call.
    public func replay(_ path: [FuzzAction]) -> FuzzOutcome? {
        checks.replays.withFuzzer(checks) { $0.replay(path) }
    }
}

/// The conformance checks of one app type, its type erased: the model, the app's driver factory, the backtracking choice.
@usableFromInline
struct AppConformance {
    let model: FlowModel
    let tables: AppTables
    let drivers: AppDrivers
    var usesCapabilities = true
    /// What ``FlowConformance/replay(_:)`` reuses between calls.
    let replays = ReplayCache()
    /// The flow's configuration graph, searched on first use: what counts section 5's stacks after each walk.
    let analysis: FlowAnalysis
    /// For an async app: drivers that run the walk ahead of the app, and afterwards whether the app answered as they
    /// assumed (``Speculation``); made anew for each walk.
    var ahead: ((AppTables) -> (drivers: AppDrivers, settle: () -> Bool))?

    @usableFromInline
    init(model: FlowModel, drivers: AppDrivers) {
        self.model = model
        self.tables = AppTables(model: model)
        self.drivers = drivers
        self.analysis = FlowAnalysis(model: model, limits: CheckLimits(maxConfigurations: .max), edges: true)
    }

    func driver() -> ErasedAppDriver {
        drivers.make(tables, usesCapabilities)
    }

    /// The walk; an async app's run ahead of it first (``Speculation``), and again awaiting every call when it did not answer as expected.
    func explore(depth: Int, timeout: Double?) -> ConformanceWalk {
        if let ahead {
            let (drivers, settle) = ahead(tables)
            let walk = explore(drivers.make(tables, usesCapabilities), depth: depth, timeout: timeout)
            if settle() { return walk }
        }
        return explore(driver(), depth: depth, timeout: timeout)
    }

    func explore(_ driver: ErasedAppDriver, depth: Int, timeout: Double?) -> ConformanceWalk {
        let walk = RuntimeExplorer(model: model, traits: .app, analysis: analysis).explore(driver, depth: depth, timeout: timeout)
        return ConformanceWalk(violations: walk.violations, stacks: walk.stacks, depth: walk.depth, stoppedBy: walk.stoppedBy)
    }

    func fuzzer() -> FlowFuzzer {
        let (tables, drivers, uses) = (tables, drivers, usesCapabilities)
        return FlowFuzzer(model: model, traits: .app) { drivers.make(tables, uses) }
    }
}

/// What the exhaustive conformance walk found.
public struct ConformanceWalk: Sendable {
    /// One violation per site (`divergence`, `undo-mismatch`), each with its shortest path, shortest first.
    public var violations: [Violation]
    /// Distinct undo stacks visited, the root included.
    public var stacks: Int
    /// The depth bound.
    public var depth: Int
    /// The limit that stopped the walk, if one did.
    public var stoppedBy: StopReason?
}
