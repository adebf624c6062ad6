import AuthFlow

extension Validator where Value == String {
    /// The longest address SMTP can carry (RFC 5321), in UTF-8 bytes.
    public static var maximumEmailLength: Int { 254 }
    /// The longest name before the `@` (RFC 5321), in UTF-8 bytes.
    public static var maximumEmailLocalPartLength: Int { 64 }

    /// A validator for a pragmatic email address syntax: the mistakes people make, not all of RFC 5322.
    ///
    /// It accepts `name@example.com`, `first.last+tag@mail.example.co.uk` and internationalised
    /// addresses such as `josé@exämple.de`. It reports, in one pass and without regular expressions:
    /// an empty field; an address over 254 bytes; spaces, line breaks, control or invisible
    /// characters; no `@` or more than one; an empty name or domain; a name over 64 bytes; a dot
    /// at the start or end of the name or domain, or two dots in a row; characters that cannot
    /// appear (such as `,` `<` `(` in the name, or `_` in the domain); a domain without a dot; a
    /// domain label that starts or ends with a hyphen or is over 63 bytes; and a top-level domain
    /// of one character or only digits. A full-width `＠` is not an `@`.
    ///
    /// Quoted names (`"john doe"@example.com`) and address literals (`user@[192.0.2.1]`) are valid
    /// by the RFCs but almost always typing mistakes in a sign-in form; they are rejected.
    ///
    /// Call it on the address as entered; trim the text first if leading and trailing spaces should
    /// be forgiven (``EmailPasswordProvider`` does).
    ///
    /// - Parameter field: the field name used in the failures; `"email"` by default.
    /// - Returns: a validator reporting ``ValidationFailure/empty(field:)``,
    ///   ``ValidationFailure/tooLong(field:maximum:)``, or one
    ///   ``ValidationFailure/invalidEmail(field:reason:)`` per distinct problem.
    /// - Complexity: O(*n*) in the length of the text.
    public static func email(field: String = "email") -> Validator {
        Validator { text in
            if text.isEmpty { return [.empty(field: field)] }
            if text.utf8.count > maximumEmailLength {
                return [.tooLong(field: field, maximum: maximumEmailLength)]
            }
            return EmailSyntax.problems(in: text).map { .invalidEmail(field: field, reason: $0) }
        }
    }
}

/// The email syntax check behind ``Validator/email(field:)``.
enum EmailSyntax {
    /// Every distinct problem with `text`, in the order they are found.
    static func problems(in text: String) -> [EmailProblem] {
        var problems: [EmailProblem] = []
        func add(_ problem: EmailProblem) {
            if !problems.contains(problem) { problems.append(problem) }
        }

        let scalars = Array(text.unicodeScalars)
        for scalar in scalars {
            if scalar.properties.isWhitespace {
                add(.containsWhitespace)
            } else if isInvisible(scalar) {
                add(.containsInvisibleCharacter)
            }
        }

        let atSigns = scalars.indices.filter { scalars[$0] == "@" }
        guard let at = atSigns.first else {
            add(.missingAtSign)
            return problems
        }
        if atSigns.count > 1 {
            add(.multipleAtSigns)
            return problems
        }

        let local = scalars[..<at]
        let domain = scalars[(at + 1)...]

        if local.isEmpty {
            add(.emptyLocalPart)
        } else {
            if String(String.UnicodeScalarView(local)).utf8.count > Validator<String>.maximumEmailLocalPartLength {
                add(.localPartTooLong(maximum: Validator<String>.maximumEmailLocalPartLength))
            }
            checkDots(local, add)
            if let bad = local.first(where: { !isAllowedInLocalPart($0) && !isReportedAlready($0) }) {
                add(.invalidCharacter(Character(bad)))
            }
        }

        if domain.isEmpty {
            add(.emptyDomain)
            return problems
        }
        checkDots(domain, add)
        if let bad = domain.first(where: { !isAllowedInDomain($0) && !isReportedAlready($0) }) {
            add(.invalidCharacter(Character(bad)))
        }
        guard domain.contains(".") else {
            add(.domainWithoutDot)
            return problems
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: true)
            .map { String(String.UnicodeScalarView($0)) }
        if let bad = labels.first(where: { $0.hasPrefix("-") || $0.hasSuffix("-") || $0.utf8.count > 63 }) {
            add(.invalidDomainLabel(bad))
        }
        if domain.last != ".", let topLevel = labels.last,
           topLevel.unicodeScalars.count < 2 || topLevel.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            add(.invalidTopLevelDomain(topLevel))
        }
        return problems
    }

    private static func checkDots(_ part: ArraySlice<Unicode.Scalar>, _ add: (EmailProblem) -> Void) {
        if part.first == "." || part.last == "." { add(.dotAtStartOrEnd) }
        if zip(part, part.dropFirst()).contains(where: { $0 == "." && $1 == "." }) { add(.consecutiveDots) }
    }

    /// Characters already reported as whitespace or invisible, not reported again as invalid.
    private static func isReportedAlready(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || isInvisible(scalar)
    }

    /// Control and invisible formatting characters, and the default-ignorable code points (such as
    /// variation selectors) that a pasted address can carry along without showing them.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isControlOrInvisibleFormat || scalar.properties.isDefaultIgnorableCodePoint
    }

    /// RFC 5322 `atext` and the dot, plus letters, marks and digits of any script (RFC 6531).
    private static func isAllowedInLocalPart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".":
                return true
            default:
                return "!#$%&'*+-/=?^_`{|}~".unicodeScalars.contains(scalar)
            }
        }
        return isInternationalLetterOrDigit(scalar)
    }

    /// Letters, digits, hyphens and dots, plus letters, marks and digits of any script (IDN).
    private static func isAllowedInDomain(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", ".":
                return true
            default:
                return false
            }
        }
        return isInternationalLetterOrDigit(scalar)
    }

    private static func isInternationalLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }
}
