extension PropertyReport: CustomStringConvertible {
    /// A report for people: the shrunk counterexample first, then the seed and the calls that replay it.
    ///
    /// A failure leads with `Falsifying example:` and the shrunk value, as Hypothesis does, so the value
    /// is the first thing read rather than something dug out of ``Failure/shrunk``. It prints like this
    /// (strings also list their scalars, so invisible characters show):
    ///
    /// ```
    /// Falsifying example: "A"
    ///                     U+0041
    /// Property failed on case 12 of 100 (size 12); shrunk in 9 steps (41 runs).
    ///   Original: "x\u{200B}QA"
    ///             U+0078 U+200B U+0051 U+0041
    ///   Seed:     0x00000000DEADBEEF
    /// Replay the run:       forAll(gen, cases: 100, seed: 0x00000000DEADBEEF) { … }
    /// Replay this case:     forAll(gen, case: CaseID(seed: 0x00000000DEADBEEF, index: 12, size: 12)) { … }
    /// Regenerate the value: gen.replay([1, 33, 0], size: 12)
    /// ```
    public var description: String {
        switch self {
        case .passed(let cases, let seed):
            return "Property passed \(cases) cases (seed \(hexLiteral(seed)))."
        case .gaveUp(let cases, let discarded, let seed):
            return "Property gave up after \(cases) cases: generators discarded \(discarded) "
                + "(seed \(hexLiteral(seed))). Generate valid values directly instead of filtering."
        case .failed(let failure):
            return failure.description
        }
    }
}

extension PropertyReport.Failure: CustomStringConvertible {
    /// See ``PropertyReport/description``.
    public var description: String {
        var lines = describe(shrunk, label: "Falsifying example: ", indent: "")
        lines.append(
            "Property failed on case \(caseIndex)\(cases.map { " of \($0)" } ?? "") (size \(size)); "
                + "shrunk in \(shrinkSteps) steps (\(shrinkEvaluations) runs).")
        lines += describe(original, label: "Original: ")
        if let error {
            lines.append("  Error:    \(error)")
        }
        lines.append("  Seed:     \(hexLiteral(seed))")
        if let cases {
            lines.append("Replay the run:       forAll(gen, cases: \(cases), seed: \(hexLiteral(seed))) { … }")
        }
        lines.append("Replay this case:     forAll(gen, case: \(caseID)) { … }")
        lines.append("Regenerate the value: gen.replay(\(choices), size: \(size))")
        return lines.joined(separator: "\n")
    }

    private func describe(_ value: T, label: String, indent: String = "  ") -> [String] {
        var lines = ["\(indent)\(label)\(String(reflecting: value))"]
        let padding = String(repeating: " ", count: indent.count + label.count)
        if let text = value as? String {
            lines.append(padding + scalarList(text.unicodeScalars))
        } else if let text = value as? Substring {
            lines.append(padding + scalarList(text.unicodeScalars))
        } else if let character = value as? Character {
            lines.append(padding + scalarList(character.unicodeScalars))
        }
        return lines
    }
}

/// `U+0041 U+200B …`, or `(no scalars)` for an empty string.
func scalarList<S: Sequence>(_ scalars: S) -> String where S.Element == Unicode.Scalar {
    let names = scalars.map { scalar -> String in
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
    return names.isEmpty ? "(no scalars)" : names.joined(separator: " ")
}
