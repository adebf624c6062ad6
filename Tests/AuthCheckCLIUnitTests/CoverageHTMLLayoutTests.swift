@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The HTML report's graph as drawn: labels off each other and the states, everything inside the
/// viewBox, reset rows marked. An estimate of the font's widths; `.ci/html-browser` measures the same
/// in a browser.
@Suite struct CoverageHTMLLayoutTests {
    static let specs = Fixture.realSpecs
        + ["1-email-password", "2-mfa", "3-lockout", "4-sign-out", "5-try-again", "sign-in"].map { "Examples/tutorial/\($0).json" }

    /// A graph's viewBox, its state boxes and its edges' labels, read from the document.
    final class Graph: NSObject, XMLParserDelegate {
        struct Label {
            var x: Double
            var baseline: Double
            var text = ""
            var edge: [String: String]
        }

        var viewBox: [Double] = []
        var boxes: [LabelPlacer.Rect] = []
        var labels: [Label] = []
        var edges: [[String: String]] = []
        var legend: [String] = []
        private var edge: [String: String]?
        private var inLabel = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let number = { (key: String) in Double(attributes[key] ?? "") ?? .nan }
            switch (name, attributes["class"]) {
            case ("svg", "flow"): viewBox = (attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
            case ("rect", "box"): boxes.append(LabelPlacer.Rect(x: number("x"), y: number("y"), width: number("width"), height: number("height")))
            case ("g", let classes?) where classes.split(separator: " ").first == "edge":
                edge = attributes
                edges.append(attributes)
            case ("text", "label"):
                labels.append(Label(x: number("x"), baseline: number("y"), edge: edge ?? [:]))
                inLabel = true
            case ("span", let classes?) where classes.hasPrefix("key "): legend.append(classes)
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { if inLabel { labels[labels.count - 1].text += string } }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" { inLabel = false }
        }

        static func parse(_ html: String) throws -> Graph {
            let parser = XMLParser(data: Data(html.utf8))
            let graph = Graph()
            parser.delegate = graph
            #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
            return graph
        }
    }

    static func graph(_ path: String) throws -> Graph {
        let (html, _) = CoverageHTMLTests.run(["coverage", "--format", "html", Fixture.url(path).path])
        return try Graph.parse(html)
    }

    /// A label's box as the 10.5 px font draws it (about 5.9 px a character, measured in Chromium).
    static func box(_ label: Graph.Label) -> LabelPlacer.Rect {
        let width = Double(label.text.count) * 5.9
        return LabelPlacer.Rect(x: label.x - width / 2, y: label.baseline - 10, width: width, height: 12)
    }

    /// Whether `inner` lies inside `outer`, to half a pixel (the document rounds to tenths).
    static func holds(_ outer: LabelPlacer.Rect, _ inner: LabelPlacer.Rect) -> Bool {
        inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.right <= outer.right + 0.5 && inner.bottom <= outer.bottom + 0.5
    }

    @Test(arguments: specs)
    func labelsKeepOffEachOtherAndTheStatesInsideTheViewBox(_ path: String) throws {
        let graph = try Self.graph(path)
        try #require(graph.viewBox.count == 4 && !graph.labels.isEmpty, "\(path): no graph")
        let view = LabelPlacer.Rect(x: graph.viewBox[0], y: graph.viewBox[1], width: graph.viewBox[2], height: graph.viewBox[3])
        let labels = graph.labels.map(Self.box)
        for (i, label) in labels.enumerated() {
            for j in labels.indices where j > i {
                #expect(label.overlap(labels[j]) < 1, "\(path): '\(graph.labels[i].text)' overlaps '\(graph.labels[j].text)'")
            }
            for box in graph.boxes {
                #expect(label.overlap(box) < 1, "\(path): '\(graph.labels[i].text)' overlaps the state at \(box)")
            }
            #expect(Self.holds(view, label), "\(path): '\(graph.labels[i].text)' \(label) outside the viewBox \(view)")
        }
        for box in graph.boxes { #expect(Self.holds(view, box), "\(path): a state \(box) outside the viewBox \(view)") }
    }

    @Test(arguments: specs)
    func resetRowsAreDrawnAsResetsNotAsRowsThatNeverCount(_ path: String) throws {
        let model = try SpecLoader.load(file: Fixture.url(path).path)
        let coverage = FlowCoverage.compute(model, depth: CommonOptions.defaultDepth)
        let graph = try Self.graph(path)
        let resets = coverage.transitions.filter(\.reset)
        for row in coverage.transitions {
            let label = try #require(graph.labels.first { $0.edge["data-from"] == row.from && $0.edge["data-event"] == row.event && $0.edge["data-to"] == row.to })
            let classes = (label.edge["class"] ?? "").split(separator: " ")
            #expect(classes.contains("reset") == row.reset, "\(path): \(row.id)")
            if row.reset {
                #expect(label.text == "⟲ \(row.event)", "\(path): \(row.id) reads '\(label.text)'")
            }
        }
        #expect(graph.legend.contains("key k-reset") == !resets.isEmpty, "\(path): the legend")
    }

    @Test func labelsPlacedOnOnePointMoveApartAndStayDeterministic() {
        var placer = LabelPlacer()
        placer.block(LabelPlacer.Rect(x: 0, y: 0, width: 100, height: 34))
        let candidates = EdgeCurve(points: [(0, 50), (50, 50), (100, 50), (150, 50)]).labelCandidates()
        let first = placer.place(width: 60, candidates: candidates)
        let second = placer.place(width: 60, candidates: candidates)
        #expect(first.overlap(second) == 0 && first.overlap(LabelPlacer.Rect(x: 0, y: 0, width: 100, height: 34)) == 0)
        var again = LabelPlacer()
        again.block(LabelPlacer.Rect(x: 0, y: 0, width: 100, height: 34))
        #expect(again.place(width: 60, candidates: candidates) == first)
    }
}
