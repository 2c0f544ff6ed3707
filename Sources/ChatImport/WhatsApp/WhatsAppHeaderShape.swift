/// The layout of a WhatsApp message header, without its numbers: what a file's lines are
/// matched against once the importer has locked a template (<doc:WhatsAppFormat>).
struct WhatsAppHeaderShape: Hashable, Sendable, CustomStringConvertible {
    enum Layout: Hashable, Sendable {
        /// `DATE, TIME - AUTHOR: TEXT`
        case android
        /// `[DATE, TIME] AUTHOR: TEXT`
        case ios
        /// `DATE TIME: AUTHOR: TEXT`
        case old
    }

    enum Meridiem: Hashable, Sendable {
        case none, before, after
    }

    var layout: Layout
    var timeFirst: Bool
    var dateSeparator: Unicode.Scalar
    /// Where the year is: 0 (Y/M/D) or 2 (D/M/Y or M/D/Y).
    var yearPosition: Int
    var yearDigits: Int
    var timeSeparator: Unicode.Scalar
    var hasSeconds: Bool
    var meridiem: Meridiem

    var description: String {
        let date: String
        let s = String(dateSeparator)
        if yearPosition == 0 {
            date = "Y\(s)M\(s)D"
        } else {
            date = "?\(s)?\(s)" + (yearDigits == 2 ? "YY" : "YYYY")
        }
        let t = String(timeSeparator)
        var time = "H\(t)MM" + (hasSeconds ? "\(t)SS" : "")
        switch meridiem {
        case .none: break
        case .before: time = "AMPM " + time
        case .after: time += " AMPM"
        }
        let stamp = timeFirst ? "\(time), \(date)" : "\(date), \(time)"
        switch layout {
        case .android: return "\(stamp) - AUTHOR: TEXT"
        case .ios: return "[\(stamp)] AUTHOR: TEXT"
        case .old: return "\(stamp): AUTHOR: TEXT"
        }
    }
}
