import AuthCheckTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of a child process, measured: how it ended, what it printed, and its peak memory.
struct MeasuredRun: CustomStringConvertible {
    var stdout: String
    var stderr: String
    /// The exit status, or `nil` when a signal ended the process (a trap, an out-of-memory kill).
    var status: Int32?
    /// The signal that ended the process, if one did.
    var signal: Int32?
    /// The child's peak resident set size, in bytes (its own `VmHWM` on Linux, read while it runs; `ru_maxrss` elsewhere).
    var peakBytes: Int

    var peakMiB: Double { Double(peakBytes) / 1_048_576 }

    /// A bound on ``peakMiB`` of `mib`, or none under AddressSanitizer (`.ci/asan` sets
    /// `AUTHCHECK_SANITIZER=address`): its shadow memory and freed-memory quarantine, hundreds of
    /// MiB, are the sanitizer's, not the program's. The run's other expectations still hold there.
    static func memoryBound(_ mib: Double) -> Double {
        ProcessInfo.processInfo.environment["AUTHCHECK_SANITIZER"] == "address" ? .infinity : mib
    }

    /// How many times longer a run takes here than in the ordinary debug build: 5 under AddressSanitizer
    /// (`AUTHCHECK_SANITIZER=address`), whose instrumented binaries are that much slower, else 1.
    /// Wall-clock bounds and the `--timeout`s whose work must fit in them are scaled by it.
    static var slowdown: Double {
        ProcessInfo.processInfo.environment["AUTHCHECK_SANITIZER"] == "address" ? 5 : 1
    }

    var description: String {
        let ending = status.map { "exit \($0)" } ?? "signal \(signal ?? -1)"
        return "\(ending), peak \(String(format: "%.1f", peakMiB)) MiB\nstdout: \(stdout.prefix(2_000))\nstderr: \(stderr.prefix(2_000))"
    }

    /// Runs `executable` with `posix_spawn`, waits for it with `wait4` and reads that child's own
    /// peak RSS. (`getrusage(RUSAGE_CHILDREN)` would report the largest of every child this test
    /// process has waited for, and the suites run in parallel.)
    /// The `VmHWM` of a running process, in kilobytes; 0 when it cannot be read.
    static func highWaterKB(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty }.map(String.init) ?? "") ?? 0
    }

    /// - Parameter killAfter: seconds after which the child is killed (`SIGKILL`), so a run that hangs fails fast; `nil` for none.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String], killAfter: Double? = nil) throws -> MeasuredRun {
        try run(executable, arguments.map { Array($0.utf8) }, environment: environment, killAfter: killAfter)
    }

    /// Runs `executable` with `arguments` as raw bytes (a file name that is not UTF-8), `stdin` and `stdout` from
    /// these paths (stdout: a file of its own when nil), killing it past `killAboveMiB` of memory or `killAfter` seconds.
    static func run(_ executable: String, _ arguments: [[UInt8]], environment: [String: String], stdin: String = "/dev/null",
                    stdout: String? = nil, killAboveMiB: Int? = nil, killAfter: Double? = nil) throws -> MeasuredRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outPath = directory.appendingPathComponent("stdout").path
        let errPath = directory.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv = ([Array(executable.utf8)] + arguments).map { bytes in
            (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { strdup($0.baseAddress!) }
        } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }
        var waitStatus: Int32 = 0
        var usage = rusage()
        // On Linux a spawned child's ru_maxrss starts from this process's own peak (posix_spawn
        // clones this address space before the exec), so a test process past the bound fails every
        // check. The child's own high-water mark, VmHWM, is read while it runs instead.
        var polledKB = 0
        var killed = false
        let start = Date()
        while true {
            let waited = wait4(pid, &waitStatus, WNOHANG, &usage)
            if waited == pid { break }
            if waited < 0 {
                guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
                continue
            }
            polledKB = max(polledKB, Self.highWaterKB(of: pid))
            // A run that breaks its bound is stopped, so a regression fails the test instead of the machine.
            if !killed, killAboveMiB.map({ polledKB > $0 * 1024 }) == true || killAfter.map({ Date().timeIntervalSince(start) > $0 }) == true {
                kill(pid, SIGKILL)
                killed = true
            }
            usleep(2_000)
        }
        let signal = waitStatus & 0x7F
        #if os(Linux)
        let peak = (polledKB > 0 ? polledKB : usage.ru_maxrss) * 1024   // kilobytes on Linux
        #else
        let peak = usage.ru_maxrss          // bytes on Darwin
        #endif
        return MeasuredRun(
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            status: signal == 0 ? (waitStatus >> 8) & 0xFF : nil,
            signal: signal == 0 ? nil : signal,
            peakBytes: peak)
    }

    /// Runs the shipped `authcheck` as a user would, with only `PATH` set.
    static func authcheck(_ arguments: [String], killAfter: Double? = nil) throws -> MeasuredRun {
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        return try run(try AuthCheckBinary.shipped.path.get(), arguments, environment: environment, killAfter: killAfter)
    }
}

/// One hostile file handed to `authcheck check`, and the exact diagnostic it must produce.
struct HostileFile: CustomTestStringConvertible, Sendable {
    enum Content: Sendable {
        case bytes(@Sendable () -> [UInt8])
        case text(@Sendable () -> String)
        /// A sparse file of this many bytes, nothing written.
        case sparse(Int)
        case directory
        case missing
        /// Not created here: the path is used as it is (e.g. `/dev/null`).
        case path(String)
    }

    var name: String
    var content: Content
    var arguments: [String] = []
    var status: Int32
    /// The expected standard error, with the spec's path written `SPEC`.
    var stderr: String

    var testDescription: String { name }
}

/// `authcheck` on hostile files, wrong options and flows too large to finish: it always exits
/// normally with the documented status and says what was wrong and where; limits end a run
/// cleanly as `incomplete` (exit 3) within a bounded amount of memory.
///
/// The loader's own corpus, with every message, is `HostileSpecTests` in `AuthFlowTests`.
@Suite struct HostileInputTests {
    static let minimal =
        #"{"format":"authflow/1","initial":"a","success":["b"],"abort":[],"steps":{"a":{"emits":{"go":[]}},"b":{}},"transitions":[{"from":"a","on":"go","to":"b"}]}"#

    static let files: [HostileFile] = [
        HostileFile(name: "a missing file", content: .missing, status: 2, stderr: "error: SPEC: no such file\n"),
        HostileFile(name: "a directory", content: .directory, status: 2, stderr: "error: SPEC: is a directory, not a spec file\n"),
        HostileFile(name: "an empty file", content: .text { "" }, status: 2, stderr: "error: SPEC: 1:1: $: malformed JSON: empty document\n"),
        HostileFile(name: "/dev/null", content: .path("/dev/null"), status: 2, stderr: "error: SPEC: 1:1: $: malformed JSON: empty document\n"),
        HostileFile(name: "a 9 MiB file", content: .sparse(9 << 20), status: 2,
                    stderr: "error: SPEC: the file is 9437184 bytes; the limit is 8388608 bytes\n"),
        HostileFile(name: "a truncated spec", content: .text { String(minimal.prefix(60)) }, status: 2,
                    stderr: "error: SPEC: 1:61: $: malformed JSON: expected ':' after object key, found end of input\n"),
        HostileFile(name: "invalid UTF-8", content: .bytes { Array(minimal.utf8.prefix(34)) + [0xFF] + Array(minimal.utf8.dropFirst(35)) }, status: 2,
                    stderr: "error: SPEC: 1:35: $: malformed JSON: invalid UTF-8 byte 0xFF\n"),
        HostileFile(name: "UTF-16", content: .bytes { [0xFE, 0xFF] + minimal.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }, status: 2,
                    stderr: "error: SPEC: 1:1: $: malformed JSON: the file must be UTF-8, but it starts with a UTF-16 (big-endian) byte-order mark\n"),
        HostileFile(name: "100,000 nested arrays", content: .text { String(repeating: "[", count: 100_000) }, status: 2,
                    stderr: "error: SPEC: 1:201: $: malformed JSON: nesting deeper than 200\n"),
        HostileFile(name: "a duplicate key", content: .text { minimal.replacingOccurrences(of: #""abort":[]"#, with: #""abort":[],"abort":[]"#) }, status: 2,
                    stderr: "error: SPEC: 1:65: $: malformed JSON: duplicate key \"abort\" (first at 1:54)\n"),
        HostileFile(name: "65 data keys", content: .text {
                        let steps = (0..<65).map { #""s\#($0)":{"requires":["k\#($0)"]}"# }.joined(separator: ",")
                        return #"{"format":"authflow/1","initial":"s0","success":[],"abort":[],"steps":{\#(steps)},"transitions":[]}"#
                    }, status: 2,
                    stderr: "error: SPEC: 1:1799: $.steps.s64.requires[0]: a flow may use at most 64 distinct data keys; 'k64' is one too many\n"),
        HostileFile(name: "a terminal escape in a state name",
                    content: .text { minimal.replacingOccurrences(of: #""to":"b""#, with: #""to":"\u001b[2J\u0007""#) }, status: 2,
                    stderr: #"error: SPEC: 1:148: $.transitions[0].to: state name '\u{1B}[2J\u{7}' contains U+001B, a control character; names may not contain control or invisible formatting characters"# + "\n"),
        HostileFile(name: "a wrong type in a step", content: .text { minimal.replacingOccurrences(of: #""b":{}"#, with: #""b":{"requires":"session"}"#) },
                    status: 2, stderr: "error: SPEC: 1:114: $.steps.b.requires: requires must be an array of strings, found string\n"),
        HostileFile(name: "a byte-order mark before a valid spec", content: .bytes { [0xEF, 0xBB, 0xBF] + Array(minimal.utf8) }, status: 0, stderr: ""),
        HostileFile(name: "--depth 65", content: .text { minimal }, arguments: ["--depth", "65"], status: 2,
                    stderr: "error: invalid value '65' for '--depth': expected a whole number from 0 to 64\n"),
        HostileFile(name: "--max-configurations past Int", content: .text { minimal }, arguments: ["--max-configurations", "99999999999999999999"], status: 2,
                    stderr: "error: invalid value '99999999999999999999' for '--max-configurations': expected a whole number from 1 to 9223372036854775807 (the largest this option takes)\n"),
        HostileFile(name: "--timeout past Double", content: .text { minimal }, arguments: ["--timeout", "1e400"], status: 2,
                    stderr: "error: invalid value '1e400' for '--timeout': expected a number of seconds greater than 0 and at most 1000000000, written in digits, such as 30 or 0.5\n"),
        HostileFile(name: "--timeout past its range", content: .text { minimal }, arguments: ["--timeout", "99999999999"], status: 2,
                    stderr: "error: invalid value '99999999999' for '--timeout': expected a number of seconds greater than 0 and at most 1000000000, written in digits, such as 30 or 0.5\n"),
        HostileFile(name: "--timeout nan", content: .text { minimal }, arguments: ["--timeout", "nan"], status: 2,
                    stderr: "error: invalid value 'nan' for '--timeout': expected a positive number of seconds, such as 30 or 0.5\n"),
    ]

    /// Writes `file`'s content into `directory` and returns the path to hand to `authcheck`.
    static func materialise(_ file: HostileFile, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("spec.json")
        switch file.content {
        case let .bytes(bytes): try Data(bytes()).write(to: url)
        case let .text(text): try Data(text().utf8).write(to: url)
        case let .sparse(size):
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
        case .directory: try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        case .missing: break
        case let .path(path): return path
        }
        return url.path
    }

    static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    @Test(arguments: files)
    func exitsWithTheStatusAndSaysWhatAndWhere(_ file: HostileFile) throws {
        try Self.withTemporaryDirectory { directory in
            let spec = try Self.materialise(file, in: directory)
            let run = try MeasuredRun.authcheck(["check"] + file.arguments + [spec])
            #expect(run.signal == nil, "\(run)")
            #expect(run.status == file.status, "\(run)")
            // Usage errors print the usage after the first line; an invalid spec's problem prints once, in the report.
            let stderr = run.stderr.replacingOccurrences(of: spec, with: "SPEC")
            let stdout = run.stdout.replacingOccurrences(of: spec, with: "SPEC")
            if file.status == 2, file.stderr.hasPrefix("error: invalid value") {
                #expect(stderr.hasPrefix(file.stderr), "\(run)")
            } else if file.status == 2 {
                let problem = file.stderr.replacingOccurrences(of: "error: SPEC: ", with: "")
                #expect(stderr == "", "\(run)")
                #expect(stdout.hasPrefix("SPEC: invalid — "), "\(run)")
                // A file that cannot be read is one line, `SPEC: invalid — no such file`; a problem inside it is listed below.
                #expect(stdout.contains("\n   \(problem)") || stdout == "SPEC: invalid — \(problem)", "\(run)")
            } else {
                #expect(stderr == file.stderr, "\(run)")
            }
        }
    }

    @Test func anInvalidSpecInJSONGivesItsLineAndColumn() throws {
        try Self.withTemporaryDirectory { directory in
            let spec = directory.appendingPathComponent("truncated.json")
            try Data(#"{"format": "authflow/1", "initial""#.utf8).write(to: spec)
            let run = try MeasuredRun.authcheck(["check", "--format", "json", spec.path])
            #expect(run.status == 2, "\(run)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
            #expect(object["verdict"] as? String == "invalid")
            let error = try #require(object["error"] as? [String: Any])
            #expect(error["line"] as? Int == 1)
            #expect(error["column"] as? Int == 35)
            #expect(error["message"] as? String == "$: malformed JSON: expected ':' after object key, found end of input")
        }
    }

    @Test func oneBadSpecAmongGoodOnesIsReportedAndTheOthersStillChecked() throws {
        try Self.withTemporaryDirectory { directory in
            let good = directory.appendingPathComponent("good.json")
            try Data(Self.minimal.utf8).write(to: good)
            let missing = directory.appendingPathComponent("missing.json").path
            let run = try MeasuredRun.authcheck(["check", good.path, missing, directory.path])
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr == "", "\(run)")
            #expect(run.stdout.contains("\(missing): invalid — no such file\n"), "\(run)")
            #expect(run.stdout.contains("\(directory.path): invalid — is a directory, not a spec file\n"), "\(run)")
            #expect(run.stdout.contains("\(good.path): holds"), "\(run)")
        }
    }

    // MARK: - Limits

    /// A wizard of 60 optional fields: step `fI` either provides key `kI` or skips it, so the flow
    /// has 2^60 configurations (far more than fit in memory) while every stack up to the depth
    /// bound is cheap (2 moves a step).
    static let sixtyOptionalFields: String = {
        let n = 60
        let steps = (0..<n).map { #""f\#($0)":{"emits":{"provide\#($0)":["k\#($0)"],"skip\#($0)":[]}}"# } + [#""done":{}"#]
        let rows = (0..<n).flatMap { i -> [String] in
            let next = i + 1 < n ? "f\(i + 1)" : "done"
            return [#"{"from":"f\#(i)","on":"provide\#(i)","to":"\#(next)"}"#, #"{"from":"f\#(i)","on":"skip\#(i)","to":"\#(next)"}"#]
        }
        return #"{"format":"authflow/1","name":"sixty optional fields","initial":"f0","success":["done"],"abort":[],"#
            + #""steps":{\#(steps.joined(separator: ","))},"transitions":[\#(rows.joined(separator: ","))]}"#
    }()

    /// The configuration space exceeds memory; `--max-configurations` stops the search cleanly.
    @Test func aFlowLargerThanMemoryStopsAtTheConfigurationLimitInBoundedMemory() throws {
        try Self.withTemporaryDirectory { directory in
            let spec = directory.appendingPathComponent("sixty.json")
            try Data(Self.sixtyOptionalFields.utf8).write(to: spec)
            let run = try MeasuredRun.authcheck(["check", "--max-configurations", "200000", spec.path])
            #expect(run.signal == nil, "\(run)")
            #expect(run.status == 3, "\(run)")
            #expect(run.stdout.hasPrefix("\(spec.path): incomplete — --max-configurations 200000 reached before the check was complete\n"), "\(run)")
            #expect(run.stdout.contains(" 200000 configurations, 8191 stacks at depth 12"), "\(run)")
            #expect(run.peakMiB < MeasuredRun.memoryBound(200), "peak RSS \(run.peakMiB) MiB: \(run)")

            // The same in JSON: the verdict, the counts reached and the limit that stopped it.
            let json = try MeasuredRun.authcheck(["check", "--format", "json", "--max-configurations", "200000", spec.path])
            #expect(json.status == 3, "\(json)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
            #expect(object["verdict"] as? String == "incomplete")
            let stats = try #require(object["stats"] as? [String: Any])
            #expect(stats["configurations"] as? Int == 200_000)
            #expect(json.stdout.contains("--max-configurations 200000 reached"), "\(json)")
        }
    }

    @Test func aTimeoutStopsTheSearchCleanly() throws {
        try Self.withTemporaryDirectory { directory in
            let spec = directory.appendingPathComponent("sixty.json")
            try Data(Self.sixtyOptionalFields.utf8).write(to: spec)
            let start = Date()
            let run = try MeasuredRun.authcheck(["check", "--timeout", "0.5", "--max-configurations", "100000000", spec.path])
            let elapsed = Date().timeIntervalSince(start)
            #expect(run.status == 3, "\(run)")
            #expect(run.stdout.hasPrefix("\(spec.path): incomplete — --timeout 0.5 s reached before the check was complete\n"), "\(run)")
            #expect(elapsed < 15, "took \(elapsed) s")
            #expect(run.peakMiB < MeasuredRun.memoryBound(200), "peak RSS \(run.peakMiB) MiB: \(run)")
        }
    }

    /// Regression: every JSON path under a step repeats the step's name, so a 200 KB name over
    /// 200,000 one-key entries once needed 40 GB of paths. The name is refused before anything
    /// under it is read.
    @Test func aLongNameOverManyEntriesIsRefusedInBoundedMemory() throws {
        try Self.withTemporaryDirectory { directory in
            let name = String(repeating: "s", count: 200_000)
            let requires = Array(repeating: #""k""#, count: 200_000).joined(separator: ",")
            let spec = directory.appendingPathComponent("long-name.json")
            let json = #"{"format":"authflow/1","initial":"s","success":[],"abort":[],"steps":{"\#(name)":{"requires":[\#(requires)]}},"transitions":[]}"#
            try Data(json.utf8).write(to: spec)
            let run = try MeasuredRun.authcheck(["check", spec.path])
            #expect(run.status == 2, "\(run)")
            #expect(run.stdout.contains(": state name '\(String(repeating: "s", count: 64))…(200000 bytes)' is 200000 bytes long; names may be at most 128 bytes"),
                    "\(run)")
            #expect(run.peakMiB < MeasuredRun.memoryBound(200), "peak RSS \(run.peakMiB) MiB: \(run)")
        }
    }

    @Test func aClipboardOfInvisibleCharactersNormalises() throws {
        // One argument may hold at most 128 KiB (MAX_ARG_STRLEN); this is about 80 KB.
        let pasted = String(repeating: "\u{200B}\u{FEFF}", count: 10_000) + "１２３ ４５６" + String(repeating: "\u{301}", count: 10_000)
        let run = try MeasuredRun.authcheck(["passcode", pasted, "", "\u{1B}[2J"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "123456\n\n2J\n", "\(run)")
    }

    // MARK: - Single-task types

    static let swiftc: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The compiler, not a comment, keeps a session on one task: sharing a `FlowSession` or a
    /// `StateMachine` between tasks does not compile, while using one on a single task does.
    @Test(.enabled(if: swiftc != nil, "needs swiftc on PATH"))
    func runtimeTypesCannotBeSharedBetweenTasks() throws {
        let modules = AuthCheckBinary.productsDirectory.appendingPathComponent("Modules").path
        func compile(_ body: String) throws -> MeasuredRun {
            try Self.withTemporaryDirectory { directory in
                let file = directory.appendingPathComponent("snippet.swift")
                try Data("import AuthFlow\nfunc snippet() async throws {\n\(body)\n}\n".utf8).write(to: file)
                return try MeasuredRun.run(try #require(Self.swiftc),
                                           ["-swift-version", "6", "-emit-sil", "-o", "/dev/null", "-I", modules, file.path],
                                           environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                                                         "HOME": NSTemporaryDirectory()])
            }
        }
        let session = "let session = try FlowSession<String, String, String, FlowValue>(initial: \"a\", transitions: [], contracts: [:])"
        let machine = "let machine = try StateMachine<String, String>(initial: \"a\")"

        let oneTask = try compile("\(session)\n\(machine)\n_ = try? session.back()\n_ = machine.state")
        try #require(oneTask.status == 0, "the control snippet must compile: \(oneTask)")

        let shared = try compile("""
            \(session)
            Task.detached { _ = try? session.back() }
            _ = try? session.back()
            \(machine)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = machine.state }
                group.addTask { _ = machine.state }
            }
            func needsSendable<T: Sendable>(_: T) {}
            """)
        #expect(shared.status != 0, "\(shared)")
        #expect(shared.stderr.contains("sending value of non-Sendable type"), "\(shared)")
        #expect(shared.stderr.contains("passing closure as a 'sending' parameter risks causing data races"), "\(shared)")

        let conformance = try compile("\(session)\n\(machine)\nfunc needsSendable<T: Sendable>(_: T) {}\nneedsSendable(session)\nneedsSendable(machine)")
        #expect(conformance.stderr.contains("type 'FlowSession<String, String, String, FlowValue>' does not conform to the 'Sendable' protocol"), "\(conformance)")
        #expect(conformance.stderr.contains("type 'StateMachine<String, String>' does not conform to the 'Sendable' protocol"), "\(conformance)")
    }
}
