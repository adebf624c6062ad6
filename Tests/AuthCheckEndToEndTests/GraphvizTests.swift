import AuthCheckTestSupport
import Foundation
import Testing

/// `authcheck coverage --format dot SPEC | dot -Tsvg` renders every spec without a warning.
///
/// Needs Graphviz (`apt-get install graphviz`); without `dot` on the PATH the test says so and passes.
@Suite struct GraphvizTests {
    /// The `dot` executable, if installed.
    static let dot: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var specs: [String] {
        let root = Fixture.url("Specs").path
        let real = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasSuffix(".json") }.sorted().map { "Specs/\($0)" }
        return real + ["legacy", "odd-names", "no-exit", "terminal-exit", "illegal-transition"].map(Fixture.spec)
    }

    @Test(arguments: specs)
    func coverageGraphRendersWithoutWarnings(_ spec: String) throws {
        guard let dot = Self.dot else {
            print("◇ skipped: Graphviz 'dot' is not installed, so \(spec)'s coverage graph was not rendered (apt-get install graphviz)")
            return
        }
        let graph = try AuthCheckBinary.shipped.run(["coverage", "--format", "dot", spec])
        #expect(graph.stderr.isEmpty)
        #expect(graph.stdout.hasPrefix("digraph "))
        let rendered = AuthCheckBinary.run(executable: dot, arguments: ["-Tsvg"], environment: [:], stdin: graph.stdout)
        #expect(rendered.status == 0, "dot failed on \(spec): \(rendered.stderr)")
        #expect(rendered.stderr.isEmpty, "dot warned on \(spec): \(rendered.stderr)")
        #expect(rendered.stdout.contains("<svg"))
    }
}
