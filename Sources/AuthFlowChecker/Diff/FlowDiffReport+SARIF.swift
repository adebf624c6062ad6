import AuthFlow

extension FlowDiffReport {
    /// The new version's check report cut down to the violations only it has, for ``SARIFRenderer``.
    ///
    /// Spec warnings and lint are left out: a pull request's code scanning should flag what the
    /// change broke, not what was there before. The report keeps the new version's own rules, so
    /// the SARIF driver lists them, and the model, so each result points at its line.
    /// - Parameters:
    ///   - spec: the new version's file as the report names it.
    ///   - model: the new version, loaded with its source locations.
    package func newViolationsReport(spec: String, model: FlowModel) -> LocatedReport {
        let violations = properties.newViolations
        let verdict: Verdict = !violations.isEmpty ? .violated : stoppedBy == nil ? .holds : .incomplete
        let report = CheckReport(spec: spec, name: model.name, verdict: verdict, violations: violations, lint: Lint(),
                                 stats: Stats(depth: properties.checkDepth), stoppedBy: stoppedBy, error: nil, warnings: [], strict: false,
                                 secrets: Set(model.names(of: model.secrets)), userProperties: Property.userProperties(of: model))
        return LocatedReport(report: report, model: model)
    }
}
