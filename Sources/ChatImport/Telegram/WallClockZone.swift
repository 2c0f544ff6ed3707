import ChatModel
import Foundation

/// Turns zone-less wall-clock times into instants in the zone the user chose at import.
///
/// Accepts `nil`/`UTC` (UTC), a fixed offset (`+01:00`, `-0500`, `3600` seconds east) or an
/// IANA identifier. In a DST change, ambiguous times take the first occurrence and times
/// in the gap move forward by its length.
struct WallClockZone {
    private let fixedOffset: Int?
    private let zone: TimeZone?

    init(_ identifier: String?) throws {
        guard let id = identifier?.trimmingCharacters(in: .whitespaces), !id.isEmpty, id != "UTC", id != "Z" else {
            fixedOffset = 0
            zone = nil
            return
        }
        if let seconds = Int(id) {
            fixedOffset = seconds
            zone = nil
            return
        }
        if let first = id.first, first == "+" || first == "-",
            let t = Timestamp.parse("1970-01-01T00:00:00" + id)
        {
            fixedOffset = Int(-t.milliseconds / 1000)
            zone = nil
            return
        }
        guard let z = TimeZone(identifier: id) else { throw ImportError("unknown time zone \(id)") }
        fixedOffset = nil
        zone = z
    }

    /// The instant of a wall-clock time given as if it were UTC.
    func instant(ofWallClock wall: Timestamp) -> Timestamp {
        if let fixedOffset { return Timestamp(milliseconds: wall.milliseconds - Int64(fixedOffset) * 1000) }
        guard let zone else { return wall }
        let wallSeconds = Double(wall.milliseconds) / 1000
        func offset(at seconds: Double) -> Int64 {
            Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        }
        let candidates = Set([
            offset(at: wallSeconds - 86400), offset(at: wallSeconds + 86400), offset(at: wallSeconds),
        ])
        var valid: [Int64] = []
        for c in candidates where offset(at: wallSeconds - Double(c)) == c { valid.append(c) }
        // Ambiguous: the first occurrence has the larger offset. Gap: the offset before it, the smaller.
        let chosen = valid.max() ?? candidates.min() ?? 0
        return Timestamp(milliseconds: wall.milliseconds - chosen * 1000)
    }
}
