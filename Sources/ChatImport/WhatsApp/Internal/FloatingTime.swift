import Foundation

/// Turns zone-less wall-clock times into instants in one chosen zone.
///
/// DST follows <doc:ImportRules>: an ambiguous time takes its first occurrence, a time in a
/// spring-forward gap moves forward by the gap.
struct FloatingTimeZone: Sendable {
    private enum Kind: Sendable {
        case fixed(Int)
        case zone(TimeZone)
    }

    private let kind: Kind

    /// Parses `nil` (UTC), seconds east of UTC (`3600`, `+3600`), `±HH:MM`, or an IANA name.
    init?(_ identifier: String?) {
        guard let raw = identifier?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else {
            kind = .fixed(0)
            return
        }
        if let seconds = Int(raw), abs(seconds) <= 18 * 3600 {
            kind = .fixed(seconds)
            return
        }
        let bytes = Array(raw.utf8)
        if bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
            bytes[3] == UInt8(ascii: ":"),
            let h = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
            let m = Int(String(decoding: bytes[4..<6], as: UTF8.self)), h <= 18, m < 60
        {
            kind = .fixed((bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60))
            return
        }
        if raw == "UTC" || raw == "Z" {
            kind = .fixed(0)
            return
        }
        guard let tz = TimeZone(identifier: raw) else { return nil }
        kind = .zone(tz)
    }

    /// The instant of a wall-clock time given as seconds since 1970 read as if UTC.
    func instant(localSeconds: Int64) -> Int64 {
        switch kind {
        case .fixed(let offset):
            return localSeconds - Int64(offset)
        case .zone(let tz):
            func offset(_ utc: Int64) -> Int64 {
                Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc))))
            }
            let before = offset(localSeconds - 86400)
            let after = offset(localSeconds + 86400)
            let first = localSeconds - before
            if offset(first) == before { return first }
            let second = localSeconds - after
            if offset(second) == after { return second }
            // In a gap: the wall clock does not exist; the old offset moves it forward by the gap.
            return first
        }
    }
}
