import FlowGenerators
import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import PropertyTesting
import Testing

/// The fast record scanner never disagrees with the format's own reader on a line it accepts.
@Suite struct TraceScannerTests {
    /// What a line says, as the full reader gives it.
    struct Fields: Equatable {
        var kind: TrackedKind
        var session: String
        var timestamp: Int64
        var from: String
        var event: String?
        var to: String?
        var added: [String]?
        var cleared: [String]?
        var values: [String: String]?
    }

    static func fast(_ line: [UInt8]) -> Fields? {
        var scanner = _TrackedLineScanner()
        return line.withUnsafeBufferPointer { buffer -> Fields? in
            guard scanner.scan(buffer) else { return nil }
            func text(_ span: _TrackedLineScanner.Span) -> String {
                String(decoding: buffer[span.start..<span.end], as: UTF8.self)
            }
            var values: [String: String]?
            if scanner.hasValues {
                values = [:]
                for (key, value) in zip(scanner.valueKeys, scanner.valueValues) { values?[text(key)] = text(value) }
            }
            return Fields(kind: scanner.kind, session: text(scanner.sessionID), timestamp: scanner.timestamp, from: text(scanner.from),
                          event: scanner.event.map(text), to: scanner.to.map(text),
                          added: scanner.hasAdded ? scanner.added.map(text) : nil,
                          cleared: scanner.hasCleared ? scanner.cleared.map(text) : nil, values: values)
        }
    }

    static func slow(_ line: [UInt8]) -> Fields? {
        guard let event = try? FlowTracker.event(fromJSONLine: line, line: 1) else { return nil }
        return Fields(kind: event.kind, session: event.sessionID, timestamp: _Timestamp.milliseconds(event.timestamp), from: event.from,
                      event: event.event, to: event.to, added: event.added, cleared: event.cleared, values: event.values)
    }

    /// A line changed in one small way: a byte dropped, doubled or replaced, cut short, or spaced out.
    static func mutate(_ line: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var line = line
        guard !line.isEmpty else { return line }
        let at = Int(random.draw(below: UInt64(line.count)))
        let noise = Array(#""{}[],:\ nulx-0é"#.utf8)
        switch random.draw(below: 6) {
        case 0: line.remove(at: at)
        case 1: line.insert(line[at], at: at)
        case 2: line[at] = noise[Int(random.draw(below: UInt64(noise.count)))]
        case 3: line.removeLast(line.count - at)
        case 4: line.insert(0x20, at: at)
        default: line.insert(contentsOf: Array(#""x-a":1,"#.utf8), at: 1)
        }
        return line
    }

    @Test func theFastScannerAgreesWithTheReaderOnEveryLineItAccepts() throws {
        var lines: [[UInt8]] = []
        var models = try Fixture.realSpecs.map { try TraceReplayTests.model($0) }
        models.append(try TraceReplayTests.version2())
        for (i, model) in models.enumerated() {
            var options = TraceReplayTests.corpus(sessions: 60, seed: UInt64(i + 1), broken: 0.2)
            options.recordsData = i % 2 == 0
            let (text, _) = TraceCorpus.text(model, options: options)
            lines += text.split(separator: "\n").map { Array($0.utf8) }
        }
        var random = SeededGenerator(seed: 0xFA57)
        var acceptedPlain = 0, acceptedMutated = 0, refusedMutated = 0
        for line in lines {
            // Every line the tracker writes takes the fast path, and reads the same.
            let fast = Self.fast(line)
            #expect(fast != nil && fast == Self.slow(line), "\(String(decoding: line, as: UTF8.self))")
            if fast != nil { acceptedPlain += 1 }
            for _ in 0..<6 {
                let mutated = Self.mutate(line, &random)
                if let fast = Self.fast(mutated) {
                    acceptedMutated += 1
                    #expect(fast == Self.slow(mutated), "fast path read differently: \(String(decoding: mutated, as: UTF8.self))")
                } else {
                    refusedMutated += 1
                }
            }
        }
        #expect(acceptedPlain == lines.count && acceptedMutated > 100 && refusedMutated > 100)
    }

    @Test(arguments: [
        #"{"kind":"transition","sessionID":"s\u0031","timestamp":"2024-05-01T12:00:00Z","from":"a"}"#,   // an escape
        #"{"x-app":"1","kind":"undo","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a"}"#,     // an extension key
        #"{"kind":"undo","sessionID":"é","timestamp":"2024-05-01T12:00:00Z","from":"a"}"#,                 // not ASCII
        #"{"kind":"undo","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a","from":"b"}"#,      // a key twice
        #"{"kind":"undo","sessionID":"s","timestamp":"2024-05-01T12:00:00Z"}"#,                             // no from
        #"{"kind":"undo","sessionID":"s","timestamp":"2024-05-01T12:00:00Z","from":"a"} x"#,               // trailing text
    ])
    func linesTheFastPathLeavesToTheReader(line: String) {
        #expect(Self.fast(Array(line.utf8)) == nil)
    }
}
