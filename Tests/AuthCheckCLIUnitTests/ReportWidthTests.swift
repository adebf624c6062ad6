@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
import Testing

/// No line of a counterexample report runs past 120 columns (#29 item 2), for every spec in `Specs/` and every fixture
/// the check finds violated: what `check`, `fuzz` and `replay` print, as a person at the package root reads it.
@Suite struct ReportWidthTests {
    /// The folders of fixtures, relative to the package root.
    static let folders = [
        "Specs", "Tests/AuthFlowCheckerTests/Fixtures/broken", "Tests/AuthFlowCheckerTests/Fixtures/version2",
        "Tests/AuthFlowCheckerTests/Fixtures/version2/broken", "Tests/AuthFlowCheckerTests/Fixtures/assurance",
        "Tests/AuthCheckEndToEndTests/Expected/specs", "Examples/assurance", "Examples/tutorial", "Examples/PluginSample/Broken",
    ]

    /// Every spec in `Specs/`, and every fixture a plain check finds violated, relative to the package root.
    static var specs: [String] {
        folders.flatMap { folder -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixture.url(folder).path)) ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
        }.filter { $0.hasPrefix("Specs/") || FlowChecker.check(file: Fixture.url($0).path, options: CheckOptions(limits: CheckLimits(depth: 6))).verdict == .violated }
    }

    /// The lines of `text` wider than 120 columns, with the package root taken out of every path, as run from the root.
    static func wide(_ text: String) -> [String] {
        text.replacingOccurrences(of: Fixture.packageRoot.path + "/", with: "").components(separatedBy: "\n")
            .filter { TerminalText.width($0) > CounterexampleRenderer.lineWidth }
    }

    @Test func theFixturesIncludeViolatedOnes() {
        let specs = Self.specs
        #expect(specs.count > 30, "\(specs)")
        #expect(specs.contains("Tests/AuthFlowCheckerTests/Fixtures/broken/mfa-bypass.json"))
    }

    @Test(arguments: specs)
    func everyLineOfCheckFuzzAndReplayFitsInOneHundredTwentyColumns(_ spec: String) throws {
        let path = Fixture.url(spec).path
        let check = CIFormatTests.run(["check", path, "--depth", "6"])
        #expect(Self.wide(check.stdout).isEmpty, "check \(spec): \(Self.wide(check.stdout))")
        let fuzz = CIFormatTests.run(["fuzz", path, "--seed", "1", "--runs", "100"])
        #expect(Self.wide(fuzz.stdout).isEmpty, "fuzz \(spec): \(Self.wide(fuzz.stdout))")
        // Each violation's trail, replayed.
        let trails = FileManager.default.temporaryDirectory.appendingPathComponent("width-trails-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: trails) }
        _ = CIFormatTests.run(["explore", path, "--depth", "6", "--trail", trails.path])
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: trails.path)) ?? []).sorted().map { trails.appendingPathComponent($0).path }
        guard !files.isEmpty else { return }
        let replay = CIFormatTests.run(["replay", path] + files)
        let wide = Self.wide(replay.stdout.replacingOccurrences(of: trails.path + "/", with: ""))
        #expect(wide.isEmpty, "replay \(spec): \(wide)")
    }
}
