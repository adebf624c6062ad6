import FlowGenerators
import AuthFlow
import AuthFlowChecker
import Foundation

/// The whole benchmark: runs every measurement (authcheck in child processes, SPIN through pan) and prints Markdown.
struct Report {
    var quick = false
    /// Only the `authcheck traces` section (Benchmarks/run.sh --traces-only splices it into results.md).
    var tracesOnly = false
    /// Only the section on real `authflow/2` flows (Benchmarks/run.sh --real-v2-only splices it into results.md).
    var realFlowsOnly = false
    /// Only the section on the conformance walk against the app's own calls (Benchmarks/run.sh --conformance-only).
    var conformanceOnly = false
    var repeats = 1
    var useSpin = true
    var root = FileManager.default.currentDirectoryPath

    init(arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--traces-only": tracesOnly = true
            case "--real-v2-only": realFlowsOnly = true
            case "--conformance-only": conformanceOnly = true
            case "--no-spin": useSpin = false
            case "--repeat":
                guard let value = rest.popFirst().flatMap(Int.init), value >= 1 else {
                    throw Measure.UsageError(description: "--repeat needs a count of at least 1")
                }
                repeats = value
            case "--root":
                guard let value = rest.popFirst() else { throw Measure.UsageError(description: "--root needs a folder") }
                root = value
            default:
                throw Measure.UsageError(description: "unknown argument \(argument) (try --help)")
            }
        }
    }

    /// One authcheck walk, as measured by its child process (the best of `repeats` runs).
    struct Walk {
        var stacks: Int
        var seconds: Double
        /// CPU seconds of the walk, every thread.
        var cpu: Double
        var peakMB: Double
        var rate: Double { seconds > 0 ? Double(stacks) / seconds : 0 }
        var cpuRate: Double { cpu > 0 ? Double(stacks) / cpu : 0 }
    }

    /// The spec a benchmark row runs: `Specs/NAME.json`, except session-restore, whose authflow/1 form (kept as a
    /// test fixture since Specs/ holds its authflow/2 rewrite) keeps the figures comparable with earlier runs.
    func spec(_ name: String) -> String {
        name == "session-restore" ? "\(root)/Tests/AuthCheckEndToEndTests/Expected/specs/session-restore-v1.json" : "\(root)/Specs/\(name).json"
    }

    /// Runs `authcheck-bench ARGUMENTS` as a child and returns its one line of fields.
    func child(_ arguments: [String]) throws -> [String: String] {
        let line = try Shell.run(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, arguments)
        return Measure.fields(line.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func walk(_ name: String, depth: Int, workers: Int) throws -> Walk {
        var best: Walk?
        for _ in 0..<repeats {
            let fields = try child(["walk", spec(name), String(depth), String(workers)])
            let run = Walk(stacks: Int(fields["stacks"] ?? "") ?? -1, seconds: Double(fields["seconds"] ?? "") ?? 0,
                           cpu: Double(fields["cpu"] ?? "") ?? 0, peakMB: (Double(fields["peakKB"] ?? "") ?? 0) / 1024)
            if best == nil || run.seconds < best!.seconds { best = run }
        }
        return best!
    }

    /// One conformance walk of the example coordinator, `undo` or `replay` (the best of `repeats` runs).
    func conformanceWalk(_ name: String, depth: Int, mode: String) throws -> Walk {
        var best: Walk?
        for _ in 0..<repeats {
            let fields = try child(["conformance", spec(name), String(depth), mode])
            let run = Walk(stacks: Int(fields["stacks"] ?? "") ?? -1, seconds: Double(fields["seconds"] ?? "") ?? 0,
                           cpu: Double(fields["cpu"] ?? "") ?? 0, peakMB: (Double(fields["peakKB"] ?? "") ?? 0) / 1024)
            if best == nil || run.seconds < best!.seconds { best = run }
        }
        return best!
    }

    func run() throws {
        let spin = useSpin ? SpinRunner.find() : nil
        var out: [String] = []
        func emit(_ line: String = "") {
            out.append(line)
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        var walks: [String: Walk] = [:]
        func cachedWalk(_ name: String, _ depth: Int, _ workers: Int) throws -> Walk {
            let key = "\(name)@\(depth)x\(workers)"
            if let walk = walks[key] { return walk }
            let walk = try self.walk(name, depth: depth, workers: workers)
            walks[key] = walk
            return walk
        }
        var spinRuns: [String: SpinRunner.Result] = [:]
        func cachedSpin(_ name: String, _ depth: Int, _ model: FlowModel, expected: Int) throws -> SpinRunner.Result? {
            guard let spin else { return nil }
            let key = "\(name)@\(depth)"
            if let run = spinRuns[key] { return run }
            let run = try spin.run(model, depth: depth, expected: expected)
            spinRuns[key] = run
            return run
        }

        if tracesOnly {
            // The target line last, marked, for run.sh to put under Targets.
            if let target = try traces(emit: emit) { emit("TARGET: " + target) }
            return
        }
        if realFlowsOnly {
            for target in try realFlowsSection(emit) { emit("TARGET: " + target) }
            return
        }
        if conformanceOnly {
            for target in try conformanceFloorSection(emit) { emit("TARGET: " + target) }
            return
        }
        emit("# authcheck benchmarks")
        emit()
        emit("Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, "
             + "\(ProcessInfo.processInfo.physicalMemory >> 30) GiB; \(cpuModel()). "
             + "Release build; \(repeats == 1 ? "one run" : "best of \(repeats) runs") per figure"
             + (spin.map { "; \($0.version())" } ?? "; SPIN not installed (apt-get install spin)") + ". "
             + "Load average at the start: \(loadAverage()) (the machine is shared: other work slows both sides).")
        emit()
        emit("authcheck figures are the runtime walk of section 4 in lockstep with the real `FlowSession` "
             + "(every legal event sent, checked and undone, illegal events and forbidden back tried), each in a "
             + "child process of its own: seconds exclude loading the spec, peak memory is the child's VmHWM. "
             + "SPIN figures are `pan -DSAFETY` on `PromelaExporter.export` (stack as an array, one `d_step` per "
             + "event, hash table sized to the states): seconds are pan's elapsed time (compiling excluded), "
             + "memory its \"total actual memory usage\". SPIN stores one state per stack plus its initial state.")
        emit()

        // 1. Against SPIN.
        let cases: [(String, Int)] = quick
            ? [("email-first", 16), ("email-first", 20), ("session-restore", 20)]
            : [("email-first", 20), ("email-first", 24), ("email-first", 28), ("email-first", 29), ("email-first", 30),
               ("session-restore", 24), ("session-restore", 30)]
        emit("## Runtime walk against SPIN")
        emit()
        emit("Wall-clock seconds and rates; the CPU columns divide by CPU time instead, which other work on the "
             + "machine disturbs far less. ✓: the walk with 1 and with 2 workers, `countStacks` and SPIN agree. "
             + "Speed-up: authcheck's better rate (1 or 2 workers) over SPIN's; CPU speed-up: one worker's stacks "
             + "per CPU second over pan's.")
        emit()
        emit("| spec | depth | stacks = SPIN stored − 1 | 1 worker | 2 workers | authcheck CPU | peak MB | SPIN | SPIN CPU | SPIN MB | speed-up | CPU speed-up | memory ratio |")
        emit("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        var targetRows: [(depth: Int, speedUp: Double, cpuSpeedUp: Double, peak: Double, spinSeconds: Double, spinMB: Double)] = []
        for (name, depth) in cases {
            let model = try SpecLoader.load(file: spec(name))
            let counted = RuntimeExplorer(model: model).countStacks(depth: depth)
            let one = try cachedWalk(name, depth, 1)
            let two = try cachedWalk(name, depth, 2)
            let pan = try cachedSpin(name, depth, model, expected: counted)
            let equal = one.stacks == counted && two.stacks == counted && (pan.map { $0.stored - 1 == counted } ?? true)
            let best = max(one.rate, two.rate)
            let peak = max(one.peakMB, two.peakMB)
            var row = "| \(name) | \(depth) | \(counted)\(equal ? " ✓" : " **counts differ: \(one.stacks), \(two.stacks), \(pan.map { String($0.stored - 1) } ?? "–")**") "
                + "| \(f(one.seconds, 3)) s · \(rate(one.rate))/s | \(f(two.seconds, 3)) s · \(rate(two.rate))/s "
                + "| \(f(one.cpu, 3)) s · \(rate(one.cpuRate))/s | \(f(peak, 1)) "
            if let pan {
                let spinRate = pan.seconds > 0 ? Double(pan.stored) / pan.seconds : 0
                let spinCPURate = pan.cpuSeconds > 0 ? Double(pan.stored) / pan.cpuSeconds : 0
                let speedUp = spinRate > 0 ? best / spinRate : 0
                let cpuSpeedUp = spinCPURate > 0 ? one.cpuRate / spinCPURate : 0
                row += "| \(f(pan.seconds, 2)) s · \(rate(spinRate))/s | \(f(pan.cpuSeconds, 2)) s · \(rate(spinCPURate))/s "
                    + "| \(f(pan.memoryMB, 1)) | \(f(speedUp, 1))× | \(f(cpuSpeedUp, 1))× | \(f(pan.memoryMB / max(peak, 0.001), 1))× |"
                if name == "email-first" {
                    targetRows.append((depth, speedUp, cpuSpeedUp, peak, pan.seconds, pan.memoryMB))
                }
            } else {
                row += "| – | – | – | – | – | – |"
            }
            emit(row)
        }
        emit()

        // 2. Growth with depth.
        let depths = quick ? Array(stride(from: 10, through: 20, by: 2)) : Array(stride(from: 12, through: 30, by: 2))
        emit("## Growth with depth: Specs/email-first.json")
        emit()
        emit("| depth | stacks | 1 worker s | 2 workers s | authcheck peak MB | SPIN s | SPIN MB |")
        emit("|--:|--:|--:|--:|--:|--:|--:|")
        let emailFirst = try SpecLoader.load(file: spec("email-first"))
        for depth in depths {
            let counted = RuntimeExplorer(model: emailFirst).countStacks(depth: depth)
            let one = try cachedWalk("email-first", depth, 1)
            let two = try cachedWalk("email-first", depth, 2)
            let pan = try cachedSpin("email-first", depth, emailFirst, expected: counted)
            emit("| \(depth) | \(counted) | \(f(one.seconds, 3)) | \(f(two.seconds, 3)) | \(f(max(one.peakMB, two.peakMB), 1)) "
                 + "| \(pan.map { f($0.seconds, 2) } ?? "–") | \(pan.map { f($0.memoryMB, 1) } ?? "–") |")
        }
        emit()

        // 3. An app's own coordinator.
        emit("## Conformance walk of an app's own coordinator: Specs/email-first.json")
        emit()
        emit("`FlowConformance.explore` over `Examples/SignInCoordinator` (a generic state machine with a history stack, "
             + "a data stack and a step factory, driven through `FlowUnderTest` in its own enums and a `[SignInKey: String]` "
             + "dictionary) against the runtime walk over the built-in `FlowSession`, one worker each, on the same spec and "
             + "the same stacks. With undo: the coordinator's `undo()` backtracks past `start` and the terminal states (its "
             + "`back()` everywhere else); without: a replay of the path on a fresh coordinator does. The conformance walk "
             + "also sends every event a step does not emit, once per configuration. Stacks per wall-clock second.")
        emit()
        emit("| depth | stacks | built-in runtime | coordinator, with undo | coordinator, without undo | runtime ÷ with undo | runtime ÷ without |")
        emit("|--:|--:|--:|--:|--:|--:|--:|")
        var conformanceTarget: (depth: Int, ratio: Double, cpuRatio: Double, floorRatio: Double, floorShare: Double)?
        var floors: [String] = []
        for depth in quick ? [12, 16] : [16, 20, 24] {
            let runtime = try cachedWalk("email-first", depth, 1)
            let undo = try conformanceWalk("email-first", depth: depth, mode: "undo")
            let replay = try conformanceWalk("email-first", depth: depth, mode: "replay")
            let floor = try conformanceWalk("email-first", depth: depth, mode: "floor")
            let same = undo.stacks == runtime.stacks && replay.stacks == runtime.stacks && floor.stacks == runtime.stacks
            let ratio = undo.rate > 0 ? runtime.rate / undo.rate : 0
            let cpuRatio = undo.cpuRate > 0 ? runtime.cpuRate / undo.cpuRate : 0
            let floorRatio = floor.cpuRate > 0 ? runtime.cpuRate / floor.cpuRate : 0
            conformanceTarget = (depth, ratio, cpuRatio, floorRatio, undo.cpu > 0 ? floor.cpu / undo.cpu : 0)
            floors.append("\(f(floor.cpu, 3)) s at \(depth) (\(f(floorRatio, 1))× the built-in walk's \(f(runtime.cpu, 3)) s, "
                          + "\(f(undo.cpu > 0 ? 100 * floor.cpu / undo.cpu : 0, 0))% of the walk with undo's \(f(undo.cpu, 3)) s)")
            emit("| \(depth) | \(runtime.stacks)\(same ? "" : " **differ: \(undo.stacks), \(replay.stacks), \(floor.stacks)**") "
                 + "| \(f(runtime.seconds, 3)) s · \(rate(runtime.rate))/s | \(f(undo.seconds, 3)) s · \(rate(undo.rate))/s "
                 + "| \(f(replay.seconds, 3)) s · \(rate(replay.rate))/s | \(f(ratio, 1))× "
                 + "| \(f(replay.rate > 0 ? runtime.rate / replay.rate : 0, 1))× |")
        }
        emit()
        emit("The floor: every call the walk with undo makes to the coordinator (its factory, `handle`, `back`, `undo`, and "
             + "its `state` and `data` getters), recorded once and replayed on fresh coordinators with no checking "
             + "(`authcheck-bench conformance SPEC DEPTH floor`; reading the log back adds a little), in CPU seconds: " + floors.joined(separator: "; ") + ". "
             + "No conformance walk of this coordinator can be faster than its floor; the rest of the walk's time is the "
             + "checker's: typing the checker's values into the app's, comparing each frame, the walk itself.")
        emit()
        emit("Where the time goes (perf, depth 24, with undo): the coordinator's own code is about 58% (`handle` 40%: its "
             + "transition table is a `[Transition: State]` dictionary whose keys hash their `String` raw values twice per "
             + "event, and its data stack copies and merges a dictionary per step, each access checked for exclusivity; "
             + "`back` and `undo` 12%; the `state` and `data` getters 6%); translating to the app's types about 20% "
             + "(comparing a frame: the app's state with the app's own value for the expected state, its data dictionary "
             + "iterated once against values typed once per token; sending: a dictionary built once per height and step); "
             + "the walk itself about 20%, of which probing the events a step does not emit and replaying after the probes, "
             + "once per configuration, under 2%.")
        emit()

        // 3a. The conformance walk against the app's own calls, synchronous and async, on two flows.
        let floorTargets = try conformanceFloorSection(emit)

        // 3b. authflow/2 against authflow/1.
        let version2 = try version2Section(emit)
        let realFlowTargets = try realFlowsSection(emit)

        // 4. Complete verification of generated flows.
        emit("## Complete `(state, data keys)` verification of generated flows (16 keys)")
        emit()
        emit("`SyntheticFlow.make(states:keys: 16, seed: 1)`, then `ModelChecker.verify` (every spec property, decided with no depth bound).")
        emit()
        emit("| states | configurations | build s | verify s | configurations/s | peak MB | violations |")
        emit("|--:|--:|--:|--:|--:|--:|--:|")
        var verifyTarget: (states: Int, seconds: Double)?
        for states in quick ? [100, 300, 1_000] : [100, 300, 1_000, 3_000] {
            var best: [String: String] = [:]
            for _ in 0..<repeats {
                let fields = try child(["verify", String(states), "16", "1"])
                if best.isEmpty || Double(fields["seconds"] ?? "") ?? 0 < Double(best["seconds"] ?? "") ?? 0 { best = fields }
            }
            let configurations = Int(best["configurations"] ?? "") ?? 0
            let seconds = Double(best["seconds"] ?? "") ?? 0
            let build = Double(best["build"] ?? "") ?? 0
            if states >= 1_000, verifyTarget == nil || states == 1_000 { verifyTarget = (states, seconds + build) }
            emit("| \(states) | \(configurations) | \(f(build, 3)) | \(f(seconds, 3)) "
                 + "| \(rate(seconds > 0 ? Double(configurations) / seconds : 0)) "
                 + "| \(f((Double(best["peakKB"] ?? "") ?? 0) / 1024, 1)) | \(best["violations"] ?? "?") |")
        }
        emit()

        // 5. The passcode normaliser over generated user input.
        emit("## Passcode normaliser over generated user input")
        emit()
        emit("`Gen.userInput` (full-width forms, combining marks, emoji, every whitespace and invisible character, case-mapping traps), one seeded case per input; each is normalised twice (idempotence, compared by unicode scalars) and checked against the default policy.")
        emit()
        emit("| inputs | normalise + check s | inputs/s | failures | peak MB |")
        emit("|--:|--:|--:|--:|--:|")
        let passcodeCount = quick ? 100_000 : 1_000_000
        let passcode = try child(["passcode", String(passcodeCount), "1"])
        let passcodeSeconds = Double(passcode["seconds"] ?? "") ?? 0
        emit("| \(passcodeCount) | \(f(passcodeSeconds, 2)) | \(rate(passcodeSeconds > 0 ? Double(passcodeCount) / passcodeSeconds : 0)) "
             + "| \(passcode["failures"] ?? "?") | \(f((Double(passcode["peakKB"] ?? "") ?? 0) / 1024, 1)) |")
        emit()

        let tracesTarget = try traces(emit: emit)

        // Targets.
        emit("## Targets")
        emit()
        emit("Load average at the end: \(loadAverage()).")
        emit()
        if let target = targetRows.filter({ $0.spinSeconds > 10 }).first ?? targetRows.last {
            let met = target.speedUp >= 10 && target.peak < 50
            emit("- email-first at depth \(target.depth) (SPIN \(f(target.spinSeconds, 1)) s, \(f(target.spinMB, 0)) MB): "
                 + "authcheck is \(f(target.speedUp, 1))× SPIN's rate (\(f(target.cpuSpeedUp, 1))× per CPU second, one worker) "
                 + "with \(f(target.peak, 1)) MB peak — "
                 + (met ? "met (≥ 10×, < 50 MB)" : "**not met** (target ≥ 10×, < 50 MB)")
                 + (target.spinSeconds > 10 ? "" : "; SPIN took under 10 s here, run without --quick"))
            let growth = targetRows.map { "\(f($0.spinMB, 0)) MB at \($0.depth)" }.joined(separator: ", ")
            emit("- SPIN's memory grows with the stacks (\(growth)); authcheck's stays proportional to the depth.")
        } else {
            emit("- SPIN not installed: no comparison.")
        }
        emit("- the passcode normaliser over \(passcodeCount) generated inputs: \(passcode["failures"] ?? "?") failures — "
             + (passcode["failures"] == "0" ? "met" : "**not met**"))
        if let target = conformanceTarget {
            let met = target.ratio <= 3 && target.cpuRatio <= 3
            emit("- the conformance walk of the example coordinator with its undo at depth \(target.depth): "
                 + "\(f(target.ratio, 1))× slower than the built-in runtime's walk (\(f(target.cpuRatio, 1))× per CPU second) — "
                 + (met ? "met (within 3×)" : "**not met** (target within 3×)")
                 + "; the coordinator's own calls alone take \(f(target.floorRatio, 1))× the built-in walk's CPU time "
                 + "(\(f(100 * target.floorShare, 0))% of the walk's)"
                 + (target.floorRatio > 3 ? ", so no walk of this coordinator can be within 3×" : ""))
        }
        if let version2 {
            emit("- the lockstep walk on a /2 flow with 3 valued keys and a counter keeps \(f(version2.ratio, 2))× the stacks per second "
                 + "of a /1 flow of the same size (peak \(f(version2.peakV2, 1)) MB against \(f(version2.peakV1, 1)) MB) — "
                 + (version2.ratio >= 0.5 ? "met (at least half)" : "**not met** (target at least half)"))
        }
        for target in floorTargets { emit(target) }
        for target in realFlowTargets { emit(target) }
        if let verifyTarget {
            emit("- complete verification of a generated flow of \(verifyTarget.states) states and 16 keys: "
                 + "\(f(verifyTarget.seconds, 3)) s including building the model — "
                 + (verifyTarget.seconds < 2 ? "met (< 2 s)" : "**not met** (target < 2 s)"))
        }
        if let tracesTarget { emit(tracesTarget) }
    }

    /// The `authcheck traces` section: the shipped binary on generated corpora of growing size; returns the target line.
    ///
    /// Each corpus is drawn once from email-first (200 sessions at once, 1% broken on purpose) into
    /// `.build-bench/traces/` and kept for later runs. Each figure is the best of `repeats` runs of
    /// `authcheck traces --format json` under `/usr/bin/time -v`: wall-clock and CPU seconds, and the
    /// peak resident memory of the whole process. ✓ when the sessions flagged are exactly the broken ones.
    func traces(emit: (String) -> Void) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            emit("## authcheck traces on generated corpora")
            emit("")
            emit("/usr/bin/time is not installed (apt-get install time): not measured.")
            emit("")
            return nil
        }
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let authcheck = directory.appendingPathComponent("authcheck").path
        guard FileManager.default.isExecutableFile(atPath: authcheck) else {
            throw Measure.UsageError(description: "no \(authcheck): build it with swift build -c release --product authcheck")
        }
        let corpora = "\(root)/.build-bench/traces"
        try FileManager.default.createDirectory(atPath: corpora, withIntermediateDirectories: true)
        // email-first is authflow/1 (moves read from the table); session-restore is authflow/2 (guards,
        // system answers, clears and a sign-out row: every move through the successor function).
        let cases: [(spec: String, records: Int)] = quick
            ? [("email-first", 250_000), ("email-first", 1_000_000), ("session-restore", 1_000_000)]
            : [("email-first", 1_000_000), ("email-first", 10_000_000), ("email-first", 20_000_000), ("session-restore", 10_000_000)]
        emit("## authcheck traces on generated corpora")
        emit("")
        emit("`authcheck traces --format json SPEC FILE` (the shipped release binary) under `/usr/bin/time -v`, on corpora drawn from "
             + "Specs/email-first.json (authflow/1) and Specs/session-restore.json (authflow/2) by `TraceCorpus` (`authcheck-bench corpus`: 200 sessions open at once, a record every 40 ms of "
             + "log time on average, retries, backs, refused attempts, users leaving, 1% of the sessions broken on purpose). Rates are "
             + "records per wall-clock second and per CPU second (one thread); peak MB is the process's maximum resident set. "
             + "✓: the sessions flagged are exactly the broken ones and no record is unreadable. Best of \(repeats) run\(repeats == 1 ? "" : "s"). "
             + "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpuModel()); load average at the start: \(loadAverage()).")
        emit("")
        emit("| spec | records | file MB | sessions flagged | seconds | records/s | CPU s | records/CPU s | sessions open at most | peak MB |")
        emit("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        var runs: [(records: Int, run: TracesBenchmark.Run)] = []
        var others: [TracesBenchmark.Run] = []
        for (name, size) in cases {
            let file = "\(corpora)/\(name)-\(size).jsonl"
            let done = file + ".summary"
            if !FileManager.default.fileExists(atPath: done) {
                let line = try Shell.run(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path,
                                         ["corpus", spec(name), String(size), "1", "0.01", file])
                try line.write(toFile: done, atomically: true, encoding: .utf8)
            }
            let summary = Measure.fields(try String(contentsOfFile: done, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
            let broken = Int(summary["broken"] ?? "") ?? -1
            var best: TracesBenchmark.Run?
            for _ in 0..<repeats {
                let run = try TracesBenchmark.timed(authcheck: authcheck, spec: spec(name), file: file)
                if best == nil || run.seconds < best!.seconds { best = run }
            }
            let run = best!
            if name == "email-first" { runs.append((run.records, run)) } else { others.append(run) }
            let megabytes = Double((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) / 1_048_576
            let exact = run.broken == broken && run.problems == 0
            emit("| \(name) | \(run.records) | \(f(megabytes, 0)) | \(run.broken)\(exact ? " ✓" : " **expected \(broken), \(run.problems) unreadable**") "
                 + "| \(f(run.seconds, 2)) | \(rate(run.rate)) | \(f(run.cpu, 2)) | \(rate(run.cpuRate)) | \(run.peakOpen) | \(f(run.peakMB, 1)) |")
        }
        emit("")
        guard let largest = runs.last?.run, let smallest = runs.first?.run else { return nil }
        let flat = largest.peakMB <= smallest.peakMB * 1.1 + 1
        let fast = largest.cpuRate >= 2_000_000
        let slowest = others.map(\.cpuRate).min() ?? largest.cpuRate
        return "- `authcheck traces` on \(largest.records) records: \(rate(largest.cpuRate)) records per CPU second "
            + "(\(rate(largest.rate))/s wall-clock), \(f(largest.peakMB, 1)) MB peak against \(f(smallest.peakMB, 1)) MB at "
            + "\(smallest.records) records; \(rate(slowest)) records per CPU second on the authflow/2 corpus — "
            + (fast && flat && slowest >= 2_000_000 ? "met" : "**not met**") + " (target ≥ 2 M records/s on one core, memory flat)"
    }

    /// The 1, 5 and 15 minute load averages.
    func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    func f(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

    func rate(_ value: Double) -> String {
        value >= 1e6 ? f(value / 1e6, 2) + " M" : value >= 1e3 ? f(value / 1e3, 1) + " k" : f(value, 0)
    }

    func cpuModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown CPU" }
        return info.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    }
}
