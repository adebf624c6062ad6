@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
import Testing

/// Section 6 in the HTML report: the ways in as a table, weakest first, each row's path a button that
/// highlights it on the graph as a violation's button does.
@Suite struct CoverageHTMLWaysInTests {
    static let bypass = Fixture.url("Examples/assurance/recovery-link.json").path
    static let fixed = Fixture.url("Examples/assurance/recovery-link-fixed.json").path

    /// The ids of `names`' states in the section `prefix`, from the document's own `data-state` elements.
    static func stateIDs(_ parsed: CoverageHTMLTests.Elements, _ names: [String], prefix: String = "s1") -> String {
        let ids = Dictionary(parsed.withAttribute("data-state").filter { ($0["id"] ?? "").hasPrefix("\(prefix)-") }
            .map { ($0["data-state"] ?? "", $0["id"] ?? "") }, uniquingKeysWith: { first, _ in first })
        return names.map { ids[$0] ?? "?\($0)" }.joined(separator: " ")
    }

    /// The recovery link's flow: home (aal2) has two ways in, the link's newPassword alone (aal1, 4 steps, below
    /// its level) first, then password and code (aal2, 3 steps). Each row is in the table with its level, factors
    /// and length; its button names the states and rows of its path, which are elements of the graph.
    @Test func theWaysInAreATableWeakestFirstEachPathABUtton() throws {
        let (html, status) = CoverageHTMLTests.run(["check", "--format", "html", Self.bypass])
        #expect(status == 1)
        let parsed = try #require(CoverageHTMLTests.Elements.parse(html))
        let ids = Set(parsed.elements.compactMap { $0.attributes["id"] })
        let rows = parsed.elements.filter { $0.name == "tr" && $0.attributes["data-way-row"] != nil }.map(\.attributes)
        #expect(rows.map { $0["class"] } == ["way below", "way"])
        #expect(rows.map { $0["data-level"] } == ["aal1", "aal2"])
        #expect(rows.map { $0["data-factors"] } == ["newPassword", "password totpPassed"])
        let buttons = parsed.withAttribute("data-way")
        #expect(buttons.map { $0["id"] } == ["s1-w1", "s1-w2"])
        #expect(buttons.map { $0["data-way"] } == ["1", "2"])
        #expect(buttons.map { $0["data-nodes"] } == [
            Self.stateIDs(parsed, ["email", "password", "resetSent", "setPassword", "home"]),
            Self.stateIDs(parsed, ["email", "password", "totp", "home"]),
        ])
        for button in buttons {
            let edges = (button["data-edges"] ?? "").split(separator: " ").map(String.init)
            #expect(edges.count == (button["data-nodes"] ?? "").split(separator: " ").count - 1)
            #expect(edges.allSatisfy(ids.contains), "\(edges)")
            #expect(ids.contains(button["aria-controls"] ?? ""))
        }
        // The violations' own steps are counted as before: the ways' steps use their own attribute.
        #expect(parsed.withAttribute("data-step").count == 5)
        #expect(parsed.withAttribute("data-way-step").count == 5 + 4)
        #expect(parsed.text.contains("home (success, asks for aal2): 2 ways in, 1 below its level"))
        // The page's script chooses a way as it chooses a violation (#select=w1 is the hook).
        #expect(html.contains("button.violation, button.way") && html.contains("select=(w?[0-9]+)"))
        CoverageHTMLTests.expectSelfContained(html, Self.bypass)
    }

    /// Two specs: the ways are numbered through the document, as violations are.
    @Test func severalSpecsNumberTheirWaysThrough() throws {
        let (html, _) = CoverageHTMLTests.run(["check", "--format", "html", Self.bypass, Self.fixed])
        let parsed = try #require(CoverageHTMLTests.Elements.parse(html))
        #expect(parsed.withAttribute("data-way").map { $0["id"] } == ["s1-w1", "s1-w2", "s2-w3", "s2-w4"])
        #expect(parsed.elements.filter { $0.attributes["data-way-row"] != nil }.map { $0.attributes["class"] }
                == ["way below", "way", "way", "way"])
    }

    /// A spec that uses no section-6 key has no ways-in section.
    @Test func aSpecWithoutFactorsHasNoWaysIn() throws {
        let (html, _) = CoverageHTMLTests.run(["check", "--format", "html", Fixture.url(Fixture.emailFirst).path])
        let parsed = try #require(CoverageHTMLTests.Elements.parse(html))
        #expect(parsed.withAttribute("data-way").isEmpty)
        #expect(!html.contains("class=\"ways-in\""))
    }
}
