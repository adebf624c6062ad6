@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The HTML report: well-formed, self-contained, every state, row and violation in it, and a layout that uncrosses edges.
@Suite struct CoverageHTMLTests {
    static let specs = Fixture.realSpecs + ["illegal-transition", "unmet-requirement", "deadlock", "no-exit", "secrets",
                                            "legacy", "odd-names", "siblings"].map(Fixture.spec)
        // The team's own rules: a violated reachable has no state and no path, and must not break the page.
        + ["mfa-skip", "lockout-variant", "password-kept", "help-screens"].map { "Tests/AuthFlowCheckerTests/Fixtures/version2/broken/\($0).json" }

    /// Runs `authcheck ARGUMENTS` in process; returns stdout and the status.
    static func run(_ arguments: [String], fault: TestFault? = nil) -> (stdout: String, status: Int32) {
        let capture = CapturedOutput()
        let context = CommandContext(console: capture.console(input: nil), environment: .testing(variables: [:], fault: fault))
        let status = AuthCheckCommand.run(arguments, context: context)
        return (capture.stdout, status)
    }

    /// Every element of a document, parsed as XML: its name and attributes, in document order.
    final class Elements: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var text = ""

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            elements.append((elementName, attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        /// The parsed elements, or `nil` (with the parser's error recorded) when `html` is not well-formed.
        static func parse(_ html: String) -> Elements? {
            let parser = XMLParser(data: Data(html.utf8))
            let elements = Elements()
            parser.delegate = elements
            guard parser.parse() else {
                Issue.record("not well-formed at line \(parser.lineNumber): \(String(describing: parser.parserError))")
                return nil
            }
            return elements
        }

        func withAttribute(_ name: String) -> [[String: String]] { elements.map(\.attributes).filter { $0[name] != nil } }
    }

    @Test(arguments: specs)
    func coverageHoldsEveryStateAndRowAndParses(_ path: String) throws {
        let model = try SpecLoader.load(file: Fixture.url(path).path)
        let (html, _) = Self.run(["coverage", "--format", "html", Fixture.url(path).path])
        let parsed = try #require(Elements.parse(html))
        let coverage = FlowCoverage.compute(model, depth: CommonOptions.defaultDepth)
        // Given the spec's states and rows, then each has its element, by id and by data attribute.
        let states = Dictionary(parsed.withAttribute("data-state").map { ($0["id"] ?? "", $0["data-state"] ?? "") },
                                uniquingKeysWith: { first, _ in first })
        for (i, state) in coverage.states.enumerated() {
            #expect(states["s1-state-\(i)"] == state.name, "\(path): state \(state.name)")
        }
        let rows = Dictionary(parsed.withAttribute("data-event").map { ($0["id"] ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        for (i, row) in coverage.transitions.enumerated() {
            let element = rows["s1-row-\(i)"]
            #expect(element?["data-from"] == row.from && element?["data-event"] == row.event && element?["data-to"] == row.to,
                    "\(path): row \(row.id)")
            #expect(element?["class"]?.contains("dead") == !row.fired, "\(path): row \(row.id) dead")
        }
        let unreachable = parsed.withAttribute("data-state").filter { $0["class"]?.contains("unreachable") == true }.compactMap { $0["data-state"] }
        #expect(unreachable == coverage.states.filter { !$0.reachable }.map(\.name), "\(path)")
        Self.expectSelfContained(html, path)
    }

    @Test(arguments: specs)
    func checkListsEveryViolationWithItsPath(_ path: String) throws {
        let file = Fixture.url(path).path
        let report = FlowChecker.check(try SpecLoader.load(file: file), source: file)
        let (html, status) = Self.run(["check", "--format", "html", file])
        #expect(status == report.exitCode)
        let parsed = try #require(Elements.parse(html))
        let ids = Set(parsed.elements.compactMap { $0.attributes["id"] })
        let buttons = parsed.withAttribute("data-violation")
        #expect(buttons.map { $0["data-violation"] } == report.violations.indices.map { String($0 + 1) }, "\(path)")
        for (button, violation) in zip(buttons, report.violations) {
            // The path's states and rows are elements of the graph; its steps are listed, one per step.
            let nodes = (button["data-nodes"] ?? "").split(separator: " ").map(String.init)
            #expect(nodes.count == violation.path.count, "\(path): \(violation.site)")
            #expect(nodes.allSatisfy(ids.contains) && (button["data-edges"] ?? "").split(separator: " ").allSatisfy { ids.contains(String($0)) })
            let panel = try #require(button["aria-controls"])
            #expect(ids.contains(panel))
        }
        let steps = parsed.withAttribute("data-step").count
        let expected = report.violations.map { $0.path.count + ($0.property == .illegalTransition ? 1 : 0) }.reduce(0, +)
        #expect(steps == expected, "\(path): steps listed")
        Self.expectSelfContained(html, path)
    }

    @Test func aRuleNoConfigurationSatisfiesIsListedWithoutAPath() throws {
        let file = Fixture.url("Tests/AuthFlowCheckerTests/Fixtures/version2/broken/lockout-variant.json").path
        let (html, status) = Self.run(["check", "--format", "html", file])
        #expect(status == 1)
        let parsed = try #require(Elements.parse(html))
        let button = try #require(parsed.withAttribute("data-violation").first)
        #expect(button["data-nodes"] == "" && button["data-edges"] == "")
        #expect(parsed.text.contains("lockout-reachable — no reachable configuration satisfies it in lockout=off"))
        // Nothing to walk: the panel's step buttons are there for the script, and hidden.
        #expect(parsed.elements.contains { $0.attributes["class"] == "nav" && $0.attributes["hidden"] == "hidden" })
        #expect(parsed.withAttribute("data-step").isEmpty)
    }

    @Test func secretsAreRedactedAsTheTextReportDoes() throws {
        let file = Fixture.url(Fixture.spec("secrets")).path
        let (html, status) = Self.run(["explore", "--format", "html", file], fault: TestFault("undo-refused:otp"))
        #expect(status == 1)
        let parsed = try #require(Elements.parse(html))
        #expect(parsed.text.contains("credentials=<redacted>"))
        #expect(!parsed.withAttribute("data-violation").isEmpty)
    }

    @Test func severalSpecsGetASectionEachAndViolationsNumberedThrough() throws {
        let files = [Fixture.spec("deadlock"), Fixture.spec("malformed"), Fixture.spec("unmet-requirement")].map { Fixture.url($0).path }
        let (html, status) = Self.run(["check", "--format", "html"] + files)
        #expect(status == 2)
        let parsed = try #require(Elements.parse(html))
        #expect(parsed.elements.filter { $0.name == "section" && $0.attributes["class"]?.hasPrefix("spec") == true }.count == 3)
        let numbers = parsed.withAttribute("data-violation").compactMap { $0["data-violation"].flatMap { Int($0) } }
        #expect(numbers == Array(1...numbers.count) && numbers.count >= 2)
        #expect(parsed.elements.contains { $0.attributes["class"] == "spec invalid" })
    }

    /// No URL of any kind, nothing loaded from elsewhere.
    static func expectSelfContained(_ html: String, _ path: String) {
        for needle in ["http://", "https://", "//", "<link", " src=", "@import", "url(http", "@font-face"] {
            #expect(!html.contains(needle), "\(path): the report holds \(needle)")
        }
        #expect(html.hasPrefix("<!DOCTYPE html>"))
    }

    @Test func namesCannotBreakOutOrSmuggleAURL() {
        #expect(HTMLText.escaped("a</script><b x=\"1\">'&") == "a&lt;&#47;script&gt;&lt;b x=&quot;1&quot;&gt;&#39;&amp;")
        #expect(HTMLText.escaped("https://example.com").contains("//") == false)
        #expect(HTMLText.escaped("\u{1}") == "\\x01")
    }

    @Test func layersCountFromTheInitialStateAndSweepsUncrossEdges() {
        // a → c, a → d, b → d, b → c laid out in declaration order crosses; so does x → 1, y → 0.
        let names = ["root", "x", "y", "one", "zero"]
        let edges = [(from: 0, to: 1, label: "a"), (0, 2, "b"), (1, 4, "c"), (2, 3, "d")]
        let layout = FlowLayout(names: names, edges: edges, initial: 0)
        #expect(layout.boxes.map(\.layer) == [0, 1, 1, 2, 2])
        // Given x above y, then zero (x's target) ends above one (y's target): no crossing.
        #expect(layout.boxes[1].position < layout.boxes[2].position)
        #expect(layout.boxes[4].position < layout.boxes[3].position)
        #expect(FlowLayout(names: names, edges: edges, initial: 0) == layout, "deterministic")
        // A state no row reaches starts its own layers; the initial one need not come first.
        let apart = FlowLayout(names: ["orphan", "start", "next"], edges: [(1, 2, "go")], initial: 1)
        #expect(apart.boxes.map(\.layer) == [0, 0, 1])
        // Terminal states move to a last column of their own, even when a row reaches them early.
        let sunk = FlowLayout(names: ["start", "cancelled", "middle", "done"], edges: [(0, 1, "x"), (0, 2, "y"), (2, 3, "z"), (2, 1, "x")],
                              initial: 0, sinks: [1, 3])
        #expect(sunk.boxes.map(\.layer) == [0, 2, 1, 2])
    }
}

/// A counterexample whose path needs a back (section 5's server-side keys): the report shows the back as a step of its own.
@Suite struct CoverageHTMLBackStepTests {
    @Test func aBackInTheCounterexampleIsAStepOnTheScreenItLandsOnWithNoRow() throws {
        let path = Fixture.url("Tests/SchemaSync/Fixtures/valid/2-section5-history.json").path
        let (html, status) = CoverageHTMLTests.run(["check", "--format", "html", path])
        #expect(status == 1)
        let parsed = try #require(CoverageHTMLTests.Elements.parse(html))
        let steps = parsed.elements.filter { $0.attributes["class"]?.hasPrefix("step") == true && $0.attributes["data-step"] != nil }
            .map(\.attributes)
        // go, wrong, wrong, wrong (locked), back, ok: six steps after the start.
        #expect(steps.count == 7)
        let back = try #require(steps.first { $0["data-step"] == "5" })
        #expect(back["data-edge"] == nil, "a back follows no row of the table")
        let password = try #require(steps.first { $0["data-step"] == "1" })["data-node"]
        #expect(back["data-node"] == password, "back lands on the password screen")
        #expect(html.contains("<span class=\"event\">back</span> → <span class=\"state\">password</span>"))
        // The violation's highlighted path walks the back too: seven nodes, five rows.
        let violation = try #require(parsed.withAttribute("data-violation").first)
        #expect(violation["data-nodes"]?.split(separator: " ").count == 7)
        #expect(violation["data-edges"]?.split(separator: " ").count == 5)
    }
}
