/// A value a flow collects: what the user typed or a step produced.
///
/// Specs only name data keys; the runtime carries a value for each. Reports print values with
/// ``description``, except for keys a spec lists in `secrets`, which always print `<redacted>`.
public enum FlowValue: Hashable, Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
}

extension FlowValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .string(text): return text
        case let .int(number): return String(number)
        case let .bool(flag): return flag ? "true" : "false"
        }
    }
}

extension FlowValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
