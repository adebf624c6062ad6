import Testing
import PropertyTesting

@Suite struct ChoiceShrinkerTests {
    @Test func findsTheSmallestSingleValueAboveAThreshold() {
        let result = shrink(choices: [9, 400, 3, 77]) { candidate in candidate.contains { $0 >= 50 } }
        #expect(result == [50])
    }

    @Test func movesValueBetweenChoicesToKeepASum() {
        let result = shrink(choices: [5, 7, 9, 2]) { candidate in candidate.reduce(0, +) > 10 }
        #expect(result == [11])
    }

    @Test func shortensBeforeLowering() {
        // Three nonzero choices are needed; shortlex order wants exactly three, each as small as possible.
        let result = shrink(choices: [8, 0, 3, 9, 0, 4, 6]) { candidate in candidate.filter { $0 > 0 }.count >= 3 }
        #expect(result == [1, 1, 1])
    }

    @Test func sortsNeighboursWhenOrderDoesNotMatter() {
        let result = shrink(choices: [9, 3]) { candidate in Set(candidate) == [3, 9] }
        #expect(result == [3, 9])
    }

    @Test func returnsTheInputWhenNothingSmallerFails() {
        let input: [UInt64] = [0, 0, 1]
        #expect(shrink(choices: input) { $0 == input } == input)
    }

    @Test func neverReturnsAPassingSequenceAndNeverGrows() {
        for seed: UInt64 in 0..<50 {
            var generator = SeededGenerator(seed: seed)
            let input = (0..<20).map { _ in generator.draw(below: 1_000) }
            let isFailing = { (candidate: [UInt64]) in candidate.reduce(0, +) % 7 == input.reduce(0, +) % 7 }
            let result = shrink(choices: input, isFailing: isFailing)
            #expect(isFailing(result))
            #expect(result.count <= input.count)
        }
    }

    @Test(arguments: [1, 10, 100])
    func respectsTheStepBudget(maxSteps: Int) {
        var calls = 0
        _ = shrink(choices: Array(repeating: 1_000, count: 50), maxSteps: maxSteps) { _ in
            calls += 1
            return calls % 3 == 0
        }
        #expect(calls <= maxSteps)
    }

    @Test func replayVariantKeepsOnlyTheConsumedChoices() {
        // A "generator" that reads a length and then that many values, and fails on any value ≥ 5.
        let result = shrink(choices: [3, 1, 9, 2, 4, 4, 4]) { candidate -> [UInt64]? in
            var source = ChoiceSource(replaying: candidate, size: 0)
            let count = source.draw(below: 10)
            let values = (0..<count).map { _ in source.draw(below: 100) }
            return values.contains { $0 >= 5 } ? source.values : nil
        }
        #expect(result.choices == [1, 5])
        #expect(result.steps > 0 && result.evaluations >= result.steps)
    }

    @Test func replayVariantDropsUnreadChoicesInOneStep() {
        // Every candidate fails but only its first choice is read: one accepted step must keep just that.
        let result = shrink(choices: Array(1...10), maxSteps: 1) { candidate in Array(candidate.prefix(1)) }
        #expect(result == ShrinkResult(choices: [1], steps: 1, evaluations: 1))
    }
}
