@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The reports for CI and editors: SARIF, JUnit XML and GitHub workflow annotations, each read back.
@Suite struct CIFormatTests {
    /// Runs `authcheck ARGUMENTS` in process with `variables`; returns stdout, stderr and the status.
    static func run(_ arguments: [String], variables: [String: String] = [:], input: String? = nil) -> (stdout: String, stderr: String, status: Int32) {
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(input: input), environment: .testing(variables: variables, fault: nil))
        let status = AuthCheckCommand.run(arguments, context: context)
        return (capture.stdout, capture.stderr, status)
    }

    /// The full path of an end-to-end spec, and the 1-based number of the first line containing every one of `needles`.
    static func line(in spec: String, containing needles: String...) throws -> Int {
        let text = try String(contentsOf: Fixture.url(Fixture.spec(spec)), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { line in needles.allSatisfy { line.contains($0) } }, "\(needles) in \(spec)")
        return index + 1
    }

    // MARK: SARIF

    @Test func sarifHasWhatSARIF210RequiresAndPointsAtTheLinesToFix() throws {
        // Given a violated spec of each spec property, an invalid spec and one with lint,
        let specs = ["illegal-transition", "unmet-requirement", "deadlock", "no-exit", "terminal-exit", "legacy", "malformed"]
        let output = Self.run(["check", "--format", "sarif"] + specs.map { Fixture.url(Fixture.spec($0)).path })
        #expect(output.status == 2)
        // then the log has SARIF 2.1.0's required properties,
        let log = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] is String)
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "authcheck")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ruleIDs = rules.compactMap { $0["id"] as? String }
        #expect(ruleIDs.count == rules.count && Set(ruleIDs).count == ruleIDs.count)
        #expect(Set(Property.builtIn.map(\.id)).isSubset(of: ruleIDs))
        #expect(rules.allSatisfy { (($0["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false })
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        // each result with a known rule, a message and a located file,
        var found: [String: [(uri: String, line: Int, column: Int, level: String)]] = [:]
        for result in results {
            let ruleID = try #require(result["ruleId"] as? String)
            #expect(ruleIDs.contains(ruleID))
            #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let locations = try #require(result["locations"] as? [[String: Any]])
            #expect(locations.count == 1)
            let physical = try #require(locations[0]["physicalLocation"] as? [String: Any])
            let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
            let region = try #require(physical["region"] as? [String: Any])
            let line = try #require(region["startLine"] as? Int)
            #expect(line >= 1 && (region["startColumn"] as? Int ?? 0) >= 1)
            found[ruleID, default: []].append((uri, line, region["startColumn"] as? Int ?? 0, result["level"] as? String ?? ""))
        }
        // and each at the line to fix, found by searching the spec's text.
        func expect(_ rule: String, _ spec: String, _ needles: String..., level: String = "error") throws {
            let expected = try needles.count == 1 ? Self.line(in: spec, containing: needles[0]) : Self.line(in: spec, containing: needles[0], needles[1])
            let hits = (found[rule] ?? []).filter { $0.uri.hasSuffix("/\(spec).json") }
            #expect(hits.map(\.line) == [expected], "\(rule) in \(spec)")
            #expect(hits.allSatisfy { $0.level == level }, "\(rule) in \(spec)")
            #expect(hits.allSatisfy { $0.uri.hasPrefix("file:///") }, "absolute paths are file URIs")
        }
        try expect("illegal-transition", "illegal-transition", "\"code\":", "\"resend\"")
        try expect("unmet-requirement", "unmet-requirement", "\"authenticated\":", "\"requires\"")
        // The step and its requires share that line: the column tells them apart (the list's `[`).
        let stepLine = try Self.line(in: "unmet-requirement", containing: "\"authenticated\":", "\"requires\"")
        let text = try String(contentsOf: Fixture.url(Fixture.spec("unmet-requirement")), encoding: .utf8).components(separatedBy: "\n")[stepLine - 1]
        let requires = try #require(text.range(of: "\"requires\": "))
        #expect(found["unmet-requirement"]?.first?.column == text[..<requires.upperBound].unicodeScalars.count + 1)
        try expect("deadlock", "deadlock", "\"verifyEmail\":")
        #expect((found["no-exit"] ?? []).map(\.line) == [try Self.line(in: "no-exit", containing: "\"help\":"), try Self.line(in: "no-exit", containing: "\"faq\":           {")])
        try expect("terminal-exit", "terminal-exit", "\"authenticated\":")
        try expect("illegal-transition", "legacy", "\"forgotPassword\": []")
        try expect("unreachable-state", "legacy", "\"legacyLogin\":   {", level: "note")
        #expect((found["dead-transition"] ?? []).map(\.line)
                == [try Self.line(in: "legacy", containing: "\"oldPath\""), try Self.line(in: "legacy", containing: "\"legacyAccepted\",")])
        // An invalid spec's result is at its error's own line: the key after the missing comma.
        try expect("invalid-spec", "malformed", "\"success\"")
    }

    @Test func sarifLintIsANoteUnlessStrictAndSpecPathsAreURIs() throws {
        let spec = Fixture.url(Fixture.spec("legacy")).path
        func levels(_ extra: [String]) throws -> Set<String> {
            let log = try #require(try JSONSerialization.jsonObject(with: Data(Self.run(["check", "--format", "sarif"] + extra + [spec]).stdout.utf8)) as? [String: Any])
            let results = (log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]] ?? []
            return Set(results.filter { ($0["ruleId"] as? String) == "unreachable-state" }.compactMap { $0["level"] as? String })
        }
        #expect(try levels([]) == ["note"])
        #expect(try levels(["--strict"]) == ["warning"])
        #expect(SARIFRenderer.uri("Specs/a b.json") == "Specs/a%20b.json")
        #expect(SARIFRenderer.uri("/tmp/é.json") == "file:///tmp/%C3%A9.json")
        #expect(SARIFRenderer.uri(ReportRenderer.standardInputName) == "%3Cstdin%3E")
    }

    // MARK: JUnit

    @Test func junitParsesBackWithTheRightCounts() throws {
        // Given one spec that holds, one violated, one invalid, and one property left out,
        let specs = [Fixture.emailFirst, Fixture.spec("unmet-requirement"), Fixture.spec("malformed")].map { Fixture.url($0).path }
        let output = Self.run(["check", "--format", "junit", "--property", "unmet-requirement,deadlock,no-exit,terminal-exit,illegal-transition,undo-mismatch,divergence"] + specs)
        #expect(output.status == 2)
        // when the XML is parsed back,
        let document = try XMLDocument(data: Data(output.stdout.utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        // then there is a suite per spec and a case per property (and lint), an error for the invalid spec,
        #expect(suites.count == 3)
        #expect(suites.map { $0.elements(forName: "testcase").count } == [9, 9, 1])
        #expect(root.attribute(forName: "tests")?.stringValue == "19")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped")?.stringValue == "2")
        let failures = suites[1].elements(forName: "testcase").filter { !$0.elements(forName: "failure").isEmpty }
        #expect(failures.map { $0.attribute(forName: "name")?.stringValue } == ["unmet-requirement"])
        // the counterexample in the failure's body,
        let body = failures.first?.elements(forName: "failure").first?.stringValue ?? ""
        #expect(body.contains("✗  2. rememberedDevice  → authenticated  +email   ← unmet-requirement"))
        let error = suites[2].elements(forName: "testcase").first?.elements(forName: "error").first
        #expect(error?.attribute(forName: "message")?.stringValue?.contains("found '\"'") == true, "quotes escaped and read back")
    }

    @Test func junitEscapesWhatXMLCannotHoldAsIs() throws {
        // Given a report whose names and message hold markup, quotes, newlines and a control character,
        let nasty = "a<b>&\"c'\n\u{1B}[31md"
        let violation = Violation(property: .deadlock, state: "s<1>", message: nasty, path: [PathStep(event: nil, state: "s<1>", data: [])])
        var report = CheckReport.invalid(spec: "odd & \"spec\".json", error: InvalidSpecError(issues: [SpecIssue(path: "$", message: "-")]),
                                         options: CheckOptions())
        report.verdict = .violated
        report.error = nil
        report.violations = [violation]
        // when the XML is parsed back,
        let document = try XMLDocument(data: Data(JUnitRenderer.render([report]).utf8))
        let suite = try #require(document.rootElement()?.elements(forName: "testsuite").first)
        // then every value reads back as written, the control character as U+FFFD.
        #expect(suite.attribute(forName: "name")?.stringValue == "odd & \"spec\".json")
        let failure = suite.elements(forName: "testcase").first { $0.attribute(forName: "name")?.stringValue == "deadlock" }?.elements(forName: "failure").first
        #expect(failure?.attribute(forName: "message")?.stringValue == "a<b>&\"c'\n\u{FFFD}[31md")
        #expect(failure?.stringValue?.contains("deadlock at s<1>") == true)
    }

    // MARK: GitHub annotations

    @Test func githubAnnotationsOnlyUnderGitHubActions() throws {
        let spec = Fixture.spec("illegal-transition")
        let line = try Self.line(in: "illegal-transition", containing: "\"code\":", "\"resend\"")
        let annotated = Self.run(["check", spec], variables: ["GITHUB_ACTIONS": "true"])
        #expect(annotated.status == 1)
        let commands = annotated.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(commands.count == 1)
        #expect(commands.first?.hasPrefix("::error file=\(spec),line=\(line),col=") == true)
        #expect(commands.first?.contains(",title=illegal-transition::code emits resend, but the table has no transition from code on resend%0Acounterexample: start --begin--> code --resend--> (no transition from code)%0Areplay: ") == true)
        // With a document on stdout, the commands go to stderr so the document stays valid.
        let json = Self.run(["check", "--format", "json", spec], variables: ["GITHUB_ACTIONS": "true"])
        #expect(!json.stdout.contains("::error"))
        #expect(json.stderr.contains("::error file="))
        // Lint is a warning; nothing is annotated outside GitHub Actions.
        #expect(Self.run(["check", Fixture.spec("legacy")], variables: ["GITHUB_ACTIONS": "true"]).stdout.contains("::warning file="))
        #expect(!Self.run(["check", spec], variables: ["GITHUB_ACTIONS": "false"]).stdout.contains("::"))
        #expect(!Self.run(["check", spec]).stdout.contains("::"))
    }

    @Test func githubAnnotationValuesAreEscapedAsTheRunnerReadsThem() {
        #expect(WorkflowAnnotations.escapedData("100% sure:\r\nyes, a,b") == "100%25 sure:%0D%0Ayes, a,b")
        #expect(WorkflowAnnotations.escapedProperty("Specs/a:b,c%.json\n") == "Specs/a%3Ab%2Cc%25.json%0A")
        let finding = Finding(ruleID: "deadlock", level: .error, message: "m", file: "a.json", location: nil)
        #expect(WorkflowAnnotations.line(finding) == "::error file=a.json,title=deadlock::m")
        let fromInput = Finding(ruleID: "deadlock", level: .error, message: "m", file: ReportRenderer.standardInputName, location: nil)
        #expect(WorkflowAnnotations.line(fromInput) == "::error title=deadlock::m", "standard input is no file to annotate")
    }
}
