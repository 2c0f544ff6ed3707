import ChatModel

/// Telegram's `text` / `text_entities` turned into formatted pieces and mentions.
struct TelegramText {
    var pieces: [FormattedText] = []
    var mentions: [String: MentionTarget] = [:]

    /// The text a reader sees: the pieces joined with no separator.
    var plainText: String { pieces.map(\.text).joined() }

    /// Whether any piece carries a format.
    var isFormatted: Bool { pieces.contains { $0.format != nil } }

    init() {}

    enum Failure: Error {
        case wrongShape(String)
    }

    /// Reads a message's text, preferring `text_entities`; `ownerID` marks mentions of the owner.
    init(message: JSONValue, ownerID: String?) throws(Failure) {
        if let entities = message["text_entities"]?.arrayValue {
            for e in entities {
                guard case .object = e else { throw .wrongShape("a text entity is not an object") }
                add(entity: e, ownerID: ownerID)
            }
            return
        }
        switch message["text"] {
        case nil, .null?: return
        case .string(let s)?: append(s, nil)
        case .array(let parts)?:
            for p in parts {
                switch p {
                case .string(let s): append(s, nil)
                case .object: add(entity: p, ownerID: ownerID)
                default: throw .wrongShape("a text part is neither a string nor an object")
                }
            }
        default: throw .wrongShape("text is neither a string nor an array")
        }
    }

    mutating func append(_ text: String, _ format: Format?) {
        guard !text.isEmpty else { return }
        if format == nil, let last = pieces.last, last.format == nil {
            pieces[pieces.count - 1].text += text
        } else {
            pieces.append(FormattedText(text, format))
        }
    }

    /// Appends a readable block (poll, contact, place) on its own line.
    mutating func appendBlock(_ text: String) {
        guard !text.isEmpty else { return }
        append(pieces.isEmpty ? text : "\n" + text, nil)
    }

    private mutating func add(entity e: JSONValue, ownerID: String?) {
        let text = e["text"]?.stringValue ?? ""
        let type = e["type"]?.stringValue ?? "plain"
        let format: Format?
        switch type {
        case "bold": format = .bold
        case "italic": format = .italic
        case "underline": format = .underline
        case "strikethrough": format = .strikeThrough
        case "code", "pre": format = .snippet
        case "spoiler": format = .secret
        case "text_link":
            format = .hyperLink(showText: text, linkUri: e["href"]?.stringValue ?? "")
        case "link": format = .uri
        case "email": format = .email
        case "phone": format = .phone
        case "mention":
            format = .mention(memberName: text.hasPrefix("@") ? String(text.dropFirst()) : text)
        case "mention_name":
            format = .mention(memberName: text)
            if let uid = JSONField.idString(e["user_id"]) {
                let member = uid.hasPrefix("user") ? uid : "user" + uid
                mentions[text] = MentionTarget(memberSourceId: member, isUserMention: member == ownerID)
            }
        case "hashtag": format = .hashtag
        case "bot_command": format = .command(text.hasPrefix("/") ? String(text.dropFirst()) : text)
        default: format = nil
        }
        append(text, format)
    }
}
