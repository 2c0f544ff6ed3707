import ChatModel

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

    /// The emoji's characters from Slack's `unicode` hex (`1f44d-1f3fb`), else from the short-name
    /// table, else `:name:`.
    static func emoji(name: String, unicode: String?) -> String {
        if let unicode, !unicode.isEmpty {
            var s = String.UnicodeScalarView()
            for part in unicode.split(separator: "-") {
                guard let v = UInt32(part, radix: 16), let u = Unicode.Scalar(v) else { return ":\(name):" }
                s.append(u)
            }
            return String(s)
        }
        return SlackEmoji.emoji(named: name) ?? ":\(name):"
    }
}
