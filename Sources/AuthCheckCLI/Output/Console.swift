import AuthFlow
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
/// an error message. Tests build a capturing console; the binary uses ``standard()``.
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

    /// A console writing with `out` and `err` and reading stdin with `input`, claiming the given terminal-ness.
    public convenience init(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, stdinIsTerminal: Bool = true,
         out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
         input: @escaping @Sendable () -> String = { "" }) {
        self.init(stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal, stdinIsTerminal: stdinIsTerminal,
                  out: out, err: err, inputBytes: { Array(input().utf8) })
    }

    /// A console reading stdin's bytes as they are with `inputBytes`, so a spec on stdin meets the
    /// loader's own encoding checks (a UTF-16 file is named as such, not read as garbled UTF-8).
    init(stdoutIsTerminal: Bool, stderrIsTerminal: Bool, stdinIsTerminal: Bool,
         out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
         inputBytes: @escaping @Sendable () -> [UInt8]) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.stdinIsTerminal = stdinIsTerminal
        self.writeOut = out
        self.writeErr = err
        self.readInput = inputBytes
    }

    /// The process's own stdin, stdout and stderr.
    public static func standard() -> Console {
        let console = Console(stdoutIsTerminal: isatty(1) == 1, stderrIsTerminal: isatty(2) == 1, stdinIsTerminal: isatty(0) == 1,
                              out: { write(fd: 1, $0) }, err: { write(fd: 2, $0) },
                              inputBytes: { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) })
        console.streamsStandardInput = true
        return console
    }

    private var input: [UInt8]?

    /// All of stdin, as text (invalid UTF-8 repaired); read once, as ``readAllBytes()``.
    func readAll() -> String {
        String(decoding: readAllBytes(), as: UTF8.self)
    }

    /// All of stdin, as bytes; read once, so every later call gets the same bytes.
    func readAllBytes() -> [UInt8] {
        lock.withLock {
            if let input { return input }
            let bytes = readInput()
            input = bytes
            return bytes
        }
    }

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

    /// Writes all of `text` to the file descriptor, retrying short writes; gives up on a closed pipe.
    private static func write(fd: Int32, _ text: String) {
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
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
