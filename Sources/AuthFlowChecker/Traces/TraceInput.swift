import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A stream of tracker records to replay: a file, standard input or bytes in memory, read in chunks.
///
/// ``lines(_:)`` hands each line to its closure from a buffer of fixed size, so reading a file of any
/// length holds at most one chunk and one line in memory.
package struct TraceInput {
    /// How reports name the input: the path, or `<stdin>`.
    package let name: String
    /// Reads up to the buffer's size of bytes into it; 0 at the end; throws when reading fails.
    private let read: (UnsafeMutableRawBufferPointer) throws -> Int
    /// Releases what the input holds open (a file descriptor).
    private let close: () -> Void

    /// The longest line read whole, in bytes; a longer one is reported as malformed and skipped.
    package static let maxLineBytes = 1 << 20
    /// How much is read at a time.
    static let chunkBytes = 1 << 20

    /// Why an input cannot be read at all.
    package struct Failure: Error, CustomStringConvertible {
        package var name: String
        package var reason: String
        package var description: String { "\(name): \(reason)" }
    }

    private init(name: String, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int, close: @escaping () -> Void = {}) {
        self.name = name
        self.read = read
        self.close = close
    }

    /// Bytes in memory, named `name` in reports.
    package static func bytes(_ bytes: [UInt8], name: String) -> TraceInput {
        var offset = 0
        return TraceInput(name: name) { buffer in
            let count = min(buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            offset += count
            return count
        }
    }

    /// Text in memory (its UTF-8), named `name` in reports.
    package static func text(_ text: String, name: String) -> TraceInput {
        bytes(Array(text.utf8), name: name)
    }

    /// An open file descriptor, read until its end and not closed (standard input is descriptor 0).
    package static func descriptor(_ fd: Int32, name: String) -> TraceInput {
        TraceInput(name: name) { buffer in
            try readSome(fd, buffer, name: name)
        }
    }

    /// The file at `path`.
    /// - Throws: ``Failure`` when it does not exist, is a directory or cannot be opened.
    package static func file(_ path: String) throws(Failure) -> TraceInput {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(name: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw Failure(name: path, reason: "is a directory, not a file of records") }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(name: path, reason: "cannot be read (\(String(cString: strerror(errno))))") }
        return TraceInput(name: path, read: { buffer in try readSome(fd, buffer, name: path) }, close: { _ = Glibc_close(fd) })
    }

    private static func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, name: String) throws -> Int {
        while true {
            let count = Glibc_read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw Failure(name: name, reason: "cannot be read (\(String(cString: strerror(errno))))")
        }
    }

    /// One line of the input as ``lines(_:)`` hands it over.
    package struct Line {
        /// The line's bytes, without its LF or a CR before it; valid only during the call.
        package var bytes: UnsafeBufferPointer<UInt8>
        /// Its number, counting from 1.
        package var number: Int
        /// Whether the input ends on this line without a final LF (the writer may have been cut off).
        package var unterminated: Bool
        /// The length of a line longer than ``TraceInput/maxLineBytes``, whose bytes were not kept (then `bytes` is empty).
        package var overlong: Int?
    }

    /// Calls `body` with each line, in order; lines longer than ``maxLineBytes`` come with ``Line/overlong`` set.
    ///
    /// - Returns: the bytes read.
    /// - Throws: ``Failure`` when reading fails part way (the lines before it were handed over).
    /// - Complexity: O(*n*) in the input; memory O(``chunkBytes`` + ``maxLineBytes``), whatever its length.
    @discardableResult
    package func lines(_ body: (Line) -> Void) throws -> Int {
        defer { close() }
        // The buffer holds the unfinished line at its start and the newest chunk after it.
        let capacity = Self.chunkBytes + Self.maxLineBytes
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var filled = 0          // bytes in the buffer
        var lineNumber = 0
        var total = 0
        var skipping: Int?      // the length so far of an overlong line being skipped
        func emit(_ start: Int, _ end: Int, unterminated: Bool) {
            lineNumber += 1
            var stop = end
            if stop > start && base[stop - 1] == 0x0D { stop -= 1 }
            if stop - start > Self.maxLineBytes {
                body(Line(bytes: UnsafeBufferPointer(start: base, count: 0), number: lineNumber, unterminated: unterminated,
                          overlong: stop - start))
                return
            }
            body(Line(bytes: UnsafeBufferPointer(start: base + start, count: stop - start), number: lineNumber,
                      unterminated: unterminated, overlong: nil))
        }
        while true {
            let count = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<min(capacity, filled + Self.chunkBytes)]))
            total += count
            if count == 0 { break }
            let scanFrom = filled
            filled += count
            var lineStart = 0
            var cursor = scanFrom
            while cursor < filled, let found = memchr(base + cursor, 0x0A, filled - cursor) {
                let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if let skipped = skipping {
                    lineNumber += 1
                    body(Line(bytes: UnsafeBufferPointer(start: base, count: 0), number: lineNumber, unterminated: false,
                              overlong: skipped + newline - lineStart))
                    skipping = nil
                } else {
                    emit(lineStart, newline, unterminated: false)
                }
                lineStart = newline + 1
                cursor = lineStart
            }
            // Keep the unfinished line, or drop it when it is already too long to keep.
            let rest = filled - lineStart
            if skipping != nil || rest > Self.maxLineBytes {
                skipping = (skipping ?? 0) + rest
                filled = 0
            } else {
                if lineStart > 0 && rest > 0 { memmove(base, base + lineStart, rest) }
                filled = rest
            }
        }
        if let skipped = skipping {
            lineNumber += 1
            body(Line(bytes: UnsafeBufferPointer(start: base, count: 0), number: lineNumber, unterminated: true, overlong: skipped))
        } else if filled > 0 {
            emit(0, filled, unterminated: true)
        }
        return total
    }
}

// The C calls under names that do not clash with the methods above.
#if canImport(Glibc) || canImport(Musl)
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func Glibc_close(_ fd: Int32) -> Int32 { close(fd) }
#else
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
private func Glibc_close(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif
