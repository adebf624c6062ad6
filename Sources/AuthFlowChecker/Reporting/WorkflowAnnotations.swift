import AuthFlow

/// Renders findings as GitHub Actions workflow commands, which the runner turns into annotations
/// on the spec's lines: `::error file=Specs/a.json,line=12,col=5,title=deadlock::message`.
///
/// Violations and invalid specs are `::error`, lint and spec warnings `::warning`. Values are
/// escaped as the runner reads them back (actions/toolkit's `escapeData` and `escapeProperty`):
/// `%`, CR and LF in the message, and also `:` and `,` in the properties.
package enum WorkflowAnnotations {
    /// One command line per finding of `reports`, in report order.
    package static func lines(_ reports: [LocatedReport]) -> [String] {
        reports.flatMap(Finding.findings).map(line)
    }

    /// The command for one finding; no `file` for standard input, no `line`/`col` without a location.
    package static func line(_ finding: Finding) -> String {
        var properties: [String] = []
        if finding.file != ReportRenderer.standardInputName { properties.append("file=" + escapedProperty(finding.file)) }
        if let location = finding.location {
            properties.append("line=\(location.line)")
            properties.append("col=\(location.column)")
        }
        properties.append("title=" + escapedProperty(finding.ruleID))
        let command = finding.level == .error ? "error" : "warning"
        return "::\(command) \(properties.joined(separator: ","))::\(escapedData(finding.message))"
    }

    /// A message as the runner reads it: `%` → `%25`, CR → `%0D`, LF → `%0A`.
    package static func escapedData(_ text: String) -> String {
        text.replacingAll(["%": "%25", "\r": "%0D", "\n": "%0A"])
    }

    /// A property value as the runner reads it: as ``escapedData(_:)``, and `:` → `%3A`, `,` → `%2C`.
    package static func escapedProperty(_ text: String) -> String {
        text.replacingAll(["%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"])
    }
}

extension String {
    /// The text with each scalar that is a key of `table` replaced by its value, in one pass.
    fileprivate func replacingAll(_ table: [Unicode.Scalar: String]) -> String {
        var result = ""
        for scalar in unicodeScalars {
            if let replacement = table[scalar] { result += replacement } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
