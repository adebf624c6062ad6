import Testing
import PropertyTesting

@Suite struct GenTests {
    @Test func emptyChoicesReplayToTheSimplestValue() {
        #expect(Gen.int(in: 0...10).replay([]) == 0)
        #expect(Gen.int(in: 5...10).replay([]) == 5)
        #expect(Gen.int(in: -10...(-5)).replay([]) == -5)
        #expect(Gen.int(in: -10...10).replay([]) == 0)
        #expect(Gen.bool.replay([]) == false)
        #expect(Gen.array(of: Gen.int(in: 0...9)).replay([]) == [])
        #expect(Gen.array(of: Gen.int(in: 0...9), count: 2...5).replay([]) == [0, 0])
        #expect(Gen.string(from: "xyz").replay([]) == "")
        #expect(Gen.int(in: 0...9).optional.replay([]) == .some(nil))
        #expect(Gen.element(of: ["a", "b"]).replay([]) == "a")
        #expect(Gen.oneOf(.constant("first"), .constant("second")).replay([]) == "first")
        #expect(Gen.frequency([(0, .constant("never")), (1, .constant("light")), (9, .constant("heavy"))]).replay([]) == "light")
    }

    @Test func sampleIsDeterministicPerSeed() {
        let gen = Gen.array(of: Gen.int(in: -100...100))
        #expect(gen.sample(seed: 3, size: 50) == gen.sample(seed: 3, size: 50))
        let samples = Set((0..<20).compactMap { gen.sample(seed: $0, size: 50) })
        #expect(samples.count > 15)
    }

    @Test func mapAndFlatMapDrawThroughTheSameSource() {
        let doubled = Gen.int(in: 0...50).map { $0 * 2 }
        #expect(doubled.replay([21]) == 42)
        let dependent = Gen.int(in: 1...5).flatMap { count in Gen.array(of: Gen.int(in: 0...9), count: count) }
        #expect(dependent.replay([2, 7, 8, 9]) == [7, 8, 9])
        #expect(dependent.replay([2, 7]) == [7, 0, 0])
    }

    @Test func filterKeepsOnlyAcceptedValuesAndDiscardsAfterBoundedRetries() {
        let even = Gen.int(in: 0...100).filter { $0 % 2 == 0 }
        for seed: UInt64 in 0..<200 {
            let value = even.sample(seed: seed)
            #expect(value != nil && value! % 2 == 0)
        }
        let impossible = Gen.int(in: 0...100).filter(maxAttempts: 7) { _ in false }
        #expect(impossible.sample(seed: 1) == nil)
        var source = ChoiceSource(seed: 1, size: 10)
        #expect(throws: DiscardedCase(reason: "filter rejected 7 values in a row")) {
            try impossible.generate(&source)
        }
        #expect(source.choices.count == 7)
    }

    @Test func zipDrawsInOrder() {
        let pair = Gen.zip(Gen.int(in: 0...9), Gen.bool)
        let value = pair.replay([4, 1])
        #expect(value?.0 == 4 && value?.1 == true)
        let triple = Gen.zip(Gen.int(in: 0...9), Gen.int(in: 0...9), Gen.int(in: 0...9)).replay([1, 2, 3])
        #expect(triple.map { [$0.0, $0.1, $0.2] } == [1, 2, 3])
    }

    @Test func constantDrawsNothing() throws {
        var source = ChoiceSource(seed: 1)
        #expect(try Gen.constant("x").generate(&source) == "x")
        #expect(source.choices.isEmpty)
    }

    @Test func frequencyFollowsWeightsAndSkipsZeroWeights() {
        let gen = Gen.frequency([(1, .constant(0)), (0, .constant(1)), (3, .constant(2))])
        var counts = [0, 0, 0]
        for seed: UInt64 in 0..<4_000 { counts[gen.sample(seed: seed)!] += 1 }
        #expect(counts[1] == 0)
        #expect((800...1_200).contains(counts[0]))
    }

    @Test func oneOfAndElementCoverEveryAlternative() {
        let picked = Set((0..<200).compactMap { Gen.oneOf(.constant(1), .constant(2), .constant(3)).sample(seed: $0) })
        #expect(picked == [1, 2, 3])
        let letters = Set((0..<200).compactMap { Gen.element(of: "abcd").sample(seed: $0) })
        #expect(letters == ["a", "b", "c", "d"])
    }

    @Test func sizedAndResizedSeeTheSourceSize() {
        let size = Gen.sized { Gen.constant($0) }
        #expect(size.sample(seed: 1, size: 37) == 37)
        #expect(size.resized { $0 * 2 }.sample(seed: 1, size: 37) == 74)
    }

    @Test(arguments: [0, 10, 100])
    func arrayLengthGrowsWithSize(size: Int) {
        let lengths = (0..<400).compactMap { Gen.array(of: Gen.bool).sample(seed: $0, size: size)?.count }
        let mean = Double(lengths.reduce(0, +)) / Double(lengths.count)
        let expected = Double(size) / 2
        #expect(abs(mean - expected) <= Swift.max(1, expected * 0.25), "mean length \(mean) at size \(size)")
    }

    @Test func arrayRespectsCountBounds() {
        for seed: UInt64 in 0..<300 {
            let bounded = Gen.array(of: Gen.bool, count: 2...4).sample(seed: seed, size: 100)!
            #expect((2...4).contains(bounded.count))
            #expect(Gen.array(of: Gen.bool, count: 3).sample(seed: seed)!.count == 3)
        }
        let lengths = Set((0..<300).compactMap { Gen.array(of: Gen.bool, count: 2...4).sample(seed: $0, size: 100)?.count })
        #expect(lengths == [2, 3, 4])
    }

    @Test func stringGeneratorsUseTheirAlphabet() {
        for seed: UInt64 in 0..<100 {
            #expect(Gen.string(from: "ab").sample(seed: seed)!.allSatisfy { $0 == "a" || $0 == "b" })
            #expect(Gen.string(of: Gen.element(of: "xy" as String)).sample(seed: seed)!.allSatisfy { "xy".contains($0) })
            let scalars = Gen.string(of: Gen<Unicode.Scalar>.element(of: ["\u{301}", "e"])).sample(seed: seed)!
            #expect(scalars.unicodeScalars.allSatisfy { $0 == "\u{301}" || $0 == "e" })
        }
    }

    @Test func optionalIsSometimesNil() {
        let values = (0..<400).compactMap { Gen.int(in: 1...9).optional.sample(seed: $0) }
        let nils = values.filter { $0 == nil }.count
        #expect((60...140).contains(nils), "\(nils) nils in 400")
    }

    @Test func boolIsFairAndWeightedBoolFollowsItsProbability() {
        let trues = (0..<2_000).filter { Gen.bool.sample(seed: $0)! }.count
        #expect((900...1_100).contains(trues))
        let rare = (0..<2_000).filter { Gen.bool(probability: 0.1).sample(seed: $0)! }.count
        #expect((140...260).contains(rare))
    }

    @Test func fullRangeIntGeneratesBothSignsWithoutTrapping() {
        let values = (0..<500).compactMap { Gen.int(in: Int.min...Int.max).sample(seed: $0) }
        #expect(values.contains { $0 < 0 } && values.contains { $0 > 0 })
        #expect(values.contains { $0 < Int.min / 2 } && values.contains { $0 > Int.max / 2 })
    }
}
