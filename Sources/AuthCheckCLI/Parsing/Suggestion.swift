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
        let a = Array(core(word))
        guard !a.isEmpty, a.count <= 64 else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let b = Array(core(candidate))
            let distance = editDistance(a, b)
            if distance <= max(1, b.count / 3), best == nil || distance < best!.distance {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The word without leading dashes, lowercased.
    static func core(_ word: String) -> [Unicode.Scalar] {
        Array(String(word.drop { $0 == "-" }).lowercased().unicodeScalars)
    }

    /// The Damerau–Levenshtein (optimal string alignment) distance: insertions, deletions, substitutions, swaps.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
