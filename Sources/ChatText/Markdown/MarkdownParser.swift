import ChatModel

/// Parses one line of SimpleX markdown (<doc:MarkdownGrammar>) over the UTF-8 bytes of a message.
///
/// Byte offsets are used throughout: every marker is ASCII, and UTF-8 continuation bytes never
/// equal an ASCII byte, so searching bytes finds the same characters as searching scalars.
struct MarkdownParser {
    /// The message bytes, and the formats and strings the pieces refer to.
    var store: MarkdownStore
    private let b: UnsafeBufferPointer<UInt8>
    private var fragments: [MarkdownFragment] = []
    private var tree = MarkdownTree()
    /// Positions from which `]`, `)` and `'` are known not to occur before the line end, so
    /// that text like `[ [ [ …` or `@'a @'b …` is not scanned again and again.
    private var noBracketFrom = Int.max
    private var noParenFrom = Int.max
    private var noQuoteFrom = Int.max

    /// A parser over the bytes of a message.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.store = MarkdownStore(bytes)
        self.b = bytes
        fragments.reserveCapacity(16)
    }

    /// Parses bytes `lo..<hi` as one line and appends its pieces to `out`.
    mutating func parseLine(_ lo: Int, _ hi: Int, into out: inout [MarkdownPiece]) {
        fragments.removeAll(keepingCapacity: true)
        noBracketFrom = Int.max
        noParenFrom = Int.max
        noQuoteFrom = Int.max
        var i = lo
        while i < hi {
            let (fragment, end) = nextFragment(i, hi)
            fragments.append(fragment)
            i = end
        }
        tree.fold(fragments, lineStart: lo, into: &out, store: &store)
    }

    typealias Result = (MarkdownFragment, Int)

    /// The fragment starting at `i` and the index after it (<doc:MarkdownGrammar>, "Fragments").
    private mutating func nextFragment(_ i: Int, _ hi: Int) -> Result {
        switch b[i] {
        case UInt8(ascii: " "):
            var j = i + 1
            while j < hi, b[j] == UInt8(ascii: " ") { j += 1 }
            return (.one(plain(i, j)), j)
        case UInt8(ascii: "+"):
            return phone(i, hi) ?? word(i, hi)
        case UInt8(ascii: "*"):
            return doubleStar(i, hi) ?? marked(i, hi, .bold)
        case UInt8(ascii: "_"):
            return marked(i, hi, .italic)
        case UInt8(ascii: "~"):
            return marked(i, hi, .strikeThrough)
        case UInt8(ascii: "`"):
            return marked(i, hi, .snippet)
        case UInt8(ascii: "#"):
            return secret(i, hi) ?? simplexName(i, hi, isGroup: true) ?? hashWord(i, hi)
        case UInt8(ascii: "!"):
            return colored(i, hi) ?? word(i, hi)
        case UInt8(ascii: "@"):
            return simplexName(i, hi, isGroup: false) ?? mention(i, hi) ?? word(i, hi)
        case UInt8(ascii: "/"):
            return command(i, hi) ?? word(i, hi)
        case UInt8(ascii: "["):
            return hyperlink(i, hi) ?? word(i, hi)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return phone(i, hi) ?? word(i, hi)
        default:
            return word(i, hi)
        }
    }

    // MARK: Helpers

    @inline(__always) private func plain(_ lo: Int, _ hi: Int) -> MarkdownPiece { .plain(lo, hi) }

    /// A piece of bytes `lo..<hi` with `format`.
    @inline(__always) private mutating func piece(_ format: Format, _ lo: Int, _ hi: Int) -> MarkdownPiece {
        MarkdownPiece(code: store.code(format), lo, hi)
    }

    /// A span, followed by the plain punctuation `p..<end` when that is not empty.
    @inline(__always)
    private func withPunctuation(_ span: MarkdownPiece, _ p: Int, _ end: Int) -> Result {
        (p < end ? .pair(span, plain(p, end)) : .one(span), end)
    }

    /// The index of the next space (U+0020) at or after `i`, or `hi`.
    @inline(__always) private func nextSpace(_ i: Int, _ hi: Int) -> Int {
        var k = i
        while k < hi, b[k] != UInt8(ascii: " ") { k += 1 }
        return k
    }

    /// The start of the trailing run of characters in `lo..<hi` that satisfy `test`.
    @inline(__always)
    private func trailingRun(_ lo: Int, _ hi: Int, _ test: (UInt32) -> Bool) -> Int {
        var p = hi
        while p > lo {
            let (v, start) = b.scalar(before: p)
            guard test(v) else { break }
            p = start
        }
        return p
    }

    /// The first `c` in `from..<hi`, or `hi`; `known` remembers where a search failed.
    @inline(__always)
    private func find(_ c: UInt8, _ from: Int, _ hi: Int, _ known: inout Int) -> Int {
        if from >= known { return hi }
        var k = from
        while k < hi, b[k] != c { k += 1 }
        if k == hi { known = from }
        return k
    }

    private func rebased(_ lo: Int, _ hi: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: b[lo..<hi])
    }

    // MARK: markers (bold, italic, strike-through, snippet; double-star bold)

    /// `*x*` `_x_` `~x~` `` `x` ``; an unclosed marker takes the rest of the line.
    private mutating func marked(_ i: Int, _ hi: Int, _ format: Format) -> Result {
        let marker = b[i]
        let j = i + 1
        var k = j
        while k < hi, b[k] != marker { k += 1 }
        if k == hi { return (.one(plain(i, hi)), hi) }
        if k == j || b[j] == UInt8(ascii: " ") || b[k - 1] == UInt8(ascii: " ") {
            return (.one(plain(i, k + 1)), k + 1)
        }
        return (.one(piece(format, j, k)), k + 1)
    }

    /// `**x**`.
    private mutating func doubleStar(_ i: Int, _ hi: Int) -> Result? {
        guard i + 1 < hi, b[i + 1] == UInt8(ascii: "*") else { return nil }
        let j = i + 2
        var k = j
        while k < hi, b[k] != UInt8(ascii: "*") { k += 1 }
        guard k + 1 < hi, b[k + 1] == UInt8(ascii: "*"), k > j, b[j] != UInt8(ascii: " "), b[k - 1] != UInt8(ascii: " ")
        else { return nil }
        return (.one(piece(.bold, j, k)), k + 2)
    }

    // MARK: secret, SimpleX names

    /// `#x#`, `#x##`, `##x##`.
    private mutating func secret(_ i: Int, _ hi: Int) -> Result? {
        var j = i + 1
        while j < hi, b[j] == UInt8(ascii: "#") { j += 1 }
        var k = j
        while k < hi, b[k] != UInt8(ascii: "#") { k += 1 }
        var m = k
        while m < hi, b[m] == UInt8(ascii: "#") { m += 1 }
        guard m > k, k > j, b[j] != UInt8(ascii: " "), b[k - 1] != UInt8(ascii: " ") else { return nil }
        return (.one(piece(.secret, i + 1, m - 1)), m)
    }

    /// `#` and the rest of its word, plain.
    private func hashWord(_ i: Int, _ hi: Int) -> Result {
        let end = nextSpace(i + 1, hi)
        return (.one(plain(i, end)), end)
    }

    /// `#name…` or `@name.tld`, with trailing punctuation split off.
    private mutating func simplexName(_ i: Int, _ hi: Int, isGroup: Bool) -> Result? {
        let j = i + 1
        let end = nextSpace(j, hi)
        let p = trailingRun(j, end, MarkdownCharacters.isPunctuation)
        guard p > j, let info = SimplexNameParser.parse(rebased(j, p), isGroup: isGroup) else { return nil }
        return withPunctuation(piece(.simplexName(info), i, p), p, end)
    }

    // MARK: small and colored

    /// `!- x!`, `!1 x!`, `!red x!`.
    private mutating func colored(_ i: Int, _ hi: Int) -> Result? {
        let j = i + 1
        var k = j
        while k < hi {
            let (v, length) = b.scalar(at: k)
            if MarkdownCharacters.isWhitespace(v) { break }
            k += length
        }
        guard k < hi, let format = colorFormat(j, k) else { return nil }
        let contentStart = k + b.scalar(at: k).length
        guard contentStart < hi, b[contentStart] != UInt8(ascii: " "), b[contentStart] != UInt8(ascii: "!")
        else { return nil }
        var m = contentStart + 1
        while m < hi, b[m] != UInt8(ascii: "!") { m += 1 }
        guard m < hi, b[m - 1] != UInt8(ascii: " ") else { return nil }
        return (.one(piece(format, contentStart, m)), m + 1)
    }

    private func colorFormat(_ lo: Int, _ hi: Int) -> Format? {
        switch hi - lo {
        case 1:
            switch b[lo] {
            case UInt8(ascii: "-"): return .small
            case UInt8(ascii: "r"), UInt8(ascii: "1"): return .colored(.red)
            case UInt8(ascii: "g"), UInt8(ascii: "2"): return .colored(.green)
            case UInt8(ascii: "b"), UInt8(ascii: "3"): return .colored(.blue)
            case UInt8(ascii: "y"), UInt8(ascii: "4"): return .colored(.yellow)
            case UInt8(ascii: "c"), UInt8(ascii: "5"): return .colored(.cyan)
            case UInt8(ascii: "m"), UInt8(ascii: "6"): return .colored(.magenta)
            default: return nil
            }
        case 3...7:
            let colors: [FormatColor] = [.red, .green, .blue, .yellow, .cyan, .magenta]
            for color in colors where color.rawValue.utf8.elementsEqual(b[lo..<hi]) {
                return .colored(color)
            }
            return nil
        default:
            return nil
        }
    }

    // MARK: mentions, commands

    /// The name after `@` or `/`: quoted `'…'`, or unquoted up to whitespace with the
    /// trailing punctuation `nameEnd..<end` split off.
    private mutating func reference(_ i: Int, _ hi: Int) -> (nameStart: Int, nameEnd: Int, textEnd: Int, end: Int)? {
        let j = i + 1
        guard j < hi else { return nil }
        if b[j] == UInt8(ascii: "'") {
            guard j + 1 < hi else { return nil }
            let (v, length) = b.scalar(at: j + 1)
            guard MarkdownCharacters.isNameCharacter(v) else { return nil }
            let k = find(UInt8(ascii: "'"), j + 1 + length, hi, &noQuoteFrom)
            guard k < hi else { return nil }
            return (j + 1, k, k + 1, k + 1)
        }
        guard MarkdownCharacters.isNameCharacter(b.scalar(at: j).value) else { return nil }
        var k = j
        while k < hi {
            let c = b[k]
            if c < 0x80 {
                if c == 0x20 || (c >= 9 && c <= 13) { break }
                k += 1
            } else {
                let (v, length) = b.scalar(at: k)
                if MarkdownCharacters.isWhitespace(v) { break }
                k += length
            }
        }
        let p = trailingRun(j, k, MarkdownCharacters.isPunctuation)
        return (j, p, p, k)
    }

    /// `@name`, `@'quoted name'`.
    private mutating func mention(_ i: Int, _ hi: Int) -> Result? {
        guard let r = reference(i, hi) else { return nil }
        let span = piece(.mention(memberName: b.string(r.nameStart, r.nameEnd)), i, r.textEnd)
        return withPunctuation(span, r.textEnd, r.end)
    }

    /// `/cmd`, `/'quoted cmd'`, `/?`.
    private mutating func command(_ i: Int, _ hi: Int) -> Result? {
        guard let r = reference(i, hi) else { return nil }
        if r.nameStart == r.nameEnd, r.textEnd < r.end {
            // The whole word is punctuation: that is the command.
            return (.one(piece(.command(b.string(r.nameStart, r.end)), i, r.end)), r.end)
        }
        let span = piece(.command(b.string(r.nameStart, r.nameEnd)), i, r.textEnd)
        return withPunctuation(span, r.textEnd, r.end)
    }

    // MARK: hyperlinks

    /// `[text](url)`.
    private mutating func hyperlink(_ i: Int, _ hi: Int) -> Result? {
        let j = i + 1
        let k = find(UInt8(ascii: "]"), j, hi, &noBracketFrom)
        guard k > j, k + 1 < hi, b[k + 1] == UInt8(ascii: "(") else { return nil }
        let u = k + 2
        let m = find(UInt8(ascii: ")"), u, hi, &noParenFrom)
        guard m < hi, m > u else { return nil }
        guard passesAntiSpoofing(text: j..<k, url: u..<m) else { return nil }
        let url = rebased(u, m)
        let showText = b.string(j, k)
        let format: Format
        if let link = SimplexLinkDecoder.decode(url) {
            guard link.isShort else { return nil }
            format = .simplexLink(
                showText: showText, linkType: link.linkType, simplexUri: link.simplexUri, smpHosts: link.smpHosts)
        } else if WebURICheck.isWebURI(url) {
            format = .hyperLink(showText: showText, linkUri: b.string(u, m))
        } else {
            return nil
        }
        return (.one(piece(format, i, m + 1)), m + 1)
    }

    /// Text with punctuation other than `-` and `_` must be the URL, or the URL minus `https://`.
    private func passesAntiSpoofing(text: Range<Int>, url: Range<Int>) -> Bool {
        var k = text.lowerBound
        var hasPunctuation = false
        while k < text.upperBound {
            let (v, length) = b.scalar(at: k)
            if v != 0x2D, v != 0x5F, MarkdownCharacters.isPunctuation(v) {
                hasPunctuation = true
                break
            }
            k += length
        }
        guard hasPunctuation else { return true }
        if b[text].elementsEqual(b[url]) { return true }
        return b.hasASCII("https://", at: url.lowerBound, end: url.upperBound)
            && b[text].elementsEqual(b[(url.lowerBound + 8)..<url.upperBound])
    }

    // MARK: phones

    /// `+digits`, `(digits)`, then separated digit groups; 7–22 characters.
    private mutating func phone(_ i: Int, _ hi: Int) -> Result? {
        @inline(__always) func digits(_ k: Int) -> Int {
            var d = k
            while d < hi, MarkdownCharacters.isDigit(b[d]) { d += 1 }
            return d
        }
        @inline(__always) func separator(_ k: Int) -> Int {
            guard k < hi else { return k }
            let c = b[k]
            return c == UInt8(ascii: " ") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") ? k + 1 : k
        }
        var j = i
        if b[j] == UInt8(ascii: "+") {
            let d = digits(j + 1)
            if d > j + 1 { j = d }
        }
        let open = separator(j)
        if open < hi, b[open] == UInt8(ascii: "(") {
            let d = digits(open + 1)
            if d > open + 1, d < hi, b[d] == UInt8(ascii: ")") { j = d + 1 }
        }
        while j - i <= 22 {
            // Stops once too long: the match only grows, so it would fail anyway.
            let k = separator(j)
            let d = digits(k)
            if d == k { break }
            j = d
        }
        guard (7...22).contains(j - i) else { return nil }
        return (.one(piece(.phone, i, j)), j)
    }

    // MARK: words (URIs, bare domains, emails)

    /// A word up to the next space: SimpleX link, URI, bare domain, email or plain.
    private mutating func word(_ i: Int, _ hi: Int) -> Result {
        let end = nextSpace(i, hi)
        let p = trailingRun(i, end, MarkdownCharacters.isLinkPunctuation)
        if p > i {
            if (b.hasASCII("https://", at: i, end: p) || b.hasASCII("http://", at: i, end: p)
                || b.hasASCII("simplex:/", at: i, end: p)) && b.scalarCount(i, p) >= 10
            {
                if let link = SimplexLinkDecoder.decode(rebased(i, end)) {
                    let format = Format.simplexLink(
                        showText: nil, linkType: link.linkType, simplexUri: link.simplexUri, smpHosts: link.smpHosts)
                    return withPunctuation(piece(format, i, p), p, end)
                }
                if WebURICheck.isWebURI(rebased(i, p)) {
                    return withPunctuation(piece(.uri, i, p), p, end)
                }
                return (.one(plain(i, end)), end)
            }
            if isBareDomain(i, p) {
                return withPunctuation(piece(.uri, i, p), p, end)
            }
            if b[i..<p].contains(UInt8(ascii: "@")), EmailCheck.isEmail(rebased(i, p)) {
                return withPunctuation(piece(.email, i, p), p, end)
            }
        }
        return (.one(plain(i, end)), end)
    }

    /// `name.tld` or `sub.name.tld`: name 1–24 letters, tld 2–8 letters, sub 3–8 characters.
    private func isBareDomain(_ lo: Int, _ hi: Int) -> Bool {
        var dots: (Int, Int, Int) = (-1, -1, 0)
        for k in lo..<hi where b[k] == UInt8(ascii: ".") {
            switch dots.2 {
            case 0: dots.0 = k
            case 1: dots.1 = k
            default: return false
            }
            dots.2 += 1
        }
        func letters(_ a: Int, _ z: Int, _ range: ClosedRange<Int>) -> Bool {
            range.contains(z - a) && (a..<z).allSatisfy { MarkdownCharacters.isLetter(b[$0]) }
        }
        switch dots.2 {
        case 1:
            return letters(lo, dots.0, 1...24) && letters(dots.0 + 1, hi, 2...8)
        case 2:
            return (3...8).contains(b.scalarCount(lo, dots.0)) && letters(dots.0 + 1, dots.1, 1...24)
                && letters(dots.1 + 1, hi, 2...8)
        default:
            return false
        }
    }
}
