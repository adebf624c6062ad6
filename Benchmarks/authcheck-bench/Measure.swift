import FlowGenerators
import AuthFlow
import AuthFlowChecker
import Foundation
import PropertyTesting
import SignInCoordinatorExample

/// The measurements a child process makes, each printed as one line of `key=value` fields.
enum Measure {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// `walk SPEC DEPTH WORKERS`: the runtime walk, lockstep with the real session.
    static func walk(_ arguments: ArraySlice<String>) throws {
        let arguments = Array(arguments)
        guard arguments.count == 3, let depth = Int(arguments[1]), let workers = Int(arguments[2]) else {
            throw UsageError(description: "usage: authcheck-bench walk SPEC DEPTH WORKERS")
        }
        let model = try SpecLoader.load(file: arguments[0])
        let cpuStart = cpuSeconds()
        let start = Date()
        let walk = workers > 1
            ? ParallelExplorer(model: model, workers: workers).explore(depth: depth)
            : RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: depth)
        let seconds = Date().timeIntervalSince(start)
        let cpu = cpuSeconds() - cpuStart
        print("stacks=\(walk.stacks) seconds=\(seconds) cpu=\(cpu) violations=\(walk.violations.count) peakKB=\(peakKB())")
    }

    /// `conformance SPEC DEPTH MODE [APP]`: the conformance walk over an app, or its floor.
    ///
    /// APP is `sign-in` (the example app's coordinator, the default) or `next-step` (``NextStepCoordinator``),
    /// synchronous, with MODE `undo` (backtracking with its undo), `replay` (by replays from fresh apps, as
    /// for an app without undo) or `floor` (its own calls on the walk with undo replayed without any
    /// checking, ``AppFloor``); or `async-sign-in`, `async-next-step` (``AsyncEmailFirstModel``,
    /// ``AsyncNextStepModel``), `@MainActor` and awaited, with MODE `walk`, `floor` (the calls awaited in one
    /// task on the main actor) or `floor-hops` (awaited one hop each from a thread, as the checker does).
    /// With `BENCH_SETUP_ONLY=1` in the environment it does everything but the measured part: run under
    /// callgrind both ways, the difference is the measured part's instructions.
    static func conformance(_ arguments: ArraySlice<String>) throws {
        let arguments = Array(arguments)
        let app = arguments.count == 4 ? arguments[3] : "sign-in"
        let modes = app.hasPrefix("async-") ? ["walk", "floor", "floor-hops"] : ["undo", "replay", "floor"]
        guard arguments.count == 3 || arguments.count == 4, let depth = Int(arguments[1]), modes.contains(arguments[2]),
              ["sign-in", "next-step", "async-sign-in", "async-next-step"].contains(app) else {
            throw UsageError(description: "usage: authcheck-bench conformance SPEC DEPTH undo|replay|floor [sign-in|next-step]\n"
                             + "       authcheck-bench conformance SPEC DEPTH walk|floor|floor-hops async-sign-in|async-next-step")
        }
        let model = try SpecLoader.load(file: arguments[0])
        let mode = arguments[2]
        switch app {
        case "sign-in": synchronous(model, depth: depth, mode: mode) { SignInCoordinator() }
        case "next-step": synchronous(model, depth: depth, mode: mode) { NextStepCoordinator() }
        case "async-sign-in": asynchronous(model, depth: depth, mode: mode) { await AsyncEmailFirstModel() }
        default: asynchronous(model, depth: depth, mode: mode) { await AsyncNextStepModel(service: PlayedIdentityService()) }
        }
    }

    static var setupOnly: Bool { ProcessInfo.processInfo.environment["BENCH_SETUP_ONLY"] == "1" }

    /// Times `body` (CPU and wall clock) unless this is a setup-only run; prints the fields.
    static func timed(_ fields: () -> String, _ body: () -> Void) {
        let cpuStart = cpuSeconds()
        let start = Date()
        if !setupOnly { body() }
        let seconds = Date().timeIntervalSince(start)
        let cpu = cpuSeconds() - cpuStart
        print("\(fields()) seconds=\(seconds) cpu=\(cpu) peakKB=\(peakKB())")
    }

    static func synchronous<App: UndoableFlowUnderTest>(_ model: FlowModel, depth: Int, mode: String, make: @escaping () -> App) {
        if mode == "floor" {
            let (stacks, log) = AppFloor.record(model, depth: depth, make: make)
            var sink = 0
            timed({ "stacks=\(stacks) calls=\(log.calls.count) sink=\(sink)" }) { sink = AppFloor.replay(log, make: make) }
            return
        }
        var conformance = FlowConformance(model: model, make: make)
        conformance.usesCapabilities = mode == "undo"
        var walk: ConformanceWalk?
        timed({ "stacks=\(walk?.stacks ?? 0) violations=\(walk?.violations.count ?? 0)" }) { walk = conformance.explore(depth: depth) }
        // A walk with findings measures a broken app: say what they are.
        for violation in walk?.violations ?? [] { FileHandle.standardError.write(Data("\(violation.message)\n".utf8)) }
    }

    /// Runs on the main actor, which stays free while the walk waits on a thread of its own; exits when done.
    static func asynchronous<App: AsyncFlowUnderTest>(_ model: FlowModel, depth: Int, mode: String,
                                                      make: @escaping @Sendable () async -> App) -> Never {
        Task { @MainActor in
            switch mode {
            case "walk":
                let conformance = AsyncFlowConformance(model: model, make: make)
                let cpuStart = cpuSeconds(), start = Date()
                let walk = setupOnly ? nil : await conformance.explore(depth: depth)
                let seconds = Date().timeIntervalSince(start), cpu = cpuSeconds() - cpuStart
                print("stacks=\(walk?.stacks ?? 0) violations=\(walk?.violations.count ?? 0) seconds=\(seconds) cpu=\(cpu) peakKB=\(peakKB())")
            case "floor":
                let (stacks, log) = await AsyncAppFloor.record(model, depth: depth, make: make)
                let cpuStart = cpuSeconds(), start = Date()
                let sink = setupOnly ? 0 : await AsyncAppFloor.replay(log, make: make)
                let seconds = Date().timeIntervalSince(start), cpu = cpuSeconds() - cpuStart
                print("stacks=\(stacks) calls=\(log.calls.count) sink=\(sink) seconds=\(seconds) cpu=\(cpu) peakKB=\(peakKB())")
            default:
                let (stacks, log) = await AsyncAppFloor.record(model, depth: depth, make: make)
                let cpuStart = cpuSeconds(), start = Date()
                let sink = setupOnly ? 0 : await onThread { AsyncAppFloor.replayHopping(log, make: make) }
                let seconds = Date().timeIntervalSince(start), cpu = cpuSeconds() - cpuStart
                print("stacks=\(stacks) calls=\(log.calls.count) sink=\(sink) seconds=\(seconds) cpu=\(cpu) peakKB=\(peakKB())")
            }
            exit(0)
        }
        dispatchMain()
    }

    /// `body`'s result, run on a new thread (outside the cooperative pool) and awaited.
    static func onThread(_ body: @escaping @Sendable () -> Int) async -> Int {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 16 << 20
            thread.start()
        }
    }

    /// `replay SPEC COUNT`: `FlowConformance.replay` of a 4-step path of email-first on the example coordinator,
    /// COUNT times on one `FlowConformance` (its analysis and driver reused), then COUNT times each on a new one
    /// (each call makes its own, as every replay did before they were reused); microseconds per replay.
    static func replay(_ arguments: ArraySlice<String>) throws {
        let arguments = Array(arguments)
        guard arguments.count == 2, let count = Int(arguments[1]), count > 0 else {
            throw UsageError(description: "usage: authcheck-bench replay SPEC COUNT")
        }
        let model = try SpecLoader.load(file: arguments[0])
        let path: [FuzzAction] = [.event("startAuth", values: nil), .event("knownEmail", values: nil), .back,
                                  .event("knownEmail", values: nil)]
        let conformance = FlowConformance(model: model) { SignInCoordinator() }
        var failures = conformance.replay(path) == nil ? 0 : 1
        var start = cpuSeconds()
        for _ in 0..<count where conformance.replay(path) != nil { failures += 1 }
        let reused = (cpuSeconds() - start) / Double(count) * 1e6
        start = cpuSeconds()
        for _ in 0..<count where FlowConformance(model: model, make: { SignInCoordinator() }).replay(path) != nil { failures += 1 }
        let fresh = (cpuSeconds() - start) / Double(count) * 1e6
        print("reusedMicros=\(reused) freshMicros=\(fresh) failures=\(failures)")
    }

    /// `verify STATES KEYS SEED`: the complete `(state, data keys)` verification of a generated flow.
    static func verify(_ arguments: ArraySlice<String>) throws {
        let arguments = Array(arguments)
        guard arguments.count == 3, let states = Int(arguments[0]), let keys = Int(arguments[1]),
              let seed = UInt64(arguments[2]) else {
            throw UsageError(description: "usage: authcheck-bench verify STATES KEYS SEED")
        }
        let start = Date()
        let model = try FlowModel(spec: SyntheticFlow.make(states: states, keys: keys, seed: seed))
        let built = Date()
        let verification = ModelChecker.verify(model)
        let seconds = Date().timeIntervalSince(built)
        print("configurations=\(verification.configurations) states=\(verification.states) seconds=\(seconds) "
              + "build=\(built.timeIntervalSince(start)) violations=\(verification.violations.count) peakKB=\(peakKB())")
    }

    /// `passcode COUNT SEED`: normalises COUNT generated user inputs, checking idempotence and the policy of each.
    ///
    /// Inputs come from `Gen.userInput` (full-width forms, combining marks, emoji, every
    /// whitespace and invisible character, case-mapping traps), one seeded case each; the
    /// generating time is reported apart from the normalising time.
    static func passcode(_ arguments: ArraySlice<String>) throws {
        let arguments = Array(arguments)
        guard arguments.count == 2, let count = Int(arguments[0]), let seed = UInt64(arguments[1]) else {
            throw UsageError(description: "usage: authcheck-bench passcode COUNT SEED")
        }
        let generated = Date()
        var inputs: [String] = []
        inputs.reserveCapacity(count)
        for index in 0..<count {
            inputs.append(Gen.userInput.sample(seed: CaseID(seed: seed, index: index, size: 100).caseSeed) ?? "")
        }
        let start = Date()
        var failures = 0
        for policy in [PasscodePolicy.default] {
            let normaliser = PasscodeNormaliser(policy: policy)
            for input in inputs where PasscodeCheck.problem(normaliser, input) != nil { failures += 1 }
        }
        let seconds = Date().timeIntervalSince(start)
        print("inputs=\(count) seconds=\(seconds) generate=\(start.timeIntervalSince(generated)) failures=\(failures) peakKB=\(peakKB())")
    }

    /// `export SPEC DEPTH`: prints the Promela model of the spec's stacks to the depth.
    static func export(_ arguments: ArraySlice<String>) throws {
        let arguments = Array(arguments)
        guard arguments.count == 2, let depth = Int(arguments[1]) else {
            throw UsageError(description: "usage: authcheck-bench export SPEC DEPTH")
        }
        print(PromelaExporter.export(try SpecLoader.load(file: arguments[0]), depth: depth), terminator: "")
    }

    /// The CPU time this process has used so far (every thread), in seconds.
    static func cpuSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The CPU time (user and system) of the children this process has waited for, in seconds.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
        getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// This process's peak resident memory so far, in kB (`VmHWM` in /proc/self/status; 0 where there is none).
    static func peakKB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }

    /// Parses `key=value` fields.
    static func fields(_ line: String) -> [String: String] {
        var result: [String: String] = [:]
        for field in line.split(separator: " ") {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
        }
        return result
    }
}
