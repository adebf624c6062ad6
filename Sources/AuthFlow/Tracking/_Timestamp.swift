import Foundation

/// ISO 8601 timestamps with milliseconds, UTC, without a shared (non-`Sendable`) formatter.
enum _Timestamp {
    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z, in milliseconds since 1970.
    static let minMilliseconds: Int64 = -62_167_219_200_000
    static let maxMilliseconds: Int64 = 253_402_300_799_999

    /// `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ`, rounded to the nearest millisecond and clamped
    /// to the years 0000–9999 (a date that is not finite writes as 1970-01-01T00:00:00.000Z).
    static func format(_ date: Date) -> String {
        let scaled = (date.timeIntervalSince1970 * 1000).rounded()
        let ms: Int64 =
            scaled.isNaN ? 0
            : scaled <= Double(minMilliseconds) ? minMilliseconds
            : scaled >= Double(maxMilliseconds) ? maxMilliseconds
            : Int64(scaled)
        let dayMs: Int64 = 86_400_000
        let days = ms >= 0 ? ms / dayMs : (ms - dayMs + 1) / dayMs
        var rest = ms - days * dayMs
        let (year, month, day) = civil(fromDays: days)
        let hour = rest / 3_600_000; rest %= 3_600_000
        let minute = rest / 60_000; rest %= 60_000
        let second = rest / 1000
        let milli = rest % 1000
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(milli, 3))Z"
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; digits past milliseconds are dropped.
    static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
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
        /// Consumes one byte that is one of `options`.
        func expect(_ options: String) -> Bool {
            guard i < b.count, options.utf8.contains(b[i]) else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("Tt"),
              let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var milli: Int64 = 0
        if expect(".") {
            var digits = 0
            while i < b.count, b[i] &- UInt8(ascii: "0") < 10 {
                if digits < 3 { milli = milli * 10 + Int64(b[i] - UInt8(ascii: "0")) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milli *= 10 }
        }
        var offsetMinutes: Int64 = 0
        if expect("Zz") {
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = number(2), expect(":"), let om = number(2), oh < 24, om < 60 else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = self.days(fromCivil: year, month, day)
        let ms = ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60_000 + second * 1000 + milli
        return Date(timeIntervalSince1970: Double(ms) / 1000)
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
