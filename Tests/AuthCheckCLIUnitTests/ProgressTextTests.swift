@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Testing

/// The progress lines say which phase runs, never go back within one, and a fuzz has one too (#29).
@Suite struct ProgressTextTests {
    @Test func theWalksDepthIsTheDeepestSoFarAndANewPhaseStartsAgain() {
        // Given a depth-first walk whose stack was 54 high, then 47 (or two workers at those depths),
        let progress = CheckProgress()
        progress.update(.stacks, count: 4096, depth: 54)
        progress.update(.stacks, count: 8192, depth: 47)
        // then the line still says 54, and names the phase.
        #expect(ProgressLine.text(label: "a.json", snapshot: progress.snapshot, depthBound: 64, elapsed: 2)
                == "a.json: walking stacks · 8,192 stacks · 4,096/s · deepest 54 of 64 · 2.0 s")
        // A parallel worker's late tick with a smaller total does not take the count back either.
        progress.update(.stacks, count: 4096, depth: 3)
        #expect(progress.snapshot == CheckProgress.Snapshot(phase: .stacks, count: 8192, depth: 54))
        // Counting stacks from the model is a phase of its own, named, its levels up to the bound.
        progress.update(.counting, count: 300, depth: 5)
        #expect(ProgressLine.text(label: "a.json", snapshot: progress.snapshot, depthBound: 64, elapsed: 3)
                == "a.json: counting stacks · 300 configurations · 100/s · depth 5 of 64 · 3.0 s")
    }

    @Test func aFuzzSaysItsRunsRateAndTime() {
        #expect(ProgressLine.fuzzText(label: "a.json", snapshot: FuzzProgress.Snapshot(runs: 41_000, steps: 900_000),
                                      runs: 100_000, elapsed: 28)
                == "a.json: fuzzing · 41,000 of 100,000 runs · 1,464 runs/s · 28.0 s")
        #expect(ProgressLine.fuzzText(label: "a.json", snapshot: FuzzProgress.Snapshot(runs: 3, steps: 10, shrinking: true),
                                      runs: 1000, elapsed: 2)
                == "a.json: shrinking the failure of run 3 · 3 of 1,000 runs · 1 runs/s · 2.0 s")
    }

    @Test func theFuzzerReportsItsRunsToTheTasksCounter() throws {
        let model = try FlowCoverageTests.load(Fixture.emailFirst)
        let progress = FuzzProgress()
        let report = FuzzProgress.$current.withValue(progress) { FlowFuzzer(model: model).run(FuzzOptions(runs: 20, seed: 1)) }
        #expect(progress.snapshot.runs == report.runs)
        #expect(progress.snapshot.steps == report.steps)
        #expect(progress.snapshot.shrinking == (report.failure != nil))
    }
}
