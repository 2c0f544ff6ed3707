/// The email check of <doc:MarkdownGrammar>: an ASCII RFC 5322 `local@domain` address.
enum EmailCheck {
    /// Whether `s` is a valid address.
    static func isEmail(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { isEmail($0) }
    }

    /// Whether the bytes are a valid address.
    static func isEmail(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        // Local part: dot-separated atoms or quoted strings.
        var i = 0
        while true {
            guard i < n else { return false }
            if b[i] == UInt8(ascii: "\"") {
                i += 1
                var closed = false
                while i < n {
                    let c = b[i]
                    if c == UInt8(ascii: "\"") {
                        closed = true
                        i += 1
                        break
                    }
                    if c == UInt8(ascii: "\\") {
                        guard i + 1 < n, b[i + 1] >= 0x20 || b[i + 1] == 0x09, b[i + 1] < 0x7F else { return false }
                        i += 2
                        continue
                    }
                    guard (c >= 0x21 && c < 0x7F) || c == 0x09 else { return false }
                    i += 1
                }
                guard closed else { return false }
            } else {
                let start = i
                while i < n, isAtomCharacter(b[i]) { i += 1 }
                guard i > start else { return false }
            }
            guard i < n else { return false }
            if b[i] == UInt8(ascii: ".") {
                i += 1
                continue
            }
            guard b[i] == UInt8(ascii: "@") else { return false }
            i += 1
            break
        }
        // Domain: a domain literal, or labels with an optional final dot.
        guard i < n else { return false }
        if b[i] == UInt8(ascii: "[") {
            i += 1
            while i < n, b[i] != UInt8(ascii: "]") {
                let c = b[i]
                guard c >= 0x21, c < 0x7F, c != UInt8(ascii: "[") else { return false }
                i += 1
            }
            return i == n - 1
        }
        let domainStart = i
        var domainEnd = i
        while true {
            let start = i
            while i < n, MarkdownCharacters.isAlphaNumeric(b[i]) || b[i] == UInt8(ascii: "-") { i += 1 }
            let length = i - start
            guard length >= 1, length <= 63, b[start] != UInt8(ascii: "-"), b[i - 1] != UInt8(ascii: "-")
            else { return false }
            domainEnd = i
            if i == n { break }
            guard b[i] == UInt8(ascii: ".") else { return false }
            i += 1
            if i == n { break }
        }
        return domainEnd - domainStart <= 253
    }

    @inline(__always) private static func isAtomCharacter(_ c: UInt8) -> Bool {
        if MarkdownCharacters.isAlphaNumeric(c) { return true }
        switch c {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="),
            UInt8(ascii: "?"), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "{"),
            UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
