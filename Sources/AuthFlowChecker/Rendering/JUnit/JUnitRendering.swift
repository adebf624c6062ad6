import AuthFlow
import Foundation

/// Renders check reports as JUnit XML, the test report CI servers show as a list of passed and failed tests.
///
/// One `<testsuite>` per spec, named by its path, with one `<testcase>` per property: passed, a
/// `<failure>` whose body is every counterexample of that property as the text report prints it,
/// or `<skipped>` when the property was not checked (`--property`) or a limit stopped the run
/// before it was decided. A `lint` case fails only under `--strict`. An invalid spec is a suite
/// of one case, `invalid-spec`, with an `<error>` listing every problem.
///
/// ```swift
/// let xml = JUnitRenderer.render([report])
/// ```
package enum JUnitRenderer {
    /// The JUnit XML document for `reports`.
    /// - Parameter checked: the properties the reports were checked for; `nil` for all.
    package static func render(_ reports: [CheckReport], checked: Set<Property>? = nil) -> String {
        let suites = reports.map { suite($0, checked: checked) }
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        let total = suites.reduce(into: Counts()) { $0.add($1.counts) }
        lines.append("<testsuites name=\"authcheck\"\(total.attributes) time=\"\(seconds(reports.map(\.stats.seconds).reduce(0, +)))\">")
        for suite in suites { lines += suite.lines.map { "  " + $0 } }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n")
    }

    /// Test, failure, error and skipped counts.
    struct Counts {
        var tests = 0, failures = 0, errors = 0, skipped = 0

        mutating func add(_ other: Counts) {
            tests += other.tests
            failures += other.failures
            errors += other.errors
            skipped += other.skipped
        }

        var attributes: String {
            " tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
        }
    }

    /// One spec's suite: its lines and its counts.
    static func suite(_ report: CheckReport, checked: Set<Property>?) -> (lines: [String], counts: Counts) {
        var counts = Counts()
        var cases: [String] = []
        let name = attribute(report.spec)
        func testCase(_ id: String, _ outcome: String?) {
            counts.tests += 1
            let open = "<testcase name=\"\(attribute(id))\" classname=\"\(name)\" time=\"0.000\""
            guard let outcome else { return cases.append(open + "/>") }
            cases += [open + ">", "  " + outcome, "</testcase>"]
        }
        if let error = report.error {
            counts.errors += 1
            let first = error.issues.first.map { "\($0)" } ?? "invalid spec"
            testCase("invalid-spec", "<error message=\"\(attribute(first))\" type=\"invalid-spec\">\(text(error.issues.map(\.description).joined(separator: "\n")))</error>")
        } else {
            for property in report.properties {
                let violations = report.violations.filter { $0.property == property }
                if let first = violations.first {
                    counts.failures += 1
                    let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
                    // Each failure is read on its own: the legend heads its counterexamples.
                    let legend = CounterexampleRenderer.needsLegend(violations) ? [CounterexampleRenderer.legend] : []
                    let body = (legend + violations.enumerated().map { i, violation in
                        CounterexampleRenderer.render(violation, number: i + 1, replay: ReportRenderer.replayCommand(for: violation, in: report),
                                                      secrets: report.secrets)
                    }).joined(separator: "\n\n")
                    testCase(property.id, "<failure message=\"\(attribute(first.message + more))\" type=\"\(property.id)\">\(text(body))</failure>")
                } else if !(checked?.contains(property) ?? true) {
                    counts.skipped += 1
                    testCase(property.id, "<skipped message=\"not checked (--property)\"/>")
                } else if let stop = report.stoppedBy {
                    counts.skipped += 1
                    testCase(property.id, "<skipped message=\"\(attribute("incomplete: \(stop) before the check was complete"))\"/>")
                } else {
                    testCase(property.id, nil)
                }
            }
            let lint = report.lint.lines
            if report.strict && !lint.isEmpty {
                counts.failures += 1
                testCase("lint", "<failure message=\"lint findings under --strict\" type=\"lint\">\(text(lint.joined(separator: "\n")))</failure>")
            } else if !lint.isEmpty {
                testCase("lint", "<system-out>\(text(lint.joined(separator: "\n")))</system-out>")
            } else {
                testCase("lint", nil)
            }
        }
        var lines = ["<testsuite name=\"\(name)\"\(counts.attributes) time=\"\(seconds(report.stats.seconds))\">"]
        lines += cases.map { "  " + $0 }
        if !report.warnings.isEmpty {
            lines.append("  <system-out>\(text(report.warnings.map { "warning: \($0)" }.joined(separator: "\n")))</system-out>")
        }
        lines.append("</testsuite>")
        return (lines, counts)
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// `text` as XML character data: `&`, `<` and `>` escaped, and every character XML 1.0
    /// cannot hold (control characters other than tab, line feed and carriage return,
    /// U+FFFE, U+FFFF) replaced by U+FFFD.
    package static func text(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result.unicodeScalars.append("\u{FFFD}")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` as a double-quoted XML attribute value: as ``text(_:)``, with `"` escaped and tab,
    /// line feed and carriage return as character references, so attribute normalisation keeps them.
    package static func attribute(_ value: String) -> String {
        var result = ""
        for scalar in text(value).unicodeScalars {
            switch scalar {
            case "\"": result += "&quot;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
