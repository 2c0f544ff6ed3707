/// The web-URI check of <doc:MarkdownGrammar>: an absolute RFC 3986 `http`/`https` URI with an
/// authority whose host contains a `.` (unescaped `[` `]` also allowed in the query).
enum WebURICheck {
    /// Whether `s` passes the check.
    static func isWebURI(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { isWebURI($0) }
    }

    /// Whether the bytes pass the check.
    /// - Complexity: O(n), one pass.
    static func isWebURI(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        var i: Int
        if b.hasASCII("https://", at: 0, end: n) {
            i = 8
        } else if b.hasASCII("http://", at: 0, end: n) {
            i = 7
        } else {
            return false
        }
        // Authority: up to the first `/`, `?`, `#` or the end.
        var authorityEnd = i
        while authorityEnd < n {
            let c = b[authorityEnd]
            if c == UInt8(ascii: "/") || c == UInt8(ascii: "?") || c == UInt8(ascii: "#") { break }
            authorityEnd += 1
        }
        guard checkAuthority(b, i, authorityEnd) else { return false }
        i = authorityEnd
        // Path.
        while i < n, b[i] != UInt8(ascii: "?"), b[i] != UInt8(ascii: "#") {
            guard let next = pchar(b, i, n, extra: UInt8(ascii: "/")) else { return false }
            i = next
        }
        // Query.
        if i < n, b[i] == UInt8(ascii: "?") {
            i += 1
            while i < n, b[i] != UInt8(ascii: "#") {
                let c = b[i]
                if c == UInt8(ascii: "?") || c == UInt8(ascii: "[") || c == UInt8(ascii: "]") {
                    i += 1
                    continue
                }
                guard let next = pchar(b, i, n, extra: UInt8(ascii: "/")) else { return false }
                i = next
            }
        }
        // Fragment: a second `#` fails.
        if i < n, b[i] == UInt8(ascii: "#") {
            i += 1
            while i < n {
                if b[i] == UInt8(ascii: "?") {
                    i += 1
                    continue
                }
                guard let next = pchar(b, i, n, extra: UInt8(ascii: "/")) else { return false }
                i = next
            }
        }
        return true
    }

    /// `[userinfo@]host[:port]` with a host containing a `.`.
    private static func checkAuthority(_ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Bool {
        var hostStart = lo
        var at = -1
        for k in lo..<hi where b[k] == UInt8(ascii: "@") {
            guard at < 0 else { return false }
            at = k
        }
        if at >= 0 {
            var k = lo
            while k < at {
                if b[k] == UInt8(ascii: ":") {
                    k += 1
                    continue
                }
                guard let next = regNameChar(b, k, at) else { return false }
                k = next
            }
            hostStart = at + 1
        }
        var k = hostStart
        var hasDot = false
        if k < hi, b[k] == UInt8(ascii: "[") {
            // IP literal: hex digits, `:`, `.`, and IPvFuture's letters.
            k += 1
            while k < hi, b[k] != UInt8(ascii: "]") {
                let c = b[k]
                guard MarkdownCharacters.isAlphaNumeric(c) || c == UInt8(ascii: ":") || c == UInt8(ascii: ".")
                else { return false }
                if c == UInt8(ascii: ".") { hasDot = true }
                k += 1
            }
            guard k < hi else { return false }
            k += 1
        } else {
            while k < hi, b[k] != UInt8(ascii: ":") {
                if b[k] == UInt8(ascii: ".") { hasDot = true }
                guard let next = regNameChar(b, k, hi) else { return false }
                k = next
            }
        }
        guard hasDot else { return false }
        if k < hi {
            guard b[k] == UInt8(ascii: ":") else { return false }
            k += 1
            while k < hi {
                guard MarkdownCharacters.isDigit(b[k]) else { return false }
                k += 1
            }
        }
        return true
    }

    /// Unreserved, percent-encoded or sub-delims at `i`: the index after it, or nil.
    @inline(__always)
    private static func regNameChar(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        let c = b[i]
        if c == UInt8(ascii: "%") {
            guard i + 2 < end, MarkdownCharacters.isHexDigit(b[i + 1]), MarkdownCharacters.isHexDigit(b[i + 2])
            else { return nil }
            return i + 3
        }
        return isUnreservedOrSubDelim(c) ? i + 1 : nil
    }

    /// A `pchar` (or `extra`) at `i`: the index after it, or nil.
    @inline(__always)
    private static func pchar(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int, extra: UInt8) -> Int? {
        let c = b[i]
        if c == UInt8(ascii: ":") || c == UInt8(ascii: "@") || c == extra { return i + 1 }
        if c == UInt8(ascii: "%") {
            guard i + 2 < end, MarkdownCharacters.isHexDigit(b[i + 1]), MarkdownCharacters.isHexDigit(b[i + 2])
            else { return nil }
            return i + 3
        }
        return isUnreservedOrSubDelim(c) ? i + 1 : nil
    }

    @inline(__always) private static func isUnreservedOrSubDelim(_ c: UInt8) -> Bool {
        if MarkdownCharacters.isAlphaNumeric(c) { return true }
        switch c {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }
}
