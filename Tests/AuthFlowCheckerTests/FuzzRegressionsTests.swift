import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Saved regression paths are tied to the flow they were found in.
@Suite struct FuzzRegressionsTests {
    static func write(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("regressions-\(UUID().uuidString).jsonl").path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aSavedLineCarriesTheFlowsNameAndTableHash() throws {
        let model = try Files.model(Files.broken("mfa-bypass"))
        let failure = try #require(FlowFuzzer(model: model).run(FuzzOptions(seed: 1)).failure)
        let line = FuzzRegressions.line(for: failure, model: model)
        #expect(line.hasPrefix("{\"spec\":\"MFA screen with a skip button\",\"table\":\"\(model.tableHash)\",\"site\":"))
        #expect(model.tableHash.count == 16)
        // and it reads back as an entry for this flow, which replays to the same site.
        let entries = try FuzzRegressions.read(try Self.write([line]))
        #expect(entries.map(\.spec) == ["MFA screen with a skip button"] && entries.map(\.table) == [model.tableHash])
        let (replay, notes) = FuzzRegressions.partition(entries, for: model)
        #expect(notes.isEmpty)
        #expect(FlowFuzzer(model: model).replay(replay[0])?.site == failure.site)
    }

    @Test func entriesForAnotherFlowOrWithUnknownEventsAreReportedNotReplayed() throws {
        let model = try Files.model(Files.broken("mfa-bypass"))
        let path = try Self.write([
            #"{"spec": "another flow", "path": ["startAuth"]}"#,
            #"{"spec": "MFA screen with a skip button", "path": ["startAuth", "knownEmial"]}"#,
            #"{"spec": "MFA screen with a skip button", "table": "0000000000000000", "path": ["startAuth", "knownEmail", "skip"]}"#,
            #"{"path": ["startAuth", "knownEmail", "back"]}"#,
        ])
        let (replay, notes) = FuzzRegressions.partition(try FuzzRegressions.read(path), for: model)
        #expect(replay.map { $0.map(\.name) } == [["startAuth", "knownEmail", "skip"], ["startAuth", "knownEmail", "back"]])
        #expect(notes.map(\.line) == [1, 2, 3])
        #expect(notes.map(\.skipped) == [true, true, false])
        #expect(notes[0].text == "not replayed: recorded for the flow 'another flow', not 'MFA screen with a skip button'")
        #expect(notes[1].text == "not replayed: the flow has no event 'knownEmial'")
        #expect(notes[2].text.hasPrefix("replayed, though recorded against another version of the table (0000000000000000, now "))
    }

    @Test func theTableHashChangesWithTheTableAndOnlyThen() throws {
        let a = try Files.model(Files.broken("mfa-bypass"))
        let b = try Files.model(Files.broken("mfa-bypass"))
        #expect(a.tableHash == b.tableHash)
        #expect(a.tableHash != (try Files.model(Files.broken("no-exit"))).tableHash)
    }
}

/// The regressions file as editors and other systems write it: CRLF, no final line break, blank lines by the million.
@Suite struct RegressionFileFormTests {
    @Test func aCRLFFileReadsLikeAnLFFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crlf-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("# saved\r\n{\"path\": [\"startAuth\"]}\r\n\r\n{\"path\": [\"startAuth\", \"back\"]}\r\n".utf8).write(to: URL(fileURLWithPath: path))
        let entries = try FuzzRegressions.read(path)
        #expect(entries.map(\.line) == [2, 4])
        #expect(entries.map { $0.actions.map(\.name) } == [["startAuth"], ["startAuth", "back"]])
    }

    @Test func anAppendedEntryStartsALineOfItsOwn() throws {
        let model = try Files.model(Files.broken("mfa-bypass"))
        let failure = try #require(FlowFuzzer(model: model).run(FuzzOptions(seed: 1)).failure)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unterminated-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Given a file whose last line has no line break,
        try Data("{\"path\": [\"startAuth\"]}".utf8).write(to: URL(fileURLWithPath: path))
        // when the fuzzer saves a failure to it, then both entries read back, each on its line.
        try FuzzRegressions.append(failure, model: model, to: path)
        let entries = try FuzzRegressions.read(path)
        #expect(entries.map(\.line) == [1, 2])
        #expect(entries.last?.site == failure.site.description)
    }
}
