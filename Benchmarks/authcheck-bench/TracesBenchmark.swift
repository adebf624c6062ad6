import FlowGenerators
import AuthFlow
import AuthFlowChecker
import Foundation

/// `authcheck traces` on generated corpora: records per second and peak memory of the shipped binary.
enum TracesBenchmark {
    /// `corpus SPEC RECORDS SEED BROKEN FILE [CONCURRENCY]`: writes a corpus of at least RECORDS records drawn from the spec.
    ///
    /// CONCURRENCY sessions open at once (default 200), a record every 40 ms of log time on average;
    /// BROKEN is the fraction of sessions broken on purpose. Prints `records=… sessions=… broken=…`,
    /// then each broken session's id, line and fault on stderr.
    static func corpus(_ arguments: ArraySlice<String>) throws {
        let arguments = Array(arguments)
        guard arguments.count == 5 || arguments.count == 6, let records = Int(arguments[1]), let seed = UInt64(arguments[2]),
              let broken = Double(arguments[3]), let concurrency = arguments.count == 6 ? Int(arguments[5]) : 200 else {
            throw Measure.UsageError(description: "usage: authcheck-bench corpus SPEC RECORDS SEED BROKEN FILE [CONCURRENCY]")
        }
        let model = try SpecLoader.load(file: arguments[0])
        var options = TraceCorpus.Options()
        options.sessions = .max
        options.records = records
        options.seed = seed
        options.brokenFraction = broken
        options.concurrency = concurrency
        guard FileManager.default.createFile(atPath: arguments[4], contents: nil),
              let handle = FileHandle(forWritingAtPath: arguments[4]) else {
            throw Measure.UsageError(description: "cannot write \(arguments[4])")
        }
        defer { try? handle.close() }
        let summary = TraceCorpus.generate(model, options: options) { handle.write(Data($0)) }
        print("records=\(summary.records) sessions=\(summary.sessions) broken=\(summary.broken.count)")
        if summary.broken.count <= 100 {
            for entry in summary.broken {
                FileHandle.standardError.write(Data("broken: \(entry.session) line \(entry.line) \(entry.fault.rawValue)\n".utf8))
            }
        }
    }

    /// `traces SPEC FILE`: the replay in this process (when `/usr/bin/time` is missing), as a child measures it.
    static func replay(_ arguments: ArraySlice<String>) throws {
        let arguments = Array(arguments)
        guard arguments.count == 2 else { throw Measure.UsageError(description: "usage: authcheck-bench traces SPEC FILE") }
        let model = try SpecLoader.load(file: arguments[0])
        let cpuStart = Measure.cpuSeconds()
        let start = Date()
        var replay = TraceReplay(model: model, spec: arguments[0])
        try replay.read(try TraceInput.file(arguments[1]))
        let report = replay.finish()
        print("records=\(report.records) seconds=\(Date().timeIntervalSince(start)) cpu=\(Measure.cpuSeconds() - cpuStart) "
              + "broken=\(report.sessions.broken) problems=\(report.problemTotal) peakOpen=\(report.sessions.peakOpen) peakKB=\(Measure.peakKB())")
    }

    /// One run of `authcheck traces` on a corpus.
    struct Run {
        var records: Int
        var seconds: Double
        var cpu: Double
        var peakMB: Double
        var broken: Int
        var problems: Int
        var peakOpen: Int
        var rate: Double { seconds > 0 ? Double(records) / seconds : 0 }
        var cpuRate: Double { cpu > 0 ? Double(records) / cpu : 0 }
    }

    /// Runs the shipped `authcheck traces --format json` under `/usr/bin/time -v`: wall and CPU time, peak RSS.
    static func timed(authcheck: String, spec: String, file: String) throws -> Run {
        let stats = NSTemporaryDirectory() + "authcheck-traces-\(getpid()).time"
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-v", "-o", stats, authcheck, "traces", "--format", "json", "--max-listed", "0", spec, file]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard [0, 1].contains(process.terminationStatus) else {
            throw Measure.UsageError(description: "authcheck traces exited \(process.terminationStatus)")
        }
        let text = try String(contentsOfFile: stats, encoding: .utf8)
        func field(_ name: String) -> String {
            text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name) }
                .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? ""
        }
        // "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:05.12" has colons of its own: take what follows "): ".
        let elapsedLine = text.split(separator: "\n").first { $0.contains("Elapsed (wall clock)") }.map(String.init) ?? ""
        let clock = elapsedLine.components(separatedBy: "): ").last ?? "0"
        let seconds = clock.split(separator: ":").reduce(0.0) { $0 * 60 + (Double($1) ?? 0) }
        let cpu = (Double(field("User time (seconds)")) ?? 0) + (Double(field("System time (seconds)")) ?? 0)
        let peakKB = Double(field("Maximum resident set size (kbytes)")) ?? 0
        guard let root = try? JSONParser.parse(Array(data)) else {
            throw Measure.UsageError(description: "authcheck traces printed no JSON report")
        }
        func int(_ node: JSONNode?) -> Int {
            if case .number(let number)? = node?.value { return number.int ?? -1 }
            return -1
        }
        var problems = 0
        if case .object(let counts)? = root["counts"]?["problems"]?.value {
            problems = counts.reduce(0) { $0 + max(0, int($1.value)) }
        }
        return Run(records: int(root["stats"]?["records"]), seconds: seconds, cpu: cpu, peakMB: peakKB / 1024,
                   broken: int(root["sessions"]?["broken"]), problems: problems, peakOpen: int(root["sessions"]?["peakOpen"]))
    }
}
