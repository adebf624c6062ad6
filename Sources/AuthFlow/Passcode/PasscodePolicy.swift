/// The one-time-passcode policy of a flow: how long a code may be and which characters it may hold.
///
/// A spec's optional `passcode` object (`{"maxLength": 6, "alphabet": "ABC…"}`) loads into this
/// value; with no such object the defaults apply: six characters from `A`–`Z` and `0`–`9`.
public struct PasscodePolicy: Hashable, Sendable {
    /// The default alphabet: the uppercase ASCII letters and the decimal digits.
    public static let defaultAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    /// The default policy: six characters from ``defaultAlphabet``.
    public static let `default` = PasscodePolicy(maxLength: 6, alphabet: defaultAlphabet)

    /// The longest code the policy allows, in characters.
    public var maxLength: Int
    /// The characters a code may contain, as unicode scalars.
    public var alphabet: Set<Unicode.Scalar>
    /// The alphabet as the spec wrote it (kept for reports and exports).
    public var alphabetText: String

    /// Creates a policy.
    /// - Parameters:
    ///   - maxLength: the longest allowed code; must not be negative.
    ///   - alphabet: the allowed characters.
    public init(maxLength: Int, alphabet: String) {
        precondition(maxLength >= 0, "PasscodePolicy.maxLength must not be negative")
        self.maxLength = maxLength
        self.alphabet = Set(alphabet.unicodeScalars)
        self.alphabetText = alphabet
    }

    /// Whether `code` is within the policy: no longer than ``maxLength`` and only alphabet characters.
    public func admits(_ code: String) -> Bool {
        code.unicodeScalars.count <= maxLength && code.unicodeScalars.allSatisfy(alphabet.contains)
    }
}
