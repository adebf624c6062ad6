/// Edit distances between words, and the nearest of a list of candidates, for "did you mean …?" hints.
package enum EditDistance {
    /// The edit distance from `a` to `b`: insertions, deletions and substitutions (Levenshtein),
    /// plus swaps of two neighbours when `countingSwaps` (the optimal string alignment distance).
    ///
    /// - Complexity: O(*n* · *m*) for words of lengths *n* and *m*.
    package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], countingSwaps: Bool) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if countingSwaps, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// The candidate closest to `word`, compared as `form` gives each, if close enough to be a typo of it.
    ///
    /// Close enough means at most a third of the candidate's length (and at least 1) edits away;
    /// ties go to the earlier candidate. A word of more than 64 scalars has no nearest candidate.
    /// - Complexity: O(*n* · *m* · *k*) for *k* candidates of length *m* and a word of length *n*.
    package static func nearest(to word: [Unicode.Scalar], in candidates: [String], countingSwaps: Bool,
                                form: (String) -> [Unicode.Scalar]) -> String? {
        guard word.count <= 64 else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let b = form(candidate)
            let distance = distance(word, b, countingSwaps: countingSwaps)
            if distance <= max(1, b.count / 3), best == nil || distance < best!.distance {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }
}
