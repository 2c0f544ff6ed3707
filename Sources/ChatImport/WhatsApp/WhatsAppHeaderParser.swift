/// Reads the header at the start of a line (the grammar of <doc:WhatsAppFormat>), or says there is none.
struct WhatsAppHeaderParser {
    private let s: [Unicode.Scalar]
    private var i = 0

    /// Parses `scalars` as a header line.
    static func parse(_ scalars: [Unicode.Scalar]) -> WhatsAppHeader? {
        var p = WhatsAppHeaderParser(s: scalars)
        return p.header()
    }

    private init(s: [Unicode.Scalar]) { self.s = s }

    // MARK: Cursor

    private mutating func skipIgnorable() {
        while i < s.count, WhatsAppChars.isIgnorable(s[i]) { i += 1 }
    }

    private mutating func peek() -> Unicode.Scalar? {
        skipIgnorable()
        return i < s.count ? s[i] : nil
    }

    private mutating func eat(_ c: Unicode.Scalar) -> Bool {
        if peek() == c {
            i += 1
            return true
        }
        return false
    }

    @discardableResult
    private mutating func spaces() -> Int {
        var n = 0
        while let c = peek(), WhatsAppChars.isSpace(c) {
            i += 1
            n += 1
        }
        return n
    }

    /// Up to `max` digits; returns the value and the count.
    private mutating func number(max: Int = 4) -> (value: Int, digits: Int)? {
        var v = 0
        var n = 0
        while n < max, let c = peek(), let d = WhatsAppChars.digit(c) {
            v = v * 10 + d
            n += 1
            i += 1
        }
        return n == 0 ? nil : (v, n)
    }

    /// Matches a word case-insensitively (ASCII), a space in `word` matching any space run.
    private mutating func match(_ word: String) -> Bool {
        let save = i
        for w in word.unicodeScalars {
            if w == " " {
                if spaces() == 0 {
                    i = save
                    return false
                }
                continue
            }
            guard let c = peek() else {
                i = save
                return false
            }
            let lc = c.isASCII ? Unicode.Scalar(UInt8(ascii: c) | (c.properties.isUppercase ? 0x20 : 0)) : c
            if lc != w {
                i = save
                return false
            }
            i += 1
        }
        return true
    }

    // MARK: Grammar

    private mutating func header() -> WhatsAppHeader? {
        skipIgnorable()
        let bracketed = eat("[")
        guard let stamp = stamp() else { return nil }
        let layout: WhatsAppHeaderShape.Layout
        if bracketed {
            guard eat("]") else { return nil }
            // iOS puts one space (sometimes none before an LRM) after the bracket.
            spaces()
            layout = .ios
        } else {
            let save = i
            spaces()
            if let c = peek(), c == "-" || c == "\u{2013}" || c == "\u{2014}" {
                i += 1
                guard spaces() > 0 || peek() == nil else { return nil }
                layout = .android
            } else {
                i = save
                guard eat(":"), spaces() > 0 else { return nil }
                layout = .old
            }
        }
        var shape = stamp.shape
        shape.layout = layout
        return WhatsAppHeader(
            shape: shape, components: stamp.components, hour: stamp.hour, minute: stamp.minute, second: stamp.second,
            hourIgnoresMeridiem: stamp.hourIgnoresMeridiem, bodyStart: i)
    }

    private struct Stamp {
        var shape: WhatsAppHeaderShape
        var components: (Int, Int, Int)
        var hour: Int?
        var minute: Int
        var second: Int?
        var hourIgnoresMeridiem: Bool
    }

    private struct DatePart {
        var separator: Unicode.Scalar
        var yearPosition: Int
        var yearDigits: Int
        var components: (Int, Int, Int)
    }

    private struct TimePart {
        var separator: Unicode.Scalar
        var hasSeconds: Bool
        var meridiem: WhatsAppHeaderShape.Meridiem
        var hour: Int?
        var minute: Int
        var second: Int?
        var hourIgnoresMeridiem: Bool
    }

    private mutating func stamp() -> Stamp? {
        let start = i
        if let date = date(), joiner(), let time = time() {
            return makeStamp(date: date, time: time, timeFirst: false)
        }
        i = start
        if let time = time(), joiner(), let date = date() {
            return makeStamp(date: date, time: time, timeFirst: true)
        }
        return nil
    }

    private func makeStamp(date: DatePart, time: TimePart, timeFirst: Bool) -> Stamp {
        Stamp(
            shape: WhatsAppHeaderShape(
                layout: .android, timeFirst: timeFirst, dateSeparator: date.separator, yearPosition: date.yearPosition,
                yearDigits: date.yearDigits, timeSeparator: time.separator, hasSeconds: time.hasSeconds,
                meridiem: time.meridiem),
            components: date.components, hour: time.hour, minute: time.minute, second: time.second,
            hourIgnoresMeridiem: time.hourIgnoresMeridiem)
    }

    /// `,` / `،` and spaces, or spaces, optionally a short word (`klo`, `um`, `à`) and spaces.
    private mutating func joiner() -> Bool {
        var any = false
        if eat(",") || eat("\u{060C}") { any = true }
        if spaces() > 0 { any = true }
        let save = i
        var letters = 0
        while let c = peek(), c.properties.isAlphabetic, !isMeridiemStart(c) {
            i += 1
            letters += 1
        }
        if letters > 0 {
            if letters <= 4, spaces() > 0 {
                any = true
            } else {
                i = save
            }
        }
        return any
    }

    private func isMeridiemStart(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "午", "오", "上", "下", "ص", "م": return true
        default: return false
        }
    }

    private mutating func yearComponent() -> (value: Int, digits: Int)? {
        // Reiwa era years: `R4` is 2022.
        if peek() == "R" {
            let save = i
            i += 1
            if let n = number(max: 2) { return (2018 + n.value, 4) }
            i = save
            return nil
        }
        guard let n = number(max: 4), n.digits == 2 || n.digits == 4 else { return nil }
        var year = n.digits == 2 ? 2000 + n.value : n.value
        // Buddhist era (Thai phones): 2567 BE is 2024.
        if year >= 2400 { year -= 543 }
        return (year, n.digits)
    }

    private mutating func date() -> DatePart? {
        let start = i
        var first: (value: Int, digits: Int)
        let isReiwa = peek() == "R"
        if isReiwa {
            guard let y = yearComponent() else { return nil }
            first = y
        } else {
            guard let n = number(max: 4) else { return nil }
            first = n
        }
        guard let sep = peek(), sep == "/" || sep == "." || sep == "-" else {
            i = start
            return nil
        }
        i += 1
        spaces()
        if first.digits == 4 || isReiwa {
            if !isReiwa, first.value >= 2400 { first.value -= 543 }
            guard let m = number(max: 2), eat(sep) else { return nil }
            spaces()
            guard let d = number(max: 2) else { return nil }
            _ = eat(".")
            return DatePart(separator: sep, yearPosition: 0, yearDigits: 4, components: (first.value, m.value, d.value))
        }
        guard first.digits <= 2, let second = number(max: 2), eat(sep) else { return nil }
        spaces()
        guard let year = yearComponent() else { return nil }
        _ = eat(".")
        let save = i
        spaces()
        if !match("be") { i = save }
        return DatePart(
            separator: sep, yearPosition: 2, yearDigits: year.digits,
            components: (first.value, second.value, year.value))
    }

    private static let meridiemWords: [(String, Bool)] = [
        ("a. m.", false), ("p. m.", true), ("a.m.", false), ("p.m.", true), ("am", false), ("pm", true),
        ("vorm.", false), ("nachm.", true), ("ص", false), ("م", true), ("午前", false), ("午後", true),
        ("오전", false), ("오후", true), ("上午", false), ("下午", true),
    ]

    private mutating func meridiem() -> Bool? {
        for (word, isPM) in WhatsAppHeaderParser.meridiemWords where match(word) {
            return isPM
        }
        return nil
    }

    private mutating func time() -> TimePart? {
        let start = i
        var pm: Bool?
        var placement = WhatsAppHeaderShape.Meridiem.none
        if let c = peek(), WhatsAppChars.digit(c) == nil {
            guard let m = meridiem() else { return nil }
            pm = m
            placement = .before
            spaces()
        }
        guard let h = number(max: 2), let sep = peek(), sep == ":" || sep == "." else {
            i = start
            return nil
        }
        i += 1
        guard let m = number(max: 2), m.digits == 2 else {
            i = start
            return nil
        }
        var second: Int?
        let save = i
        if eat(sep), let sec = number(max: 2), sec.digits == 2 {
            second = sec.value
        } else {
            i = save
        }
        if placement == .none {
            let save = i
            spaces()
            if let m = meridiem() {
                pm = m
                placement = .after
            } else {
                i = save
            }
        }
        var hour: Int? = h.value <= 23 ? h.value : nil
        var ignoresMeridiem = false
        if let pm {
            if (1...12).contains(h.value) {
                hour = (h.value % 12) + (pm ? 12 : 0)
            } else {
                // `23:59 PM`, `00:04 AM`: a 24-hour clock with the marker appended; the
                // hour is right as written.
                ignoresMeridiem = hour != nil
            }
        }
        return TimePart(
            separator: sep, hasSeconds: second != nil, meridiem: placement, hour: hour, minute: m.value, second: second,
            hourIgnoresMeridiem: ignoresMeridiem)
    }
}
