@testable import AuthFlow
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one reader of files and streams: limits checked before buffering, CRLF lines, and a deadline that ends a wait.
@Suite struct InputSourceTests {
    /// The lines of `text` as `forEachLine` hands them over, read in chunks of `chunk` bytes.
    static func lines(_ text: String, chunk: Int = 4, maxLineBytes: Int = 64) throws -> [String] {
        var lines: [String] = []
        try InputSource.bytes(Array(text.utf8), name: "t").forEachLine(maxLineBytes: maxLineBytes, chunkBytes: chunk) { line in
            lines.append(line.overlong.map { "<\($0) bytes>" } ?? String(decoding: line.bytes, as: UTF8.self))
            return true
        }
        return lines
    }

    @Test func crlfAndLfLinesReadAlike() throws {
        #expect(try Self.lines("123456\r\n654321\r\n") == ["123456", "654321"])
        #expect(try Self.lines("a\nb\r\nc\r") == ["a", "b", "c"])
        #expect(try Self.lines("\r\n\n") == ["", ""])
        // A CR inside a line stays: only the one before LF ends it.
        #expect(try Self.lines("a\rb\n") == ["a\rb"])
    }

    @Test func emptyLinesCanBeCountedWithoutBeingHandedOver() throws {
        var seen: [String] = []
        try InputSource.bytes(Array("\n\n\na\n\n\r\nb\n\n".utf8), name: "t").forEachLine(maxLineBytes: 8, chunkBytes: 2, skipsEmptyLines: true) { line in
            seen.append("\(line.number):\(String(decoding: line.bytes, as: UTF8.self))")
            return true
        }
        #expect(seen == ["4:a", "6:", "7:b"])
    }

    @Test func anOverlongLineIsSkippedOrEndsTheReading() throws {
        #expect(try Self.lines("ok\n" + String(repeating: "x", count: 100) + "\nnext\n") == ["ok", "<100 bytes>", "next"])
        var seen: [Int?] = []
        let read = try InputSource.bytes(Array(String(repeating: "x", count: 1000).utf8), name: "t")
            .forEachLine(maxLineBytes: 64, chunkBytes: 16, skipsOverlongLines: false) { line in
                seen.append(line.overlong)
                return false
            }
        #expect(seen.count == 1 && (seen[0] ?? 0) > 64, "\(seen)")
        #expect(read < 1000, "stops as soon as the line is too long, read \(read)")
    }

    /// Found by the loader fuzz target: an overlong line skipped to its end counted the CR before its LF
    /// (or ending the input), so a CRLF file's line was reported one byte longer than an LF file's.
    @Test func aSkippedOverlongLineIsMeasuredWithoutItsCR() throws {
        let long = String(repeating: "x", count: 100)
        for chunk in 1...8 {
            #expect(try Self.lines("ok\r\n\(long)\r\nnext\r\n", chunk: chunk) == ["ok", "<100 bytes>", "next"], "chunk \(chunk)")
            #expect(try Self.lines("\(long)\r", chunk: chunk) == ["<100 bytes>"], "chunk \(chunk)")
            #expect(try Self.lines("\(long)\r\r\n", chunk: chunk) == ["<101 bytes>"], "chunk \(chunk): only the last CR goes")
        }
    }

    @Test func readAllStopsOneBytePastTheLimit() throws {
        let bytes = [UInt8](repeating: 7, count: 100)
        #expect(try InputSource.bytes(bytes, name: "t").readAll(limit: 100) == bytes)
        #expect(throws: InputError(name: "<stdin>", kind: .tooLarge, reason: "the input is over 99 bytes; the limit is 99 bytes")) {
            try InputSource.bytes(bytes, name: "<stdin>").readAll(limit: 99)
        }
    }

    @Test func aPipeWithNothingWrittenEndsAtTheDeadline() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(throws: InputError(name: "p", kind: .timedOut, reason: "nothing to read within 0.2 s (a FIFO or pipe with no writer?)")) {
            try InputSource.descriptor(ends[0], name: "p", deadline: .after(0.2)).readAll(limit: 10)
        }
    }

    @Test func aPathSaysWhatItNames() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a").path, b = directory.appendingPathComponent("b").path
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
        func problem(_ path: String) -> InputError? {
            do { _ = try InputSource.file(path, what: "a spec file"); return nil } catch { return error }
        }
        #expect(problem(a)?.reason == "a loop of symbolic links (ELOOP): following them never reaches a file")
        #expect(problem(directory.path)?.reason == "is a directory, not a spec file")
        #expect(problem(directory.appendingPathComponent("none").path)?.kind == .missing)
        #expect(problem(directory.appendingPathComponent("\u{FFFD}.json").path)?.reason.contains("not UTF-8") == true)
        #expect(problem("/dev/null") == nil)
    }
}
