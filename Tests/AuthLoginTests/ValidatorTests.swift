import Testing
@testable import AuthLogin

/// One row of a validator table: a value and every failure expected for it, in order.
struct ValidationCase: CustomTestStringConvertible, Sendable {
    var input: String
    var failures: [ValidationFailure]

    init(_ input: String, _ failures: [ValidationFailure] = []) {
        self.input = input
        self.failures = failures
    }

    var testDescription: String { input.debugDescription }
}

private func email(_ reasons: EmailProblem...) -> [ValidationFailure] {
    reasons.map { .invalidEmail(field: "email", reason: $0) }
}

@Suite struct ValidatorTests {
    // MARK: Non-empty and length

    static let nonEmptyCases: [ValidationCase] = [
        .init("", [.empty(field: "name")]),
        .init("   ", [.empty(field: "name")]),
        .init("\t\n\u{3000}", [.empty(field: "name")]),
        .init("a"),
        .init(" a "),
    ]

    @Test(arguments: nonEmptyCases)
    func nonEmpty(_ row: ValidationCase) {
        #expect(Validator.nonEmpty(field: "name").validate(row.input) == ValidationResult(failures: row.failures))
    }

    @Test func nonEmptyCanCountWhitespace() {
        let validator = Validator.nonEmpty(field: "password", ignoringWhitespace: false)
        #expect(validator.validate("   ") == .valid)
        #expect(validator.validate("") == ValidationResult(failures: [.empty(field: "password")]))
    }

    static let lengthCases: [ValidationCase] = [
        .init("", [.tooShort(field: "code", minimum: 2)]),
        .init("a", [.tooShort(field: "code", minimum: 2)]),
        .init("ab"),
        .init("abcd"),
        .init("abcde", [.tooLong(field: "code", maximum: 4)]),
        // Characters as a person counts them: "é" spelled with a combining accent is one.
        .init("e\u{301}e\u{301}e\u{301}"),
        .init("👩‍👩‍👧‍👦👍🏽"),
        .init(String(repeating: "x", count: 100_000), [.tooLong(field: "code", maximum: 4)]),
    ]

    @Test(arguments: lengthCases)
    func length(_ row: ValidationCase) {
        let validator = Validator.length(field: "code", minimum: 2, maximum: 4)
        #expect(validator.validate(row.input) == ValidationResult(failures: row.failures))
    }

    @Test func lengthWithoutMaximum() {
        let validator = Validator.length(field: "name", minimum: 3)
        #expect(validator.validate("ab") == ValidationResult(failures: [.tooShort(field: "name", minimum: 3)]))
        #expect(validator.validate(String(repeating: "a", count: 10_000)) == .valid)
    }

    // MARK: Email

    static let validEmails: [String] = [
        "ann@example.com",
        "first.last+tag@mail.example.co.uk",
        "o'brien@example.ie",
        "user_name-1@sub.example.org",
        "UPPER@EXAMPLE.COM",
        "x@y.io",
        "a!#$%&'*+-/=?^_`{|}~@example.com",
        "ann@123.example.com",
        "ann@xn--bcher-kva.example",
        "josé@exämple.de",
        "用户@例子.中国",
        String(repeating: "a", count: 64) + "@example.com",
    ]

    @Test(arguments: validEmails)
    func acceptsEmail(_ address: String) {
        #expect(Validator.email().validate(address) == .valid)
    }

    static let invalidEmails: [ValidationCase] = [
        .init("", [.empty(field: "email")]),
        .init(String(repeating: "a", count: 250) + "@b.co", [.tooLong(field: "email", maximum: 254)]),
        .init("annexample.com", email(.missingAtSign)),
        .init("ann＠example.com", email(.missingAtSign)),
        .init("ann@@example.com", email(.multipleAtSigns)),
        .init("a@b@example.com", email(.multipleAtSigns)),
        .init("@example.com", email(.emptyLocalPart)),
        .init("ann@", email(.emptyDomain)),
        .init("ann@localhost", email(.domainWithoutDot)),
        .init("ann..lee@example.com", email(.consecutiveDots)),
        .init(".ann@example.com", email(.dotAtStartOrEnd)),
        .init("ann.@example.com", email(.dotAtStartOrEnd)),
        .init("ann@example..com", email(.consecutiveDots)),
        .init("ann@.example.com", email(.dotAtStartOrEnd)),
        .init("ann@example.com.", email(.dotAtStartOrEnd)),
        .init("ann lee@example.com", email(.containsWhitespace)),
        .init(" ann@example.com", email(.containsWhitespace)),
        .init("ann@example.com\n", email(.containsWhitespace)),
        .init("ann\u{200B}@example.com", email(.containsInvisibleCharacter)),
        .init("ann\u{0}@example.com", email(.containsInvisibleCharacter)),
        .init("ann,lee@example.com", email(.invalidCharacter(","))),
        .init("<ann@example.com>", email(.invalidCharacter("<"), .invalidCharacter(">"))),
        .init("ann@exa_mple.com", email(.invalidCharacter("_"))),
        .init("ann@-example.com", email(.invalidDomainLabel("-example"))),
        .init("ann@example-.com", email(.invalidDomainLabel("example-"))),
        .init("ann@example.c", email(.invalidTopLevelDomain("c"))),
        .init("ann@192.168.0.1", email(.invalidTopLevelDomain("1"))),
        .init("\"john doe\"@example.com", email(.containsWhitespace, .invalidCharacter("\""))),
        .init("user@[192.0.2.1]", email(.invalidCharacter("["))),
        .init(String(repeating: "a", count: 65) + "@example.com", email(.localPartTooLong(maximum: 64))),
        .init("a@" + String(repeating: "b", count: 64) + ".com", email(.invalidDomainLabel(String(repeating: "b", count: 64)))),
        .init("ann lee@localhost", email(.containsWhitespace, .domainWithoutDot)),
        .init("ann..@example", email(.dotAtStartOrEnd, .consecutiveDots, .domainWithoutDot)),
    ]

    @Test(arguments: invalidEmails)
    func rejectsEmail(_ row: ValidationCase) {
        #expect(Validator.email().validate(row.input) == ValidationResult(failures: row.failures))
    }

    @Test func emailFieldNameIsConfigurable() {
        #expect(Validator.email(field: "workEmail").validate("nope").failures
            == [.invalidEmail(field: "workEmail", reason: .missingAtSign)])
    }

    /// Inputs that make backtracking email regexes explode finish at once here.
    @Test func emailCheckIsLinearOnHostileInput() {
        let hostile = [
            String(repeating: "a.", count: 120) + "@",
            String(repeating: "a", count: 200) + "@" + String(repeating: "-", count: 50),
            String(repeating: "@", count: 254),
            String(repeating: "a", count: 1_000_000),
        ]
        for input in hostile {
            #expect(!Validator.email().validate(input).isValid)
        }
    }

    // MARK: Passwords

    static let defaultPolicyCases: [ValidationCase] = [
        .init("", [.empty(field: "password")]),
        .init("abc", [.tooShort(field: "password", minimum: 8), .missingCharacterClass(field: "password", .digit)]),
        .init("abcdefgh", [.missingCharacterClass(field: "password", .digit)]),
        .init("12345678", [.missingCharacterClass(field: "password", .letter)]),
        .init("        ", [.missingCharacterClass(field: "password", .letter), .missingCharacterClass(field: "password", .digit)]),
        .init("abcd1234"),
        .init("пароль12"),
        .init(String(repeating: "a1", count: 65), [.tooLong(field: "password", maximum: 128)]),
    ]

    @Test(arguments: defaultPolicyCases)
    func defaultPasswordPolicy(_ row: ValidationCase) {
        #expect(Validator.password().validate(row.input) == ValidationResult(failures: row.failures))
    }

    static let strictPolicyCases: [ValidationCase] = [
        .init("Password1!"),
        .init("password", [
            .tooShort(field: "newPassword", minimum: 10),
            .missingCharacterClass(field: "newPassword", .uppercase),
            .missingCharacterClass(field: "newPassword", .digit),
            .missingCharacterClass(field: "newPassword", .symbol),
        ]),
        .init("PASSWORD12#", [.missingCharacterClass(field: "newPassword", .lowercase)]),
        // Whitespace is not a symbol.
        .init("Pass word 1", [.missingCharacterClass(field: "newPassword", .symbol)]),
    ]

    @Test(arguments: strictPolicyCases)
    func strictPasswordPolicy(_ row: ValidationCase) {
        let policy = PasswordPolicy(minimumLength: 10, requiredClasses: [.lowercase, .uppercase, .digit, .symbol])
        #expect(Validator.password(policy, field: "newPassword").validate(row.input) == ValidationResult(failures: row.failures))
    }

    @Test func signInPolicyOnlyRefusesEmptyAndAbsurdlyLong() {
        let validator = Validator.password(.signIn)
        #expect(validator.validate("x") == .valid)
        #expect(validator.validate(" ") == .valid)
        #expect(validator.validate("") == ValidationResult(failures: [.empty(field: "password")]))
        #expect(validator.validate(String(repeating: "x", count: 1025))
            == ValidationResult(failures: [.tooLong(field: "password", maximum: 1024)]))
    }

    @Test func passwordPolicyIgnoresDuplicateClasses() {
        let policy = PasswordPolicy(minimumLength: 1, requiredClasses: [.digit, .letter, .digit])
        #expect(policy == PasswordPolicy(minimumLength: 1, requiredClasses: [.digit, .letter]))
    }

    @Test(arguments: [
        (CharacterClass.lowercase, "a", true), (.lowercase, "A", false),
        (.uppercase, "É", true), (.uppercase, "é", false),
        (.letter, "ж", true), (.letter, "1", false),
        (.digit, "7", true), (.digit, "٣", true), (.digit, "x", false),
        (.symbol, "!", true), (.symbol, "€", true), (.symbol, " ", false), (.symbol, "a", false),
    ] as [(CharacterClass, Character, Bool)])
    func characterClasses(_ characterClass: CharacterClass, _ character: Character, _ expected: Bool) {
        #expect(characterClass.contains(character) == expected)
    }

    // MARK: Composition

    @Test func andListsTheFailuresOfBoth() {
        let validator = Validator.nonEmpty(field: "code") && Validator.length(field: "code", minimum: 3)
        #expect(validator.validate("") == ValidationResult(failures: [.empty(field: "code"), .tooShort(field: "code", minimum: 3)]))
        #expect(validator.validate("abc") == .valid)
    }

    @Test func allRunsEveryValidatorInOrder() {
        let validator = Validator.all([
            .length(field: "code", minimum: 3),
            .require(.custom(field: "code", message: "The code must start with A.")) { $0.hasPrefix("A") },
            .always,
        ])
        #expect(validator.validate("b") == ValidationResult(failures: [
            .tooShort(field: "code", minimum: 3), .custom(field: "code", message: "The code must start with A."),
        ]))
        #expect(Validator<String>.all([]).validate("anything") == .valid)
    }

    @Test func thenStopsAtTheFirstFailure() {
        let validator = Validator.nonEmpty(field: "code").then(.length(field: "code", minimum: 3))
        #expect(validator.validate(" ") == ValidationResult(failures: [.empty(field: "code")]))
        #expect(validator.validate("ab") == ValidationResult(failures: [.tooShort(field: "code", minimum: 3)]))
    }

    @Test func pullbackChecksFieldsOfALargerValue() {
        let validator = Validator<Credentials>.credentials(passwordPolicy: .default)
        let result = validator.validate(Credentials(email: "ann@example", password: "abc"))
        #expect(result == ValidationResult(failures: [
            .invalidEmail(field: "email", reason: .domainWithoutDot),
            .tooShort(field: "password", minimum: 8),
            .missingCharacterClass(field: "password", .digit),
        ]))
        #expect(result.failures(for: "email") == [.invalidEmail(field: "email", reason: .domainWithoutDot)])
        #expect(result.failures(for: "name") == [])
    }

    // MARK: Messages

    @Test(arguments: [
        (ValidationFailure.empty(field: "email"), "Email is required."),
        (.tooShort(field: "password", minimum: 8), "Password must be at least 8 characters long."),
        (.tooShort(field: "pin", minimum: 1), "Pin must be at least 1 character long."),
        (.tooLong(field: "newPassword", maximum: 128), "New password must be at most 128 characters long."),
        (.invalidEmail(field: "email", reason: .missingAtSign),
         "Email is not a valid address: it needs an @ between the name and the domain, as in name@example.com."),
        (.invalidEmail(field: "email", reason: .invalidCharacter(",")), "Email is not a valid address: it must not contain \",\"."),
        (.missingCharacterClass(field: "password", .digit), "Password must contain at least one digit (0–9)."),
        (.custom(field: "code", message: "The code has expired."), "The code has expired."),
        (.empty(field: ""), "This field is required."),
    ] as [(ValidationFailure, String)])
    func messagesReadAsSentences(_ failure: ValidationFailure, _ message: String) {
        #expect(failure.description == message)
    }

    @Test func everyEmailProblemHasAMessage() {
        let problems: [EmailProblem] = [
            .containsWhitespace, .containsInvisibleCharacter, .missingAtSign, .multipleAtSigns, .emptyLocalPart,
            .localPartTooLong(maximum: 64), .emptyDomain, .domainWithoutDot, .consecutiveDots, .dotAtStartOrEnd,
            .invalidCharacter(","), .invalidDomainLabel("-a"), .invalidTopLevelDomain("1"),
        ]
        for problem in problems {
            #expect(problem.description.hasSuffix("."))
            #expect(Set(problems.map(\.description)).count == problems.count)
        }
    }

    @Test func resultMessagesAndFields() {
        let result = ValidationResult(failures: [.empty(field: "email"), .tooShort(field: "password", minimum: 8)])
        #expect(!result.isValid)
        #expect(result.messages == ["Email is required.", "Password must be at least 8 characters long."])
        #expect(result.failures.map(\.field) == ["email", "password"])
    }
}
