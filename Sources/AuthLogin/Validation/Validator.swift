/// A reusable rule for a value a person entered, run before anything is sent to a backend.
///
/// A validator returns every failure it finds, not a bare `Bool`, so a screen can show all of
/// them at once. Validators compose:
/// - `a && b` runs both and lists the failures of both;
/// - ``all(_:)`` does the same for any number;
/// - ``then(_:)`` runs the second only when the first passed (no "too short" under "is required");
/// - ``pullback(_:)`` checks one field of a larger value.
///
/// ```swift
/// let signUp: Validator<Credentials> =
///     Validator.email().pullback { $0.email } && Validator.password(.default).pullback { $0.password }
/// let result = signUp.validate(Credentials(email: "ann@example", password: "abc"))
/// result.failures
/// // [.invalidEmail(field: "email", reason: .domainWithoutDot),
/// //  .tooShort(field: "password", minimum: 8), .missingCharacterClass(field: "password", .digit)]
/// ```
public struct Validator<Value>: Sendable {
    private let body: @Sendable (Value) -> [ValidationFailure]

    /// Creates a validator from a function that lists what is wrong with a value.
    /// - Parameter body: returns every failure for the value, or an empty array when it is valid.
    public init(_ body: @escaping @Sendable (Value) -> [ValidationFailure]) {
        self.body = body
    }

    /// Checks a value.
    /// - Parameter value: the value to check.
    /// - Returns: every failure found, in the order the rules were composed.
    public func validate(_ value: Value) -> ValidationResult {
        ValidationResult(failures: body(value))
    }

    /// A validator that runs both and lists the failures of both, the left one's first.
    public static func && (lhs: Validator, rhs: Validator) -> Validator {
        Validator { lhs.body($0) + rhs.body($0) }
    }

    /// A validator that runs every one of `validators` and lists all their failures, in order.
    /// - Parameter validators: the rules; none means every value is valid.
    public static func all(_ validators: [Validator]) -> Validator {
        Validator { value in validators.flatMap { $0.body(value) } }
    }

    /// A validator that runs `next` only when this one found nothing wrong.
    ///
    /// Use it to avoid follow-on failures: `nonEmpty(field:).then(email(field:))` reports an empty
    /// field once, not also as a malformed address.
    /// - Parameter next: the rule to run when this one passes.
    public func then(_ next: Validator) -> Validator {
        Validator { value in
            let failures = self.body(value)
            return failures.isEmpty ? next.body(value) : failures
        }
    }

    /// A validator for a larger value that checks the part `extract` picks out.
    /// - Parameter extract: picks the checked part, for example `{ $0.email }`.
    public func pullback<Root>(_ extract: @escaping @Sendable (Root) -> Value) -> Validator<Root> {
        Validator<Root> { self.body(extract($0)) }
    }

    /// A validator that accepts every value.
    public static var always: Validator { Validator { _ in [] } }

    /// A validator that fails with `failure` whenever `isValid` is false.
    /// - Parameters:
    ///   - failure: what to report.
    ///   - isValid: the rule.
    public static func require(
        _ failure: ValidationFailure, _ isValid: @escaping @Sendable (Value) -> Bool
    ) -> Validator {
        Validator { isValid($0) ? [] : [failure] }
    }
}

/// What a ``Validator`` found: every failure, in order; valid when there are none.
public struct ValidationResult: Hashable, Sendable {
    /// Every failure found, in the order the rules ran.
    public var failures: [ValidationFailure]

    /// Creates a result.
    /// - Parameter failures: the failures; empty means valid.
    public init(failures: [ValidationFailure]) {
        self.failures = failures
    }

    /// A result with no failures.
    public static let valid = ValidationResult(failures: [])

    /// Whether nothing is wrong.
    public var isValid: Bool { failures.isEmpty }

    /// One actionable sentence per failure, ready to show.
    public var messages: [String] { failures.map(\.description) }

    /// The failures about one field, for showing next to that field.
    /// - Parameter field: the field name, such as `"email"`.
    public func failures(for field: String) -> [ValidationFailure] {
        failures.filter { $0.field == field }
    }
}
