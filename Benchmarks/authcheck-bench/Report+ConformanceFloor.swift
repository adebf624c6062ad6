import Foundation

/// The conformance walk against the app's own calls (its floor), for a synchronous coordinator with undo and an async one, on two flows.
extension Report {
    /// One flow and app the section measures: the child's APP argument, its modes, and the depths measured.
    struct FloorCase {
        var spec: String
        var app: String
        var label: String
        var isAsync: Bool
        var depth: Int
        var instructionsDepth: Int
        var target: Double
    }

    /// CPU seconds of `conformance SPEC DEPTH MODE APP`, the least of `runs` (the walk and its floors interleaved by the caller).
    func floorChild(_ spec: String, _ depth: Int, _ mode: String, _ app: String) throws -> (stacks: Int, cpu: Double) {
        let fields = try child(["conformance", "\(root)/\(spec)", String(depth), mode, app])
        return (Int(fields["stacks"] ?? "") ?? -1, Double(fields["cpu"] ?? "") ?? 0)
    }

    /// Instructions of the measured part of `conformance SPEC DEPTH MODE APP`: one run under callgrind, less one that
    /// does everything else (`BENCH_SETUP_ONLY=1`). Nil without valgrind.
    func floorInstructions(_ spec: String, _ depth: Int, _ mode: String, _ app: String) throws -> Int? {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile) else { return nil }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var counts: [Int] = []
        for setupOnly in [false, true] {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("authcheck-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: valgrind)
            process.arguments = ["--tool=callgrind", "--callgrind-out-file=\(scratch.path).out", "--log-file=\(scratch.path).log",
                                 me, "conformance", "\(root)/\(spec)", String(depth), mode, app]
            var environment = ProcessInfo.processInfo.environment
            environment["BENCH_SETUP_ONLY"] = setupOnly ? "1" : "0"
            process.environment = environment
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            process.waitUntilExit()
            let log = (try? String(contentsOfFile: scratch.path + ".log", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: scratch.path + ".log")
            try? FileManager.default.removeItem(atPath: scratch.path + ".out")
            guard process.terminationStatus == 0,
                  let line = log.split(separator: "\n").first(where: { $0.contains("Collected :") }),
                  let count = Int(line.split(separator: " ").last ?? "") else { return nil }
            counts.append(count)
        }
        return counts[0] - counts[1]
    }

    /// Emits the section; returns its target lines.
    func conformanceFloorSection(_ emit: (String) -> Void) throws -> [String] {
        let cases = [
            FloorCase(spec: "Specs/email-first.json", app: "sign-in", label: "`SignInCoordinator` (the example app), with undo",
                      isAsync: false, depth: quick ? 16 : 20, instructionsDepth: quick ? 12 : 16, target: 1.5),
            FloorCase(spec: "Specs/sign-in-next-step.json", app: "next-step", label: "`NextStepCoordinator` (a `switch` coordinator), with undo",
                      isAsync: false, depth: quick ? 12 : 16, instructionsDepth: quick ? 10 : 12, target: 1.5),
            FloorCase(spec: "Specs/email-first.json", app: "async-sign-in", label: "`AsyncEmailFirstModel` (`@MainActor`, async)",
                      isAsync: true, depth: quick ? 8 : 10, instructionsDepth: 8, target: 3),
            FloorCase(spec: "Specs/sign-in-next-step.json", app: "async-next-step",
                      label: "`AsyncNextStepModel` (`@MainActor`, awaits a `PlayedBackend`)", isAsync: true,
                      depth: quick ? 8 : 10, instructionsDepth: 8, target: 3),
        ]
        let runs = max(3, repeats)
        emit("## The conformance walk against the app's own calls")
        emit("")
        emit("`FlowConformance.explore` (synchronous apps, backtracking with their `undo()`) and `AsyncFlowConformance.explore` "
             + "(`@MainActor` apps, the walk run ahead of the app: each call answered as the spec expects, queued with its frame's "
             + "comparison and awaited in turn on the main actor, up to 4,096 calls per hop; backtracking by replays: an async app "
             + "has no undo) "
             + "against the floor: every call the walk makes to the app (its factory, `send`, `receive`, `back`, `undo`, and its "
             + "`state` and `data` getters), recorded once and replayed on fresh apps with no checking (`authcheck-bench "
             + "conformance SPEC DEPTH floor APP`). An async app's floor awaits the same calls in turn from one task on the main "
             + "actor, as the app's own code awaits them; *floor, hopping* awaits each action with its reads in one hop from a "
             + "thread, a task and a semaphore each, as the checker does. CPU seconds: the least of \(runs) interleaved runs; "
             + "instructions: valgrind `--tool=callgrind`, one run of the measured part (a run without it subtracted), which the "
             + "shared machine's load does not move. Targets: at most 1.5× the floor for a synchronous coordinator with undo, "
             + "3× for an async one.")
        emit("")
        emit("| flow | app | depth | stacks | walk CPU s | floor CPU s | walk ÷ floor (CPU) | instructions at depth | walk | floor "
             + "| walk ÷ floor (instructions) | floor, hopping: CPU s · instructions |")
        emit("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        var targets: [String] = []
        var hopShares: [String] = []
        for c in cases {
            let walkMode = c.isAsync ? "walk" : "undo"
            var walk = (stacks: 0, cpu: Double.infinity), floor = walk, hops = walk
            for _ in 0..<runs {
                let w = try floorChild(c.spec, c.depth, walkMode, c.app)
                let f = try floorChild(c.spec, c.depth, "floor", c.app)
                walk = (w.stacks, min(walk.cpu, w.cpu))
                floor = (f.stacks, min(floor.cpu, f.cpu))
                if c.isAsync {
                    let h = try floorChild(c.spec, c.depth, "floor-hops", c.app)
                    hops = (h.stacks, min(hops.cpu, h.cpu))
                }
            }
            let irWalk = try floorInstructions(c.spec, c.instructionsDepth, walkMode, c.app)
            let irFloor = try floorInstructions(c.spec, c.instructionsDepth, "floor", c.app)
            let irHops = c.isAsync ? try floorInstructions(c.spec, c.instructionsDepth, "floor-hops", c.app) : nil
            let cpuRatio = floor.cpu > 0 ? walk.cpu / floor.cpu : 0
            let irRatio = irWalk.flatMap { w in irFloor.map { $0 > 0 ? Double(w) / Double($0) : 0 } }
            let same = walk.stacks == floor.stacks && (!c.isAsync || hops.stacks == walk.stacks)
            func count(_ n: Int?) -> String { n.map { Double($0) >= 1e9 ? "\(f(Double($0) / 1e9, 2)) G" : "\(f(Double($0) / 1e6, 1)) M" } ?? "–" }
            var hopsText = "–"
            if c.isAsync {
                let cpuShare = f(hops.cpu > 0 ? walk.cpu / hops.cpu : 0, 2)
                var irShare = ""
                if let w = irWalk, let h = irHops, h > 0 { irShare = ", \(f(Double(w) / Double(h), 2))× instructions" }
                hopsText = "\(f(hops.cpu, 3)) s · \(count(irHops)) (walk ÷ it: \(cpuShare)× CPU\(irShare))"
            }
            let ratioText = irRatio.map { "\(f($0, 2))×" } ?? "–"
            emit("| `\(c.spec)` | \(c.label) | \(c.depth) | \(walk.stacks)\(same ? "" : " **differ**") | \(f(walk.cpu, 3)) | \(f(floor.cpu, 3)) "
                 + "| \(f(cpuRatio, 2))× | \(c.instructionsDepth) | \(count(irWalk)) | \(count(irFloor)) | \(ratioText) | \(hopsText) |")
            if c.isAsync, hops.cpu > 0 {
                hopShares.append("\(f(walk.cpu / hops.cpu, 2))× on `\(c.spec)`")
            }
            let worst = max(cpuRatio, irRatio ?? 0)
            targets.append("- the conformance walk of \(c.label) on `\(c.spec)`: \(f(cpuRatio, 2))× its floor in CPU at depth \(c.depth)"
                           + (irRatio.map { ", \(f($0, 2))× in instructions at depth \(c.instructionsDepth)" } ?? "")
                           + (worst <= c.target ? " — met" : " — **not met**") + " (target at most \(f(c.target, 1))×)")
        }
        emit("")
        emit("The synchronous walks' cost over the floor is the checker's own: typing values, comparing each frame (a "
             + "dictionary already matched at the same height and frame is not compared again), the walk's bookkeeping. "
             + "The async walks run ahead of the app and await its calls in batches on the main actor, where the app runs; "
             + "against their calls awaited one hop each (a task, a thread switch to the main actor and a semaphore per call, "
             + "several microseconds each where the app's call takes well under one), as the checker awaited them before: "
             + "walk ÷ floor, hopping \(hopShares.joined(separator: ", ")). "
             + "Instructions are not given for the async rows: valgrind 3.19 stops with an internal error in "
             + "`dispatchMain`'s `sigsuspend`.")
        emit("")
        // FlowConformance.replay, which reuses the flow's analysis and its driver.
        let replay = try child(["replay", "\(root)/Specs/email-first.json", "2000"])
        emit("`FlowConformance.replay` of a 4-step path of `Specs/email-first.json` on the example coordinator "
             + "(`authcheck-bench replay`, CPU per replay, 2,000 replays each way): \(f(Double(replay["reusedMicros"] ?? "") ?? 0, 1)) µs "
             + "on one `FlowConformance`, whose analysis and driver every replay after the first reuses; "
             + "\(f(Double(replay["freshMicros"] ?? "") ?? 0, 1)) µs with a new `FlowConformance` per replay, each making its own "
             + "(what every replay cost before they were reused, with the driver's tables on top).")
        emit("")
        return targets
    }
}
