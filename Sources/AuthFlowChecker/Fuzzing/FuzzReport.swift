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
    /// The limit that stopped shrinking early (`--timeout`), if one did: the shrunk path may not be the smallest.
    public var shrinkStoppedBy: StopReason? = nil
    /// The shortest counterexample length known for the site: the complete checker's for a spec
    /// property, the exhaustive walk's (bounded by the shrunk length) for a runtime one; `nil` when
    /// neither knows it. The shrunk path is the shortest there is when its length equals it.
    public var shortestKnown: Int? = nil

    /// The `authflow/2` variant the run drove (an index of ``FlowModel/variantNames``; 0 without config).
    public var variant: Int = 0

    /// Whether the shrunk path is known to be as short as any counterexample of its site.
    public var isKnownShortest: Bool { shortestKnown == shrunk.count }
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
