import ChatModel

/// Names Slack ids resolve to: users (members) and conversations.
struct SlackDirectory {
    struct User {
        var id: String
        var name: String
        var realName: String
    }

    var users: [String: User] = [:]
    var channelNames: [String: String] = [:]
    /// User ids that are the archive's owner (from ``ImportOptions/ownerName``).
    var ownerIds: Set<String> = []

    func userName(_ id: String) -> String? { users[id]?.name }
}

/// Formatted pieces being assembled, with the mentions they contain.
struct SlackRichText: Equatable {
    var pieces: [FormattedText] = []
    var mentions: [String: MentionTarget] = [:]

    /// The text a reader sees.
    var text: String { pieces.map(\.shownText).joined() }

    /// Appends text; adjacent pieces of the same format merge.
    mutating func append(_ text: String, _ format: Format? = nil) {
        guard !text.isEmpty else { return }
        if let last = pieces.last, last.format == format, format == nil || SlackRichText.mergeable(format) {
            pieces[pieces.count - 1].text += text
        } else {
            pieces.append(FormattedText(text, format))
        }
    }

    private static func mergeable(_ format: Format?) -> Bool {
        switch format {
        case .bold?, .italic?, .strikeThrough?, .snippet?: return true
        default: return false
        }
    }

    /// Appends another text's pieces and mentions.
    mutating func append(contentsOf other: SlackRichText) {
        for piece in other.pieces {
            if piece.format == nil || SlackRichText.mergeable(piece.format) {
                append(piece.text, piece.format)
            } else {
                pieces.append(piece)
            }
        }
        mentions.merge(other.mentions) { first, _ in first }
    }

    /// Appends a mention of a user: `@Name`, with a mentions entry keyed by the name.
    mutating func appendMention(userId: String, directory: SlackDirectory, label: String? = nil) {
        let name = directory.userName(userId) ?? label.flatMap { $0.isEmpty ? nil : $0 } ?? userId
        pieces.append(FormattedText("@" + name, .mention(memberName: name)))
        mentions[name] = MentionTarget(memberSourceId: userId, isUserMention: directory.ownerIds.contains(userId))
    }

    /// Whether the text so far ends a line (or is empty).
    var atLineStart: Bool {
        guard let last = pieces.last(where: { !$0.shownText.isEmpty }) else { return true }
        return last.shownText.hasSuffix("\n")
    }
}

/// Slack's `mrkdwn` message text (the SlackFormat article of ChatImport's documentation): `<…>` tokens first, then `&amp; &lt; &gt;`,
/// then `*bold*`, `_italic_`, `~strike~`, `` `code` `` and ```` ``` ```` blocks.
enum SlackMrkdwn {
    /// Parses `text` into formatted pieces, resolving ids through `directory`.
    static func parse(_ text: String, directory: SlackDirectory) -> SlackRichText {
        var out = SlackRichText()
        let chars = Array(text)
        var plain: [Character] = []
        var i = 0
        while i < chars.count {
            if chars[i] == "<", let close = chars[(i + 1)...].firstIndex(of: ">"),
                !chars[(i + 1)..<close].contains("<"), close > i + 1
            {
                styled(plain, into: &out)
                plain = []
                token(String(chars[(i + 1)..<close]), into: &out, directory: directory)
                i = close + 1
                continue
            }
            plain.append(chars[i])
            i += 1
        }
        styled(plain, into: &out)
        return out
    }

    /// One `<…>` token.
    private static func token(_ body: String, into out: inout SlackRichText, directory: SlackDirectory) {
        let (head, label) = splitLabel(body)
        if head.hasPrefix("@") {
            out.appendMention(userId: String(head.dropFirst()), directory: directory, label: label.map(unescape))
        } else if head.hasPrefix("#") {
            let id = String(head.dropFirst())
            out.append("#" + (directory.channelNames[id] ?? label.map(unescape) ?? id))
        } else if head.hasPrefix("!") {
            let command = String(head.dropFirst())
            switch command {
            case "here", "channel", "everyone": out.append("@" + command)
            default:
                if command.hasPrefix("subteam^") {
                    out.append(label.map(unescape) ?? "@" + command.dropFirst("subteam^".count))
                } else {
                    out.append(label.map(unescape) ?? command)
                }
            }
        } else {
            let url = unescape(head)
            if let label, !label.isEmpty {
                let shown = unescape(label)
                out.append(shown, .hyperLink(showText: shown, linkUri: url))
            } else {
                out.append(url, .uri)
            }
        }
    }

    private static func splitLabel(_ body: String) -> (String, String?) {
        guard let bar = body.firstIndex(of: "|") else { return (body, nil) }
        return (String(body[..<bar]), String(body[body.index(after: bar)...]))
    }

    /// `&lt;` `&gt;` `&amp;` in one pass (so `&amp;lt;` stays `&lt;`).
    static func unescape(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            rest = rest[amp...]
            if rest.hasPrefix("&amp;") {
                out += "&"
                rest = rest.dropFirst(5)
            } else if rest.hasPrefix("&lt;") {
                out += "<"
                rest = rest.dropFirst(4)
            } else if rest.hasPrefix("&gt;") {
                out += ">"
                rest = rest.dropFirst(4)
            } else {
                out += "&"
                rest = rest.dropFirst()
            }
        }
        return out + rest
    }

    private static func isWordChar(_ c: Character) -> Bool { c.isLetter || c.isNumber }

    /// Style markers in a plain run: a marker opens after a non-word character and before a
    /// non-space, and closes before a non-word character after a non-space, on one line.
    private static func styled(_ chars: [Character], into out: inout SlackRichText) {
        var literal = ""
        func flush() {
            out.append(unescape(literal))
            literal = ""
        }
        var i = 0
        let n = chars.count
        while i < n {
            let c = chars[i]
            if c == "`", i + 2 < n, chars[i + 1] == "`", chars[i + 2] == "`" {
                var j = i + 3
                var found: Int?
                while j + 2 < n {
                    if chars[j] == "`", chars[j + 1] == "`", chars[j + 2] == "`" {
                        found = j
                        break
                    }
                    j += 1
                }
                if let found, found > i + 3 {
                    flush()
                    var content = String(chars[(i + 3)..<found])
                    if content.hasPrefix("\n") { content.removeFirst() }
                    out.append(unescape(content), .snippet)
                    i = found + 3
                    continue
                }
            }
            let format: Format?
            switch c {
            case "*": format = .bold
            case "_": format = .italic
            case "~": format = .strikeThrough
            case "`": format = .snippet
            default: format = nil
            }
            if let format, i == 0 || !isWordChar(chars[i - 1]), i + 1 < n, !chars[i + 1].isWhitespace {
                var j = i + 1
                var close: Int?
                while j < n, chars[j] != "\n" {
                    if chars[j] == c, j > i + 1, !chars[j - 1].isWhitespace, j + 1 == n || !isWordChar(chars[j + 1]) {
                        close = j
                        break
                    }
                    j += 1
                }
                if let close {
                    flush()
                    out.append(unescape(String(chars[(i + 1)..<close])), format)
                    i = close + 1
                    continue
                }
            }
            literal.append(c)
            i += 1
        }
        flush()
    }
}

/// Slack's blocks: `rich_text` (sections, lists, preformatted, quotes), and the layout blocks
/// bots post (`section` with its text and fields, `header`, `context`).
enum SlackBlocks {
    /// Renders the blocks that show text; `nil` when none does.
    static func render(_ blocks: JSONValue?, directory: SlackDirectory) -> SlackRichText? {
        guard let blocks = blocks?.arrayValue else { return nil }
        var out = SlackRichText()
        for block in blocks {
            switch block["type"]?.stringValue {
            case "rich_text":
                if !out.atLineStart { out.append("\n") }
                for element in block["elements"]?.arrayValue ?? [] {
                    renderElement(element, into: &out, directory: directory)
                }
            case "section", "header":
                let texts = [block["text"]] + (block["fields"]?.arrayValue ?? []).map { Optional($0) }
                for t in texts { appendLine(textObject(t, directory: directory), to: &out) }
            case "context":
                for e in block["elements"]?.arrayValue ?? [] {
                    appendLine(textObject(e, directory: directory), to: &out)
                }
            default:
                continue
            }
        }
        guard out.pieces.contains(where: { !$0.shownText.isEmpty }) else { return nil }
        // Block elements end with a line break; the message does not.
        while let last = out.pieces.last, last.format == nil, last.text.hasSuffix("\n") {
            out.pieces[out.pieces.count - 1].text.removeLast()
            if out.pieces[out.pieces.count - 1].text.isEmpty { out.pieces.removeLast() }
        }
        return out
    }

    /// A layout block's text object: `mrkdwn` parsed, `plain_text` as written.
    private static func textObject(_ t: JSONValue?, directory: SlackDirectory) -> SlackRichText {
        guard let text = t?["text"]?.stringValue else { return SlackRichText() }
        if t?["type"]?.stringValue == "mrkdwn" { return SlackMrkdwn.parse(text, directory: directory) }
        var out = SlackRichText()
        out.append(text)
        return out
    }

    private static func appendLine(_ line: SlackRichText, to out: inout SlackRichText) {
        guard !line.text.isEmpty else { return }
        if !out.atLineStart { out.append("\n") }
        out.append(contentsOf: line)
    }

    private static func renderElement(_ element: JSONValue, into out: inout SlackRichText, directory: SlackDirectory) {
        let children = element["elements"]?.arrayValue ?? []
        switch element["type"]?.stringValue {
        case "rich_text_section":
            for leaf in children { renderLeaf(leaf, into: &out, directory: directory, code: false) }
        case "rich_text_list":
            if !out.atLineStart { out.append("\n") }
            let ordered = element["style"]?.stringValue == "ordered"
            let offset = SlackBlocks.smallInt(element["offset"]) ?? 0
            let indent = String(repeating: "  ", count: max(0, min(8, SlackBlocks.smallInt(element["indent"]) ?? 0)))
            for (k, item) in children.enumerated() {
                if k > 0 { out.append("\n") }
                out.append(indent + (ordered ? "\(offset + k + 1). " : "• "))
                for leaf in item["elements"]?.arrayValue ?? [] {
                    renderLeaf(leaf, into: &out, directory: directory, code: false)
                }
            }
            out.append("\n")
        case "rich_text_preformatted":
            if !out.atLineStart { out.append("\n") }
            var code = SlackRichText()
            for leaf in children { renderLeaf(leaf, into: &code, directory: directory, code: true) }
            out.append(code.text, .snippet)
            out.append("\n")
        case "rich_text_quote":
            if !out.atLineStart { out.append("\n") }
            for leaf in children { renderLeaf(leaf, into: &out, directory: directory, code: false) }
            if !out.atLineStart { out.append("\n") }
        default:
            for leaf in children { renderLeaf(leaf, into: &out, directory: directory, code: false) }
        }
    }

    private static func renderLeaf(
        _ leaf: JSONValue, into out: inout SlackRichText, directory: SlackDirectory, code: Bool
    ) {
        switch leaf["type"]?.stringValue {
        case "text":
            let text = leaf["text"]?.stringValue ?? ""
            let style = leaf["style"]
            var format: Format?
            if !code {
                if style?["code"]?.boolValue == true {
                    format = .snippet
                } else if style?["bold"]?.boolValue == true {
                    format = .bold
                } else if style?["italic"]?.boolValue == true {
                    format = .italic
                } else if style?["strike"]?.boolValue == true {
                    format = .strikeThrough
                }
            }
            out.append(text, format)
        case "user":
            if let id = leaf["user_id"]?.stringValue { out.appendMention(userId: id, directory: directory) }
        case "usergroup":
            out.append("@" + (leaf["usergroup_id"]?.stringValue ?? "group"))
        case "channel":
            let id = leaf["channel_id"]?.stringValue ?? ""
            out.append("#" + (directory.channelNames[id] ?? id))
        case "link":
            let url = leaf["url"]?.stringValue ?? ""
            if let text = leaf["text"]?.stringValue, !text.isEmpty, !code {
                out.append(text, .hyperLink(showText: text, linkUri: url))
            } else {
                out.append(url, code ? nil : .uri)
            }
        case "emoji":
            out.append(emoji(name: leaf["name"]?.stringValue ?? "", unicode: leaf["unicode"]?.stringValue))
        case "broadcast":
            out.append("@" + (leaf["range"]?.stringValue ?? "here"))
        case "date":
            out.append(leaf["fallback"]?.stringValue ?? leaf["text"]?.stringValue ?? "")
        case "color":
            out.append(leaf["value"]?.stringValue ?? "")
        default:
            out.append(leaf["text"]?.stringValue ?? "")
        }
    }

    /// A JSON number as an `Int` when it is one of modest size (never traps on 1e300 or NaN).
    static func smallInt(_ v: JSONValue?) -> Int? {
        guard let d = v?.numberValue, d.isFinite, abs(d) < 1e9 else { return nil }
        return Int(d)
    }

    /// The emoji's characters from Slack's `unicode` hex (`1f44d-1f3fb`), else `:name:`.
    static func emoji(name: String, unicode: String?) -> String {
        if let unicode, !unicode.isEmpty {
            var s = String.UnicodeScalarView()
            for part in unicode.split(separator: "-") {
                guard let v = UInt32(part, radix: 16), let u = Unicode.Scalar(v) else { return ":\(name):" }
                s.append(u)
            }
            return String(s)
        }
        return ":\(name):"
    }
}
