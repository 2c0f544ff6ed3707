/// The character classes of <doc:MarkdownGrammar>, on Unicode scalar values and UTF-8 bytes.
enum MarkdownCharacters {
    /// ASCII `0-9`.
    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }

    /// ASCII `A-Z a-z`.
    @inline(__always) static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 }

    /// ASCII letters and digits.
    @inline(__always) static func isAlphaNumeric(_ c: UInt8) -> Bool { isDigit(c) || isLetter(c) }

    /// ASCII hexadecimal digits.
    @inline(__always) static func isHexDigit(_ c: UInt8) -> Bool {
        isDigit(c) || (c | 0x20) &- 0x61 < 6
    }

    /// Haskell's `isSpace`: U+0009–U+000D, U+0020, U+00A0, and category Zs above U+0377.
    static func isWhitespace(_ v: UInt32) -> Bool {
        if v <= 0x20 { return v == 0x20 || (v >= 9 && v <= 13) }
        if v < 0x378 { return v == 0xA0 }
        guard let u = Unicode.Scalar(v) else { return false }
        return u.properties.generalCategory == .spaceSeparator
    }

    /// Unicode categories Pc Pd Ps Pe Pi Pf Po.
    static func isPunctuation(_ v: UInt32) -> Bool {
        if v < 0x80 {
            switch UInt8(truncatingIfNeeded: v) {
            case UInt8(ascii: "!"), UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "%"),
                UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "?"),
                UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"),
                UInt8(ascii: "_"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                return true
            default:
                return false
            }
        }
        guard let u = Unicode.Scalar(v) else { return false }
        switch u.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    /// Punctuation except `/`, `)`, `_` and `!` (the trailing run split off words).
    static func isLinkPunctuation(_ v: UInt32) -> Bool {
        switch v {
        case 0x2F, 0x29, 0x5F, 0x21: return false
        default: return isPunctuation(v)
        }
    }

    /// A mention or command name character: above U+0020, not `#`, `@` or `'`.
    @inline(__always) static func isNameCharacter(_ v: UInt32) -> Bool {
        v > 0x20 && v != 0x23 && v != 0x40 && v != 0x27
    }
}

/// Reading Unicode scalars out of valid UTF-8 (a Swift string's storage).
extension UnsafeBufferPointer where Element == UInt8 {
    /// The scalar value starting at byte `i` and its length in bytes.
    @inline(__always) func scalar(at i: Int) -> (value: UInt32, length: Int) {
        let c0 = self[i]
        if c0 < 0x80 { return (UInt32(c0), 1) }
        let length = c0 >= 0xF0 ? 4 : c0 >= 0xE0 ? 3 : 2
        guard i + length <= count else { return (0xFFFD, 1) }
        var v = UInt32(c0) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { v = v << 6 | (UInt32(self[i + k]) & 0x3F) }
        return (v, length)
    }

    /// The scalar value ending just before byte `i`, and its first byte.
    @inline(__always) func scalar(before i: Int) -> (value: UInt32, start: Int) {
        var j = i - 1
        while j > 0, self[j] & 0xC0 == 0x80, i - j < 4 { j -= 1 }
        return (scalar(at: j).value, j)
    }

    /// The number of Unicode scalars in bytes `lo..<hi`.
    func scalarCount(_ lo: Int, _ hi: Int) -> Int {
        var n = 0
        for k in lo..<hi where self[k] & 0xC0 != 0x80 { n += 1 }
        return n
    }

    /// Whether bytes from `i` start with the ASCII string `prefix`.
    func hasASCII(_ prefix: StaticString, at i: Int, end: Int) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard i + n <= end else { return false }
        return prefix.withUTF8Buffer { p in
            for k in 0..<n where self[i + k] != p[k] { return false }
            return true
        }
    }

    /// The string of bytes `lo..<hi`.
    func string(_ lo: Int, _ hi: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[lo..<hi]), as: UTF8.self)
    }
}
