/// Invisible and spacing characters WhatsApp inserts around structure.
enum WhatsAppChars {
    /// Bidi and format marks dropped when parsing (kept in display text).
    static func isIgnorable(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x200E, 0x200F, 0x061C, 0x2066...0x2069, 0x202A...0x202E, 0xFEFF, 0x2060: return true
        default: return false
        }
    }

    /// Space, NBSP, NNBSP and thin spaces all separate header parts.
    static func isSpace(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x20, 0x09, 0xA0, 0x202F, 0x2009, 0x2007: return true
        default: return false
        }
    }

    /// The value of an ASCII, Arabic-Indic or Eastern Arabic-Indic digit.
    static func digit(_ u: Unicode.Scalar) -> Int? {
        switch u.value {
        case 0x30...0x39: return Int(u.value - 0x30)
        case 0x660...0x669: return Int(u.value - 0x660)
        case 0x6F0...0x6F9: return Int(u.value - 0x6F0)
        default: return nil
        }
    }

    /// The string without leading and trailing U+0020.
    static func trimmingSpaces(_ text: some StringProtocol) -> String {
        var s = Substring(text)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }

    /// A string with bidi marks removed and NBSP/NNBSP mapped to spaces: the parse view.
    static func parseView(_ s: some StringProtocol) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars where !isIgnorable(u) {
            out.append(isSpace(u) && u != "\t" ? " " : u)
        }
        return String(out)
    }
}
