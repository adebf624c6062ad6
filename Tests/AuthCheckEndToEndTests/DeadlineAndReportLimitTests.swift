import Foundation
import Testing

/// Flows built to be too large or too slow, generated here: every command ends within its
/// `--timeout`, whatever phase it is in (loading, searching, counting, shrinking, touring,
/// rendering), in bounded memory, with a report whose size does not grow with the square of the flow.
///
/// Each case runs the shipped binary with a wall-clock bound past which the child is killed, so
/// a regression fails in seconds instead of hanging the suite.
@Suite struct DeadlineAndReportLimitTests {
    /// `s0 → s1 → … → s(n-1)`, the last looping on itself; `done` is the success state. With
    /// `exit`, the last moves on to `done` (which requires `token`, which nothing adds, when `unmet`).
    static func chain(_ n: Int, exit: Bool = false, unmet: Bool = false) -> String {
        let steps = (0..<n).map { #""s\#($0)":{"emits":{"go":[]}}"# } + [unmet ? #""done":{"requires":["token"]}"# : #""done":{}"#]
        let rows = (0..<n).map { i in
            #"{"from":"s\#(i)","on":"go","to":"\#(i + 1 < n ? "s\(i + 1)" : exit ? "done" : "s\(i)")"}"#
        }
        return #"{"format":"authflow/1","initial":"s0","success":["done"],"abort":[],"#
            + #""steps":{\#(steps.joined(separator: ","))},"transitions":[\#(rows.joined(separator: ","))]}"#
    }

    /// A hub that emits `n` events, each to a success state of its own.
    static func star(_ n: Int) -> String {
        let names = (0..<n).map { String($0, radix: 36) }
        let emits = names.map { #""\#($0)":[]"# }.joined(separator: ",")
        let leaves = names.map { #""t\#($0)":{}"# }.joined(separator: ",")
        let rows = names.map { #"{"from":"h","on":"\#($0)","to":"t\#($0)"}"# }.joined(separator: ",")
        return #"{"format":"authflow/1","initial":"h","success":[\#(names.map { #""t\#($0)""# }.joined(separator: ","))],"abort":[],"#
            + #""steps":{"h":{"emits":{\#(emits)}},\#(leaves)},"transitions":[\#(rows)]}"#
    }

    /// `n` states, each with an event to every other; `s0` may also finish.
    static func complete(_ n: Int) -> String {
        let steps = (0..<n).map { i in
            let emits = (0..<n).filter { $0 != i }.map { #""to\#($0)":[]"# } + (i == 0 ? [#""finish":[]"#] : [])
            return #""s\#(i)":{"emits":{\#(emits.joined(separator: ","))}}"#
        } + [#""done":{}"#]
        let rows = (0..<n).flatMap { i in (0..<n).filter { $0 != i }.map { #"{"from":"s\#(i)","on":"to\#($0)","to":"s\#($0)"}"# } }
            + [#"{"from":"s0","on":"finish","to":"done"}"#]
        return #"{"format":"authflow/1","initial":"s0","success":["done"],"abort":[],"#
            + #""steps":{\#(steps.joined(separator: ","))},"transitions":[\#(rows.joined(separator: ","))]}"#
    }

    /// An `authflow/2` flow of `n` screens, each answering a yes-or-no question or skipping it: 3^n configurations.
    static func answers(_ n: Int) -> String {
        let data = (0..<n).map { #""v\#($0)":{"values":["yes","no"]}"# }
        let steps = (0..<n).map { #""f\#($0)":{"emits":{"answer\#($0)":{"adds":["v\#($0)"],"by":"system"},"skip\#($0)":[]}}"# } + [#""done":{}"#]
        let rows = (0..<n).flatMap { i -> [String] in
            let next = i + 1 < n ? "f\(i + 1)" : "done"
            return [#"{"from":"f\#(i)","on":"answer\#(i)","to":"\#(next)"}"#, #"{"from":"f\#(i)","on":"skip\#(i)","to":"\#(next)"}"#]
        }
        return #"{"format":"authflow/2","name":"answers","initial":"f0","success":["done"],"abort":[],"#
            + #""data":{\#(data.joined(separator: ","))},"steps":{\#(steps.joined(separator: ","))},"transitions":[\#(rows.joined(separator: ","))]}"#
    }

    /// Runs `authcheck arguments…` on `spec` (written to a file, its path last), killed after `killAfter` seconds.
    static func run(_ arguments: [String], spec: String, killAfter: Double) throws -> (run: MeasuredRun, seconds: Double, path: String) {
        try HostileInputTests.withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("flow.json")
            try Data(spec.utf8).write(to: file)
            let start = Date()
            let run = try MeasuredRun.authcheck(arguments + [file.path], killAfter: killAfter)
            return (run, Date().timeIntervalSince(start), file.path)
        }
    }

    // MARK: - Reports whose size is bounded

    /// Every `no-exit` site of a chain once printed its whole path: 2,000 states gave 63 MB, 8,000
    /// states gigabytes of memory. Every site is still reported, with its length; the paths past a
    /// budget are cut, and the report says so.
    @Test func aChainOfStatesWithNoExitIsReportedInBoundedOutputAndMemory() throws {
        let n = 1_500
        let (run, _, path) = try Self.run(["check", "--timeout", "30"], spec: Self.chain(n), killAfter: 20 * MeasuredRun.slowdown)
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.hasPrefix("\(path): violated — \(n) violations\n"), "\(run)")
        #expect(run.stdout.utf8.count < 2_000_000, "\(run.stdout.utf8.count) bytes")
        #expect(run.stdout.contains("\n\(n)) no-exit at s\(n - 1) — \(n - 1) steps\n   s\(n - 1) has forward moves, but no terminal state is reachable from it\n"
                                    + "   path: not shown, to keep the report bounded (a report shows its first violations' paths, 10000 steps in all)\n"),
                "\(run.stdout.suffix(3_000))")
        #expect(run.stdout.contains("\nnote: 1360 paths not shown"), "\(run.stdout.suffix(3_000))")
        #expect(run.peakMiB < MeasuredRun.memoryBound(300), "peak RSS \(run.peakMiB) MiB")

        let json = try Self.run(["check", "--format", "json", "--timeout", "30"], spec: Self.chain(n), killAfter: 20 * MeasuredRun.slowdown).run
        #expect(json.status == 1, "\(json)")
        #expect(json.stdout.utf8.count < 4_000_000, "\(json.stdout.utf8.count) bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        let violations = try #require(object["violations"] as? [[String: Any]])
        #expect(violations.count == n)
        #expect((violations.first?["path"] as? [Any])?.count == 1)
        #expect(violations.last?["pathCut"] as? Bool == true)
        #expect(violations.last?["length"] as? Int == n - 1)
        #expect((violations.last?["path"] as? [Any])?.isEmpty == true)
    }

    // MARK: - Counts that overflow

    /// A complete graph of 10 states has about 9^64 stacks at depth 64: every count saturates at
    /// `Int.max`, and the total of the transitions' counts once wrapped to a negative number.
    @Test func stackCountsPastIntMaxSaturateAndSaySo() throws {
        let (run, _, _) = try Self.run(["coverage", "--depth", "64", "--timeout", "30"], spec: Self.complete(10), killAfter: 20 * MeasuredRun.slowdown)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("note: some counts reached 9223372036854775807 and stopped growing"), "\(run)")
        let totals = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  total") }
        #expect(totals.count == 2, "\(run)")
        for total in totals { #expect(total.hasSuffix("≥ 9223372036854775807"), "\(total)") }
        #expect(run.stdout.range(of: #" -\d"#, options: .regularExpression) == nil, "no negative count: \(run)")
    }

    // MARK: - One deadline in every phase

    /// Loading and counting a step of 20,000 events searched the step's events per event and per
    /// row (minutes); the coverage tables filtered every transition per row. Now linear, and
    /// `--timeout` ends the count.
    @Test func coverageOfALargeStarEndsWithinItsTimeout() throws {
        let (run, seconds, _) = try Self.run(["coverage", "--timeout", "2"], spec: Self.star(20_000), killAfter: 60 * MeasuredRun.slowdown)
        #expect(run.signal == nil, "\(run)")
        #expect(run.status == 0 || run.status == 3, "\(run)")
        #expect(seconds < 20 * MeasuredRun.slowdown, "took \(seconds) s")
        #expect(run.peakMiB < MeasuredRun.memoryBound(500), "peak RSS \(run.peakMiB) MiB")
    }

    /// The HTML report laid out every state, counting crossings over every pair of edges: a star of
    /// 100,000 transitions took 17 s past its `--timeout 2` and wrote 93 MB no browser could show.
    /// Past 1,000 states or 3,000 transitions the figure says it is not drawn; the tables list every one.
    @Test func theHTMLReportOfALargeFlowSaysItIsNotDrawnAndEndsInTime() throws {
        let (run, seconds, _) = try Self.run(["coverage", "--format", "html", "--timeout", "30"], spec: Self.star(20_000),
                                             killAfter: 60 * MeasuredRun.slowdown)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Not drawn: 20001 states and 20000 transitions are more than this report draws (1000 states, 3000 transitions)."))
        #expect(!run.stdout.contains("<svg id=\"s1-graph\""))
        #expect(run.stdout.contains("<tr data-row-ref=\"s1-row-19999\">"), "the tables still list every transition")
        // 3 s alone in a debug build, 13 s with the machine at a load of 11: the bound catches minutes, not noise.
        #expect(seconds < 30 * MeasuredRun.slowdown, "took \(seconds) s")
    }

    /// `export` took no `--timeout`: a 6 MB star loaded and wrote for as long as it took.
    @Test func exportEndsAtItsTimeoutWithNothingOnStdout() throws {
        let (run, seconds, path) = try Self.run(["export", "--timeout", "1"], spec: Self.star(100_000), killAfter: 60 * MeasuredRun.slowdown)
        #expect(run.status == 3, "\(run)")
        #expect(run.stdout.isEmpty, "half a model does not parse")
        #expect(run.stderr == "\(path): incomplete — --timeout 1 s reached before the spec was loaded\n", "\(run)")
        #expect(seconds < 8 * MeasuredRun.slowdown, "took \(seconds) s")
    }

    /// `replay` of an authflow/2 trail searched up to 1,000,000 configurations for the flow's moves with
    /// no deadline, and called a `no-exit` trail fixed when that search was cut before it could tell.
    @Test func replayEndsAtItsTimeoutAndACutSearchIsNotCalledFixed() throws {
        try HostileInputTests.withTemporaryDirectory { directory in
            let spec = directory.appendingPathComponent("answers.json")
            try Data(Self.answers(20).utf8).write(to: spec)
            let trail = directory.appendingPathComponent("trail.json")
            try Data(#"{"spec":"answers","variant":{},"site":"no-exit@f1","path":["skip0"]}"#.utf8).write(to: trail)
            let start = Date()
            let run = try MeasuredRun.authcheck(["replay", "--timeout", "1", spec.path, trail.path], killAfter: 60 * MeasuredRun.slowdown)
            #expect(run.status == 3, "\(run)")
            // In a fast build the search may reach its 1,000,000 configurations before the second: either stop is a cut.
            // The outcome wraps within 120 columns, its lines after the first indented by three.
            let outcome = run.stdout.replacingOccurrences(of: "\n   ", with: " ")
            #expect(outcome.contains("incomplete: every step was taken, but the search of the flow's moves stopped ("), "\(run)")
            #expect(outcome.contains(" reached) before no-exit@f1 could be ruled out"), "\(run)")
            #expect(Date().timeIntervalSince(start) < 8 * MeasuredRun.slowdown)
        }
    }

    /// `traces` searched what the model reaches (up to 5,000,000 configurations, 530 MB) with no deadline before its
    /// funnel. The search now stops at `--timeout`, and the report says the funnel's reach is a lower bound.
    @Test func tracesSearchEndsAtItsTimeoutAndSaysSo() throws {
        try HostileInputTests.withTemporaryDirectory { directory in
            let spec = directory.appendingPathComponent("answers.json")
            try Data(Self.answers(20).utf8).write(to: spec)
            let start = Date()
            let run = try MeasuredRun.authcheck(["traces", "--timeout", "1", spec.path, "/dev/null"], killAfter: 60 * MeasuredRun.slowdown)
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains("skipped: the model's configurations were searched in part ("), "\(run)")
            #expect(Date().timeIntervalSince(start) < 8 * MeasuredRun.slowdown)
            #expect(run.peakMiB < MeasuredRun.memoryBound(300), "peak RSS \(run.peakMiB) MiB")
        }
    }

    /// A failure at the end of a 2,000-step chain took 128 s to shrink, past any `--timeout`:
    /// shrinking now stops at the deadline with the best path so far, and says so.
    @Test func shrinkingStopsAtTheTimeoutWithTheBestPathSoFar() throws {
        // The fuzzer must find the failure before the deadline for shrinking to be what stops: the deadline scales with the build's speed.
        // At a load of 11 the first run took over 2 s: 4 s leaves it room, and is still far from the 128 s it took.
        let timeout = Int(4 * MeasuredRun.slowdown)
        let (run, seconds, _) = try Self.run(["fuzz", "--timeout", "\(timeout)", "--max-steps", "100000"],
                                             spec: Self.chain(2_000, exit: true, unmet: true), killAfter: 30 * MeasuredRun.slowdown)
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("unmet-requirement at done"), "\(run)")
        #expect(run.stdout.contains("   shrinking stopped: --timeout \(timeout) s reached; a shorter path may fail too\n"), "\(run)")
        #expect(seconds < 20 * MeasuredRun.slowdown, "took \(seconds) s")
    }

    /// `paths` had no `--timeout`, and its tour ran for as long as it took (over 900 s on a flow of 40 valued keys).
    @Test func pathsEndsWithinItsTimeoutAsIncomplete() throws {
        let (run, seconds, path) = try Self.run(["paths", "--cover", "configurations", "--timeout", "2"], spec: Self.answers(10), killAfter: 30 * MeasuredRun.slowdown)
        #expect(run.status == 3, "\(run)")
        #expect(run.stdout.hasPrefix("\(path): incomplete — --timeout 2 s reached before the paths were complete: "), "\(run)")
        #expect(seconds < 10 * MeasuredRun.slowdown, "took \(seconds) s")
    }

    /// A search cut by `--max-configurations` claimed "3 paths covering every reachable transition
    /// … 44 reachable transitions" and exit 0, where all 80 are reachable: it is incomplete (exit 3).
    @Test func pathsCutByTheConfigurationLimitAreIncomplete() throws {
        let (run, _, path) = try Self.run(["paths", "--max-configurations", "1000"], spec: Self.answers(40), killAfter: 30 * MeasuredRun.slowdown)
        #expect(run.status == 3, "\(run)")
        #expect(run.stdout.hasPrefix("\(path): incomplete — --max-configurations 1000 reached before the paths were complete: "), "\(run)")
        #expect(!run.stdout.contains("every reachable"), "\(run)")

        let json = try Self.run(["paths", "--format", "json", "--max-configurations", "1000"], spec: Self.answers(40), killAfter: 30 * MeasuredRun.slowdown).run
        #expect(json.status == 3, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        #expect(object["verdict"] as? String == "incomplete")
        #expect(object["stoppedBy"] as? String == "--max-configurations 1000 reached")
    }

    /// Loading ignored the deadline: a 6 MB star of 100,000 events took seconds to parse and build
    /// (minutes in a debug build) before any phase looked at `--timeout`. The parser, the reader and
    /// the builder now stop at it, and the run is incomplete (exit 3), not invalid: nothing was found wrong.
    @Test func loadingAHugeSpecEndsWithinItsTimeoutAsIncomplete() throws {
        let (run, seconds, path) = try Self.run(["coverage", "--timeout", "1"], spec: Self.star(100_000), killAfter: 60 * MeasuredRun.slowdown)
        #expect(run.status == 3, "\(run)")
        #expect(run.stdout.hasPrefix("\(path): incomplete — --timeout 1 s reached before the check was complete\n"), "\(run)")
        #expect(run.stdout.contains("stats: 0 states, 0 configurations"), "\(run)")
        #expect(seconds < 8 * MeasuredRun.slowdown, "took \(seconds) s")

        let export = try Self.run(["fuzz", "--timeout", "1", "--format", "json"], spec: Self.star(100_000), killAfter: 60 * MeasuredRun.slowdown).run
        #expect(export.status == 3, "\(export)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any], "\(export)")
        #expect(object["verdict"] as? String == "incomplete")
    }

    /// After a `/2` search cut by `--timeout`, the per-configuration site pass ran over everything found
    /// and the runtime walk began anyway: `check --timeout 2` took 7 s. Both stop at the deadline now.
    @Test func theSitePassAfterACutSearchHonoursTheTimeout() throws {
        let (run, seconds, path) = try Self.run(["check", "--timeout", "2"], spec: Self.answers(16), killAfter: 60 * MeasuredRun.slowdown)
        #expect(run.status == 3, "\(run)")
        #expect(run.stdout.hasPrefix("\(path): incomplete — --timeout 2 s reached before the check was complete\n"), "\(run)")
        #expect(!run.stdout.contains("deadlock") && !run.stdout.contains("no-exit"), "\(run)")
        #expect(seconds < 6 * MeasuredRun.slowdown, "took \(seconds) s")
    }

    /// Fuzz built its own graph of up to 1,000,000 configurations of a `/2` flow before the first run,
    /// with no deadline: `fuzz --timeout 1` took 23 s.
    @Test func fuzzSetupHonoursTheTimeout() throws {
        let (run, seconds, path) = try Self.run(["fuzz", "--timeout", "1"], spec: Self.answers(16), killAfter: 60 * MeasuredRun.slowdown)
        #expect(run.status == 3, "\(run)")
        #expect(run.stdout.hasPrefix("\(path): incomplete — --timeout 1 s reached after 0 of 1000 runs"), "\(run)")
        #expect(seconds < 6 * MeasuredRun.slowdown, "took \(seconds) s")
    }
}
