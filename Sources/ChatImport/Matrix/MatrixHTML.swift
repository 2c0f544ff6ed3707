import ChatModel
import Foundation

/// Reads a Matrix `formatted_body` (the spec's HTML subset, `format: org.matrix.custom.html`)
/// into display text and formatted pieces.
///
/// The HTML is data: it is tokenised by hand, never handed to a renderer, and nothing in it is
/// followed or run. Element's reply fallback (`<mx-reply>…</mx-reply>`) and the content of
/// `script`, `style`, `head` and `template` are dropped; `<br>` and block elements become line
/// breaks; whitespace collapses as a browser shows it (kept inside `<pre>`); entities are
/// decoded. `strong`/`b`, `em`/`i`, `del`/`s`/`strike`, `u`, `code`/`pre`, headings and
/// `data-mx-spoiler` map to formats; `a href` to a link, or to a mention when it points at a
/// user (`https://matrix.to/#/@user:server`, `matrix:u/user:server`). Links with other schemes
/// than `http`, `https`, `mailto` and `matrix` keep their text only.
struct MatrixHTML {
    /// Resolves a user id to the name a mention shows, when the link has no text.
    let nameOf: (String) -> String?
    /// The archive owner's user id (mentions of it are mentions of the user).
    let ownerID: String?

    private var out = MatrixRichText()
    private var scalars: [Unicode.Scalar] = []
    private var i = 0
    /// Open elements (lowercase names) with the format each contributes.
    private var open: [(name: String, format: Format?)] = []
    private var preDepth = 0
    /// The open link: its target and the text read inside it so far.
    private var link: (href: String, text: String)?
    private var listCounters: [Int?] = []

    init(nameOf: @escaping (String) -> String?, ownerID: String?) {
        self.nameOf = nameOf
        self.ownerID = ownerID
    }

    private static let voidElements: Set<String> = [
        "br", "img", "hr", "input", "meta", "link", "wbr", "col", "area", "base", "embed", "source", "track", "param",
    ]
    private static let blockElements: Set<String> = [
        "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "ul", "ol", "li", "table", "tr", "hr",
        "details", "summary", "caption", "thead", "tbody", "dl", "dt", "dd",
    ]
    private static let droppedElements: Set<String> = [
        "mx-reply", "script", "style", "head", "template", "title", "noscript",
    ]

    /// Parses `html` into formatted pieces and the mentions they contain.
    static func parse(_ html: String, nameOf: @escaping (String) -> String?, ownerID: String?) -> MatrixRichText {
        var parser = MatrixHTML(nameOf: nameOf, ownerID: ownerID)
        parser.scalars = Array(html.unicodeScalars)
        parser.run()
        parser.out.trimEdges()
        return parser.out
    }

    private mutating func run() {
        var text = ""
        while i < scalars.count {
            let c = scalars[i]
            if c == "<", let tag = readTag() {
                addText(text)
                text = ""
                handle(tag)
                continue
            }
            if c == "&" {
                text += readEntity()
                continue
            }
            text.unicodeScalars.append(c)
            i += 1
        }
        addText(text)
        if let link { closeLink(link) }
    }

    // MARK: Tags

    private struct Tag {
        var name: String
        var isEnd: Bool
        var isSelfClosing: Bool
        var attributes: [String: String]
    }

    /// Reads a tag, comment or doctype at `i` (on `<`); nil (and `i` unchanged) when the `<`
    /// is a literal character.
    private mutating func readTag() -> Tag? {
        let start = i
        var j = i + 1
        guard j < scalars.count else { return nil }
        if scalars[j] == "!" || scalars[j] == "?" {
            // A comment or a declaration: skip it.
            if j + 2 < scalars.count, scalars[j + 1] == "-", scalars[j + 2] == "-" {
                var k = j + 3
                while k + 2 < scalars.count, !(scalars[k] == "-" && scalars[k + 1] == "-" && scalars[k + 2] == ">") {
                    k += 1
                }
                i = min(k + 3, scalars.count)
            } else {
                while j < scalars.count, scalars[j] != ">" { j += 1 }
                i = min(j + 1, scalars.count)
            }
            return Tag(name: "!", isEnd: false, isSelfClosing: true, attributes: [:])
        }
        var isEnd = false
        if scalars[j] == "/" {
            isEnd = true
            j += 1
        }
        guard j < scalars.count, Self.isASCIILetter(scalars[j]) else { return nil }
        var name = ""
        while j < scalars.count, Self.isNameScalar(scalars[j]) {
            name.unicodeScalars.append(Self.lower(scalars[j]))
            j += 1
        }
        var attributes: [String: String] = [:]
        var isSelfClosing = false
        while true {
            while j < scalars.count, Self.isSpace(scalars[j]) { j += 1 }
            guard j < scalars.count else {
                i = start
                return nil
            }
            if scalars[j] == ">" {
                j += 1
                break
            }
            if scalars[j] == "/" {
                isSelfClosing = true
                j += 1
                continue
            }
            var key = ""
            while j < scalars.count, !Self.isSpace(scalars[j]), scalars[j] != "=", scalars[j] != ">", scalars[j] != "/"
            {
                key.unicodeScalars.append(Self.lower(scalars[j]))
                j += 1
            }
            if key.isEmpty {
                j += 1
                continue
            }
            while j < scalars.count, Self.isSpace(scalars[j]) { j += 1 }
            var value = ""
            if j < scalars.count, scalars[j] == "=" {
                j += 1
                while j < scalars.count, Self.isSpace(scalars[j]) { j += 1 }
                if j < scalars.count, scalars[j] == "\"" || scalars[j] == "'" {
                    let quote = scalars[j]
                    j += 1
                    while j < scalars.count, scalars[j] != quote {
                        value.unicodeScalars.append(scalars[j])
                        j += 1
                    }
                    j += 1
                } else {
                    while j < scalars.count, !Self.isSpace(scalars[j]), scalars[j] != ">" {
                        value.unicodeScalars.append(scalars[j])
                        j += 1
                    }
                }
            }
            if attributes[key] == nil { attributes[key] = Self.decodeEntities(value) }
        }
        i = min(j, scalars.count)
        return Tag(name: name, isEnd: isEnd, isSelfClosing: isSelfClosing, attributes: attributes)
    }

    private mutating func handle(_ tag: Tag) {
        guard tag.name != "!" else { return }
        if !tag.isEnd, Self.droppedElements.contains(tag.name) {
            skipElement(tag.name)
            return
        }
        if tag.isEnd {
            close(tag.name)
            return
        }
        switch tag.name {
        case "br":
            lineBreak(force: true)
            return
        case "hr":
            lineBreak()
            return
        case "img":
            // Custom emoji and inline images: their alternative text.
            if let alt = tag.attributes["alt"] ?? tag.attributes["title"], !alt.isEmpty { addText(alt) }
            return
        default: break
        }
        if Self.voidElements.contains(tag.name) { return }
        if Self.blockElements.contains(tag.name) { lineBreak() }
        switch tag.name {
        case "ul": listCounters.append(nil)
        case "ol": listCounters.append(Int(tag.attributes["start"] ?? "") ?? 1)
        case "li":
            let marker: String
            if let last = listCounters.last, let n = last {
                marker = "\(n). "
                listCounters[listCounters.count - 1] = n + 1
            } else {
                marker = "• "
            }
            append(marker, nil)
        case "pre": preDepth += 1
        case "a":
            if link == nil, let href = tag.attributes["href"] {
                link = (href, "")
            }
        default: break
        }
        guard !tag.isSelfClosing else { return }
        open.append((tag.name, Self.format(of: tag)))
    }

    private static func format(of tag: Tag) -> Format? {
        switch tag.name {
        case "strong", "b", "h1", "h2", "h3", "h4", "h5", "h6": return .bold
        case "em", "i", "cite": return .italic
        case "del", "s", "strike": return .strikeThrough
        case "u", "ins": return .underline
        case "code", "pre", "kbd", "samp", "tt": return .snippet
        case "span", "font":
            return tag.attributes["data-mx-spoiler"] != nil ? .secret : nil
        default: return nil
        }
    }

    private mutating func close(_ name: String) {
        guard let k = open.lastIndex(where: { $0.name == name }) else { return }
        let closing = open[k...].map(\.name)
        open.removeSubrange(k...)
        for n in closing.reversed() {
            if n == "pre" { preDepth = max(0, preDepth - 1) }
            if n == "ul" || n == "ol", !listCounters.isEmpty { listCounters.removeLast() }
            if n == "a", let l = link {
                closeLink(l)
                link = nil
            }
            if Self.blockElements.contains(n) { lineBreak() }
        }
    }

    /// Skips an element and everything inside it (nested elements of the same name included).
    private mutating func skipElement(_ name: String) {
        var depth = 1
        while i < scalars.count {
            if scalars[i] == "<", let tag = readTag() {
                if tag.name == name, !tag.isSelfClosing {
                    depth += tag.isEnd ? -1 : 1
                    if depth == 0 { return }
                }
                continue
            }
            i += 1
        }
    }

    // MARK: Text

    private mutating func addText(_ text: String) {
        guard !text.isEmpty else { return }
        if preDepth > 0 {
            append(text, currentFormat)
            return
        }
        // Whitespace runs collapse to one space, none at the start of a line; the space keeps
        // the format of where it was written.
        var run = ""
        for u in text.unicodeScalars {
            if Self.isSpace(u) {
                if !run.isEmpty {
                    append(run, currentFormat)
                    run = ""
                }
                let afterSpace =
                    link.map { $0.text.isEmpty || $0.text.unicodeScalars.last == " " }
                    ?? (out.atLineStart || out.endsWithSpace)
                if !afterSpace { append(" ", currentFormat) }
            } else {
                run.unicodeScalars.append(u)
            }
        }
        if !run.isEmpty { append(run, currentFormat) }
    }

    private mutating func append(_ text: String, _ format: Format?) {
        if link != nil {
            link?.text += text
            return
        }
        out.append(text, format)
    }

    private mutating func lineBreak(force: Bool = false) {
        if link != nil {
            link?.text += force ? "\n" : " "
            return
        }
        out.dropTrailingSpace()
        if force || !out.atLineStart { out.append("\n", nil) }
    }

    /// The format of text at this point: the innermost format of the open elements.
    private var currentFormat: Format? {
        if preDepth > 0 { return .snippet }
        for e in open.reversed() { if let f = e.format { return f } }
        return nil
    }

    private mutating func closeLink(_ l: (href: String, text: String)) {
        let text = l.text.trimmingCharacters(in: .whitespaces)
        if let user = Self.userID(inLink: l.href) {
            var name = text.hasPrefix("@") ? String(text.dropFirst()) : text
            if name.isEmpty { name = nameOf(user) ?? MatrixExportReader.localpart(user) }
            out.appendMention(name: name, target: MentionTarget(memberSourceId: user, isUserMention: user == ownerID))
            return
        }
        guard Self.isSafeLink(l.href) else {
            out.append(text, currentFormat)
            return
        }
        if text.isEmpty || text == l.href {
            out.append(l.href, .uri)
        } else {
            out.append(text, .hyperLink(showText: text, linkUri: l.href))
        }
    }

    /// The user id a link points at: `https://matrix.to/#/@alice:example.org` (percent-encoded
    /// or not, with or without `?via=`) or `matrix:u/alice:example.org`.
    static func userID(inLink href: String) -> String? {
        let lower = href.lowercased()
        var rest: Substring
        if lower.hasPrefix("https://matrix.to/#/") {
            rest = href.dropFirst("https://matrix.to/#/".count)
        } else if lower.hasPrefix("matrix:u/") {
            rest = "@" + href.dropFirst("matrix:u/".count)
        } else {
            return nil
        }
        rest = rest.prefix { $0 != "?" }
        let id = percentDecoded(String(rest))
        guard id.hasPrefix("@"), id.contains(":"), id.count > 3 else { return nil }
        return id
    }

    /// Whether a link may be kept as a link (a scheme a viewer can safely open).
    static func isSafeLink(_ href: String) -> Bool {
        let lower = href.trimmingCharacters(in: .whitespaces).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("mailto:")
            || lower.hasPrefix("matrix:")
    }

    static func percentDecoded(_ s: String) -> String {
        guard s.contains("%") else { return s }
        var bytes: [UInt8] = []
        let u = Array(s.utf8)
        var k = 0
        while k < u.count {
            if u[k] == 0x25, k + 2 < u.count, let h = hex(u[k + 1]), let l = hex(u[k + 2]) {
                bytes.append(h << 4 | l)
                k += 3
            } else {
                bytes.append(u[k])
                k += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    // MARK: Entities

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "shy": "\u{00AD}",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "copy": "©", "reg": "®", "trade": "™", "euro": "€", "pound": "£", "yen": "¥", "middot": "·", "bull": "•",
        "laquo": "«", "raquo": "»", "times": "×", "divide": "÷", "deg": "°", "zwj": "\u{200D}", "zwnj": "\u{200C}",
        "lrm": "\u{200E}", "rlm": "\u{200F}",
    ]

    /// Reads an entity at `i` (on `&`); an unknown or unterminated one is a literal `&`.
    private mutating func readEntity() -> String {
        let (text, length) = Self.entity(in: scalars, at: i)
        i += length
        return text
    }

    private static func entity(in s: [Unicode.Scalar], at start: Int) -> (String, Int) {
        var j = start + 1
        var name = ""
        while j < s.count, j - start <= 32, s[j] != ";", isNameScalar(s[j]) || s[j] == "#" {
            name.unicodeScalars.append(s[j])
            j += 1
        }
        guard j < s.count, s[j] == ";", !name.isEmpty else { return ("&", 1) }
        let length = j - start + 1
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let v = value else { return ("&", 1) }
            // NUL, surrogates and out-of-range values read as U+FFFD, as browsers do.
            guard v != 0, let scalar = Unicode.Scalar(v) else { return ("\u{FFFD}", length) }
            return (String(Character(scalar)), length)
        }
        if let text = namedEntities[name] { return (text, length) }
        return ("&", 1)
    }

    /// Decodes the entities of an attribute value.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let s = Array(text.unicodeScalars)
        var out = ""
        var k = 0
        while k < s.count {
            if s[k] == "&" {
                let (t, n) = entity(in: s, at: k)
                out += t
                k += n
            } else {
                out.unicodeScalars.append(s[k])
                k += 1
            }
        }
        return out
    }

    // MARK: Scalars

    private static func isASCIILetter(_ u: Unicode.Scalar) -> Bool {
        (u.value >= 0x41 && u.value <= 0x5A) || (u.value >= 0x61 && u.value <= 0x7A)
    }

    private static func isNameScalar(_ u: Unicode.Scalar) -> Bool {
        isASCIILetter(u) || (u.value >= 0x30 && u.value <= 0x39) || u == "-" || u == "_" || u == ":"
    }

    private static func lower(_ u: Unicode.Scalar) -> Unicode.Scalar {
        u.value >= 0x41 && u.value <= 0x5A ? Unicode.Scalar(u.value + 0x20) ?? u : u
    }

    /// HTML's ASCII whitespace (never U+00A0, which is content).
    static func isSpace(_ u: Unicode.Scalar) -> Bool {
        u == " " || u == "\n" || u == "\t" || u == "\r" || u == "\u{0C}"
    }
}
