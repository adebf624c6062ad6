import AuthCheckTestSupport
import Foundation
import Testing

/// The trails `explore --trail` writes are the ones committed in `Expected/trails/`, so the replay goldens replay what explore writes today.
@Suite struct TrailFileTests {
    @Test func exploreWritesTheCommittedTrails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trails-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = try AuthCheckBinary.shipped.run(["explore", "--trail", directory, Fixture.spec("no-exit")])
        #expect(output.status == 1)
        for (written, committed) in [("01-no-exit@help.json", "no-exit-help"), ("02-no-exit@faq.json", "no-exit-faq")] {
            let actual = try String(contentsOfFile: (directory as NSString).appendingPathComponent(written), encoding: .utf8)
            let expected = try String(contentsOf: Fixture.url(EndToEndCase.trail(committed)), encoding: .utf8)
            #expect(actual == expected, "\(written) differs from Expected/trails/\(committed).json; write it again with explore --trail")
        }
    }

    /// The authflow/2 trails: the variant and each step's chosen answer, as explore writes them today.
    @Test(arguments: [("promela-polling-no-exit", "01-no-exit@waiting.json", "polling-no-exit-waiting"),
                      ("promela-rules", "03-three-wrong-lock.json", "rules-three-wrong-lock")])
    func exploreWritesTheCommittedVersion2Trails(_ spec: String, _ written: String, _ committed: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trails-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = try AuthCheckBinary.shipped.run(["explore", "--trail", directory, EndToEndCase.version2(spec)])
        #expect(output.status == 1)
        let actual = try String(contentsOfFile: (directory as NSString).appendingPathComponent(written), encoding: .utf8)
        let expected = try String(contentsOf: Fixture.url(EndToEndCase.trail(committed)), encoding: .utf8)
        #expect(actual == expected, "\(written) differs from Expected/trails/\(committed).json; write it again with explore --trail")
    }
}
