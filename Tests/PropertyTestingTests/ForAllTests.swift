import Testing
import PropertyTesting

@Suite struct ForAllTests {
    static let seeds: [UInt64] = [1, 2, 3, 42, 0xDEAD_BEEF, 0x0123_4567_89AB_CDEF]

    @Test(arguments: seeds)
    func thresholdShrinksToExactlyTheBoundary(seed: UInt64) throws {
        let report = forAll(Gen.int(in: 0...1_000), seed: seed) { $0 < 100 }
        let failure = try #require(report.failure, "\(report)")
        #expect(failure.shrunk == 100)
        #expect(failure.original >= 100)
        #expect(failure.error == nil)
    }

    @Test(arguments: seeds)
    func negativeThresholdShrinksTowardZero(seed: UInt64) throws {
        let report = forAll(Gen.int(in: -1_000...1_000), seed: seed) { $0 > -50 }
        #expect(try #require(report.failure).shrunk == -50)
    }

    @Test(arguments: seeds)
    func fullRangeIntShrinksToTheBoundary(seed: UInt64) throws {
        let above = forAll(Gen.int(in: Int.min...Int.max), seed: seed) { $0 < 1_000 }
        #expect(try #require(above.failure).shrunk == 1_000)
        let below = forAll(Gen.int(in: Int.min...Int.max), seed: seed) { $0 > -1_000 }
        #expect(try #require(below.failure).shrunk == -1_000)
    }

    @Test(arguments: seeds)
    func arraySumShrinksToASingleElement(seed: UInt64) throws {
        let report = forAll(Gen.array(of: Gen.int(in: 0...100)), seed: seed) { $0.reduce(0, +) <= 10 }
        #expect(try #require(report.failure, "\(report)").shrunk == [11])
    }

    @Test(arguments: seeds)
    func uppercaseShrinksToCapitalA(seed: UInt64) throws {
        let report = forAll(Gen.asciiPrintable, seed: seed) { !$0.contains(where: \.isUppercase) }
        #expect(try #require(report.failure, "\(report)").shrunk == "A")
    }

    @Test(arguments: seeds)
    func flatMapDependentGeneratorStillShrinks(seed: UInt64) throws {
        let lists = Gen.int(in: 1...20).flatMap { count in Gen.array(of: Gen.int(in: 0...1_000), count: count) }
        let report = forAll(lists, seed: seed) { $0.allSatisfy { $0 < 500 } }
        #expect(try #require(report.failure, "\(report)").shrunk == [500])
    }

    @Test(arguments: seeds)
    func mappedAndFilteredGeneratorsShrinkThroughTheirSource(seed: UInt64) throws {
        let evens = Gen.int(in: 0...10_000).filter { $0 % 2 == 0 }.map { "#\($0)" }
        let report = forAll(evens, seed: seed) { $0.count < 4 }
        #expect(try #require(report.failure, "\(report)").shrunk == "#100")
    }

    @Test(arguments: seeds)
    func thrownErrorIsAFailureAndItsTextIsKept(seed: UInt64) throws {
        let report = forAll(Gen.int(in: 0...1_000), seed: seed) { value in
            if value >= 250 { throw TooLarge(value: value) }
            return true
        }
        let failure = try #require(report.failure)
        #expect(failure.shrunk == 250)
        #expect(failure.error == "TooLarge(value: 250)")
    }

    @Test func alwaysThrowingPropertyShrinksToTheSimplestValue() throws {
        let report = forAll(Gen.array(of: Gen.int(in: 0...9)), seed: 8) { _ in throw TooLarge(value: -1) }
        let failure = try #require(report.failure)
        #expect(failure.shrunk == [])
        #expect(failure.caseIndex == 0)
        #expect(failure.choices == [])
        #expect(failure.error == "TooLarge(value: -1)")
    }

    @Test(arguments: seeds)
    func sameSeedGivesTheSameReport(seed: UInt64) {
        let gen = Gen.userInput
        let property: (String) -> Bool = { !$0.unicodeScalars.contains { $0.properties.isWhitespace } }
        let first = forAll(gen, seed: seed, property)
        let second = forAll(gen, seed: seed, property)
        #expect(first.isFailed)
        #expect(first == second)
    }

    @Test(arguments: seeds)
    func failureReplaysFromItsChoicesAndItsCaseID(seed: UInt64) throws {
        let gen = Gen.array(of: Gen.int(in: -50...50))
        let property: ([Int]) -> Bool = { $0.filter { $0 < 0 }.count < 3 }
        let failure = try #require(forAll(gen, seed: seed, property).failure)
        #expect(gen.replay(failure.choices, size: failure.size) == failure.shrunk)
        let alone = try #require(forAll(gen, case: failure.caseID, property).failure)
        #expect(alone.original == failure.original)
        #expect(alone.shrunk == failure.shrunk)
        #expect(alone.cases == nil)
        #expect(failure.shrunk == [-1, -1, -1])
    }

    @Test func passingPropertyReportsItsCasesAndSeed() {
        let report = forAll(Gen.int(in: 0...9), cases: 250, seed: 5) { (0...9).contains($0) }
        #expect(report == .passed(cases: 250, seed: 5))
        #expect(report.isPassed && !report.isFailed)
        #expect(report.description == "Property passed 250 cases (seed 0x0000000000000005).")
    }

    @Test func randomSeedIsReportedSoTheRunCanBeReplayed() throws {
        let report = forAll(Gen.int(in: 0...1_000)) { $0 < 900 }
        let failure = try #require(report.failure)
        let replayed = forAll(Gen.int(in: 0...1_000), seed: report.seed) { $0 < 900 }
        #expect(replayed.failure == failure)
    }

    @Test func sizeGrowsFromZeroToOneHundredAcrossTheRun() {
        var sizes: [Int] = []
        let report = forAll(Gen.sized { Gen.constant($0) }, cases: 11, seed: 1) { size in
            sizes.append(size)
            return true
        }
        #expect(report.isPassed)
        #expect(sizes == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
    }

    @Test func tooManyDiscardsGivesUp() {
        let report = forAll(Gen.int(in: 0...9).filter(maxAttempts: 3) { $0 > 100 }, cases: 10, seed: 2) { _ in true }
        #expect(report == .gaveUp(cases: 0, discarded: 101, seed: 2))
        #expect(report.description.hasPrefix("Property gave up after 0 cases: generators discarded 101"))
    }

    @Test func discardedCasesAreSkippedButSomeStillRun() {
        var checked = 0
        let report = forAll(Gen.int(in: 0...9).filter(maxAttempts: 1) { $0 < 5 }, cases: 50, seed: 9) { value in
            checked += 1
            return value < 5
        }
        #expect(report == .passed(cases: 50, seed: 9))
        #expect(checked == 50)
    }

    /// The whole report as people read it, including the scalar line that shows invisible characters.
    @Test func failureDescriptionShowsSeedScalarsAndReplay() throws {
        let report = forAll(Gen.userInput, seed: 1) { !$0.unicodeScalars.contains { $0.value == 0x200B } }
        let failure = try #require(report.failure)
        #expect(failure.shrunk == "\u{200B}")
        let lines = report.description.split(separator: "\n", omittingEmptySubsequences: false)
        // `String(reflecting:)` prints U+200B raw, which is why the scalar line below it exists.
        #expect(lines[0] == "Falsifying example: \"\u{200B}\"")
        #expect(lines[1] == "                    U+200B")
        #expect(lines[2] == "Property failed on case \(failure.caseIndex) of 100 (size \(failure.size)); shrunk in \(failure.shrinkSteps) steps (\(failure.shrinkEvaluations) runs).")
        #expect(lines.contains("  Seed:     0x0000000000000001"))
        #expect(lines.contains("Replay the run:       forAll(gen, cases: 100, seed: 0x0000000000000001) { … }"))
        #expect(lines.contains("Replay this case:     forAll(gen, case: CaseID(seed: 0x0000000000000001, index: \(failure.caseIndex), size: \(failure.size))) { … }"))
        #expect(lines.last == "Regenerate the value: gen.replay(\(failure.choices), size: \(failure.size))")
    }

    @Test func failureDescriptionIsPinned() {
        let report = forAll(Gen.array(of: Gen.int(in: 0...100)), seed: 1) { $0.reduce(0, +) <= 10 }
        #expect(report.description == """
            Falsifying example: [11]
            Property failed on case 3 of 100 (size 3); shrunk in 3 steps (17 runs).
              Original: [19]
              Seed:     0x0000000000000001
            Replay the run:       forAll(gen, cases: 100, seed: 0x0000000000000001) { … }
            Replay this case:     forAll(gen, case: CaseID(seed: 0x0000000000000001, index: 3, size: 3)) { … }
            Regenerate the value: gen.replay([1, 11], size: 3)
            """)
    }

    @Test func thrownErrorAppearsInTheDescription() {
        let report = forAll(Gen.int(in: 0...1_000), seed: 4) { value in
            if value >= 250 { throw TooLarge(value: value) }
            return true
        }
        #expect(report.description.contains("\n  Error:    TooLarge(value: 250)\n"))
    }
}

struct TooLarge: Error, CustomStringConvertible {
    var value: Int
    var description: String { "TooLarge(value: \(value))" }
}
