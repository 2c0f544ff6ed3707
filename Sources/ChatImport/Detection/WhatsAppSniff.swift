/// The recognise test of WhatsApp text exports (<doc:WhatsAppFormat>), on a prefix.
enum WhatsAppSniff {
    /// A header: optional `[`, a date in any order and separator, an optional word (`klo`, `午後`), a
    /// time with optional seconds and AM/PM marker, then `] `, ` - ` or `: `.
    static let headerPattern =
        #"^\[?\d{1,4}[./-] ?\d{1,2}[./-] ?\d{1,4}\.?[,،]? (?:[^\d\s\[\]]{1,6} ?)?\d{1,2}[:.]\d{2}(?:[:.]\d{2})?"#
        + #"(?: ?(?:[AaPp]\.? ?[Mm]\.?|ص|م|午前|午後|오전|오후))?(?:\] | [-–] |: )"#

    static func matches(_ prefix: [UInt8]) -> Bool {
        guard let regex = try? Regex(headerPattern) else { return false }
        var lines = text(prefix).split(separator: "\n", omittingEmptySubsequences: false).map(normalise)
        if prefix.count >= FormatDetector.prefixLimit, lines.count > 1 { lines.removeLast() }  // may be cut
        let nonEmpty = lines.filter { !$0.allSatisfy(\.isWhitespace) }
        guard nonEmpty.prefix(20).contains(where: { $0.prefixMatch(of: regex) != nil }) else { return false }
        let headerLike = nonEmpty.filter { $0.first.map { $0.isASCII && ($0.isNumber || $0 == "[") } ?? false }
        let fitting = headerLike.filter { $0.prefixMatch(of: regex) != nil }.count
        return fitting * 2 >= headerLike.count
    }

    /// The prefix as text: UTF-16 (with BOM) transcoded, a UTF-8 BOM dropped.
    private static func text(_ p: [UInt8]) -> String {
        if p.starts(with: [0xFF, 0xFE]) || p.starts(with: [0xFE, 0xFF]) {
            let little = p[0] == 0xFF
            var units: [UInt16] = []
            var k = 2
            while k + 1 < p.count {
                units.append(little ? UInt16(p[k]) | UInt16(p[k + 1]) << 8 : UInt16(p[k]) << 8 | UInt16(p[k + 1]))
                k += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        let start = p.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return String(decoding: p[start...], as: UTF8.self)
    }

    /// Drops bidi marks and CR, maps NBSP and NNBSP to spaces (for matching only).
    private static func normalise(_ line: Substring) -> String {
        var out = String.UnicodeScalarView()
        for u in line.unicodeScalars {
            switch u.value {
            case 0x200E, 0x200F, 0x2068, 0x2069, 0xFEFF, 0x0D: continue
            case 0x00A0, 0x202F: out.append(" ")
            default: out.append(u)
            }
        }
        return String(out)
    }
}
