@testable import AuthFlowChecker
import Foundation

/// Runs SPIN on a model: `spin -a`, `cc -DSAFETY`, `./pan -c0`, in a fresh temporary folder.
enum Spin {
    /// The `spin` executable on the `PATH`, if any.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/spin" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isInstalled: Bool { executable != nil }

    /// Why a SPIN cross-check is skipped.
    static let absent = "spin is not installed (apt-get update && apt-get install -y spin): the SPIN cross-check is skipped"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What pan reported.
    struct Run {
        /// `states, stored`.
        var stored: Int
        /// The properties of the errors pan reported, named by their assertions or the invalid end state.
        var violated: Set<Property>
        /// pan's output, for a failure's message.
        var output: String
    }

    /// The `states, stored` SPIN reports for `model` explored to `depth` (assertion failures do not stop it).
    static func statesStored(_ model: String, depth: Int, stating properties: [Property] = PromelaExporter.properties) throws -> Int {
        try run(model, stating: properties, searchDepth: depth + 10, expectedStates: 0).stored
    }

    /// Runs pan on `model` to the end, every error counted (`-c0`).
    ///
    /// - Parameters:
    ///   - properties: the properties the model states, ``PromelaExporter/properties(of:)`` of its flow:
    ///     the names pan's errors are read back to. The built-in ones by default.
    ///   - searchDepth: pan's `-m`, the deepest its depth-first search goes: more than the stack
    ///     bound, or than the number of configurations. A search cut short by it is a failure.
    ///   - expectedStates: a hint that sizes pan's hash table (`-w`); any size gives the same answer.
    /// - Throws: ``Failure`` when a tool fails, pan's search is cut short, or pan reports an error no property explains.
    static func run(_ model: String, stating properties: [Property] = PromelaExporter.properties, searchDepth: Int,
                    expectedStates: Int) throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authcheck-spin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try model.write(to: folder.appendingPathComponent("flow.pml"), atomically: true, encoding: .utf8)
        _ = try run(executable!, ["-a", "flow.pml"], in: folder)
        _ = try run("/usr/bin/env", ["cc", "-w", "-DSAFETY", "-o", "pan", "pan.c"], in: folder)
        // The default table (2^24 slots) takes longer to clear than these models take to search.
        let slots = max(12, min(24, Int.bitWidth - max(1, expectedStates).leadingZeroBitCount + 1))
        let output = try run(folder.appendingPathComponent("pan").path, ["-m\(searchDepth)", "-c0", "-w\(slots)"], in: folder)
        guard let line = output.split(separator: "\n").first(where: { $0.contains("states, stored") }),
              let stored = Int(line.split(separator: " ").first ?? "") else {
            throw Failure(description: "no 'states, stored' line in pan's output:\n\(output)")
        }
        if output.contains("max search depth too small") {
            throw Failure(description: "pan's search was cut at depth \(searchDepth):\n\(output)")
        }
        var violated = Set<Property>()
        // pan prints every error as `pan:N: MESSAGE (at depth D)`, skipping only a repeat of the one before.
        for line in output.split(separator: "\n") where line.hasPrefix("pan:") && line.contains(" (at depth ") {
            guard let property = PromelaExporter.property(reportedBy: line, among: properties) else {
                throw Failure(description: "pan reported an error no property explains: \(line)\n\(output)")
            }
            violated.insert(property)
        }
        return Run(stored: stored, violated: violated, output: output)
    }

    /// Runs `tool` with `arguments` in `folder`; returns its standard output, or throws with its standard error.
    static func run(_ tool: String, _ arguments: [String], in folder: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                          + String(decoding: err + out, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
