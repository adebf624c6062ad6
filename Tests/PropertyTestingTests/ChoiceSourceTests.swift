import Testing
import PropertyTesting

@Suite struct ChoiceSourceTests {
    @Test func recordingThenReplayingGivesTheSameDrawsAndRecord() {
        var recorder = ChoiceSource(seed: 17, size: 30)
        let drawn = [recorder.draw(below: 10), recorder.draw(through: .max), recorder.draw(below: 3)]
        let flag = recorder.drawBool(probability: 0.5)
        let int = recorder.int(in: -50...50)

        var replayer = ChoiceSource(replaying: recorder.values, size: 30)
        #expect([replayer.draw(below: 10), replayer.draw(through: .max), replayer.draw(below: 3)] == drawn)
        #expect(replayer.drawBool(probability: 0.5) == flag)
        #expect(replayer.int(in: -50...50) == int)
        #expect(replayer.choices == recorder.choices)
        #expect(!replayer.isExhausted && !recorder.isExhausted)
        #expect(replayer.isReplaying && !recorder.isReplaying)
    }

    @Test func recordsEachDrawWithItsBound() {
        var source = ChoiceSource(replaying: [4, 1, 9], size: 0)
        _ = source.draw(below: 10)
        _ = source.drawBool(probability: 0.9)
        _ = source.draw(through: 100)
        #expect(source.choices == [
            ChoiceSource.Choice(value: 4, max: 9),
            ChoiceSource.Choice(value: 1, max: 1),
            ChoiceSource.Choice(value: 9, max: 100),
        ])
    }

    @Test func replayReducesValuesAboveTheBoundModuloTheRange() {
        var source = ChoiceSource(replaying: [7, 7, 7, .max], size: 0)
        #expect(source.draw(below: 5) == 2)
        #expect(source.drawBool(probability: 0) == true)  // 7 % 2 == 1: replay ignores the probability
        #expect(source.draw(through: 7) == 7)
        #expect(source.draw(through: .max) == .max)
        #expect(source.values == [2, 1, 7, .max])
    }

    @Test func exhaustedReplayAnswersZeroTheSimplestChoice() {
        var source = ChoiceSource(replaying: [3], size: 0)
        #expect(source.draw(below: 10) == 3)
        #expect(!source.isExhausted)
        #expect(source.draw(below: 10) == 0)
        #expect(source.drawBool(probability: 1) == false)
        #expect(source.isExhausted)
        #expect(source.values == [3, 0, 0])
    }

    @Test func recordingStopsAtMaxChoices() {
        var source = ChoiceSource(seed: 1, size: 0, maxChoices: 5)
        let values = (0..<8).map { _ in source.draw(through: .max) }
        #expect(values[5...].allSatisfy { $0 == 0 })
        #expect(values[..<5].allSatisfy { $0 != 0 })
        #expect(source.isExhausted)
    }

    /// What each replayed choice sequence means to `int(in:)`: sign first (1 = negative), then magnitude.
    @Test(arguments: [
        IntChoiceCase(range: 0...10, choices: [], value: 0),
        IntChoiceCase(range: 0...10, choices: [7], value: 7),
        IntChoiceCase(range: 3...9, choices: [0], value: 3),
        IntChoiceCase(range: 3...9, choices: [6], value: 9),
        IntChoiceCase(range: -9...(-3), choices: [0], value: -3),
        IntChoiceCase(range: -9...(-3), choices: [6], value: -9),
        IntChoiceCase(range: -5...5, choices: [], value: 0),
        IntChoiceCase(range: -5...5, choices: [0, 4], value: 4),
        IntChoiceCase(range: -5...5, choices: [1, 0], value: -1),
        IntChoiceCase(range: -5...5, choices: [1, 4], value: -5),
        IntChoiceCase(range: Int.min...Int.max, choices: [0, .max], value: Int.max),
        IntChoiceCase(range: Int.min...Int.max, choices: [1, .max], value: Int.min),
        IntChoiceCase(range: Int.min...Int.max, choices: [1, 0], value: -1),
        IntChoiceCase(range: Int.min...(-1), choices: [.max], value: Int.min),
        IntChoiceCase(range: 0...Int.max, choices: [.max], value: Int.max),
        IntChoiceCase(range: Int.min...Int.min, choices: [5], value: Int.min),
    ])
    func intChoicesMapNearestZeroFirst(example: IntChoiceCase) {
        var source = ChoiceSource(replaying: example.choices, size: 0)
        #expect(source.int(in: example.range) == example.value)
    }

    /// Every value of a small range is reachable, and nothing outside it is.
    @Test(arguments: [-3...4, -4...3, 0...6, -6...(-1), -1...0])
    func intChoicesCoverTheRangeExactly(range: ClosedRange<Int>) {
        var reached = Set<Int>()
        for magnitude: UInt64 in 0...20 {
            // A one-signed range reads one choice; a mixed range reads a sign and then a magnitude.
            for choices in [[magnitude], [0, magnitude], [1, magnitude]] {
                var source = ChoiceSource(replaying: choices, size: 0)
                reached.insert(source.int(in: range))
            }
        }
        #expect(reached == Set(range))
    }

    @Test func recordedIntsAreRoughlyUniformAcrossSigns() {
        var counts = [Int](repeating: 0, count: 4)
        var source = ChoiceSource(seed: 4, size: 0, maxChoices: .max)
        for _ in 0..<40_000 { counts[source.int(in: -1...2) + 1] += 1 }
        #expect(chiSquare(counts) < 20, "counts \(counts)")
    }
}

struct IntChoiceCase: Sendable, CustomTestStringConvertible {
    var range: ClosedRange<Int>
    var choices: [UInt64]
    var value: Int

    var testDescription: String { "\(choices) in \(range) → \(value)" }
}
