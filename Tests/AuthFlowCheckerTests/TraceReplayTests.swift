import FlowGenerators
import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Recorded sessions replayed against their spec: generated corpora, hand-written records, every finding and problem.
@Suite struct TraceReplayTests {
    static func model(_ path: String) throws -> FlowModel {
        try SpecLoader.load(file: Fixture.url(path).path)
    }

    static func version2() throws -> FlowModel {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/version2/sign-in", withExtension: "json"))
        let json = try String(contentsOf: url, encoding: .utf8)
        return try Version2Tests.load(json)
    }

    /// Replays `text` (one input named `log`) against `model`.
    static func replay(_ model: FlowModel, _ text: String, options: TraceReplay.Options = .init()) throws -> TraceReport {
        var replay = TraceReplay(model: model, spec: "spec.json", options: options)
        try replay.read(.text(text, name: "log"))
        return replay.finish()
    }

    static func corpus(sessions: Int = 400, seed: UInt64, broken: Double = 0, data: Bool = true) -> TraceCorpus.Options {
        var options = TraceCorpus.Options()
        options.sessions = sessions
        options.seed = seed
        options.brokenFraction = broken
        options.recordsData = data
        options.concurrency = 30
        return options
    }

    // MARK: Generated corpora

    @Test(arguments: Fixture.realSpecs)
    func aCorpusDrawnFromTheSpecIsFlaggedNowhere(spec: String) throws {
        let model = try Self.model(spec)
        for seed in UInt64(1)...4 {
            let (log, summary) = TraceCorpus.text(model, options: Self.corpus(seed: seed))
            let report = try Self.replay(model, log)
            #expect(report.findings.isEmpty, "seed \(seed): \(report.findings.prefix(3))")
            #expect(report.problems.isEmpty, "seed \(seed): \(report.problems.prefix(3))")
            #expect(report.records == summary.records && report.sessions.total == summary.sessions)
            #expect(report.sessions.succeeded == summary.succeeded && report.sessions.aborted == summary.aborted
                    && report.sessions.abandoned == summary.abandoned, "seed \(seed)")
            #expect(report.skipped.isEmpty, "\(report.skipped)")
        }
    }

    @Test func aVersion2CorpusWithVariantsGuardsAndResetsIsFlaggedNowhere() throws {
        let model = try Self.version2()
        for seed in UInt64(1)...4 {
            let (log, summary) = TraceCorpus.text(model, options: Self.corpus(seed: seed))
            let report = try Self.replay(model, log)
            #expect(report.findings.isEmpty, "seed \(seed): \(report.findings.prefix(3))")
            #expect(report.problems.isEmpty, "seed \(seed): \(report.problems.prefix(3))")
            #expect(report.sessions.total == summary.sessions)
        }
    }

    @Test(arguments: Fixture.realSpecs)
    func everyBrokenSessionIsFlaggedAtItsLineWithItsReason(spec: String) throws {
        let model = try Self.model(spec)
        for seed in UInt64(1)...4 {
            let (log, summary) = TraceCorpus.text(model, options: Self.corpus(seed: seed, broken: 0.2))
            var options = TraceReplay.Options()
            options.maxListed = 100_000
            let report = try Self.replay(model, log, options: options)
            #expect(report.problems.isEmpty, "seed \(seed): \(report.problems.prefix(3))")
            #expect(Set(summary.broken.map(\.fault)) == Set(TraceCorpus.Fault.allCases), "seed \(seed): every kind drawn")
            // Exactly the broken sessions are flagged, each first at the line that breaks it, for its reason.
            var first: [String: TraceReport.Finding] = [:]
            for finding in report.findings where first[finding.session] == nil { first[finding.session] = finding }
            #expect(Set(first.keys) == Set(summary.broken.map(\.session)), "seed \(seed)")
            #expect(report.sessions.broken == summary.broken.count)
            for broken in summary.broken {
                let finding = try #require(first[broken.session], "\(broken) not flagged")
                #expect(finding.line == broken.line && finding.property == broken.fault.property && finding.file == "log",
                        "seed \(seed): \(broken) flagged as \(finding)")
            }
        }
    }

    @Test func aVersion2CorpusWithBrokenSessionsIsFlaggedExactly() throws {
        let model = try Self.version2()
        let (log, summary) = TraceCorpus.text(model, options: Self.corpus(seed: 9, broken: 0.25))
        var options = TraceReplay.Options()
        options.maxListed = 100_000
        let report = try Self.replay(model, log, options: options)
        var first: [String: TraceReport.Finding] = [:]
        for finding in report.findings where first[finding.session] == nil { first[finding.session] = finding }
        #expect(Set(first.keys) == Set(summary.broken.map(\.session)))
        for broken in summary.broken {
            let finding = try #require(first[broken.session])
            #expect(finding.line == broken.line && finding.property == broken.fault.property, "\(broken) flagged as \(finding)")
        }
    }
}
