/// A JSON value to write: what every `--format json` report and the tracker's JSON Lines are built from.
///
/// Objects keep their members in insertion order, which is the order they are written in, so
/// equal values always render to byte-identical text. Build values with literals:
///
/// ```swift
/// let stats: JSON = ["states": 7, "seconds": 0.004, "lint": ["unreachable": []]]
/// print(stats.rendered(pretty: false))  // {"states":7,"seconds":0.004,"lint":{"unreachable":[]}}
/// ```
package enum JSON: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer, written in decimal.
    case int(Int)
    /// A floating-point number, written in its shortest round-trip form; not finite → `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object, members in insertion order.
    case object(JSONObject)
}

/// The members of a JSON object in insertion order, which is the order they are written in.
///
/// Keys are unique: ``init(_:)`` with a repeated key is a programmer error, and the subscript
/// setter replaces a member's value in place rather than appending a second one.
package struct JSONObject: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    /// The members, in output order.
    package private(set) var members: [(key: String, value: JSON)]

    /// Creates an object from members in the order they should be written.
    ///
    /// - Precondition: no key appears twice.
    package init(_ members: [(String, JSON)]) {
        var seen = Set<String>()
        for (key, _) in members {
            precondition(seen.insert(key).inserted, "JSONObject: duplicate key \(JSON.quoted(key))")
        }
        self.members = members.map { (key: $0.0, value: $0.1) }
    }

    /// Creates an empty object.
    package init() {
        self.members = []
    }

    /// Creates an object from a literal; members keep the literal's order.
    package init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }

    /// The member values' keys, in output order.
    package var keys: [String] { members.map(\.key) }

    /// The value of the member named `key`; setting appends a new member or replaces an existing
    /// one's value in place, and setting `nil` removes it.
    package subscript(key: String) -> JSON? {
        get { members.first { $0.key == key }?.value }
        set {
            let index = members.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let i?, let value?): members[i].value = value
            case (let i?, nil): members.remove(at: i)
            case (nil, let value?): members.append((key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// Whether both objects have the same members in the same order.
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSON {
    /// Converts a parsed value into a writable one, keeping member order.
    ///
    /// A number becomes ``int(_:)`` when its literal is a plain integer (no `.` or exponent)
    /// that fits in `Int`, and ``double(_:)`` otherwise, so `parse(render(x))` gives back `x`
    /// for every finite value: `2.0` stays a double. A number too large for a finite `Double`
    /// (`1e999`) becomes ``null``.
    package init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .string(let s): self = .string(s)
        case .number(let n):
            let plainInteger = !n.literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            if plainInteger, let int = n.int {
                self = .int(int)
            } else if let double = n.double {
                self = .double(double)
            } else {
                self = .null
            }
        case .array(let elements): self = .array(elements.map(JSON.init))
        case .object(let members): self = .object(JSONObject(members.map { ($0.key, JSON($0.value)) }))
        }
    }

    /// The member named `key`, when this value is an object that has one.
    package subscript(key: String) -> JSON? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `nil` is ``null``.
    package init(nilLiteral: ()) { self = .null }
    /// A boolean literal.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    package init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal.
    package init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    package init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// A dictionary literal: an object whose members keep the literal's order.
    package init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
}
