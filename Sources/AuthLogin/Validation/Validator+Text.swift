extension Validator where Value == String {
    /// A validator that fails when the text is empty, or only whitespace unless told otherwise.
    ///
    /// - Parameters:
    ///   - field: the field name used in the failure, such as `"name"`.
    ///   - ignoringWhitespace: when `true` (the default), text made only of whitespace counts as
    ///     empty. Pass `false` for passwords, where a space is a character like any other.
    /// - Returns: a validator reporting ``ValidationFailure/empty(field:)``.
    public static func nonEmpty(field: String, ignoringWhitespace: Bool = true) -> Validator {
        Validator { text in
            let empty = ignoringWhitespace ? text.allSatisfy(\.isWhitespace) : text.isEmpty
            return empty ? [.empty(field: field)] : []
        }
    }

    /// A validator that fails when the text has fewer than `minimum` or more than `maximum` characters.
    ///
    /// Length is counted in characters as a person sees them (grapheme clusters): `"é"` is one
    /// character whether it is stored precomposed or as `e` and a combining accent.
    ///
    /// - Parameters:
    ///   - field: the field name used in the failures.
    ///   - minimum: the fewest characters allowed; `0` allows empty text.
    ///   - maximum: the most characters allowed, or `nil` for no limit.
    /// - Returns: a validator reporting ``ValidationFailure/tooShort(field:minimum:)`` or
    ///   ``ValidationFailure/tooLong(field:maximum:)``.
    public static func length(field: String, minimum: Int = 0, maximum: Int? = nil) -> Validator {
        precondition(minimum >= 0, "Validator.length: minimum must not be negative")
        precondition(maximum.map { $0 >= minimum } ?? true, "Validator.length: maximum must be at least minimum")
        return Validator { text in
            // Count no further than needed: a pasted megabyte is rejected without a full count.
            let limit = (maximum ?? minimum) + 1
            var count = 0
            for _ in text {
                count += 1
                if count >= limit { break }
            }
            if count < minimum { return [.tooShort(field: field, minimum: minimum)] }
            if let maximum, count > maximum { return [.tooLong(field: field, maximum: maximum)] }
            return []
        }
    }
}
