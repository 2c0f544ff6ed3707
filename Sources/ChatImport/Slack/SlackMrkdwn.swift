import ChatModel

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
                styled(SlackEmoji.replacingShortcodes(plain), into: &out)
                plain = []
                token(String(chars[(i + 1)..<close]), into: &out, directory: directory)
                i = close + 1
                continue
            }
            plain.append(chars[i])
            i += 1
        }
        styled(SlackEmoji.replacingShortcodes(plain), into: &out)
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
