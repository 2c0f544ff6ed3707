/// An instant as milliseconds since 1970-01-01T00:00:00Z.
///
/// Parsing and formatting are written by hand: they run once per imported item, and
/// Foundation's date formatters cost microseconds per call.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z (negative before).
    public var milliseconds: Int64

    /// Makes a timestamp from milliseconds since the epoch.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }
    /// Makes a timestamp from whole seconds since the epoch.
    public init(seconds: Int64) { self.milliseconds = seconds &* 1000 }

    /// Earlier instants order first.
    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.milliseconds < b.milliseconds }

    /// The RFC 3339 UTC form (``rfc3339``).
    public var description: String { rfc3339 }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        // Howard Hinnant's days_from_civil.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// Makes a timestamp from UTC calendar fields; `nil` when a field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0)
    {
        guard (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (0...999).contains(millisecond)
        else { return nil }
        let d = Timestamp.days(year: year, month: month, day: day)
        let s = d * 86400 + Int64(hour * 3600 + minute * 60 + second)
        self.milliseconds = s * 1000 + Int64(millisecond)
    }

    /// The number of days in `month` of `year` (Gregorian leap years).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// UTC calendar fields of this instant.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        var ms = milliseconds % 1000
        var secs = milliseconds / 1000
        if ms < 0 {
            ms += 1000
            secs -= 1
        }
        var days = secs / 86400
        var rem = secs % 86400
        if rem < 0 {
            rem += 86400
            days -= 1
        }
        // civil_from_days
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d), Int(rem / 3600), Int(rem % 3600 / 60), Int(rem % 60), Int(ms))
    }

    /// RFC 3339 in UTC (`2024-05-01T10:00:00Z`, with `.SSS` when the milliseconds are not zero).
    public var rfc3339: String {
        let c = components
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(v)
            return s.count >= n ? s : String(repeating: "0", count: n - s.count) + s
        }
        var out =
            "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))"
        if c.millisecond != 0 { out += "." + pad(c.millisecond, 3) }
        return out + "Z"
    }

    /// Parses RFC 3339 / ISO 8601 date-times: `YYYY-MM-DD[T| ]HH:MM[:SS[.f…]][Z|±HH[:]MM]`.
    ///
    /// A missing offset is read as UTC (`defaultOffsetSeconds` otherwise). Fractions of any
    /// length are accepted and truncated to milliseconds. A date alone (`YYYY-MM-DD`) is midnight.
    public static func parse(_ text: some StringProtocol, defaultOffsetSeconds: Int = 0) -> Timestamp? {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 0x20 { bytes.removeLast() }
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= bytes.count else { return nil }
            var v = 0
            for k in 0..<n {
                let b = bytes[i + k]
                guard b >= 0x30, b <= 0x39 else { return nil }
                v = v * 10 + Int(b - 0x30)
            }
            i += n
            return v
        }
        func eat(_ c: UInt8) -> Bool {
            if i < bytes.count, bytes[i] == c {
                i += 1
                return true
            }
            return false
        }
        guard let year = digits(4), eat(0x2D), let month = digits(2), eat(0x2D), let day = digits(2) else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var ms = 0
        var offset = defaultOffsetSeconds
        if i < bytes.count {
            guard bytes[i] == 0x54 || bytes[i] == 0x74 || bytes[i] == 0x20 else { return nil }
            i += 1
            guard let h = digits(2), eat(0x3A), let m = digits(2) else { return nil }
            hour = h
            minute = m
            if eat(0x3A) {
                guard let s = digits(2) else { return nil }
                second = s
                if eat(0x2E) || eat(0x2C) {
                    var scale = 100
                    var any = false
                    while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                        ms += Int(bytes[i] - 0x30) * scale
                        scale /= 10
                        i += 1
                        any = true
                    }
                    guard any else { return nil }
                }
            }
            if i < bytes.count {
                if bytes[i] == 0x5A || bytes[i] == 0x7A {
                    i += 1
                    offset = 0
                } else if bytes[i] == 0x2B || bytes[i] == 0x2D {
                    let sign = bytes[i] == 0x2D ? -1 : 1
                    i += 1
                    guard let oh = digits(2) else { return nil }
                    _ = eat(0x3A)
                    let om = digits(2) ?? 0
                    guard oh <= 23, om <= 59 else { return nil }
                    offset = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
            guard i == bytes.count else { return nil }
        }
        // A leap second (:60) reads as :59; anything above is not a time.
        guard second <= 60,
            var t = Timestamp(
                year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59), millisecond: ms
            )
        else { return nil }
        t.milliseconds -= Int64(offset) * 1000
        return t
    }
}
