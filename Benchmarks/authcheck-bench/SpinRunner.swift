import AuthFlow
import AuthFlowChecker
import Foundation

/// Runs SPIN 6 on the Promela export of a flow: `spin -a`, `cc -O2 -DSAFETY -DMEMLIM`, `./pan`.
struct SpinRunner {
    /// What `pan` reported.
    struct Result {
        var stored: Int
        var seconds: Double
        /// The CPU time pan used (its whole run: allocating the hash table included).
        var cpuSeconds: Double
        var memoryMB: Double
        var errors: Int
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let spin: String
    /// The most memory pan may use, in MB (its `-DMEMLIM`).
    var memoryLimitMB = 16_000

    /// The `spin` on the `PATH`, if there is one.
    static func find() -> SpinRunner? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/spin" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
            .map { SpinRunner(spin: $0) }
    }

    /// SPIN's version line.
    func version() -> String {
        (try? Shell.run(spin, ["-V"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? "spin"
    }

    /// Explores `model` to `depth` with pan, sizing its hash table for `expected` states.
    func run(_ model: FlowModel, depth: Int, expected: Int) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authcheck-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try PromelaExporter.export(model, depth: depth).write(to: folder.appendingPathComponent("flow.pml"),
                                                              atomically: true, encoding: .utf8)
        _ = try Shell.run(spin, ["-a", "flow.pml"], in: folder)
        _ = try Shell.run("/usr/bin/env", ["cc", "-O2", "-w", "-DSAFETY", "-DMEMLIM=\(memoryLimitMB)", "-o", "pan", "pan.c"], in: folder)
        // A hash table of about twice the states, as pan's own hint advises (-w24 is its default).
        var bits = 10
        while (1 << bits) < 2 * expected && bits < 30 { bits += 1 }
        let cpuBefore = Measure.childrenCPUSeconds()
        let output = try Shell.run(folder.appendingPathComponent("pan").path, ["-m\(depth + 10)", "-w\(bits)"], in: folder)
        let cpu = Measure.childrenCPUSeconds() - cpuBefore
        func number(before marker: String) -> Double? {
            guard let line = output.split(separator: "\n").first(where: { $0.contains(marker) }) else { return nil }
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }.first
        }
        func number(after marker: String) -> Double? {
            guard let line = output.split(separator: "\n").first(where: { $0.contains(marker) }),
                  let range = line.range(of: marker) else { return nil }
            return line[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }.first
        }
        guard let stored = number(before: "states, stored"),
              let seconds = number(after: "elapsed time"),
              let memory = number(before: "total actual memory usage") else {
            throw Failure(description: "cannot read pan's output:\n\(output)")
        }
        let errors = output.split(separator: "\n").first { $0.contains("errors:") }
            .flatMap { $0.components(separatedBy: "errors:").last }
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
        return Result(stored: Int(stored), seconds: seconds, cpuSeconds: cpu, memoryMB: memory, errors: errors)
    }
}

/// Runs a program and returns its standard output.
enum Shell {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ tool: String, _ arguments: [String], in folder: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let output = Pipe()
        let errors = FileHandle(forWritingAtPath: "/dev/null")
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus):\n\(text)")
        }
        return text
    }
}
