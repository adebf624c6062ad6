import AuthCheckCLI
import Foundation

/// A console that keeps what is written, for tests.
public final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var _stdout = ""
    private var _stderr = ""

    public init() {}

    public var stdout: String { lock.withLock { _stdout } }
    public var stderr: String { lock.withLock { _stderr } }

    /// A console writing into this capture, claiming the given terminal-ness, with `input` on stdin.
    public func console(terminal: Bool = false, input: String? = nil) -> Console {
        Console(stdoutIsTerminal: terminal, stderrIsTerminal: terminal, stdinIsTerminal: input == nil,
                out: { text in self.lock.withLock { self._stdout += text } },
                err: { text in self.lock.withLock { self._stderr += text } },
                input: { input ?? "" })
    }
}
