/// A JSON number as the document wrote it, with its exact-integer and floating-point readings.
///
/// The parser never rejects a number for being large: `1e999` and a forty-digit integer both
/// parse, and the consumer decides whether ``int`` or ``double`` is good enough.
package struct JSONNumber: Hashable, Sendable {
    /// The number exactly as written in the document, e.g. `-12.50e3`.
    package var literal: String
    /// The number as an `Int`, when the literal denotes an integer exactly and it fits.
    ///
    /// JSON does not distinguish integers from other numbers, so `100`, `100.0` and `1e2` all
    /// give `100`; `1.5`, `1e-1` and `1e30` give `nil`.
    package var int: Int?
    /// The nearest `Double`, or `nil` when the number is too large to be finite (e.g. `1e999`).
    package var double: Double?

    /// Creates a number from its parts; the parser fills them consistently from ``literal``.
    package init(literal: String, int: Int?, double: Double?) {
        self.literal = literal
        self.int = int
        self.double = double
    }
}

/// One `"key": value` member of a parsed JSON object, with where its key was written.
package struct JSONMember: Equatable, Sendable {
    /// The member's key, with escapes decoded.
    package var key: String
    /// Where the key's opening quote is.
    package var keyLocation: SourceLocation
    /// The member's value and its location.
    package var value: JSONNode

    /// Creates a member.
    package init(key: String, keyLocation: SourceLocation, value: JSONNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

/// A parsed JSON value together with where it starts in the document.
///
/// Every value in the tree keeps its location, so a consumer such as the spec loader can say
/// `steps.email.emits: expected an object, found array at 7:15`.
package struct JSONNode: Equatable, Sendable {
    /// The value.
    package var value: JSONValue
    /// Where the value's first character is (its `{`, `[`, `"`, digit, `-` or literal's first letter).
    package var location: SourceLocation

    /// Creates a node.
    package init(value: JSONValue, location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// A parsed JSON value whose children carry their source locations.
///
/// Objects keep their members in document order; the parser refuses duplicate keys, so each
/// key appears at most once.
package enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, with its literal text.
    case number(JSONNumber)
    /// A string, with escapes decoded.
    case string(String)
    /// An array of located elements.
    case array([JSONNode])
    /// An object's members, in document order.
    case object([JSONMember])

    /// The JSON name of the value's type, for messages: `null`, `boolean`, `number`, `string`, `array` or `object`.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONNode {
    /// The member named `key`, when this node is an object that has one.
    package subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }
}
