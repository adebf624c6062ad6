#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file, a stream or bytes in memory, read in chunks within a size limit and a deadline: every input authcheck reads.
///
/// Nothing is read before its size is checked: ``readAll(limit:)`` refuses a regular file larger
/// than the limit unread and stops a stream one byte past it, so standard input fed from
/// `/dev/zero` costs one limit of memory, not all of memory. ``forEachLine(maxLineBytes:_:)``
/// streams lines (LF or CRLF) from a buffer of fixed size. With a deadline, every read waits with
/// `poll` until the deadline at most, so a FIFO with no writer ends with an error instead of a hang.
///
/// ```swift
/// let bytes = try InputSource.file("spec.json", what: "a spec file").readAll(limit: 8 << 20)
/// ```
package struct InputSource {
    /// How reports name the input: the path, or `<stdin>`.
    package let name: String
    /// The size of a regular file (or of standard input redirected from one), known before reading.
    package let knownSize: Int?
    /// Whether the input is a path's file, so that sizes are said of "the file", not "the input".
    private let isFile: Bool
    /// Reads up to the buffer's size of bytes into it; 0 at the end.
    private let read: (UnsafeMutableRawBufferPointer) throws(InputError) -> Int
    /// Releases what the input holds open (a file descriptor).
    private let close: () -> Void

    private init(name: String, knownSize: Int? = nil, isFile: Bool = false,
                 read: @escaping (UnsafeMutableRawBufferPointer) throws(InputError) -> Int, close: @escaping () -> Void = {}) {
        self.name = name
        self.knownSize = knownSize
        self.isFile = isFile
        self.read = read
        self.close = close
    }

    /// Bytes in memory, named `name` in reports.
    package static func bytes(_ bytes: [UInt8], name: String) -> InputSource {
        var offset = 0
        return InputSource(name: name) { buffer in
            let count = min(buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            offset += count
            return count
        }
    }

    /// An open file descriptor, read until its end and not closed (standard input is descriptor 0).
    /// - Parameter deadline: when waiting for more stops with ``InputError/Kind/timedOut``; `nil` waits as long as it takes.
    package static func descriptor(_ fd: Int32, name: String, deadline: Deadline? = nil) -> InputSource {
        var status = stat()
        let size = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        return InputSource(name: name, knownSize: size) { buffer throws(InputError) in
            try readSome(fd, buffer, name: name, deadline: deadline)
        }
    }

    /// The file at `path`, opened without blocking (a FIFO with no writer opens at once and is then waited for).
    ///
    /// Regular files, FIFOs and character devices are read; anything else is refused with what it is.
    /// - Parameters:
    ///   - what: what the file should be, for the refusal of a directory or a socket: `a spec file`.
    ///   - deadline: when waiting for more stops with ``InputError/Kind/timedOut``; `nil` waits as long as it takes.
    /// - Throws: ``InputError`` saying what is at the path: nothing, a loop of symbolic links, a directory, a socket, or an unreadable file.
    package static func file(_ path: String, what: String, deadline: Deadline? = nil) throws(InputError) -> InputSource {
        func failure(_ kind: InputError.Kind, _ reason: String) -> InputError {
            InputError(name: path, kind: kind, reason: reason)
        }
        guard !path.isEmpty else { throw failure(.missing, "no such file (the name is empty)") }
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(errno == ENOENT ? .missing : .unreadable, Self.pathProblem(errno, path: path)) }
        if let refusal = Self.refusal(mode: status.st_mode, what: what) { throw failure(.notAFile, refusal) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw failure(code == ENOENT ? .missing : .unreadable, code == ENXIO ? "is a socket, not \(what)" : Self.pathProblem(code, path: path))
        }
        // What was opened is what is read: the path may have changed since `stat`.
        guard fstat(fd, &status) == 0 else {
            let reason = "cannot be read (\(String(cString: strerror(errno))))"
            _ = systemClose(fd)
            throw failure(.unreadable, reason)
        }
        if let refusal = Self.refusal(mode: status.st_mode, what: what) {
            _ = systemClose(fd)
            throw failure(.notAFile, refusal)
        }
        let size = (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        return InputSource(name: path, knownSize: size, isFile: true, read: { buffer throws(InputError) in
            try readSome(fd, buffer, name: path, deadline: deadline)
        }, close: { _ = systemClose(fd) })
    }

    /// Why a file of this mode is not read, or nil for one that is (a regular file, a FIFO, a character device).
    static func refusal(mode: mode_t, what: String) -> String? {
        switch mode & S_IFMT {
        case S_IFREG, S_IFIFO, S_IFCHR: nil
        case S_IFDIR: "is a directory, not \(what)"
        case S_IFSOCK: "is a socket, not \(what)"
        case S_IFBLK: "is a block device, not \(what)"
        default: "is not a regular file, so not \(what)"
        }
    }

    /// What `stat` or `open` failing with `code` says about `path`.
    static func pathProblem(_ code: Int32, path: String) -> String {
        switch code {
        case ENOENT:
            // The command line decodes a name's invalid UTF-8 as U+FFFD, so such a file can never be named.
            path.unicodeScalars.contains("\u{FFFD}")
                ? "no such file; the name holds bytes that are not UTF-8 (shown as \u{FFFD}), which authcheck cannot pass on: rename the file"
                : "no such file"
        case ELOOP: "a loop of symbolic links (ELOOP): following them never reaches a file"
        case ENOTDIR: "no such file: a part of the path before the name is not a directory"
        case EACCES, EPERM: "cannot be read: permission denied"
        case ENAMETOOLONG: "the name is too long for the file system (ENAMETOOLONG)"
        default: "cannot be read (\(String(cString: strerror(code))))"
        }
    }

    /// Reads into `buffer`, first waiting with `poll` until there is something to read or the deadline passes.
    private static func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, name: String,
                                 deadline: Deadline?) throws(InputError) -> Int {
        while true {
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, deadline?.remainingMilliseconds() ?? -1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw InputError(name: name, kind: .unreadable, reason: "cannot be read (\(String(cString: strerror(errno))))")
            }
            if ready == 0, let deadline {
                throw InputError(name: name, kind: .timedOut,
                                 reason: "nothing to read within \((deadline.timeout ?? 0).formatted) s (a FIFO or pipe with no writer?)")
            }
            let count = systemRead(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
            throw InputError(name: name, kind: .unreadable, reason: "cannot be read (\(String(cString: strerror(errno))))")
        }
    }

    /// All of the input, when it holds at most `limit` bytes; reads at most `limit + 1`.
    /// - Throws: ``InputError`` of kind ``InputError/Kind/tooLarge`` for a larger input (a regular file's size is checked before reading), or what reading met.
    /// - Complexity: memory O(`limit`), whatever the input's length.
    package func readAll(limit: Int) throws(InputError) -> [UInt8] {
        defer { close() }
        let noun = isFile ? "file" : "input"
        if let knownSize, knownSize > limit {
            throw InputError(name: name, kind: .tooLarge, reason: "the \(noun) is \(knownSize) bytes; the limit is \(limit) bytes")
        }
        let chunk = 1 << 16
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(knownSize ?? chunk, limit) + 1)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            // Never more than one byte past the limit: enough to know it is passed.
            let wanted = min(chunk, limit + 1 - bytes.count)
            let count = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
            if count == 0 { return bytes }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            if bytes.count > limit {
                throw InputError(name: name, kind: .tooLarge, reason: "the \(noun) is over \(limit) bytes; the limit is \(limit) bytes")
            }
        }
    }

    /// One line of the input as ``forEachLine(maxLineBytes:chunkBytes:_:)`` hands it over.
    package struct Line {
        /// The line's bytes, without its LF or a CR before it; valid only during the call.
        package var bytes: UnsafeBufferPointer<UInt8>
        /// Its number, counting from 1.
        package var number: Int
        /// Whether the input ends on this line without a final LF (the writer may have been cut off).
        package var unterminated: Bool
        /// The length of a line longer than the limit, whose bytes were not kept (then `bytes` is empty).
        package var overlong: Int?
    }

    /// Calls `body` with each line, in order, until it returns false; a line longer than `maxLineBytes` comes with ``Line/overlong`` set.
    ///
    /// A line ends at LF; a CR before the LF (CRLF files) is not part of it, nor is one ending the input.
    /// - Parameter skipsOverlongLines: whether an overlong line is read to its end, to hand over its
    ///   length and go on (records), or handed over as soon as it passes the limit, ending the reading
    ///   (a stream of NUL bytes has no end to wait for).
    /// - Parameter skipsEmptyLines: whether lines with nothing on them, not even a CR, are counted without handing them over,
    ///   a run of LFs at a time (100 MB of them in a blink), for readers to which they mean nothing.
    /// - Returns: the bytes read.
    /// - Throws: ``InputError`` when reading fails part way (the lines before it were handed over).
    /// - Complexity: O(*n*) in the input; memory O(`chunkBytes` + `maxLineBytes`), whatever its length.
    @discardableResult
    package func forEachLine(maxLineBytes: Int, chunkBytes: Int = 1 << 20, skipsOverlongLines: Bool = true,
                             skipsEmptyLines: Bool = false, _ body: (Line) -> Bool) throws(InputError) -> Int {
        defer { close() }
        // The buffer holds the unfinished line (and the CR that may end it) at its start, the newest chunk after it,
        // and a NUL after them for `strspn`.
        let capacity = chunkBytes + maxLineBytes + 1
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity + 1, alignment: 8)
        defer { buffer.deallocate() }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var filled = 0          // bytes in the buffer
        var lineNumber = 0
        var total = 0
        var skipping: Int?      // the length so far of an overlong line being skipped
        var skippedCR = false   // whether the last byte skipped is a CR (not part of the line if an LF or the end follows)
        func emit(_ start: Int, _ end: Int, unterminated: Bool) -> Bool {
            lineNumber += 1
            var stop = end
            if stop > start && base[stop - 1] == 0x0D { stop -= 1 }
            if stop - start > maxLineBytes {
                return body(Line(bytes: UnsafeBufferPointer(start: base, count: 0), number: lineNumber, unterminated: unterminated,
                                 overlong: stop - start))
            }
            return body(Line(bytes: UnsafeBufferPointer(start: base + start, count: stop - start), number: lineNumber,
                             unterminated: unterminated, overlong: nil))
        }
        while true {
            let count = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<min(capacity, filled + chunkBytes)]))
            total += count
            if count == 0 { break }
            let scanFrom = filled
            filled += count
            var lineStart = 0
            var cursor = scanFrom
            base[filled] = 0
            while cursor < filled {
                if skipsEmptyLines, cursor == lineStart, skipping == nil {
                    let empty = strspn(UnsafeRawPointer(base + cursor).assumingMemoryBound(to: CChar.self), "\n")
                    lineNumber += empty
                    cursor += empty
                    lineStart = cursor
                    if cursor == filled { break }
                }
                guard let found = memchr(base + cursor, 0x0A, filled - cursor) else { break }
                let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let more: Bool
                if let skipped = skipping {
                    lineNumber += 1
                    let endsInCR = newline > lineStart ? base[newline - 1] == 0x0D : skippedCR
                    more = body(Line(bytes: UnsafeBufferPointer(start: base, count: 0), number: lineNumber, unterminated: false,
                                     overlong: skipped + newline - lineStart - (endsInCR ? 1 : 0)))
                    skipping = nil
                } else {
                    more = emit(lineStart, newline, unterminated: false)
                }
                if !more { return total }
                lineStart = newline + 1
                cursor = lineStart
            }
            // Keep the unfinished line, or drop it when it is already too long to keep.
            // An unfinished line is too long once it passes the limit with room for its CR.
            let rest = filled - lineStart
            if !skipsOverlongLines, rest > maxLineBytes + 1 {
                _ = body(Line(bytes: UnsafeBufferPointer(start: base, count: 0), number: lineNumber + 1, unterminated: true, overlong: rest))
                return total
            }
            if skipping != nil || rest > maxLineBytes + 1 {
                skipping = (skipping ?? 0) + rest
                skippedCR = base[filled - 1] == 0x0D
                filled = 0
            } else {
                if lineStart > 0 && rest > 0 { memmove(base, base + lineStart, rest) }
                filled = rest
            }
        }
        if let skipped = skipping {
            lineNumber += 1
            _ = body(Line(bytes: UnsafeBufferPointer(start: base, count: 0), number: lineNumber, unterminated: true,
                          overlong: skipped - (skippedCR ? 1 : 0)))
        } else if filled > 0 {
            _ = emit(0, filled, unterminated: true)
        }
        return total
    }
}

extension Double {
    /// `2` for 2.0, `0.5` for 0.5: seconds as a person writes them.
    fileprivate var formatted: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}

// The C calls under names that do not clash with the members above.
#if canImport(Darwin)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
private func systemClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#else
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
#endif
