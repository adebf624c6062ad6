import AuthFlowChecker
import AuthFlow

/// Turns option values into typed ones, or says exactly what is wrong with them.
enum ValueParsers {
    /// A whole number in `range`: `--depth 12`.
    ///
    /// A number too large for any range (`99999999999999999999`) is told the range, not that it is not a number.
    static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            // Digits past Int.max: a whole number, only too large.
            let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
            let tooLarge = Int(text) == nil && !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
            let reason: String
            if tooLarge {
                reason = "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
                    + (range.upperBound == Int.max ? " (the largest this option takes)" : "")
            } else {
                reason = range.upperBound == Int.max
                    ? "expected a whole number of at least \(range.lowerBound)"
                    : "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
            }
            throw .invalidValue(option: option, value: text, reason: reason)
        }
        return value
    }

    /// The most seconds `--timeout` takes: about 31 years, far past any run.
    static let maxSeconds = 1e9

    /// A positive, finite number of seconds up to ``maxSeconds``: `--timeout 2.5`.
    static func seconds(_ text: String, option: String) throws(UsageError) -> Double {
        let value = Double(text)
        let plain = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard plain, let value, value.isFinite, value > 0, value <= maxSeconds else {
            // A number past the range (1e400, 99999999999) is told the range; anything else what a number of seconds looks like.
            let reason = (value ?? 0) > maxSeconds
                ? "expected a number of seconds greater than 0 and at most \(Int(maxSeconds)), written in digits, such as 30 or 0.5"
                : "expected a positive number of seconds, such as 30 or 0.5"
            throw .invalidValue(option: option, value: text, reason: reason)
        }
        return value
    }

    /// A 64-bit seed, decimal or `0x` hexadecimal: `--seed 42`, `--seed 0x5EED`.
    static func seed(_ text: String, option: String) throws(UsageError) -> UInt64 {
        let lowered = text.lowercased()
        let value = lowered.hasPrefix("0x") ? UInt64(lowered.dropFirst(2), radix: 16) : UInt64(lowered, radix: 10)
        guard let value, !text.hasPrefix("+") else {
            throw .invalidValue(option: option, value: text, reason: "expected a whole number from 0 to 18446744073709551615, or 0x followed by hexadecimal digits")
        }
        return value
    }

    /// One of `choices`: `--format json`.
    static func choice(_ text: String, option: String, in choices: [String]) throws(UsageError) -> String {
        guard choices.contains(text) else {
            let hint = Suggestion.nearest(to: text, in: choices).map { "did you mean '\($0)'? " } ?? ""
            throw .invalidValue(option: option, value: text, reason: "\(hint)expected one of \(choices.joined(separator: ", "))")
        }
        return text
    }

    /// One case of `Format`, by its `--format` name: `--format json`.
    static func choice<Format: OutputFormat>(_ text: String, option: String, in _: Format.Type) throws(UsageError) -> Format {
        guard let format = Format(rawValue: text) else {
            _ = try choice(text, option: option, in: Format.names)
            throw .invalidValue(option: option, value: text, reason: "expected one of \(Format.names.joined(separator: ", "))")
        }
        return format
    }

    /// The properties of every `--property` value, each a single id or a comma-separated list; `nil` when none was given.
    ///
    /// A built-in id is taken as it is; any other id written like one (`mfa-before-session`) may name a
    /// spec's own property, which ``SpecRunner`` checks once the spec is read.
    static func properties(_ values: [String], option: String = "--property") throws(UsageError) -> Set<Property>? {
        guard !values.isEmpty else { return nil }
        var result = Set<Property>()
        let ids = Property.builtIn.map(\.id)
        for value in values {
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                let id = part.trimmingSpaces
                guard !id.isEmpty else {
                    throw .invalidValue(option: option, value: value, reason: "empty property id; expected one of \(ids.joined(separator: ", ")) or a property the spec states")
                }
                if let property = Property(builtInID: id) {
                    result.insert(property)
                    continue
                }
                // A near miss of a built-in id is a typo, not a spec's own property.
                if let near = Suggestion.nearest(to: id, in: ids) {
                    throw .invalidValue(option: option, value: id, reason: "unknown property; did you mean '\(near)'? (properties: \(ids.joined(separator: ", ")), or one the spec states)")
                }
                guard FlowSpec.UserProperty.isWellFormed(id) else {
                    throw .invalidValue(option: option, value: id, reason: "unknown property (properties: \(ids.joined(separator: ", ")), or one the spec states, written like 'mfa-before-session')")
                }
                result.insert(Property(id: id))
            }
        }
        return result
    }
}

extension Substring {
    /// The text without leading and trailing spaces (`--property "deadlock, no-exit"`).
    var trimmingSpaces: String {
        String(String(drop { $0 == " " }.reversed().drop { $0 == " " }).reversed())
    }
}
