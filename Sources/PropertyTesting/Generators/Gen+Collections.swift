extension Gen {
    /// Returns a generator of arrays whose length grows with the source's size (mean about size ÷ 2).
    ///
    /// Before each element the generator draws a "one more?" choice (1 = yes), so deleting an
    /// element's draws during shrinking deletes the element, and zeroing a "one more?" choice cuts
    /// the array short: arrays shrink toward shorter arrays of simpler elements.
    public static func array<Element>(of element: Gen<Element>) -> Gen<[Element]> where Value == [Element] {
        array(of: element, count: 0...Int.max)
    }

    /// Returns a generator of arrays with a length in `count`, shorter lengths more likely.
    ///
    /// The first `count.lowerBound` elements are always drawn; each further element is preceded by a
    /// "one more?" choice made with a probability that gives a mean of
    /// `min(size, count.upperBound - count.lowerBound) / 2` extra elements.
    /// - Parameters:
    ///   - element: the generator of each element.
    ///   - count: the allowed lengths; the lower bound must not be negative.
    public static func array<Element>(
        of element: Gen<Element>,
        count: ClosedRange<Int>
    ) -> Gen<[Element]> where Value == [Element] {
        precondition(count.lowerBound >= 0, "array lengths must not be negative")
        return Gen<[Element]> { (source: inout ChoiceSource) throws(DiscardedCase) -> [Element] in
            var result: [Element] = []
            for _ in 0..<count.lowerBound {
                result.append(try element.generate(&source))
            }
            let spread = Double(count.upperBound - count.lowerBound)
            let mean = Swift.min(spread, Double(Swift.max(source.size, 0))) / 2
            let probability = mean / (mean + 1)
            while result.count < count.upperBound, source.drawBool(probability: probability) {
                result.append(try element.generate(&source))
            }
            return result
        }
    }

    /// Returns a generator of arrays of exactly `count` elements.
    public static func array<Element>(of element: Gen<Element>, count: Int) -> Gen<[Element]>
    where Value == [Element] {
        array(of: element, count: count...count)
    }
}

extension Gen where Value == String {
    /// Returns a generator of strings of `character` values, sized like ``Gen/array(of:)``.
    public static func string(of character: Gen<Character>) -> Gen<String> {
        Gen<[Character]>.array(of: character).map { String($0) }
    }

    /// Returns a generator of strings of `character` values with a length in `count`.
    public static func string(of character: Gen<Character>, count: ClosedRange<Int>) -> Gen<String> {
        Gen<[Character]>.array(of: character, count: count).map { String($0) }
    }

    /// Returns a generator of strings of `scalar` values, sized like ``Gen/array(of:)``.
    public static func string(of scalar: Gen<Unicode.Scalar>) -> Gen<String> {
        Gen<[Unicode.Scalar]>.array(of: scalar).map { scalars in
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            return String(text)
        }
    }

    /// Returns a generator of strings of the characters in `alphabet`; they shrink toward its first character.
    ///
    /// ```swift
    /// let code = Gen.string(from: "0123456789")
    /// ```
    public static func string(from alphabet: String) -> Gen<String> {
        string(of: Gen<Character>.element(of: Array(alphabet)))
    }

    /// Returns a generator of the concatenation of an array of `piece` values, sized like ``Gen/array(of:)``.
    public static func joined(_ piece: Gen<String>) -> Gen<String> {
        Gen<[String]>.array(of: piece).map { $0.joined() }
    }

    /// Returns a generator of the concatenation of `count` pieces.
    public static func joined(_ piece: Gen<String>, count: ClosedRange<Int>) -> Gen<String> {
        Gen<[String]>.array(of: piece, count: count).map { $0.joined() }
    }
}
