import AuthFlow

/// Finds the candidate nearest to a mistyped word, for "did you mean …?" hints.
enum Suggestion {
    /// The candidate closest to `word` by edit distance, if close enough to be a typo of it.
    ///
    /// Close enough means at most a third of the candidate's length (and at least 1) edits away,
    /// ignoring leading dashes and case; ties go to the earlier candidate.
    /// ```swift
    /// Suggestion.nearest(to: "--dept", in: ["--depth", "--format"])  // "--depth"
    /// ```
    /// - Complexity: O(*n* · *m* · *k*) for *k* candidates of length *m* and a word of length *n*.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        let a = core(word)
        guard !a.isEmpty else { return nil }
        return EditDistance.nearest(to: a, in: candidates, countingSwaps: true, form: core)
    }

    /// The word without leading dashes, lowercased.
    static func core(_ word: String) -> [Unicode.Scalar] {
        Array(String(word.drop { $0 == "-" }).lowercased().unicodeScalars)
    }
}
