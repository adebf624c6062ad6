/// The rules a password must follow: a length range and the character classes it must contain.
///
/// Use ``default`` when a person chooses a new password (sign-up, reset) and ``signIn`` when they
/// type an existing one: an account may predate today's rules, and refusing its password before
/// the backend sees it would lock its owner out.
///
/// ```swift
/// let policy = PasswordPolicy(minimumLength: 10, requiredClasses: [.lowercase, .uppercase, .digit])
/// Validator.password(policy).validate("hunter2").failures
/// // [.tooShort(field: "password", minimum: 10),
/// //  .missingCharacterClass(field: "password", .uppercase)]
/// ```
public struct PasswordPolicy: Hashable, Sendable {
    /// The fewest characters allowed; at least 1.
    public var minimumLength: Int
    /// The most characters allowed, or `nil` for no limit.
    public var maximumLength: Int?
    /// The classes a password must contain one of each, in the order failures are reported.
    public var requiredClasses: [CharacterClass]

    /// Creates a policy.
    /// - Parameters:
    ///   - minimumLength: the fewest characters allowed; must be at least 1.
    ///   - maximumLength: the most characters allowed, or `nil`; must not be below `minimumLength`.
    ///   - requiredClasses: the classes a password must contain; duplicates are ignored.
    public init(minimumLength: Int, maximumLength: Int? = nil, requiredClasses: [CharacterClass] = []) {
        precondition(minimumLength >= 1, "PasswordPolicy.minimumLength must be at least 1")
        precondition(maximumLength.map { $0 >= minimumLength } ?? true,
                     "PasswordPolicy.maximumLength must not be below minimumLength")
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        var seen: Set<CharacterClass> = []
        self.requiredClasses = requiredClasses.filter { seen.insert($0).inserted }
    }

    /// The policy for a new password: 8 to 128 characters, with at least one letter and one digit.
    public static let `default` = PasswordPolicy(minimumLength: 8, maximumLength: 128, requiredClasses: [.letter, .digit])

    /// The policy for signing in with an existing password: not empty and at most 1024 characters.
    public static let signIn = PasswordPolicy(minimumLength: 1, maximumLength: 1024)
}

extension Validator where Value == String {
    /// A validator that checks a password against a policy and reports every rule it breaks.
    ///
    /// An empty password is reported once, as ``ValidationFailure/empty(field:)``, not also as too
    /// short and missing every class. Whitespace counts as a character: `"    "` is not empty.
    ///
    /// - Parameters:
    ///   - policy: the rules; ``PasswordPolicy/default`` unless given.
    ///   - field: the field name used in the failures; `"password"` by default.
    /// - Returns: a validator reporting ``ValidationFailure/empty(field:)``, or any of
    ///   ``ValidationFailure/tooShort(field:minimum:)``, ``ValidationFailure/tooLong(field:maximum:)``
    ///   and one ``ValidationFailure/missingCharacterClass(field:_:)`` per missing class.
    public static func password(_ policy: PasswordPolicy = .default, field: String = "password") -> Validator {
        let classes = policy.requiredClasses
        let checkClasses = Validator { password in
            classes.filter { required in !password.contains(where: required.contains) }
                .map { ValidationFailure.missingCharacterClass(field: field, $0) }
        }
        return nonEmpty(field: field, ignoringWhitespace: false)
            .then(length(field: field, minimum: policy.minimumLength, maximum: policy.maximumLength) && checkClasses)
    }
}
