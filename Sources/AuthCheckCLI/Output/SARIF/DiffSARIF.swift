import AuthFlow
import AuthFlowChecker

/// Renders the violations only the new version of a flow has as SARIF, through the checker's own ``SARIFRenderer``.
///
/// Each result is located in the new file, so code scanning marks the lines the change broke;
/// a limit that stopped the comparison is a notification, as for `check`.
enum DiffSARIF {
    static func render(_ report: FlowDiffReport, new: String, model: FlowModel) -> String {
        SARIFRenderer.render([report.newViolationsReport(spec: new, model: model)], toolVersion: AuthCheckCommand.version)
    }
}
