import ChatModel

/// Discord's message markdown turned into formatted pieces with the markers removed, and
/// `@Name` / `<@id>` mentions matched to the message's `mentions[]` users.
struct DiscordMarkdown {
    /// A user the message mentions: `@display` is looked for in the text.
    struct User {
        var id: String
        /// Names that may follow `@`, nickname first.
        var names: [String]
    }

    private(set) var pieces: [FormattedText] = []
    private(set) var mentions: [String: MentionTarget] = [:]
    private let s: [Unicode.Scalar]
    private let users: [User]
    /// Every (name, user) pair, longest name first, so `@Ann Lee` wins over `@Ann`.
    private let names: [(name: [Unicode.Scalar], user: User)]
    private var plain = String.UnicodeScalarView()
    private var plainFormat: Format?

    /// The text a reader sees.
    var plainText: String { pieces.map(\.text).joined() }

    /// Whether any piece carries a format.
    var isFormatted: Bool { pieces.contains { $0.format != nil } }

    /// Parses `text` with the message's mentioned `users`.
    init(_ text: String, users: [User]) {
        s = Array(text.unicodeScalars)
        self.users = users
        var pairs: [(name: [Unicode.Scalar], user: User)] = []
        for u in users { for n in u.names where !n.isEmpty { pairs.append((Array(n.unicodeScalars), u)) } }
        names = pairs.sorted { $0.name.count > $1.name.count }
        parse(0, s.count, nil)
        flush()
    }

    // MARK: Pieces

    private mutating func flush() {
        guard !plain.isEmpty else { return }
        let text = String(plain)
        plain = String.UnicodeScalarView()
        if plainFormat == nil, let last = pieces.last, last.format == nil {
            pieces[pieces.count - 1].text += text
        } else {
            pieces.append(FormattedText(text, plainFormat))
        }
    }

    private mutating func emitPlain(_ c: Unicode.Scalar, _ format: Format?) {
        if format != plainFormat {
            flush()
            plainFormat = format
        }
        plain.append(c)
    }

    private mutating func emit(_ text: String, _ format: Format?) {
        guard !text.isEmpty else { return }
        if format == nil || format == plainFormat {
            for c in text.unicodeScalars { emitPlain(c, format) }
            return
        }
        flush()
        pieces.append(FormattedText(text, format))
    }

    private func string(_ lo: Int, _ hi: Int) -> String {
        var v = String.UnicodeScalarView()
        v.append(contentsOf: s[lo..<hi])
        return String(v)
    }

    // MARK: Scanning

    private func starts(_ i: Int, _ word: String, _ hi: Int) -> Bool {
        var k = i
        for c in word.unicodeScalars {
            guard k < hi, s[k] == c else { return false }
            k += 1
        }
        return true
    }

    /// The next `delim` at or after `from` (before `hi`), with content before it.
    private func find(_ delim: String, from: Int, _ hi: Int) -> Int? {
        let n = delim.unicodeScalars.count
        var j = from + 1
        while j + n <= hi {
            if starts(j, delim, hi) { return j }
            j += 1
        }
        return nil
    }

    private static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || c.properties.numericType != nil || c == "_"
    }

    private static let escapable = Set("\\*_~`|[]()<>#@:-.".unicodeScalars)

    private mutating func parse(_ lo: Int, _ hi: Int, _ f: Format?) {
        var i = lo
        while i < hi {
            let c = s[i]
            let prevIsWord = i > lo && Self.isWordScalar(s[i - 1])
            switch c {
            case "\\" where i + 1 < hi && Self.escapable.contains(s[i + 1]):
                emitPlain(s[i + 1], f)
                i += 2
                continue
            case "`":
                var n = 0
                while i + n < hi, s[i + n] == "`", n < 3 { n += 1 }
                let fence = String(repeating: "`", count: n)
                if let j = find(fence, from: i + n - 1, hi), j > i + n {
                    var code = string(i + n, j)
                    if n == 3, let nl = code.firstIndex(of: "\n") {
                        let first = code[..<nl]
                        if first.isEmpty || !first.contains(" ") { code = String(code[code.index(after: nl)...]) }
                    }
                    if n == 3, code.hasSuffix("\n") { code.removeLast() }
                    emit(code, .snippet)
                    i = j + n
                    continue
                }
                emitPlain(c, f)
                i += 1
                continue
            case "|" where starts(i, "||", hi):
                if let j = find("||", from: i + 1, hi), j > i + 2 {
                    parse(i + 2, j, .secret)
                    i = j + 2
                    continue
                }
            case "*" where starts(i, "**", hi):
                if var j = find("**", from: i + 1, hi), j > i + 2 {
                    while j + 2 < hi, s[j + 2] == "*" { j += 1 }
                    parse(i + 2, j, .bold)
                    i = j + 2
                    continue
                }
            case "_" where starts(i, "__", hi):
                if let j = find("__", from: i + 1, hi), j > i + 2 {
                    parse(i + 2, j, .underline)
                    i = j + 2
                    continue
                }
            case "~" where starts(i, "~~", hi):
                if let j = find("~~", from: i + 1, hi), j > i + 2 {
                    parse(i + 2, j, .strikeThrough)
                    i = j + 2
                    continue
                }
            case "*", "_":
                let opensWord = i + 1 < hi && !s[i + 1].properties.isWhitespace && (c == "*" || !prevIsWord)
                if opensWord, let j = closingEmphasis(c, from: i + 1, hi) {
                    parse(i + 1, j, .italic)
                    i = j + 1
                    continue
                }
            case "[":
                if let (label, url, end) = link(at: i, hi) {
                    emit(label, .hyperLink(showText: label, linkUri: url))
                    i = end
                    continue
                }
            case "h" where !prevIsWord && (starts(i, "https://", hi) || starts(i, "http://", hi)):
                let end = urlEnd(from: i, hi)
                emit(string(i, end), .uri)
                i = end
                continue
            case "<":
                if let end = token(at: i, hi, f) {
                    i = end
                    continue
                }
            case "@" where !prevIsWord:
                if let end = mention(at: i, hi) {
                    i = end
                    continue
                }
            default: break
            }
            emitPlain(c, f)
            i += 1
        }
    }

    private func closingEmphasis(_ c: Unicode.Scalar, from: Int, _ hi: Int) -> Int? {
        var j = from + 1
        while j < hi {
            if s[j] == c, !s[j - 1].properties.isWhitespace {
                let nextIsWord = j + 1 < hi && Self.isWordScalar(s[j + 1])
                let doubled = j + 1 < hi && s[j + 1] == c
                if !doubled && (c == "*" || !nextIsWord) { return j }
            }
            j += 1
        }
        return nil
    }

    private func urlEnd(from i: Int, _ hi: Int) -> Int {
        var j = i
        while j < hi, !s[j].properties.isWhitespace, s[j] != "<", s[j] != ">" { j += 1 }
        while j > i, ".,:;!?)\"'*_~|".unicodeScalars.contains(s[j - 1]) {
            // Keep a closing parenthesis that balances one in the URL.
            if s[j - 1] == ")", s[i..<j].filter({ $0 == "(" }).count >= s[i..<j].filter({ $0 == ")" }).count { break }
            j -= 1
        }
        return j
    }

    private func link(at i: Int, _ hi: Int) -> (String, String, Int)? {
        guard let close = find("](", from: i, hi) else { return nil }
        guard let paren = find(")", from: close + 1, hi) else { return nil }
        let url = string(close + 2, paren)
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), !url.contains(" ") else { return nil }
        return (string(i + 1, close), url, paren + 1)
    }

    /// `<@id>`, `<@!id>`, `<@&role>`, `<#id>`, `<:name:id>`, `<a:name:id>`, `<t:unix[:f]>`, `<https://…>`.
    private mutating func token(at i: Int, _ hi: Int, _ f: Format?) -> Int? {
        guard let close = find(">", from: i, hi) else { return nil }
        let body = string(i + 1, close)
        guard !body.contains(" "), !body.contains("\n") else { return nil }
        let end = close + 1
        func digits(_ x: Substring) -> Bool { !x.isEmpty && x.allSatisfy { $0.isASCII && $0.isNumber } }
        if body.hasPrefix("http://") || body.hasPrefix("https://") {
            emit(body, .uri)
            return end
        }
        if body.hasPrefix("@&"), digits(body.dropFirst(2)) {
            emit("@role", f)
            return end
        }
        if body.hasPrefix("@") {
            let id = body.hasPrefix("@!") ? body.dropFirst(2) : body.dropFirst()
            guard digits(id) else { return nil }
            let user = users.first { $0.id == id }
            let name = user?.names.first ?? String(id)
            emit("@" + name, .mention(memberName: name))
            mentions[name] = MentionTarget(memberSourceId: String(id))
            return end
        }
        if body.hasPrefix("#"), digits(body.dropFirst()) {
            emit("#" + body.dropFirst(), f)
            return end
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].isEmpty || parts[0] == "a", digits(parts[2]) {
            emit(":" + parts[1] + ":", f)
            return end
        }
        if parts.count >= 2, parts[0] == "t", let unix = Int64(parts[1]) {
            emit(Timestamp(seconds: unix).rfc3339, f)
            return end
        }
        return nil
    }

    private mutating func mention(at i: Int, _ hi: Int) -> Int? {
        for (name, user) in names where i + 1 + name.count <= hi {
            guard Array(s[(i + 1)..<(i + 1 + name.count)]) == name else { continue }
            let after = i + 1 + name.count
            if after < hi, Self.isWordScalar(s[after]) { continue }
            let text = string(i + 1, after)
            emit("@" + text, .mention(memberName: text))
            mentions[text] = MentionTarget(memberSourceId: user.id)
            return after
        }
        return nil
    }
}
