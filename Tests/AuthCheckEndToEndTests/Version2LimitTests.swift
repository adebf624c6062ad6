import Foundation
import Testing

/// An `authflow/2` flow whose configurations exceed memory ends `incomplete` (exit 3) at
/// `--max-configurations`, in bounded memory, claiming no violation it has not seen the end of.
@Suite struct Version2LimitTests {
    /// Sixty screens in a row, each asking the backend a yes-or-no question or skipping it: 3^60 configurations.
    static let sixtyAnswers: String = {
        let n = 60
        let data = (0..<n).map { #""v\#($0)":{"values":["yes","no"]}"# }
        let steps = (0..<n).map { #""f\#($0)":{"emits":{"answer\#($0)":{"adds":["v\#($0)"],"by":"system"},"skip\#($0)":[]}}"# } + [#""done":{}"#]
        let rows = (0..<n).flatMap { i -> [String] in
            let next = i + 1 < n ? "f\(i + 1)" : "done"
            return [#"{"from":"f\#(i)","on":"answer\#(i)","to":"\#(next)"}"#, #"{"from":"f\#(i)","on":"skip\#(i)","to":"\#(next)"}"#]
        }
        return #"{"format":"authflow/2","name":"sixty optional answers","initial":"f0","success":["done"],"abort":[],"#
            + #""data":{\#(data.joined(separator: ","))},"steps":{\#(steps.joined(separator: ","))},"transitions":[\#(rows.joined(separator: ","))]}"#
    }()

    @Test func aVersion2FlowLargerThanMemoryStopsAtTheConfigurationLimitInBoundedMemory() throws {
        try HostileInputTests.withTemporaryDirectory { directory in
            let spec = directory.appendingPathComponent("sixty-answers.json")
            try Data(Self.sixtyAnswers.utf8).write(to: spec)
            let run = try MeasuredRun.authcheck(["check", "--max-configurations", "200000", "--depth", "6", spec.path])
            #expect(run.signal == nil, "\(run)")
            #expect(run.status == 3, "\(run)")
            // Every screen of the search's frontier moves on to frames it did not store: no no-exit is claimed.
            #expect(run.stdout.hasPrefix("\(spec.path): incomplete — --max-configurations 200000 reached before the check was complete\n"
                                         + "stats: 12 states, 200000 configurations, 1093 stacks at depth 6, "), "\(run)")
            #expect(run.peakMiB < MeasuredRun.memoryBound(200), "peak RSS \(run.peakMiB) MiB: \(run)")
        }
    }
}
