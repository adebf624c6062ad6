/// One thing wrong with a value a person entered, with what a person needs to fix it.
///
/// Every failure names the field it is about (`"email"`, `"password"`), so a screen can put the
/// message next to the right text field. ``description`` is a sentence a person can act on:
///
/// ```swift
/// ValidationFailure.tooShort(field: "password", minimum: 8).description
/// // "Password must be at least 8 characters long."
/// ```
public enum ValidationFailure: Error, Hashable, Sendable {
    /// The field is empty (or holds only whitespace, for validators that ignore it).
    case empty(field: String)
    /// The field has fewer than `minimum` characters.
    case tooShort(field: String, minimum: Int)
    /// The field has more than `maximum` characters.
    case tooLong(field: String, maximum: Int)
    /// The field is not a usable email address, for the given reason.
    case invalidEmail(field: String, reason: EmailProblem)
    /// The field lacks a character of a class the policy requires, such as a digit.
    case missingCharacterClass(field: String, CharacterClass)
    /// Any other rule, with its own message.
    case custom(field: String, message: String)

    /// The name of the field the failure is about.
    public var field: String {
        switch self {
        case .empty(let field), .tooShort(let field, _), .tooLong(let field, _),
             .invalidEmail(let field, _), .missingCharacterClass(let field, _), .custom(let field, _):
            return field
        }
    }
}

extension ValidationFailure: CustomStringConvertible {
    /// A sentence that tells a person what is wrong and what to do about it.
    public var description: String {
        let name = Self.displayName(field)
        switch self {
        case .empty:
            return "\(name) is required."
        case .tooShort(_, let minimum):
            return "\(name) must be at least \(minimum) \(minimum == 1 ? "character" : "characters") long."
        case .tooLong(_, let maximum):
            return "\(name) must be at most \(maximum) \(maximum == 1 ? "character" : "characters") long."
        case .invalidEmail(_, let reason):
            return "\(name) is not a valid address: \(reason.description)"
        case .missingCharacterClass(_, let characterClass):
            return "\(name) must contain at least one \(characterClass.description)."
        case .custom(_, let message):
            return message
        }
    }

    /// `"email"` → `"Email"`, `"newPassword"` → `"New password"`.
    static func displayName(_ field: String) -> String {
        var words: [String] = []
        var current = ""
        for character in field {
            if character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        let sentence = words.map { $0.lowercased() }.joined(separator: " ")
        guard let first = sentence.first else { return "This field" }
        return first.uppercased() + sentence.dropFirst()
    }
}

/// Why a string is not a usable email address.
public enum EmailProblem: Hashable, Sendable {
    /// It contains a space, tab or line break (often a paste accident).
    case containsWhitespace
    /// It contains a control or invisible formatting character.
    case containsInvisibleCharacter
    /// There is no `@`.
    case missingAtSign
    /// There is more than one `@`.
    case multipleAtSigns
    /// Nothing before the `@`.
    case emptyLocalPart
    /// More than 64 characters before the `@`.
    case localPartTooLong(maximum: Int)
    /// Nothing after the `@`.
    case emptyDomain
    /// The domain has no dot, as in `name@localhost`.
    case domainWithoutDot
    /// Two dots in a row, in the name or the domain.
    case consecutiveDots
    /// The name or the domain starts or ends with a dot.
    case dotAtStartOrEnd
    /// A character that cannot appear there, such as `,` or `<` in the name, or `_` in the domain.
    case invalidCharacter(Character)
    /// A domain label starts or ends with a hyphen, or is longer than 63 characters.
    case invalidDomainLabel(String)
    /// The last domain label is a single character or all digits.
    case invalidTopLevelDomain(String)
}

extension EmailProblem: CustomStringConvertible {
    /// A sentence saying what to fix.
    public var description: String {
        switch self {
        case .containsWhitespace:
            return "remove the spaces or line breaks."
        case .containsInvisibleCharacter:
            return "remove the invisible characters (it may have been pasted with formatting)."
        case .missingAtSign:
            return "it needs an @ between the name and the domain, as in name@example.com."
        case .multipleAtSigns:
            return "it must contain exactly one @."
        case .emptyLocalPart:
            return "add the name before the @."
        case .localPartTooLong(let maximum):
            return "the part before the @ must be at most \(maximum) characters."
        case .emptyDomain:
            return "add the domain after the @, as in example.com."
        case .domainWithoutDot:
            return "the domain after the @ needs a dot, as in example.com."
        case .consecutiveDots:
            return "it must not contain two dots in a row."
        case .dotAtStartOrEnd:
            return "the name and the domain must not start or end with a dot."
        case .invalidCharacter(let character):
            return "it must not contain \"\(character)\"."
        case .invalidDomainLabel(let label):
            return "the domain part \"\(label)\" must not start or end with a hyphen, nor be longer than 63 characters."
        case .invalidTopLevelDomain(let label):
            return "the domain ending \"\(label)\" is not valid; check the part after the last dot."
        }
    }
}

/// A class of characters a password policy can require.
public enum CharacterClass: String, Hashable, Sendable, CaseIterable {
    /// A lowercase letter, such as `a` or `é`.
    case lowercase
    /// An uppercase letter, such as `A` or `É`.
    case uppercase
    /// Any letter, in any case or script.
    case letter
    /// A digit, such as `7`.
    case digit
    /// Anything that is not a letter, digit or whitespace, such as `!` or `#`.
    case symbol

    /// Whether `character` belongs to the class.
    public func contains(_ character: Character) -> Bool {
        switch self {
        case .lowercase: return character.isLowercase
        case .uppercase: return character.isUppercase
        case .letter: return character.isLetter
        case .digit: return character.isNumber
        case .symbol: return !character.isLetter && !character.isNumber && !character.isWhitespace
        }
    }
}

extension CharacterClass: CustomStringConvertible {
    /// The class as it reads in a message: `"digit (0–9)"`.
    public var description: String {
        switch self {
        case .lowercase: return "lowercase letter (a–z)"
        case .uppercase: return "uppercase letter (A–Z)"
        case .letter: return "letter"
        case .digit: return "digit (0–9)"
        case .symbol: return "symbol (such as ! or #)"
        }
    }
}
