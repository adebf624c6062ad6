import AuthFlow

extension FlowGate {
    /// Checks an app's own implementation of the flow against the spec at `path`, and throws unless it conforms.
    ///
    /// Runs the exhaustive walk over every undo stack of at most `depth` events, then `runs`
    /// random paths with back (seeded by `seed`), each in lockstep with the spec; the first search
    /// that fails throws, with every counterexample shortest (the walk's) or shrunk (a random
    /// path's). A relative `path` resolves as in ``assertHolds(file:options:callerFile:)``.
    ///
    /// ```swift
    /// @Test func coordinatorConforms() throws {
    ///     try FlowGate.assertConforms(spec: "Specs/email-first.json") { SignInCoordinator() }
    /// }
    /// ```
    /// - Parameters:
    ///   - path: the spec file, absolute or relative.
    ///   - depth: the exhaustive walk's bound on forward events.
    ///   - runs: how many random paths to walk after it.
    ///   - seed: the random paths' seed; the same seed walks the same paths.
    ///   - callerFile: the calling source file, by default the test that calls the gate.
    ///   - make: a fresh implementation at the spec's initial state with no data; called for every path.
    /// - Returns: the report, for further assertions.
    /// - Throws: ``ConformanceFailure`` when the verdict is not `holds`, its description the counterexample.
    /// - Complexity: as ``FlowConformance/explore(depth:timeout:)`` plus ``FlowConformance/fuzz(_:)``.
    @discardableResult @inlinable
    public static func assertConforms<Flow: FlowUnderTest>(spec path: String, depth: Int = ConformanceDefaults.depth, runs: Int = ConformanceDefaults.runs,
                                                           seed: UInt64 = ConformanceDefaults.seed,
                                                           callerFile: StaticString = #filePath,
                                                           make: @escaping () -> Flow) throws(ConformanceFailure) -> ConformanceReport {
        // Inlinable, so that the app's drivers are compiled where `Flow` is known (see `AppDriver`).
        try assertConforms(spec: path, depth: depth, runs: runs, seed: seed, callerFile: callerFile, drivers: .of(make))
    }

    /// Checks an app's own implementation of a flow with `config` against the spec at `path`: `make` makes one for each variant.
    ///
    /// As ``assertConforms(spec:depth:runs:seed:callerFile:make:)``, with the variant (its config
    /// values) handed to the factory:
    ///
    /// ```swift
    /// try FlowGate.assertConforms(spec: "Specs/sign-in.json") { variant in
    ///     SignInCoordinator(mfaRequired: variant["mfa"] == "required")
    /// }
    /// ```
    @discardableResult @inlinable
    public static func assertConforms<Flow: FlowUnderTest>(spec path: String, depth: Int = ConformanceDefaults.depth, runs: Int = ConformanceDefaults.runs,
                                                           seed: UInt64 = ConformanceDefaults.seed,
                                                           callerFile: StaticString = #filePath,
                                                           make: @escaping (FlowVariant) -> Flow) throws(ConformanceFailure) -> ConformanceReport {
        try assertConforms(spec: path, depth: depth, runs: runs, seed: seed, callerFile: callerFile, drivers: .of(variants: make))
    }

    @usableFromInline
    static func assertConforms(spec path: String, depth: Int, runs: Int, seed: UInt64, callerFile: StaticString,
                               drivers: AppDrivers, ahead: ((AppTables) -> (drivers: AppDrivers, settle: () -> Bool))? = nil)
        throws(ConformanceFailure) -> ConformanceReport {
        let options = FuzzOptions(runs: runs, seed: seed)
        var report = ConformanceReport(spec: path, secrets: [], fuzzOptions: options)
        let model: FlowModel
        do throws(InvalidSpecError) {
            switch resolve(path, callerFile: "\(callerFile)") {
            case let .found(resolved):
                model = try SpecLoader.load(file: resolved)
            case let .missing(tried):
                throw InvalidSpecError(file: path, issues: [SpecIssue(path: SpecIssue.wholeFile, message: "no such file; tried " + tried.joined(separator: ", "))])
            }
        } catch {
            report.error = error
            throw ConformanceFailure(report: report)
        }
        report.secrets = Set(model.names(of: model.secrets))
        var conformance = AppConformance(model: model, drivers: drivers)
        conformance.ahead = ahead
        report.walk = conformance.explore(depth: depth, timeout: nil)
        if report.verdict == .holds {
            report.fuzz = conformance.fuzzer().run(options)
        }
        guard report.verdict == .holds else { throw ConformanceFailure(report: report) }
        return report
    }
}
