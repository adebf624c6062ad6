import Foundation

/// ISO 8601 timestamps with milliseconds, UTC, without a shared (non-`Sendable`) formatter.
package enum _Timestamp {
    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z, in milliseconds since 1970.
    static let minMilliseconds: Int64 = -62_167_219_200_000
    static let maxMilliseconds: Int64 = 253_402_300_799_999

    /// `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ`, rounded to the nearest millisecond and clamped
    /// to the years 0000–9999 (a date that is not finite writes as 1970-01-01T00:00:00.000Z).
    static func format(_ date: Date) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        write(milliseconds(date), into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `date` in milliseconds since 1970, rounded to the nearest and clamped to the years 0000–9999 (0 when not finite).
    package static func milliseconds(_ date: Date) -> Int64 {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        return scaled.isNaN ? 0
            : scaled <= Double(minMilliseconds) ? minMilliseconds
            : scaled >= Double(maxMilliseconds) ? maxMilliseconds
            : Int64(scaled)
    }

    /// Appends `ms` (milliseconds since 1970, within the years 0000–9999) as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    package static func write(_ ms: Int64, into out: inout [UInt8]) {
        let ms = Swift.min(Swift.max(ms, minMilliseconds), maxMilliseconds)
        let dayMs: Int64 = 86_400_000
        let days = ms >= 0 ? ms / dayMs : (ms - dayMs + 1) / dayMs
        var rest = ms - days * dayMs
        let (year, month, day) = civil(fromDays: days)
        let hour = rest / 3_600_000; rest %= 3_600_000
        let minute = rest / 60_000; rest %= 60_000
        let second = rest / 1000
        let milli = rest % 1000
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var v = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(v / divisor))
                v %= divisor
                divisor /= 10
            }
        }
        digits(year, 4); out.append(UInt8(ascii: "-"))
        digits(month, 2); out.append(UInt8(ascii: "-"))
        digits(day, 2); out.append(UInt8(ascii: "T"))
        digits(hour, 2); out.append(UInt8(ascii: ":"))
        digits(minute, 2); out.append(UInt8(ascii: ":"))
        digits(second, 2); out.append(UInt8(ascii: "."))
        digits(milli, 3); out.append(UInt8(ascii: "Z"))
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; digits past milliseconds are dropped.
    static func parse(_ text: String) -> Date? {
        var text = text
        let ms = text.withUTF8 { milliseconds(utf8: $0) }
        return ms.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` from UTF-8 bytes, in milliseconds since 1970;
    /// digits past milliseconds are dropped. `nil` for anything else.
    /// - Complexity: O(*n*) in the bytes; allocates nothing.
    package static func milliseconds(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
        if b.count == 24, let ms = trackerForm(b) { return ms }
        var i = 0
        func number(_ width: Int) -> Int64? {
            guard i + width <= b.count else { return nil }
            var v: Int64 = 0
            for k in i..<i + width {
                guard b[k] &- UInt8(ascii: "0") < 10 else { return nil }
                v = v * 10 + Int64(b[k] - UInt8(ascii: "0"))
            }
            i += width
            return v
        }
        /// Consumes one byte that is `a` or `b`.
        func expect(_ first: UInt8, _ second: UInt8 = 0) -> Bool {
            guard i < b.count, b[i] == first || (second != 0 && b[i] == second) else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
              let day = number(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t")),
              let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
              let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var milli: Int64 = 0
        if expect(UInt8(ascii: ".")) {
            var digits = 0
            while i < b.count, b[i] &- UInt8(ascii: "0") < 10 {
                if digits < 3 { milli = milli * 10 + Int64(b[i] - UInt8(ascii: "0")) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<Swift.max(digits, 3) { milli *= 10 }
        }
        var offsetMinutes: Int64 = 0
        if expect(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = number(2), expect(UInt8(ascii: ":")), let om = number(2), oh < 24, om < 60 else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = self.days(fromCivil: year, month, day)
        return ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60_000 + second * 1000 + milli
    }

    /// The form the tracker writes, `YYYY-MM-DDTHH:MM:SS.mmmZ`, read at fixed offsets; nil for any other.
    @inline(__always)
    private static func trackerForm(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"),
              b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "."), b[23] == UInt8(ascii: "Z") else { return nil }
        /// The decimal number at `from`, or a negative one when a byte is not a digit.
        @inline(__always) func digits(_ from: Int, _ count: Int) -> Int64 {
            var value: Int64 = 0
            for k in from..<from + count {
                let digit = b[k] &- UInt8(ascii: "0")
                if digit >= 10 { return -1 }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        let year = digits(0, 4), month = digits(5, 2), day = digits(8, 2)
        let hour = digits(11, 2), minute = digits(14, 2), second = digits(17, 2), milli = digits(20, 3)
        guard year >= 0, hour >= 0, minute >= 0, second >= 0, milli >= 0, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        return ((days(fromCivil: year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milli
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day number since 1970-01-01 (H. Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
