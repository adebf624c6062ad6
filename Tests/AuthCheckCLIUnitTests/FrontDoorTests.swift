import AuthCheckTestSupport
import Foundation
import Testing

/// The README stays a front door (#29 item 1): short, its first command the project's, a tutorial one link away, and every
/// page of `docs/` in the index, so nothing moved out of the README is lost. `.ci/readme-examples` checks its commands.
@Suite struct FrontDoorTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOf: Fixture.url(path), encoding: .utf8)
    }

    @Test func theReadmeIsAtMostThreeHundredLinesAndStartsWithTheTwoCommands() throws {
        let lines = try Self.read("README.md").components(separatedBy: "\n")
        #expect(lines.count <= 300, "README.md has \(lines.count) lines; move detail to docs/")
        #expect(lines.prefix(6).contains { $0.hasPrefix("swift run -c release authcheck check Specs/*.json") })
        #expect(lines.prefix(6).contains { $0.hasPrefix("swift test") })
    }

    @Test func theReadmeSaysWhereTheBinaryIsAndLeadsToTheTutorial() throws {
        let readme = try Self.read("README.md")
        #expect(readme.contains(".build/release/authcheck"))
        #expect(readme.contains("(docs/tutorial.md)"))
        #expect(readme.contains("(docs/README.md)"))
    }

    @Test func everyPageOfDocsIsInTheIndex() throws {
        let index = try Self.read("docs/README.md")
        let pages = try FileManager.default.contentsOfDirectory(atPath: Fixture.url("docs").path)
            .filter { $0.hasSuffix(".md") && $0 != "README.md" }
        #expect(pages.count > 10)
        let missing = pages.filter { !index.contains("(\($0))") }.sorted()
        #expect(missing.isEmpty, "docs/README.md does not list \(missing)")
    }
}
