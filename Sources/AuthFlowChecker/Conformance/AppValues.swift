import AuthFlow

/// How the values the checks type into an app look: like the app's own, chosen by the key's name, so that coercion bugs show.
///
/// A key named like an email gets an email address, one named like a code a six-digit code
/// (some with a leading zero, so a code kept as an `Int` loses it), one named like an id a
/// numeric id with a leading zero (so an id kept as `Int(id) ?? 0` changes), one named like a
/// phone number a phone number; any other key the checker's own value. Every value is unique
/// per driver (the `n`th value typed), so a value restored from the wrong step still shows.
@usableFromInline
enum AppValueStyle: UInt8, Sendable {
    case plain, email, code, id, phone

    /// The style of the key `name`.
    init(key name: String) {
        let lower = name.lowercased()
        if lower.contains("email") || lower.contains("mail") {
            self = .email
        } else if lower.contains("phone") || lower.contains("msisdn") {
            self = .phone
        } else if lower.contains("code") || lower.contains("otp") || lower.contains("passcode") || lower == "pin" || lower.hasSuffix("pin") {
            self = .code
        } else if lower == "id" || lower == "uid" || name.hasSuffix("Id") || name.hasSuffix("ID") || lower.hasSuffix("_id") || lower.hasSuffix("-id") {
            self = .id
        } else {
            self = .plain
        }
    }

    /// The text of the `n`th value typed in this style (nil for ``plain``: the checker's own value is typed).
    @usableFromInline
    func text(_ n: Int) -> String? {
        switch self {
        case .plain: nil
        case .email: "user\(n)@example.com"
        // 7919 is prime to 10^6: the first million codes are distinct.
        case .code: Self.padded((n &* 7919 &+ 4_021) % 1_000_000, to: 6)
        case .id: "0" + String(40_000 &+ n)
        case .phone: "+1555" + Self.padded(n % 10_000_000, to: 7)
        }
    }

    static func padded(_ number: Int, to width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// A variant of an `authflow/2` flow with `config`, as the checks hand it to the app's factory: its config values.
///
/// A flow without config has one variant, with no values. The walk checks every variant, each
/// with apps the factory makes for it; the random tester picks one per path.
///
/// ```swift
/// try FlowGate.assertConforms(spec: "Specs/sign-in.json") { variant in
///     SignInCoordinator(mfaRequired: variant["mfa"] == "required")
/// }
/// ```
public struct FlowVariant: Hashable, Sendable, CustomStringConvertible {
    /// Its index among the flow's variants, in the order the checker runs them.
    public let index: Int
    /// Each config key's value, in declaration order.
    public let values: [FlowSpec.KeyValue]

    /// Variant `index` with `values`.
    public init(index: Int, values: [FlowSpec.KeyValue]) {
        self.index = index
        self.values = values
    }

    /// The value of config key `key`, or nil when the flow has no such config key.
    public subscript(key: String) -> String? {
        values.first { $0.key == key }?.value
    }

    /// `key=value, …` as reports name the variant (empty without config).
    public var description: String {
        values.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }
}
