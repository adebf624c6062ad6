@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Every report treats a spec's own properties like the built-in ones: JSON, SARIF, JUnit, the explore
/// table, coverage and `--property`; a violated `reachable`, which has no state and no path, breaks none of them.
@Suite struct UserPropertyReportTests {
    static func fixture(_ name: String) -> String {
        Fixture.url("Tests/AuthFlowCheckerTests/Fixtures/version2/broken/\(name).json").path
    }

    static let mfaSkip = fixture("mfa-skip")
    static let lockoutVariant = fixture("lockout-variant")

    static func run(_ arguments: [String]) -> (stdout: String, stderr: String, status: Int32) {
        CIFormatTests.run(arguments)
    }

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// The 1-based line of `needle` in `file`, and the column its line's first non-space character is at.
    static func entry(_ needle: String, in file: String) throws -> (line: Int, column: Int) {
        let lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(needle) }, "\(needle) in \(file)")
        return (index + 1, lines[index].prefix { $0 == " " }.count + 1)
    }

    // MARK: JSON

    @Test func jsonNamesTheRuleAndAReachableHasNoStateNoPathAndItsVariants() throws {
        let output = Self.run(["check", "--format", "json", Self.mfaSkip, Self.lockoutVariant])
        #expect(output.status == 1)
        let reports = try #require(try Self.json(output.stdout) as? [[String: Any]])
        let never = try #require((reports[0]["violations"] as? [[String: Any]])?.first)
        #expect(never["property"] as? String == "mfa-before-session")
        #expect(never["state"] as? String == "home")
        #expect(never["event"] is NSNull)
        #expect((never["variant"] as? [String: String]) == [:])
        #expect(never["variants"] == nil)
        let path = try #require(never["path"] as? [[String: Any]])
        #expect(path.map { $0["event"] as? String ?? "(start)" } == ["(start)", "begin", "submit", "skip"])
        #expect(path.map { $0["state"] as? String } == ["start", "signIn", "mfa", "home"])
        let reachable = try #require((reports[1]["violations"] as? [[String: Any]])?.first)
        #expect(reachable["property"] as? String == "lockout-reachable")
        #expect(reachable["state"] is NSNull)
        #expect((reachable["path"] as? [Any])?.isEmpty == true)
        #expect(reachable["variant"] == nil, "no one path, so no one variant")
        #expect((reachable["variants"] as? [[String: String]]) == [["lockout": "off"]])
    }

    // MARK: SARIF

    @Test func sarifHasARulePerOwnPropertyAndPlacesEachResultWhereAPersonFixesIt() throws {
        let output = Self.run(["check", "--format", "sarif", Self.mfaSkip, Self.lockoutVariant, Self.mfaSkip])
        #expect(output.status == 1)
        let log = try #require(try Self.json(output.stdout) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        // One rule per id, whichever specs state it, after the built-in rules, with the team's words.
        #expect(Array(ids.suffix(2)) == ["mfa-before-session", "lockout-reachable"])
        #expect(Set(ids).count == ids.count)
        let texts = rules.suffix(2).map { ($0["shortDescription"] as? [String: Any])?["text"] as? String }
        #expect(texts == ["a challenged sign-in ends signed in only after the code was accepted", "repeated wrong passwords can lock the account"])
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        for (result, (file, id)) in zip(results, [(Self.mfaSkip, "mfa-before-session"), (Self.lockoutVariant, "lockout-reachable"),
                                                  (Self.mfaSkip, "mfa-before-session")]) {
            #expect(result["ruleId"] as? String == id)
            #expect(result["ruleIndex"] as? Int == ids.firstIndex(of: id))
            #expect(result["level"] as? String == "error")
            // A rule a path breaks: at the row whose move broke it (mfa --skip--> home), the line a person edits, as the
            // model locates it. A reachable rule no path shows: at its entry in properties.
            let region = try #require((((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"]) as? [String: Any])
            let model = try SpecLoader.load(file: file)
            if id == "mfa-before-session" {
                let row = try #require(model.location(ofRowFrom: "mfa", on: "skip", to: "home"))
                #expect(row.line == (try Self.entry("\"from\": \"mfa\", \"on\": \"skip\"", in: file)).line)
                #expect(region["startLine"] as? Int == row.line && region["startColumn"] as? Int == row.column, "\(id)")
            } else {
                let entry = try Self.entry("\"id\": \"\(id)\"", in: file)
                #expect(region["startLine"] as? Int == entry.line && region["startColumn"] as? Int == entry.column, "\(id)")
                #expect(model.location(ofProperty: id)?.line == entry.line)
            }
        }
        let message = ((results[0]["message"] as? [String: Any])?["text"] as? String) ?? ""
        #expect(message.contains("counterexample: start --begin--> signIn --submit--> mfa --skip--> home"))
        let unsatisfied = ((results[1]["message"] as? [String: Any])?["text"] as? String) ?? ""
        #expect(!unsatisfied.contains("counterexample:") && unsatisfied.contains("replay: authcheck check "))
    }

    // MARK: JUnit

    @Test func junitHasATestcasePerOwnProperty() throws {
        let output = Self.run(["check", "--format", "junit", Self.mfaSkip, Self.lockoutVariant])
        #expect(output.status == 1)
        let root = try #require(try XMLDocument(data: Data(output.stdout.utf8)).rootElement())
        let suites = root.elements(forName: "testsuite")
        let names = suites.map { $0.elements(forName: "testcase").compactMap { $0.attribute(forName: "name")?.stringValue } }
        #expect(names == [Property.builtIn.map(\.id) + ["mfa-before-session", "lint"], Property.builtIn.map(\.id) + ["lockout-reachable", "lint"]])
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        let failures = suites.flatMap { $0.elements(forName: "testcase") }.compactMap { $0.elements(forName: "failure").first }
        #expect(failures.map { $0.attribute(forName: "type")?.stringValue } == ["mfa-before-session", "lockout-reachable"])
        #expect(failures[0].stringValue?.contains("✗  3. skip     → home    +session   ← mfa-before-session\n"
                                                  + "                          {mfaChallenge, session}") == true)
        #expect(failures[0].stringValue?.contains("rule: a challenged sign-in ends signed in only after the code was accepted") == true)
        #expect(failures[1].stringValue?.contains("1) lockout-reachable — no reachable configuration satisfies it") == true)
        // Selected alone, the built-in properties are skipped and the spec's own still fails.
        let selected = Self.run(["check", "--format", "junit", "--property", "mfa-before-session", Self.mfaSkip])
        let suite = try #require(try XMLDocument(data: Data(selected.stdout.utf8)).rootElement()?.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "skipped")?.stringValue == "8" && suite.attribute(forName: "failures")?.stringValue == "1")
    }

    // MARK: explore, coverage, --property

    @Test func theExploreTableListsOwnPropertiesAndAReachableWithoutASite() throws {
        let report = FlowChecker.check(file: Self.lockoutVariant)
        let results = ExploreCommand.propertyResults(report, requested: nil)
        #expect(results.map(\.property.id) == Property.builtIn.map(\.id) + ["lockout-reachable"])
        #expect(results.last.map { "\($0.status.rawValue) \($0.sites)" } == "violated []")
        let table = ExploreCommand.propertyTable(report, requested: nil, style: .plain)
        #expect(table.hasSuffix("  lockout-reachable   violated: no reachable configuration satisfies it in lockout=off"))
        let never = ExploreCommand.propertyResults(FlowChecker.check(file: Self.mfaSkip), requested: [Property(id: "mfa-before-session")])
        #expect(never.map { "\($0.property.id) \($0.status.rawValue) \($0.sites)" }.suffix(2)
                    == ["passcode not checked []", "mfa-before-session violated [\"home\"]"])
    }

    @Test func coverageCountsAViolationWithoutAStateInTheVerdictOnly() throws {
        let output = Self.run(["coverage", Self.lockoutVariant])
        #expect(output.status == 1)
        #expect(output.stdout.contains("verdict: violated: 1 violation"))
        // No state row carries it: it has no state.
        let rows = output.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("  ") && $0.contains(" yes ") }
        #expect(!rows.isEmpty && rows.allSatisfy { !$0.contains("lockout-reachable") })
        let json = try #require(try Self.json(Self.run(["coverage", "--format", "json", Self.lockoutVariant]).stdout) as? [String: Any])
        #expect(json["verdict"] as? String == "violated")
        // The never is placed at its state, like a built-in property.
        #expect(Self.run(["coverage", Self.mfaSkip]).stdout.contains("  home       success  yes                     2       2  mfa-before-session"))
    }

    @Test func propertySelectsAnOwnRuleAndRefusesOneTheSpecDoesNotState() throws {
        let selected = Self.run(["check", "--format", "json", "--property", "lockout-reachable", Self.lockoutVariant])
        #expect(selected.status == 1)
        let report = try #require(try Self.json(selected.stdout) as? [String: Any])
        #expect((report["violations"] as? [[String: Any]])?.map { $0["property"] as? String } == ["lockout-reachable"])
        // Built-in properties alone: the spec's own rule is not checked, and the flow holds.
        #expect(Self.run(["check", "--property", "deadlock,no-exit", Self.lockoutVariant]).status == 0)
        // An id no built-in property has and the spec does not state is a problem of the spec's properties.
        let unknown = Self.run(["check", "--property", "lockout-reachabel", Self.lockoutVariant])
        #expect(unknown.status == 2)
        #expect(unknown.stdout.contains("$.properties: --property lockout-reachabel: no built-in property or property of this spec has that id; "
                                        + "did you mean 'lockout-reachable'? (the spec states lockout-reachable)"), "\(unknown.stdout)")
    }
}
