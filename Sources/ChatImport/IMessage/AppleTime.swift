import ChatModel
import GRDB

/// iMessage times: counted from the Apple epoch, 2001-01-01T00:00:00Z (Unix 978,307,200 s),
/// in nanoseconds since macOS 10.13 and iOS 11 and in seconds before. The unit is decided for
/// each value (a magnitude over 10¹² is nanoseconds), never by cutting the number as text.
enum AppleTime {
    /// The Apple epoch in Unix milliseconds.
    static let epochMilliseconds: Int64 = 978_307_200_000
    /// Values larger than this (in magnitude) are nanoseconds.
    static let nanosecondThreshold: Double = 1e12
    /// Times before 1990 or after 2100 are not believed (a damaged value, a wrong unit).
    static let plausible: ClosedRange<Int64> = 631_152_000_000...4_102_444_800_000

    /// The time a column holds; `nil` when it is NULL, 0 (unset), not a number, or absurd.
    static func timestamp(_ value: DatabaseValue?) -> Timestamp? {
        guard let value else { return nil }
        switch value.storage {
        case .int64(let v): return timestamp(Double(v), exact: v)
        case .double(let v): return timestamp(v, exact: nil)
        default: return nil
        }
    }

    /// Whether a column holds a set time (non-zero), plausible or not.
    static func isSet(_ value: DatabaseValue?) -> Bool {
        guard let value else { return false }
        switch value.storage {
        case .int64(let v): return v != 0
        case .double(let v): return v != 0
        default: return false
        }
    }

    private static func timestamp(_ value: Double, exact: Int64?) -> Timestamp? {
        guard value.isFinite, value != 0, abs(value) < 9e18 else { return nil }
        let sinceEpoch: Int64
        if abs(value) > nanosecondThreshold {
            sinceEpoch = exact.map { $0 / 1_000_000 } ?? Int64(value / 1e6)
        } else {
            sinceEpoch = exact.map { $0 * 1000 } ?? Int64(value * 1000)
        }
        let unix = sinceEpoch + epochMilliseconds
        return plausible.contains(unix) ? Timestamp(milliseconds: unix) : nil
    }
}
