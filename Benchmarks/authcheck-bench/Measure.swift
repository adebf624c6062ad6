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

    /// `conformance SPEC DEPTH undo|replay|floor`: the conformance walk over the example app's coordinator,
    /// backtracking with its undo, or by replays from fresh coordinators as for an app without one; or
    /// the floor, the coordinator's own calls on the walk with undo replayed without any checking (``CoordinatorFloor``).
    static func conformance(_ arguments: ArraySlice<String>) throws {
        let arguments = Array(arguments)
        guard arguments.count == 3, let depth = Int(arguments[1]), ["undo", "replay", "floor"].contains(arguments[2]) else {
            throw UsageError(description: "usage: authcheck-bench conformance SPEC DEPTH undo|replay|floor")
        }
        let model = try SpecLoader.load(file: arguments[0])
        if arguments[2] == "floor" {
            let stacks = CoordinatorFloor.record(model, depth: depth)
            let cpuStart = cpuSeconds()
            let start = Date()
            let sink = CoordinatorFloor.replay()
            let seconds = Date().timeIntervalSince(start)
            let cpu = cpuSeconds() - cpuStart
            print("stacks=\(stacks) seconds=\(seconds) cpu=\(cpu) calls=\(CoordinatorFloor.log.calls.count) sink=\(sink) peakKB=\(peakKB())")
            return
        }
        var conformance = FlowConformance(model: model) { SignInCoordinator() }
        conformance.usesCapabilities = arguments[2] == "undo"
        let cpuStart = cpuSeconds()
        let start = Date()
        let walk = conformance.explore(depth: depth)
        let seconds = Date().timeIntervalSince(start)
        let cpu = cpuSeconds() - cpuStart
        print("stacks=\(walk.stacks) seconds=\(seconds) cpu=\(cpu) violations=\(walk.violations.count) peakKB=\(peakKB())")
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
