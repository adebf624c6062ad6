import Testing
@testable import PropertyTesting

@Suite struct UnicodeGeneratorTests {
    /// Enough draws that every scalar of every class shows up.
    static func scalarsDrawn(by gen: Gen<String>, samples: Int = 300) -> [Unicode.Scalar] {
        (0..<samples).flatMap { seed in gen.sample(seed: UInt64(seed), size: 100)!.unicodeScalars }
    }

    @Test(arguments: UnicodeClass.allCases)
    func generatorStaysInsideItsClassAndCoversIt(unicodeClass: UnicodeClass) {
        let repertoire = Set(unicodeClass.repertoire)
        let drawn = Self.scalarsDrawn(by: .unicode(unicodeClass))
        let outside = Set(drawn).subtracting(repertoire)
        let missing = repertoire.subtracting(drawn)
        #expect(outside.isEmpty, "outside \(unicodeClass): \(scalarList(outside.sorted { $0.value < $1.value }))")
        #expect(missing.isEmpty, "never drawn from \(unicodeClass): \(scalarList(missing.sorted { $0.value < $1.value }))")
    }

    @Test(arguments: UnicodeClass.allCases)
    func repertoireHasNoDuplicates(unicodeClass: UnicodeClass) {
        #expect(Set(unicodeClass.repertoire).count == unicodeClass.repertoire.count)
    }

    @Test func namedGeneratorsAreTheClassGenerators() {
        let pairs: [(Gen<String>, UnicodeClass)] = [
            (.asciiPrintable, .asciiPrintable), (.latin1, .latin1), (.fullWidth, .fullWidth),
            (.combiningMarks, .combiningMarks), (.emoji, .emoji), (.whitespace, .whitespace),
            (.invisibles, .invisibles), (.caseMappingTraps, .caseMappingTraps),
            (.otherScriptDigits, .otherScriptDigits), (.numberForms, .numberForms),
        ]
        for (gen, unicodeClass) in pairs {
            for seed: UInt64 in 0..<20 {
                #expect(gen.sample(seed: seed, size: 40) == Gen.unicode(unicodeClass).sample(seed: seed, size: 40))
            }
        }
    }

    /// The whitespace class is exactly Unicode's White_Space property, checked over every scalar.
    @Test func whitespaceIsEveryWhiteSpaceCharacter() {
        let all = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter(\.properties.isWhitespace)
        #expect(all.count == 25)
        #expect(Set(UnicodeClass.whitespace.repertoire) == Set(all))
        #expect(Set(Self.scalarsDrawn(by: .whitespace, samples: 100)) == Set(all))
    }

    @Test func invisiblesAreFormatCharactersOrMarksAndNotWhitespace() {
        for scalar in UnicodeClass.invisibles.repertoire {
            let category = scalar.properties.generalCategory
            #expect(category == .format || category == .nonspacingMark, "\(scalarList([scalar])) is \(category)")
            #expect(!scalar.properties.isWhitespace)
        }
        #expect(UnicodeClass.invisibles.repertoire.count == 40)
    }

    @Test func combiningMarksStackAndSometimesLeadTheString() {
        let marks = Set(UnicodeTables.combiningMarks)
        #expect(marks.count == 112)
        #expect(marks.allSatisfy { $0.properties.generalCategory == .nonspacingMark })
        let strings = (0..<300).compactMap { Gen.combiningMarks.sample(seed: $0, size: 100) }
        let stacked = strings.contains { text in
            zip(text.unicodeScalars, text.unicodeScalars.dropFirst()).contains { marks.contains($0) && marks.contains($1) }
        }
        #expect(stacked)
        #expect(strings.contains { $0.unicodeScalars.first.map(marks.contains) == true })
    }

    /// A trap's case mapping changes its length, does not round-trip, or (titlecase) changes both ways.
    ///
    /// Compared by scalars: `String ==` treats K (Kelvin) and K as equal, which is part of the trap.
    @Test func caseMappingTrapsReallyAreTraps() {
        func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }
        for scalar in UnicodeClass.caseMappingTraps.repertoire {
            let text = [scalar]
            let upper = scalars(String(scalar).uppercased())
            let lower = scalars(String(scalar).lowercased())
            let isTrap = upper.count != 1 || lower.count != 1
                || scalars(String(String.UnicodeScalarView(upper)).lowercased()) != lower
                || scalars(String(String.UnicodeScalarView(lower)).uppercased()) != upper
                || (upper != text && lower != text)
            #expect(isTrap, "\(scalarList([scalar])) maps like an ordinary letter")
        }
    }

    @Test func digitClassesAreNumericButNotASCII() {
        for scalar in UnicodeClass.otherScriptDigits.repertoire {
            #expect(scalar.properties.numericType == .decimal && !scalar.isASCII, "\(scalarList([scalar]))")
        }
        #expect(UnicodeClass.otherScriptDigits.repertoire.map { Int($0.properties.numericValue!) } == Array(repeating: Array(0...9), count: 6).flatMap { $0 })
        for scalar in UnicodeClass.numberForms.repertoire {
            let type = scalar.properties.numericType
            #expect(type != nil && type != .decimal && !scalar.isASCII, "\(scalarList([scalar]))")
        }
    }

    @Test func fullWidthFormsAreShiftedPrintableASCII() {
        let shifted = UnicodeClass.fullWidth.repertoire.map { Unicode.Scalar($0.value - 0xFEE0)! }
        #expect(shifted == Array(UnicodeClass.asciiPrintable.repertoire.dropFirst()))
    }

    @Test func latin1AndASCIIAreTheirBlocks() {
        #expect(UnicodeClass.asciiPrintable.repertoire.map(\.value) == Array(0x20...0x7E))
        #expect(UnicodeClass.latin1.repertoire.map(\.value) == Array(0xA0...0xFF))
    }

    @Test func emojiSequencesAreSingleCharacters() {
        for sequence in UnicodeTables.zwjSequences + UnicodeTables.tagFlags {
            let text = String(String.UnicodeScalarView(sequence.map { Unicode.Scalar($0)! }))
            #expect(text.count == 1, "\(scalarList(text.unicodeScalars)) is \(text.count) characters")
        }
        let drawn = Self.scalarsDrawn(by: .emoji, samples: 100)
        #expect(drawn.contains(UnicodeTables.zeroWidthJoiner))
        #expect(drawn.contains { UnicodeTables.skinTones.contains($0) })
        #expect(drawn.contains { UnicodeTables.regionalIndicators.contains($0) })
    }

    /// Mixed input reaches every class, so one property test sees all the traps.
    @Test func userInputMixesEveryClass() {
        let drawn = Set(Self.scalarsDrawn(by: .userInput, samples: 300))
        for unicodeClass in UnicodeClass.allCases {
            let distinctive = Set(unicodeClass.repertoire).subtracting(UnicodeTables.asciiPrintable)
                .union(unicodeClass == .asciiPrintable ? Set(UnicodeTables.asciiPrintable) : [])
            #expect(!drawn.isDisjoint(with: distinctive), "userInput never drew from \(unicodeClass)")
        }
    }

    @Test func userInputShrinksToTheOffendingCharacter() throws {
        let whitespace = forAll(Gen.userInput, seed: 3) { !$0.unicodeScalars.contains { $0.properties.isWhitespace } }
        #expect(try #require(whitespace.failure).shrunk == " ")
        let nonASCII = forAll(Gen.userInput, seed: 3) { $0.unicodeScalars.allSatisfy(\.isASCII) }
        #expect(try #require(nonASCII.failure).shrunk == "\u{200B}")
        let notDigits = forAll(Gen.userInput, seed: 3) { $0.allSatisfy(\.isNumber) }
        #expect(try #require(notDigits.failure).shrunk == " ")
    }
}
