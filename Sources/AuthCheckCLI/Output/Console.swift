import AuthFlow
import AuthFlowChecker
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: results to stdout, diagnostics and progress to stderr.
///
/// Writes are unbuffered and serialised, so a progress line on stderr never interleaves with
/// an error message; a write that fails (a full disk, `> /dev/full`) is kept as ``outputFailure``
/// for the command to end with exit 2, while a closed pipe stays quiet. Standard input is read
/// through ``InputSource``, within a size limit. Tests build a capturing console; the binary uses ``standard()``.
public final class Console: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    private let readInput: @Sendable () -> [UInt8]
    /// Whether stdout is a terminal (colour is only ever used then).
    let stdoutIsTerminal: Bool
    /// Whether stderr is a terminal (progress is only ever shown then).
    let stderrIsTerminal: Bool
    /// Whether stdin is a terminal (commands read input from stdin only when it is not).
    let stdinIsTerminal: Bool
    /// Whether stdin is this process's own, to be read as a stream (`traces -`); a test console's is bytes in memory.
    private(set) var streamsStandardInput = false
    /// The first write to stdout or stderr that failed, other than to a closed pipe.
    private let failures: OutputFailures

    /// A console writing with `out` and `err` and reading stdin with `input`, claiming the given terminal-ness.
    public convenience init(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, stdinIsTerminal: Bool = true,
         out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
         input: @escaping @Sendable () -> String = { "" }) {
        self.init(stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal, stdinIsTerminal: stdinIsTerminal,
                  out: out, err: err, inputBytes: { Array(input().utf8) })
    }

    /// A console reading stdin's bytes as they are with `inputBytes`, so a spec on stdin meets the
    /// loader's own encoding checks (a UTF-16 file is named as such, not read as garbled UTF-8).
    convenience init(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, stdinIsTerminal: Bool,
         out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
         inputBytes: @escaping @Sendable () -> [UInt8]) {
        self.init(stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal, stdinIsTerminal: stdinIsTerminal,
                  out: out, err: err, inputBytes: inputBytes, failures: OutputFailures())
    }

    private init(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, stdinIsTerminal: Bool,
                 out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                 inputBytes: @escaping @Sendable () -> [UInt8], failures: OutputFailures) {
        self.failures = failures
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.stdinIsTerminal = stdinIsTerminal
        self.writeOut = out
        self.writeErr = err
        self.readInput = inputBytes
    }

    /// The process's own stdin, stdout and stderr.
    public static func standard() -> Console {
        let failures = OutputFailures()
        let console = Console(stdoutIsTerminal: isatty(1) == 1, stderrIsTerminal: isatty(2) == 1, stdinIsTerminal: isatty(0) == 1,
                              out: { failures.note(write(fd: 1, $0), stream: "standard output") },
                              err: { failures.note(write(fd: 2, $0), stream: "standard error") },
                              inputBytes: { [] }, failures: failures)
        console.streamsStandardInput = true
        return console
    }

    private var input: Result<[UInt8], InputError>?

    /// Standard input as one ``InputSource``, to read once: this process's descriptor 0, or a test console's bytes.
    /// - Parameter deadline: when waiting for more gives up (a pipe whose writer never writes).
    func standardInput(deadline: Deadline? = nil) -> InputSource {
        streamsStandardInput ? .descriptor(0, name: ReportRenderer.standardInputName, deadline: deadline)
                             : .bytes(readInput(), name: ReportRenderer.standardInputName)
    }

    /// All of stdin, as bytes, when it holds at most `limit`; read once, so every later call gets the same bytes or error.
    /// - Throws: ``InputError`` when stdin is over `limit` bytes (reading stops one byte past it), or cannot be read by `deadline`.
    func readAllBytes(limit: Int, deadline: Deadline? = nil) throws(InputError) -> [UInt8] {
        let result = lock.withLock {
            if let input { return input }
            let read = Result { () throws(InputError) -> [UInt8] in try standardInput(deadline: deadline).readAll(limit: limit) }
            input = read
            return read
        }
        return try result.get()
    }

    /// The first write that failed, as `standard output: No space left on device`; nil when every write succeeded or met a closed pipe.
    var outputFailure: String? { failures.first }

    /// Writes `text` and a newline to stdout.
    func out(_ text: String) {
        lock.withLock { writeOut(text + "\n") }
    }

    /// Writes `text` and a newline to stderr, its control and invisible characters but line breaks and
    /// tabs escaped (``TerminalText/escapedKeepingLines(_:)``): no file name, option value or name a
    /// message quotes can drive the terminal.
    func err(_ text: String) {
        let shown = TerminalText.escapedKeepingLines(text)
        lock.withLock { writeErr(shown + "\n") }
    }

    /// Writes `text` to stderr as is (for the progress line, which rewrites itself with `\r`).
    func errRaw(_ text: String) {
        lock.withLock { writeErr(text) }
    }

    /// Writes all of `text` to the file descriptor, retrying short writes; the `errno` of a write that failed, nil when all was written.
    private static func write(fd: Int32, _ text: String) -> Int32? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Darwin.write(fd, buffer.baseAddress, buffer.count)
                #else
                Glibc.write(fd, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }
}

/// The first failed write of a console, kept for the command to report when it ends.
final class OutputFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var failure: String?

    /// The first failure noted, as `standard output: No space left on device`.
    var first: String? { lock.withLock { failure } }

    /// Keeps the failure `code` (an `errno`) of a write to `stream`, unless one is kept already or it is a closed pipe (`EPIPE`), which stays quiet.
    func note(_ code: Int32?, stream: String) {
        guard let code, code != EPIPE else { return }
        lock.withLock {
            if failure == nil { failure = "\(stream): \(String(cString: strerror(code)))" }
        }
    }
}
