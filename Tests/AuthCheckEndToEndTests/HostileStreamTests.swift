import AuthCheckTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `authcheck` on hostile streams and paths: an endless standard input, a full disk, a FIFO
/// nobody writes to, CRLF files, a file of blank lines, and paths that name no file. Every one
/// ends with the documented status and a message that says what the input really is, in bounded
/// memory and time. Runs that break their bound are killed, so a regression fails the test.
@Suite struct HostileStreamTests {
    static let minimal = HostileInputTests.minimal

    /// Runs the shipped `authcheck` with `stdin` and `stdout` from these paths, killed past 512 MiB or 60 s.
    static func authcheck(_ arguments: [String], stdin: String = "/dev/null", stdout: String? = nil,
                          rawArguments: [[UInt8]] = []) throws -> MeasuredRun {
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        return try MeasuredRun.run(try AuthCheckBinary.shipped.path.get(), arguments.map { Array($0.utf8) } + rawArguments,
                                   environment: environment, stdin: stdin, stdout: stdout, killAboveMiB: 512, killAfter: 60)
    }

    static func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        try HostileInputTests.withTemporaryDirectory(body)
    }

    // MARK: - Standard input

    @Test func anEndlessSpecOnStandardInputIsRefusedAtTheLimitInBoundedMemory() throws {
        let run = try Self.authcheck(["check", "-"], stdin: "/dev/zero")
        #expect(run.signal == nil, "\(run)")
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout == "<stdin>: invalid — the input is over 8388608 bytes; the limit is 8388608 bytes\n", "\(run)")
        #expect(run.peakMiB < 100, "peak RSS \(run.peakMiB) MiB: \(run)")
    }

    @Test func aGibibyteFileOnStandardInputIsRefusedUnread() throws {
        try Self.withDirectory { directory in
            let big = directory.appendingPathComponent("big.json").path
            #expect(FileManager.default.createFile(atPath: big, contents: nil))
            #expect(truncate(big, 1 << 30) == 0)
            let run = try Self.authcheck(["check", "-"], stdin: big)
            #expect(run.status == 2, "\(run)")
            #expect(run.stdout.contains("<stdin>: invalid — the input is 1073741824 bytes; the limit is 8388608 bytes\n"), "\(run)")
            #expect(run.peakMiB < 100, "peak RSS \(run.peakMiB) MiB: \(run)")
        }
    }

    @Test func endlessPasscodeInputEndsAtTheLineLimitInBoundedMemory() throws {
        let run = try Self.authcheck(["passcode"], stdin: "/dev/zero")
        #expect(run.signal == nil, "\(run)")
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.hasPrefix("error: <stdin>: line 1 is over 1048576 bytes ("), "\(run)")
        #expect(run.stdout == "", "\(run)")
        #expect(run.peakMiB < 100, "peak RSS \(run.peakMiB) MiB: \(run)")
    }

    @Test func passcodeReadsCRLFLinesAsLines() throws {
        try Self.withDirectory { directory in
            let input = directory.appendingPathComponent("codes.txt")
            try Data("123456\r\n654321\r\n".utf8).write(to: input)
            let run = try Self.authcheck(["passcode"], stdin: input.path)
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout == "123456\n654321\n", "\(run)")
        }
    }

    // MARK: - Output

    @Test(arguments: [["check", "SPEC"], ["passcode", "123456"], ["--help"], ["export", "SPEC"]])
    func outputThatCannotBeWrittenIsAnError(_ arguments: [String]) throws {
        try Self.withDirectory { directory in
            let spec = directory.appendingPathComponent("spec.json")
            try Data(Self.minimal.utf8).write(to: spec)
            let run = try Self.authcheck(arguments.map { $0 == "SPEC" ? spec.path : $0 }, stdout: "/dev/full")
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.hasSuffix("error: cannot write the output: standard output: No space left on device\n"), "\(run)")
        }
    }

    // MARK: - Paths that are not files

    @Test func aFIFOWithNoWriterEndsAtTheTimeout() throws {
        try Self.withDirectory { directory in
            let fifo = directory.appendingPathComponent("fifo").path
            try #require(mkfifo(fifo, 0o600) == 0)
            let start = Date()
            let run = try Self.authcheck(["check", "--timeout", "1", fifo])
            #expect(run.signal == nil, "killed: \(run)")
            #expect(run.status == 2, "\(run)")
            #expect(run.stdout == "\(fifo): invalid — nothing to read within 1 s (a FIFO or pipe with no writer?)\n", "\(run)")
            #expect(Date().timeIntervalSince(start) < 30)
        }
    }

    @Test func aFIFOWithAWriterIsRead() throws {
        try Self.withDirectory { directory in
            let fifo = directory.appendingPathComponent("fifo").path
            try #require(mkfifo(fifo, 0o600) == 0)
            let writer = Thread {
                let fd = open(fifo, O_WRONLY)
                guard fd >= 0 else { return }
                _ = Self.minimal.withCString { write(fd, $0, strlen($0)) }
                close(fd)
            }
            writer.start()
            let run = try Self.authcheck(["check", "--timeout", "20", fifo])
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.hasPrefix("\(fifo): holds"), "\(run)")
        }
    }

    @Test func aSymbolicLinkLoopIsNamedAsOne() throws {
        try Self.withDirectory { directory in
            let a = directory.appendingPathComponent("a.json").path, b = directory.appendingPathComponent("b.json").path
            try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
            try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
            let run = try Self.authcheck(["check", a])
            #expect(run.status == 2, "\(run)")
            #expect(run.stdout == "\(a): invalid — a loop of symbolic links (ELOOP): following them never reaches a file\n", "\(run)")
            // The same for a file of records.
            let spec = directory.appendingPathComponent("spec.json")
            try Data(Self.minimal.utf8).write(to: spec)
            let traces = try Self.authcheck(["traces", spec.path, a])
            #expect(traces.status == 2, "\(traces)")
            #expect(traces.stderr == "error: \(a): a loop of symbolic links (ELOOP): following them never reaches a file\n", "\(traces)")
        }
    }

    @Test func aSocketIsNamedAsOne() throws {
        try Self.withDirectory { directory in
            let path = directory.appendingPathComponent("s.sock").path
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0)
            let run = try Self.authcheck(["check", path])
            #expect(run.status == 2, "\(run)")
            #expect(run.stdout == "\(path): invalid — is a socket, not a spec file\n", "\(run)")
        }
    }

    @Test func aFileNameThatIsNotUTF8IsSaidToBeOne() throws {
        try Self.withDirectory { directory in
            // A file whose name holds the byte 0xFF, which the command line cannot hand over as it is.
            let name = Array((directory.path + "/spec-").utf8) + [0xFF] + Array(".json".utf8)
            let fd = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
            try #require(fd >= 0)
            _ = Self.minimal.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            let run = try Self.authcheck(["check"], rawArguments: [name])
            #expect(run.status == 2, "\(run)")
            #expect(run.stdout.contains("spec-\u{FFFD}.json: invalid — no such file; the name holds bytes that are not UTF-8 (shown as \u{FFFD}), which authcheck cannot pass on: rename the file\n"),
                    "\(run)")
        }
    }

    // MARK: - Regressions files

    @Test func aCRLFRegressionsFileIsReplayed() throws {
        try Self.withDirectory { directory in
            let spec = directory.appendingPathComponent("spec.json")
            try Data(Self.minimal.utf8).write(to: spec)
            let regressions = directory.appendingPathComponent("regressions.jsonl")
            try Data("# saved\r\n{\"path\": [\"go\"]}\r\n".utf8).write(to: regressions)
            let run = try Self.authcheck(["fuzz", "--runs", "3", "--regressions", regressions.path, spec.path])
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains(", 1 regression replayed,"), "\(run)")
        }
    }

    @Test func a100MBRegressionsFileOfBlankLinesIsReadInBoundedMemory() throws {
        try Self.withDirectory { directory in
            let spec = directory.appendingPathComponent("spec.json")
            try Data(Self.minimal.utf8).write(to: spec)
            let regressions = directory.appendingPathComponent("blank.jsonl")
            #expect(FileManager.default.createFile(atPath: regressions.path, contents: nil))
            let handle = try FileHandle(forWritingTo: regressions)
            let mebibyte = Data(repeating: 0x0A, count: 1 << 20)
            for _ in 0..<100 { try handle.write(contentsOf: mebibyte) }
            try handle.write(contentsOf: Data("{\"path\": [\"go\"]}".utf8))
            try handle.close()
            let run = try Self.authcheck(["fuzz", "--runs", "3", "--regressions", regressions.path, spec.path])
            #expect(run.signal == nil, "\(run)")
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains(", 1 regression replayed,"), "\(run)")
            #expect(run.peakMiB < 100, "peak RSS \(run.peakMiB) MiB: \(run)")

            // A sparse file of the same size is one line of NUL bytes: refused at the line limit.
            #expect(truncate(regressions.path, 0) == 0 && truncate(regressions.path, 100 << 20) == 0)
            let sparse = try Self.authcheck(["fuzz", "--runs", "3", "--regressions", regressions.path, spec.path])
            #expect(sparse.status == 2, "\(sparse)")
            #expect(sparse.stderr.hasPrefix("error: \(regressions.path):1: the line is over 1048576 bytes ("), "\(sparse)")
            #expect(sparse.peakMiB < 100, "peak RSS \(sparse.peakMiB) MiB: \(sparse)")
        }
    }
}
