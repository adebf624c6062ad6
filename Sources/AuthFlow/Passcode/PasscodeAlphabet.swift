extension PasscodePolicy {
    /// What is wrong with `alphabet` as a policy's, or nil: the characters the normaliser can never
    /// output, and the alphabet to write instead.
    ///
    /// The normaliser uppercases letters, folds compatibility forms, makes every script's digits
    /// ASCII, and removes whitespace, dashes and invisible characters, so a policy listing `a`,
    /// `٣`, `-` or a space could never see one in a code: a user typing `abc` under the alphabet
    /// `"abc"` gets an empty code. Such an alphabet is refused where it is written (a spec's
    /// `passcode.alphabet`, `authcheck passcode --alphabet`), with the alphabet the normaliser
    /// would turn it into as the fix (`"ABC"`), or the advice to remove the characters when they
    /// become nothing.
    ///
    /// ```swift
    /// PasscodePolicy.alphabetProblem("0123456789")  // nil
    /// PasscodePolicy.alphabetProblem("abc")
    /// // "holds 'a' (U+0061), 'b' (U+0062), 'c' (U+0063), which the normaliser never outputs (…); write "ABC""
    /// ```
    public static func alphabetProblem(_ alphabet: String) -> String? {
        let unreachable = PasscodeNormaliser(policy: PasscodePolicy(maxLength: 0, alphabet: alphabet)).unreachableAlphabet
        guard !unreachable.isEmpty else { return nil }
        let listed = unreachable.prefix(8).map { "'\(SpecLimits.shown(String($0)))' (\($0.codePoint))" }.joined(separator: ", ")
            + (unreachable.count > 8 ? " and \(unreachable.count - 8) more" : "")
        let them = unreachable.count == 1 ? "it" : "them"
        let why = "the normaliser never outputs \(unreachable.count == 1 ? "it" : "any of them") (it uppercases letters, folds "
            + "compatibility forms, makes every script's digits ASCII, and removes whitespace, dashes, invisible characters "
            + "and combining marks), so no code could hold \(them)"
        let fix = suggestedAlphabet(alphabet)
        let advice = fix.isEmpty ? "remove \(them); nothing of the alphabet is left, so write the characters a code holds"
            : fix == alphabetWithout(unreachable, alphabet) ? "remove \(them): write \(JSON.quoted(fix))"
            : "write \(JSON.quoted(fix)), as the normaliser outputs \(them)"
        return "the alphabet holds \(listed); \(why); \(advice)"
    }

    /// `alphabet` as the normaliser outputs it: each character folded and uppercased, other
    /// scripts' digits as ASCII ones, what it removes left out, each character once, in order.
    static func suggestedAlphabet(_ alphabet: String) -> String {
        var seen = Set<Unicode.Scalar>()
        var out = String.UnicodeScalarView()
        for scalar in alphabet.unicodeScalars {
            for folded in PasscodeNormaliser.foldAndUppercase(String(scalar)).unicodeScalars {
                let written = PasscodeNormaliser.asciiDigit(folded) ?? folded
                if seen.insert(written).inserted { out.append(written) }
            }
        }
        // Keep only what the normaliser can output under the alphabet written so.
        let reachable = PasscodeNormaliser(policy: PasscodePolicy(maxLength: 0, alphabet: String(out))).outputAlphabet
        return String(String.UnicodeScalarView(out.filter(reachable.contains)))
    }

    /// `alphabet` without the scalars of `removed`, in order.
    static func alphabetWithout(_ removed: [Unicode.Scalar], _ alphabet: String) -> String {
        let removed = Set(removed)
        var seen = Set<Unicode.Scalar>()
        return String(String.UnicodeScalarView(alphabet.unicodeScalars.filter { !removed.contains($0) && seen.insert($0).inserted }))
    }
}
