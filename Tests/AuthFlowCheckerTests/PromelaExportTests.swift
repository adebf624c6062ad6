import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The Promela export states section 4's stack walk so that SPIN stores exactly one state per stack, plus its initial state.
@Suite struct PromelaExportTests {
    // MARK: The text

    @Test func everyLegalMoveIsOnePushAndBackIsOnePopWhereTheSpecAllowsIt() throws {
        let model = try SpecLoader.load(json: """
        { "format": "authflow/1", "initial": "start", "success": ["done"], "abort": ["quit"],
          "steps": { "start": { "back": false, "emits": { "go": ["email"], "stray": [] } },
                     "form": { "requires": ["email"], "emits": { "submit": ["token"], "quit": [] } },
                     "done": { "requires": ["token"] }, "quit": {} },
          "transitions": [ { "from": "start", "on": "go", "to": "form" }, { "from": "form", "on": "submit", "to": "done" },
                           { "from": "form", "on": "quit", "to": "quit" } ] }
        """)
        let text = PromelaExporter.export(model, depth: 5)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("#define DEPTH 5"))
        #expect(lines.contains("    d_step { st[0] = 0 }   /* the root frame: (start, {}) */"))
        // One push per legal move (stray has no transition: left out), asserting the target's requires.
        let pushes = lines.filter { $0.contains("sp++") }
        #expect(pushes == [
            "    :: d_step { st[sp] == 0 && sp < DEPTH -> sp++; st[sp] = 1; kd0[sp] = kd0[sp - 1] | 1; assert((kd0[sp] & 1) == 1) }",
            "    :: d_step { st[sp] == 1 && sp < DEPTH -> sp++; st[sp] = 2; kd0[sp] = kd0[sp - 1] | 2; assert((kd0[sp] & 2) == 2) }",
            "    :: d_step { st[sp] == 1 && sp < DEPTH -> sp++; st[sp] = 3; kd0[sp] = kd0[sp - 1] }",
        ])
        // Back only from `form`: start has back false, done and quit are terminal. The popped slot is zeroed.
        let pops = lines.filter { $0.contains("sp--") }
        #expect(pops == ["    :: d_step { sp > 0 && (st[sp] == 1) -> st[sp] = 0; kd0[sp] = 0; sp-- }"])
        #expect(text.contains("states stored = stacks + 1"))
    }

    /// A flow whose first step adds any one of `keys` keys, so every key's bit is set within two events.
    static func wide(keys: Int) throws -> FlowModel {
        try FlowModel(spec: FlowSpec(
            name: "wide", initial: "pick", success: ["done"], abort: [],
            steps: [
                FlowSpec.Step("pick", emits: (0..<keys).map { FlowSpec.Emission("pick\($0)", adds: ["k\($0)"]) }),
                FlowSpec.Step("review", emits: [FlowSpec.Emission("again", adds: ["k\(keys - 1)"]), FlowSpec.Emission("finish")]),
                FlowSpec.Step("done"),
            ],
            transitions: (0..<keys).map { FlowSpec.TransitionRow(from: "pick", on: "pick\($0)", to: "review") }
                + [FlowSpec.TransitionRow(from: "review", on: "again", to: "review"),
                   FlowSpec.TransitionRow(from: "review", on: "finish", to: "done")]))
    }

    @Test(arguments: [(1, "byte", 1), (8, "byte", 1), (9, "short", 1), (15, "short", 1), (16, "int", 1), (31, "int", 1),
                      (32, "int", 2), (63, "int", 3), (64, "int", 3)])
    func dataKeysTakeTheSmallestWordsThatHoldThem(_ keys: Int, _ type: String, _ words: Int) throws {
        let model = try Self.wide(keys: keys)
        let layout = PromelaExporter.Layout(model: model, depth: 3)
        #expect(layout.wordType == type)
        #expect(layout.words == words)
        let text = PromelaExporter.export(model, depth: 3)
        #expect(text.contains("\(type) kd\(words - 1)[DEPTH + 1];"))
        #expect(!text.contains("kd\(words)[DEPTH + 1]"))
        // Every bit of every key set lands in exactly one word, and no word is negative.
        for state in 0..<model.stateCount {
            for move in model.moves[state] {
                var rebuilt: UInt64 = 0
                for word in 0..<layout.words {
                    let bits = layout.word(word, of: move.adds)
                    #expect(bits < 1 << UInt64(layout.bitsPerWord))
                    rebuilt |= bits << UInt64(word * layout.bitsPerWord)
                }
                #expect(rebuilt == move.adds.bits)
            }
        }
    }

    @Test func namesCannotCloseAComment() {
        #expect(PromelaExporter.comment("a*/b/*c\nd") == "a* /b/ *c d")
    }

    // MARK: SPIN agrees on the count

    // The static specs: the export does not write authflow/2 guards and values yet.
    static let cases: [(String, Int)] = Files.staticSpecs.flatMap { path in [0, 1, 4, 9].map { (path, $0) } }
        + ["mfa-bypass", "unmet-requirement", "illegal-transition"].map { (Files.broken($0), 6) }

    @Test(.enabled(if: Spin.isInstalled, "spin is not installed (apt-get install spin): the SPIN cross-check is skipped"),
          arguments: cases)
    func spinStoresOneStatePerStackPlusItsInitialState(_ path: String, _ depth: Int) throws {
        let model = try Files.model(path)
        let stacks = RuntimeExplorer(model: model).countStacks(depth: depth)
        let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: depth)
        let stored = try Spin.statesStored(PromelaExporter.export(model, depth: depth), depth: depth)
        #expect(walk.stacks == stacks)
        #expect(stored == stacks + 1, "\(path) at depth \(depth)")
    }

    @Test(.enabled(if: Spin.isInstalled, "spin is not installed (apt-get install spin): the SPIN cross-check is skipped"),
          arguments: [9, 40, 64])
    func spinAgreesWhenTheDataTakesSeveralWords(_ keys: Int) throws {
        let model = try Self.wide(keys: keys)
        let stacks = RuntimeExplorer(model: model).countStacks(depth: 4)
        #expect(try Spin.statesStored(PromelaExporter.export(model, depth: 4), depth: 4) == stacks + 1)
    }

    @Test(.enabled(if: Spin.isInstalled, "spin is not installed (apt-get install spin): the SPIN cross-check is skipped"))
    func spinAgreesOnAGeneratedFlowOfHundredsOfStates() throws {
        let model = try FlowModel(spec: SyntheticFlow.make(states: 300, keys: 16, seed: 4))
        let stacks = RuntimeExplorer(model: model).countStacks(depth: 6)
        #expect(try Spin.statesStored(PromelaExporter.export(model, depth: 6), depth: 6) == stacks + 1)
    }
}

/// Runs SPIN on a model: `spin -a`, `cc -DSAFETY`, `./pan`, in a fresh temporary folder.
enum Spin {
    /// The `spin` executable on the `PATH`, if any.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/spin" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isInstalled: Bool { executable != nil }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The `states, stored` SPIN reports for `model` explored to `depth` (assertion failures do not stop it).
    static func statesStored(_ model: String, depth: Int) throws -> Int {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authcheck-spin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try model.write(to: folder.appendingPathComponent("flow.pml"), atomically: true, encoding: .utf8)
        _ = try run(executable!, ["-a", "flow.pml"], in: folder)
        _ = try run("/usr/bin/env", ["cc", "-w", "-DSAFETY", "-o", "pan", "pan.c"], in: folder)
        let output = try run(folder.appendingPathComponent("pan").path, ["-m\(depth + 10)", "-c0"], in: folder)
        guard let line = output.split(separator: "\n").first(where: { $0.contains("states, stored") }),
              let count = Int(line.split(separator: " ").first ?? "") else {
            throw Failure(description: "no 'states, stored' line in pan's output:\n\(output)")
        }
        return count
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
