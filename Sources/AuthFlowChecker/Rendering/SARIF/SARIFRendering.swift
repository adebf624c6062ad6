import AuthFlow

/// Renders check reports as a SARIF 2.1.0 log, the format code-scanning services and editors read.
///
/// One run for the whole invocation: the tool's driver lists one rule per property and per
/// extra rule (``Finding/extraRules``); each ``Finding`` is one result with its rule, level,
/// message and the spec file's line and column (columns count Unicode scalars, as SARIF's
/// `unicodeCodePoints`). Keys are written in a fixed order, so equal reports give equal bytes.
///
/// ```swift
/// let log = SARIFRenderer.render([LocatedReport(report: report, model: model)], toolVersion: "0.1.0")
/// ```
package enum SARIFRenderer {
    /// The schema the log declares.
    package static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    /// The SARIF log for `reports`, pretty-printed.
    /// - Parameters:
    ///   - reports: every spec checked, in order.
    ///   - toolVersion: the `authcheck` version the driver names.
    package static func render(_ reports: [LocatedReport], toolVersion: String) -> String {
        log(reports, toolVersion: toolVersion).rendered(pretty: true)
    }

    /// The rules of the driver, in order: every built-in property, then the extra rules, then the specs' own properties.
    static func rules(_ reports: [LocatedReport]) -> [(id: String, summary: String)] {
        var rules = Property.builtIn.map { ($0.id, $0.summary) } + Finding.extraRules
        var seen = Set(rules.map(\.0))
        // Section 6's property, only when some spec checked has it, so every other log stays as it was.
        if reports.contains(where: { !$0.report.assuranceProperties.isEmpty }), seen.insert(Property.assurance.id).inserted {
            rules.append((Property.assurance.id, Property.assurance.summary))
        }
        for located in reports {
            for property in located.report.userProperties where seen.insert(property.id).inserted { rules.append((property.id, property.summary)) }
        }
        return rules
    }

    package static func log(_ reports: [LocatedReport], toolVersion: String) -> JSON {
        let rules = self.rules(reports)
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let driver: JSON = .object(JSONObject([
            ("name", .string("authcheck")),
            ("version", .string(toolVersion)),
            ("rules", .array(rules.map { rule in
                .object(JSONObject([
                    ("id", .string(rule.id)),
                    ("shortDescription", .object(JSONObject([("text", .string(rule.summary))]))),
                ]))
            })),
        ]))
        let results = reports.flatMap(Finding.findings).map { finding -> JSON in
            var physical: [(String, JSON)] = [("artifactLocation", .object(JSONObject([("uri", .string(uri(finding.file)))])))]
            if let location = finding.location {
                physical.append(("region", .object(JSONObject([
                    ("startLine", .int(location.line)), ("startColumn", .int(location.column)),
                ]))))
            }
            return .object(JSONObject([
                ("ruleId", .string(finding.ruleID)),
                ("ruleIndex", .int(ruleIndex[finding.ruleID] ?? 0)),
                ("level", .string(finding.level.rawValue)),
                ("message", .object(JSONObject([("text", .string(finding.message))]))),
                ("locations", .array([.object(JSONObject([("physicalLocation", .object(JSONObject(physical)))]))])),
            ]))
        }
        // A limit that stopped a run is not a finding about the spec but about the run: a notification.
        let stopped = reports.compactMap { located in
            located.report.stoppedBy.map { stop -> JSON in
                .object(JSONObject([
                    ("level", .string("warning")),
                    ("message", .object(JSONObject([("text", .string("\(located.report.spec): \(stop) before the check was complete"))]))),
                ]))
            }
        }
        var invocation: [(String, JSON)] = [("executionSuccessful", .bool(stopped.isEmpty))]
        if !stopped.isEmpty { invocation.append(("toolExecutionNotifications", .array(stopped))) }
        let run: JSON = .object(JSONObject([
            ("tool", .object(JSONObject([("driver", driver)]))),
            ("invocations", .array([.object(JSONObject(invocation))])),
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .array(results)),
        ]))
        return .object(JSONObject([
            ("$schema", .string(schema)),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ]))
    }

    /// A spec path as a URI reference: relative paths stay relative (to the directory the command
    /// ran in), absolute ones become `file://` URIs, and every byte outside RFC 3986's unreserved
    /// characters and `/` is percent-encoded (`<stdin>` → `%3Cstdin%3E`).
    package static func uri(_ path: String) -> String {
        let encoded = path.utf8.map { byte -> String in
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~/".unicodeScalars.contains(scalar) {
                return String(scalar)
            }
            return "%" + TextScalars.hex(byte, minimumDigits: 2)
        }.joined()
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
