import Foundation

/// Turns whatever a person typed or pasted into a one-time-passcode field into a code within a ``PasscodePolicy``.
///
/// The steps, in order:
/// 1. Unicode compatibility forms are folded (NFKC): full-width `１２３` becomes `123`, `ﬀ` becomes
///    `ff`, `²` becomes `2`, `Ⅻ` becomes `XII`, `①` becomes `1`.
/// 2. Letters are uppercased (`a` → `A`, `ß` → `SS`, dotless `ı` → `I`), and the result is folded
///    again, since uppercasing can leave compatibility or decomposed forms behind.
/// 3. Decimal digits of every script (general category Nd) become their ASCII digit: Arabic-Indic
///    `١٢٣`, Persian `۱۲۳`, Devanagari `१२३`, Bengali `১২৩` and Thai `๑๒๓` all become `123`.
/// 4. Every whitespace, dash-like separator and invisible formatting character is removed: all of
///    Unicode's `White_Space`, the general categories Cc, Cf, Zs, Zl, Zp and Pd (hyphen-minus,
///    hyphen, non-breaking hyphen, en and em dashes, …), the minus signs `−` `➖` `˗` and the hyphen
///    bullet `⁃`, and every default-ignorable code point (zero-width space and joiners, byte-order
///    mark, soft hyphen, bidi marks, variation selectors).
/// 5. Characters outside the policy's alphabet are dropped.
/// 6. The result is cut to ``PasscodePolicy/maxLength`` unicode scalars.
///
/// ``normalise(_:)`` returns the code alone. ``read(_:)`` also says whether the input held a
/// complete code, too few characters, or more than the policy allows (see ``Length``), so a screen
/// can ask again instead of submitting a wrong code: a seven-digit paste into a six-digit field is
/// ``Length/overlong(extra:)``, not a silently cut code.
///
/// Two guarantees hold for every string `x` and every policy, however odd its alphabet:
/// `normalise(normalise(x))` is `normalise(x)` scalar for scalar (not merely canonically
/// equivalent, which is all `String`'s `==` checks), and `policy.admits(normalise(x))`.
///
/// They hold by construction: the normaliser only ever outputs *stable* scalars, those of the
/// alphabet that the steps above leave unchanged on their own and that can never compose with a
/// neighbour. Alphabet characters that are not stable are never output, so no input can produce them:
/// lowercase letters (uppercasing changes them), compatibility characters such as `ﬁ` or `²`
/// (folding changes them), decimal digits other than ASCII (step 3 changes them), whitespace,
/// dash-like separators and invisible characters, combining marks (`U+0301`), and conjoining
/// Hangul jamo (they compose into syllables). ``unreachableAlphabet`` lists them, so a spec loader
/// can warn about a policy that can never match what it declares.
///
/// Some consequences worth knowing:
/// - An alphabet of ASCII digits accepts a code typed on any script's digit keyboard, and an
///   alphabet that lists `٣` itself never outputs it: it always becomes `3`.
/// - A hyphen in the alphabet is never output: `12-34` is `1234` whatever the alphabet.
/// - Folding composes a letter with a following combining mark: `E` + `U+0301` becomes `É`, which the
///   default alphabet drops as a whole rather than keeping the `E`.
/// - `İ` (capital I with dot) is its own letter; it is dropped unless the alphabet holds it.
/// - A pasted sentence keeps every alphabet character: `"Your code is 123 456"` becomes `YOURCO`
///   under the default policy, and `123456` under a digits-only one.
///
/// ```swift
/// let normaliser = PasscodeNormaliser()
/// normaliser.normalise("１２３ ４５６")   // "123456"
/// normaliser.normalise("ab\u{200B}c12") // "ABC12"
/// normaliser.normalise("١٢٣-٤٥٦")       // "123456"
/// normaliser.read("1234567")            // Result(code: "123456", length: .overlong(extra: 1))
/// ```
///
/// The alphabet's stable scalars are decided once, when the policy is set, and kept in a table, so
/// normalising costs a couple of passes over the input. Inputs made only of ASCII skip the Unicode
/// folding entirely. The first non-ASCII input or alphabet in a process builds the shared
/// compatibility-decomposition table (tens of milliseconds, once).
public struct PasscodeNormaliser: Sendable {
    /// The policy every output is within; setting it recomputes the table of stable scalars.
    public var policy: PasscodePolicy {
        didSet { table = StableScalarTable(policy: policy) }
    }

    private var table: StableScalarTable

    /// Creates a normaliser for a policy.
    /// - Parameter policy: the passcode policy; by default six characters from `A`–`Z` and `0`–`9`.
    public init(policy: PasscodePolicy = .default) {
        self.policy = policy
        self.table = StableScalarTable(policy: policy)
    }

    /// Normalises a typed or pasted passcode into a code within ``policy``.
    ///
    /// The result is always admitted by the policy, and normalising it again returns it unchanged.
    ///
    /// - Parameter input: any string, as typed or pasted.
    /// - Returns: the normalised code, at most ``PasscodePolicy/maxLength`` unicode scalars long; empty
    ///   when nothing in the input is in the alphabet.
    /// - Complexity: O(*n*), where *n* is the length of `input`.
    public func normalise(_ input: String) -> String {
        scan(input, countingPastTheLimit: false).code
    }

    /// Normalises a typed or pasted passcode, and says whether it held a complete code.
    ///
    /// The code is the one ``normalise(_:)`` returns. The length compares the number of characters
    /// the input held *after* normalising, the ones within the alphabet, with
    /// ``PasscodePolicy/maxLength``: exactly that many is ``Length/complete``, fewer is
    /// ``Length/short(missing:)``, more is ``Length/overlong(extra:)`` (the code is then cut, and the
    /// user most likely pasted the wrong thing). Characters the normaliser removes or drops (spaces,
    /// dashes, invisible characters, anything outside the alphabet) never count, and one input
    /// character can count as several (`ß` is `SS`).
    ///
    /// ```swift
    /// let digits = PasscodeNormaliser(policy: PasscodePolicy(maxLength: 6, alphabet: "0123456789"))
    /// digits.read("Your code is ١٢٣ ٤٥٦.")  // Result(code: "123456", length: .complete)
    /// digits.read("123 45")                 // Result(code: "12345", length: .short(missing: 1))
    /// digits.read("1234567")                // Result(code: "123456", length: .overlong(extra: 1))
    /// ```
    ///
    /// - Parameter input: any string, as typed or pasted.
    /// - Returns: the normalised code and how its length compares with the policy's.
    /// - Complexity: O(*n*), where *n* is the length of `input`; unlike ``normalise(_:)``, it reads
    ///   past the cut to count the extra characters.
    public func read(_ input: String) -> Result {
        let (code, found) = scan(input, countingPastTheLimit: true)
        let limit = policy.maxLength
        let length: Length = found < limit ? .short(missing: limit - found) : found > limit ? .overlong(extra: found - limit) : .complete
        return Result(code: code, length: length)
    }

    /// The alphabet scalars that normalisation can produce, the ones it outputs when it meets them.
    public var outputAlphabet: Set<Unicode.Scalar> {
        table.stable
    }

    /// The alphabet scalars that normalisation can never produce, in code point order.
    ///
    /// These are lowercase letters, compatibility characters, decimal digits other than ASCII,
    /// whitespace, dash-like separators and invisible characters, combining marks and conjoining
    /// jamo. A policy that lists them almost certainly meant something else (for example `a`–`z`
    /// where it meant `A`–`Z`).
    public var unreachableAlphabet: [Unicode.Scalar] {
        policy.alphabet.subtracting(table.stable).sorted { $0.value < $1.value }
    }

    /// Whether a code is already in normal form: within the policy, and unchanged by ``normalise(_:)``.
    ///
    /// - Parameter code: the code to check.
    /// - Returns: `true` when `normalise(code) == code`.
    public func isNormalised(_ code: String) -> Bool {
        code.unicodeScalars.count <= policy.maxLength && code.unicodeScalars.allSatisfy(table.isStable)
    }

    // MARK: Steps

    /// The code, and how many characters the input held after normalising: all of them when
    /// `countingPastTheLimit`, else at most ``PasscodePolicy/maxLength`` (the scan stops at the cut).
    private func scan(_ input: String, countingPastTheLimit: Bool) -> (code: String, found: Int) {
        let limit = policy.maxLength
        guard limit > 0 || countingPastTheLimit, !input.isEmpty else { return ("", 0) }
        if input.utf8.allSatisfy({ $0 < 0x80 }) {
            return scanASCII(input, limit: limit, countingPastTheLimit: countingPastTheLimit)
        }
        return scanFolded(Self.foldAndUppercase(input), limit: limit, countingPastTheLimit: countingPastTheLimit)
    }

    /// The ASCII-only path: ASCII is its own NFKC form and uppercases byte by byte.
    private func scanASCII(_ input: String, limit: Int, countingPastTheLimit: Bool) -> (code: String, found: Int) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Swift.min(limit, input.utf8.count))
        var found = 0
        for byte in input.utf8 {
            let upper = (byte &- 0x61) < 26 ? byte &- 0x20 : byte
            guard table.isStableASCII(upper) else { continue }
            found += 1
            if found <= limit { bytes.append(upper) }
            if found >= limit, !countingPastTheLimit { break }
        }
        return (String(decoding: bytes, as: UTF8.self), found)
    }

    /// Steps 3 to 6 on folded, uppercased text: keeps its stable scalars, other scripts' digits as
    /// their ASCII digit, up to `limit` of them.
    private func scanFolded(_ text: String, limit: Int, countingPastTheLimit: Bool) -> (code: String, found: Int) {
        var output = String.UnicodeScalarView()
        var found = 0
        for scalar in text.unicodeScalars {
            guard let kept = table.output(for: scalar) else { continue }
            found += 1
            if found <= limit { output.append(kept) }
            if found >= limit, !countingPastTheLimit { break }
        }
        return (String(output), found)
    }

    /// Step 3 for one scalar: the ASCII digit of a decimal digit of another script (general category
    /// Nd, such as `٣`, `۳` or `३`), or nil for anything else, ASCII digits included.
    static func asciiDigit(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        guard !scalar.isASCII else { return nil }
        let properties = scalar.properties
        guard properties.numericType == .decimal, let value = properties.numericValue,
              let digit = UInt8(exactly: value), digit < 10 else { return nil }
        return Unicode.Scalar(0x30 + digit)
    }

    /// Steps 1 and 2: compatibility folding, uppercasing, and folding again when uppercasing left
    /// non-ASCII text it changed.
    static func foldAndUppercase(_ input: String) -> String {
        let folded = CompatibilityFolding.nfkc(input)
        let upper = folded.uppercased()
        if upper.utf8.elementsEqual(folded.utf8) || upper.utf8.allSatisfy({ $0 < 0x80 }) {
            return upper
        }
        return CompatibilityFolding.nfkc(upper)
    }
}

// MARK: - The length result

extension PasscodeNormaliser {
    /// A normalised code and whether the input held a complete one, as ``PasscodeNormaliser/read(_:)`` returns it.
    public struct Result: Hashable, Sendable {
        /// The normalised code: what ``PasscodeNormaliser/normalise(_:)`` returns for the same input.
        public var code: String
        /// How many characters the input held after normalising, compared with the policy's length.
        public var length: Length

        /// Creates a result.
        public init(code: String, length: Length) {
            self.code = code
            self.length = length
        }

        /// Whether the input held exactly ``PasscodePolicy/maxLength`` characters of the alphabet.
        public var isComplete: Bool { length == .complete }
    }

    /// How many characters of the alphabet an input held, after normalising, against ``PasscodePolicy/maxLength``.
    ///
    /// Counts are in unicode scalars of the normalised text, as ``PasscodePolicy/maxLength`` is.
    public enum Length: Hashable, Sendable {
        /// Exactly ``PasscodePolicy/maxLength``: the code can be submitted.
        case complete
        /// Fewer: `missing` more characters are needed (the user is still typing, or pasted part of the code).
        case short(missing: Int)
        /// More: the code is cut to ``PasscodePolicy/maxLength`` and `extra` characters were left
        /// out. The user likely pasted the wrong thing; ask again rather than submit the cut code.
        case overlong(extra: Int)

        /// `complete`, `short` or `overlong`, as reports and `authcheck passcode --format json` print it.
        public var name: String {
            switch self {
            case .complete: "complete"
            case .short: "short"
            case .overlong: "overlong"
            }
        }
    }
}

// MARK: - The table of stable scalars

/// Which scalars of a policy's alphabet normalisation may output; built once per policy.
private struct StableScalarTable: Sendable {
    /// Bit `n` set when ASCII scalar `n` is stable (scalars 0–63 and 64–127).
    private var asciiLow: UInt64 = 0
    private var asciiHigh: UInt64 = 0
    /// Every stable scalar, ASCII or not.
    private(set) var stable: Set<Unicode.Scalar> = []

    init(policy: PasscodePolicy) {
        for scalar in policy.alphabet where Self.decideStable(scalar) {
            stable.insert(scalar)
            let value = scalar.value
            if value < 64 {
                asciiLow |= 1 << UInt64(value)
            } else if value < 128 {
                asciiHigh |= 1 << UInt64(value - 64)
            }
        }
    }

    @inline(__always)
    func isStableASCII(_ byte: UInt8) -> Bool {
        byte < 64 ? asciiLow & (1 << UInt64(byte)) != 0 : asciiHigh & (1 << UInt64(byte & 63)) != 0
    }

    @inline(__always)
    func isStable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 128 ? isStableASCII(UInt8(scalar.value)) : stable.contains(scalar)
    }

    /// What steps 3 to 5 make of one folded, uppercased scalar: itself when stable, its ASCII digit
    /// when it is another script's decimal digit and that digit is stable, else nil (removed or dropped).
    @inline(__always)
    func output(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        if isStable(scalar) { return scalar }
        guard let digit = PasscodeNormaliser.asciiDigit(scalar),
              isStableASCII(UInt8(digit.value)) else { return nil }
        return digit
    }

    /// Whether `scalar`, on its own, comes out of the pipeline unchanged and can never compose with a
    /// neighbour. The caller has checked that it is in the alphabet.
    private static func decideStable(_ scalar: Unicode.Scalar) -> Bool {
        if isInvisible(scalar) || isDashLike(scalar) || PasscodeNormaliser.asciiDigit(scalar) != nil { return false }
        if scalar.isASCII {
            return !(0x61...0x7A).contains(scalar.value)
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return false
        default:
            break
        }
        if properties.canonicalCombiningClass != .notReordered { return false }
        if isConjoiningJamo(scalar) || composesWithPreceding.contains(scalar.value) { return false }
        let alone = PasscodeNormaliser.foldAndUppercase(String(scalar))
        return alone.unicodeScalars.elementsEqual(CollectionOfOne(scalar))
    }

    /// Whitespace and invisible formatting characters, which step 4 removes.
    ///
    /// More than the characters spec names may not contain: a typed code must also lose its
    /// spaces (White_Space, Zs) and the default-ignorable code points a paste can carry along.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return scalar.isControlOrInvisibleFormat || properties.isWhitespace || properties.isDefaultIgnorableCodePoint
            || properties.generalCategory == .spaceSeparator
    }

    /// Dash-like separators, which step 4 removes: the general category Pd (hyphen-minus, hyphen,
    /// non-breaking hyphen, figure dash, en and em dashes, wave dash, full-width and small
    /// hyphen-minus, …) and the dashes filed elsewhere: minus sign `U+2212`, heavy minus sign
    /// `U+2796`, modifier letter minus sign `U+02D7` and hyphen bullet `U+2043`. Superscript and
    /// subscript minus fold to the minus sign in step 1.
    private static func isDashLike(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2212, 0x2796, 0x02D7, 0x2043: return true
        default: return scalar.properties.generalCategory == .dashPunctuation
        }
    }

    /// Hangul conjoining jamo (leading, vowel and trailing, old and new blocks), which compose into
    /// syllables and with syllables.
    private static func isConjoiningJamo(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF: return true
        default: return false
        }
    }

    /// Every scalar whose NFC quick check is "maybe" (Unicode 16): the ones that can compose with a
    /// preceding character. Nearly all are combining marks, excluded anyway; the list also catches
    /// the few that are letters, such as the Kirat Rai vowel signs.
    private static let composesWithPreceding: Set<UInt32> = {
        let ranges: [ClosedRange<UInt32>] = [
            0x0300...0x0304, 0x0306...0x030C, 0x030F...0x030F, 0x0311...0x0311, 0x0313...0x0314,
            0x031B...0x031B, 0x0323...0x0328, 0x032D...0x032E, 0x0330...0x0331, 0x0338...0x0338,
            0x0342...0x0342, 0x0345...0x0345, 0x0653...0x0655, 0x093C...0x093C, 0x09BE...0x09BE,
            0x09D7...0x09D7, 0x0B3E...0x0B3E, 0x0B56...0x0B57, 0x0BBE...0x0BBE, 0x0BD7...0x0BD7,
            0x0C56...0x0C56, 0x0CC2...0x0CC2, 0x0CD5...0x0CD6, 0x0D3E...0x0D3E, 0x0D57...0x0D57,
            0x0DCA...0x0DCA, 0x0DCF...0x0DCF, 0x0DDF...0x0DDF, 0x102E...0x102E, 0x1161...0x1175,
            0x11A8...0x11C2, 0x1B35...0x1B35, 0x3099...0x309A, 0x110BA...0x110BA, 0x11127...0x11127,
            0x1133E...0x1133E, 0x11357...0x11357, 0x113B8...0x113B8, 0x113BB...0x113BB,
            0x113C2...0x113C2, 0x113C5...0x113C5, 0x113C7...0x113C9, 0x114B0...0x114B0,
            0x114BA...0x114BA, 0x114BD...0x114BD, 0x115AF...0x115AF, 0x11930...0x11930,
            0x1611E...0x16129, 0x16D63...0x16D6A,
        ]
        return Set(ranges.joined())
    }()
}
