import ChatModel

/// Reads Telegram Desktop's JSON export (`result.json`): one chat, or a whole account.
package struct TelegramImporter: Sendable {
    /// The format's name as `--format` takes it.
    package static let formatName = "telegram"

    /// The arrays whose elements are messages.
    package static let messagePaths = ["messages[*]", "chats.list[*].messages[*]", "left_chats.list[*].messages[*]"]

    /// Makes an importer; options come with each source.
    package init() {}

    /// Whether the start of a JSON file looks like a Telegram export.
    package static func recognises(prefix: [UInt8]) -> Bool {
        let s = String(decoding: prefix, as: UTF8.self)
        guard s.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) == "{", !s.contains("\"guild\"") else {
            return false
        }
        if s.contains("\"personal_information\"") { return true }
        let types = ["personal_chat", "bot_chat", "saved_messages", "replies", "_group", "_supergroup", "_channel"]
        return s.contains("\"messages\"") && types.contains { s.contains($0 + "\"") }
    }

    /// Reads one Telegram JSON entry of `container`.
    ///
    /// Bad messages are reported to `sink` and skipped; a syntax error or truncation stops the
    /// file after the complete messages, reported with its offset.
    package func read(
        _ container: any ExportContainer, entry: String, into sink: any ImportSink, options: ImportOptions
    )
        throws
    {
        let stream = try container.open(entry)
        var file = TelegramFileReader(
            file: container.displayName(of: entry), sink: sink, zone: try WallClockZone(options.timeZoneIdentifier))
        try file.run(JSONStreamReader(stream, elementPaths: Self.messagePaths))
    }
}

/// The state of one Telegram file being read.
struct TelegramFileReader {
    /// One chat object being streamed.
    struct ChatState {
        var path: String
        var name: String?
        var hasName = false
        var type: String?
        var id: String?
        var sourceId = ""
        var emittedName: String?
        var isEmitted = false
        var memberNames: [String: String] = [:]
        var seen = SeenIDs()
        var pending: [(bytes: [UInt8], at: JSONStreamReader.Location)] = []
        var clock = ItemClock()
        /// The owner, known from `personal_information` or derived in a personal chat.
        var ownerID: String?
        var ownerEmitted = false
    }

    let file: String
    let sink: any ImportSink
    let zone: WallClockZone
    var ownerID: String?
    var ownerName = ""
    var chat: ChatState?
    var duplicates = 0
    static let reportedDuplicates = 20

    init(file: String, sink: any ImportSink, zone: WallClockZone) {
        self.file = file
        self.sink = sink
        self.zone = zone
    }

    func location(_ at: JSONStreamReader.Location) -> SourceLocation {
        SourceLocation(file: file, line: at.line, byteOffset: at.offset)
    }

    mutating func run(_ reader: JSONStreamReader) throws {
        var sinceProgress: Int64 = 0
        do {
            while let event = try reader.next() {
                switch event {
                case .enter(let path, let isObject, _):
                    if isObject, path.isEmpty || path == "chats.list[*]" || path == "left_chats.list[*]" {
                        chat = ChatState(path: path, ownerID: ownerID)
                    }
                case .exit(let path, _):
                    if let c = chat, c.path == path {
                        try finishChat()
                        chat = nil
                    }
                case .value(let path, let key, let bytes, let at):
                    try value(path: path, key: key, bytes: bytes, at: at)
                case .element(_, _, let bytes, let at):
                    if chat?.isEmitted == true {
                        try message(bytes, at: at)
                    } else if chat != nil {
                        chat?.pending.append((bytes, at))
                    }
                    if reader.bytesRead - sinceProgress > 4 << 20 {
                        sinceProgress = reader.bytesRead
                        sink.progress(bytesRead: reader.bytesRead, totalBytes: reader.totalBytes)
                    }
                }
            }
        } catch let e as JSONStreamError {
            // File level: keep what was complete, say where it broke.
            if chat != nil { try finishChat() }
            try reportDuplicateSummary()
            try sink.report(.fatal(SourceLocation(file: file, line: e.line, byteOffset: e.offset), e.message))
            return
        }
        try reportDuplicateSummary()
        sink.progress(bytesRead: reader.bytesRead, totalBytes: reader.totalBytes)
    }

    private mutating func reportDuplicateSummary() throws {
        if duplicates > Self.reportedDuplicates {
            try sink.report(
                .warning(
                    SourceLocation(file: file),
                    "\(duplicates - Self.reportedDuplicates) more messages repeated an id already read; the first copies were kept"
                ))
        }
        duplicates = 0
    }

    private mutating func value(path: String, key: String?, bytes: [UInt8], at: JSONStreamReader.Location) throws {
        if path == "personal_information" {
            guard let v = try? JSONParser.parse(bytes) else {
                try sink.report(.warning(location(at), "personal_information is not valid JSON; the owner is unknown"))
                return
            }
            if let uid = JSONField.idString(v["user_id"]) { ownerID = uid.hasPrefix("user") ? uid : "user" + uid }
            ownerName = [v["first_name"]?.stringValue, v["last_name"]?.stringValue].compactMap { $0 }
                .filter { !$0.isEmpty }.joined(separator: " ")
            return
        }
        guard var c = chat, let key, key == "name" || key == "type" || key == "id" else { return }
        guard path == (c.path.isEmpty ? key : c.path + "." + key) else { return }
        let v: JSONValue
        do { v = try JSONParser.parse(bytes) } catch {
            try sink.report(.warning(location(at), "the chat's \(key) is not valid JSON: \(error.message)"))
            return
        }
        switch key {
        case "name":
            c.name = v.stringValue
            c.hasName = true
        case "type": c.type = v.stringValue
        default: c.id = JSONField.idString(v)
        }
        chat = c
        if !c.isEmitted, c.type != nil, c.id != nil, c.hasName || c.type == "saved_messages" { try emitChat() }
    }

    // MARK: Chats

    private static func family(of type: String) -> String {
        switch type {
        case "personal_chat", "bot_chat", "saved_messages", "replies", "verification_codes": "user"
        case "private_group", "private_supergroup", "public_supergroup": "group"
        case "private_channel", "public_channel": "channel"
        default: "chat"
        }
    }

    private static func chatType(of type: String?) -> ChatType {
        switch type {
        case "personal_chat"?, "bot_chat"?: .direct
        case "saved_messages"?: .local
        default: .group
        }
    }

    private mutating func emitChat() throws {
        guard var c = chat, let id = c.id else { return }
        let type = c.type ?? "unknown"
        let chatType = Self.chatType(of: type)
        let name = c.name ?? (type == "saved_messages" ? "Saved Messages" : c.hasName ? "Deleted Account" : "")
        c.sourceId = "telegram:\(Self.family(of: type)):\(id)"
        try sink.emit(.chat(Chat(sourceId: c.sourceId, type: chatType, displayName: name, source: "telegram")))
        c.isEmitted = true
        c.emittedName = name
        if chatType == .direct {
            // The peer of a personal chat is the user whose id is the chat's id.
            let peer = id.hasPrefix("user") ? id : "user" + id
            try sink.emit(.member(Member(chatSourceId: c.sourceId, sourceId: peer, displayName: name)))
            c.memberNames[peer] = name
        }
        let pending = c.pending
        c.pending = []
        chat = c
        try emitOwnerIfKnown()
        for p in pending { try message(p.bytes, at: p.at) }
    }

    private mutating func emitOwnerIfKnown() throws {
        guard var c = chat, c.isEmitted, !c.ownerEmitted, let owner = c.ownerID else { return }
        let name = c.memberNames[owner] ?? (ownerName.isEmpty ? "Me" : ownerName)
        try sink.emit(.member(Member(chatSourceId: c.sourceId, sourceId: owner, displayName: name, isUser: true)))
        c.ownerEmitted = true
        c.memberNames[owner] = name
        chat = c
    }

    private mutating func finishChat() throws {
        guard let c = chat else { return }
        if !c.isEmitted {
            if c.id == nil {
                if !c.pending.isEmpty {
                    try sink.report(
                        .skipped(
                            location(c.pending[0].at),
                            "a chat without an id; its \(c.pending.count) messages were skipped",
                            count: c.pending.count))
                }
                return
            }
            try emitChat()
        } else if let name = c.name, name != c.emittedName {
            // The name came after the messages: send the chat again with it.
            try sink.emit(
                .chat(
                    Chat(sourceId: c.sourceId, type: Self.chatType(of: c.type), displayName: name, source: "telegram")))
        }
    }

    // MARK: Messages

    private static func memberID(_ v: JSONValue?, chat: ChatState) -> String? {
        switch v {
        case .string(let s)?: return s.isEmpty ? nil : s
        case .number?:
            // Before 2021 ids were bare integers; a channel signs its posts with its own id.
            guard let n = JSONField.int(v) else { return nil }
            let family = chat.type.map(family(of:))
            return family == "channel" && String(n) == chat.id ? "channel\(n)" : "user\(n)"
        default: return nil
        }
    }

    private static func isPlaceholder(_ s: String) -> Bool {
        s.hasPrefix("(") && s.hasSuffix(")") && (s.contains("File") || s.contains("Photo")) && !s.contains("/")
    }

    /// A media path relative to the export's root, or `nil` (reported) when it would leave it.
    private func exportPath(_ path: String, id: Int64, at: JSONStreamReader.Location) throws -> String? {
        if let safe = JSONField.relativePath(path) { return safe }
        try sink.report(
            .warning(location(at), "message \(id): file path \"\(path)\" leaves the export folder; path dropped"))
        return nil
    }

    /// Reads one message of the current chat: its time, sender, content, reply, edit and
    /// reactions, emitted as an item (after its sender, when the sender is new or renamed).
    private mutating func message(_ bytes: [UInt8], at: JSONStreamReader.Location) throws {
        // Take the chat out while working on it, so that its id set and names are not copied.
        guard var c = chat else { return }
        chat = nil
        defer { chat = c }
        guard let parsed = try parsedMessage(bytes, at: at, chat: &c) else { return }
        let (m, id, text) = parsed
        let time = try self.time(of: m, id: id, at: at, chat: &c)
        let isService = m["type"]?.stringValue == "service"
        let sender = try self.sender(of: m, isService: isService, chat: &c)
        let direction: ItemDirection =
            isService ? .event : (c.type == "saved_messages" || (sender != nil && sender == c.ownerID)) ? .snd : .rcv
        let (content, pieces, file) = try self.content(of: m, text: text, isService: isService, id: id, at: at)
        let raw = try rawText(bytes, id: id, at: at)
        let item = Item(
            chatSourceId: c.sourceId, sourceId: String(id), timestamp: time.timestamp, direction: direction,
            memberSourceId: sender, content: content,
            markup: pieces.isFormatted ? .formatted(pieces.pieces) : .plain,
            mentions: pieces.mentions, quote: Self.quote(of: m), file: file, reactions: Self.reactions(of: m),
            isEdited: Self.isEdited(m), raw: raw, isFloating: time.wallClock != nil, wallClock: time.wallClock,
            isTimeUnknown: time.isTimeUnknown)
        try sink.emit(.item(item))
    }

    /// Parses a message and its text, or reports why it is skipped (not JSON, not an object,
    /// no id, a text of the wrong shape, an id already seen in this chat) and returns nil.
    private mutating func parsedMessage(
        _ bytes: [UInt8], at: JSONStreamReader.Location, chat c: inout ChatState
    ) throws -> (JSONValue, Int64, TelegramText)? {
        let m: JSONValue
        do { m = try JSONParser.parse(bytes) } catch {
            try sink.report(.skipped(location(at), "message is not valid JSON: \(error.message); skipped"))
            return nil
        }
        guard case .object = m else {
            try sink.report(.skipped(location(at), "message is not an object; skipped"))
            return nil
        }
        guard let id = JSONField.int(m["id"]) else {
            try sink.report(.skipped(location(at), "message without an id; skipped"))
            return nil
        }
        let text: TelegramText
        do { text = try TelegramText(message: m, ownerID: c.ownerID) } catch {
            guard case .wrongShape(let why) = error else { return nil }
            try sink.report(.skipped(location(at), "message \(id): \(why); skipped"))
            return nil
        }
        guard c.seen.insert(id) else {
            duplicates += 1
            if duplicates <= Self.reportedDuplicates {
                try sink.report(
                    .warning(location(at), "message \(id) appears again in this chat; the first copy was kept"))
            }
            return nil
        }
        return (m, id, text)
    }

    /// The message's time: its Unix time, else its wall-clock date placed in the chosen zone
    /// (floating), else the previous message's time (reported); remembered as the chat's last.
    private func time(
        of m: JSONValue, id: Int64, at: JSONStreamReader.Location, chat c: inout ChatState
    ) throws -> (timestamp: Timestamp, wallClock: String?, isTimeUnknown: Bool) {
        var read: Timestamp?
        var wallClock: String?
        if let unix = JSONField.int(m["date_unixtime"]) {
            read = Timestamp(seconds: unix)
        } else if let date = m["date"]?.stringValue, let wall = Timestamp.parse(date) {
            // Only the exporting PC's wall clock: floating, placed in the chosen zone.
            read = zone.instant(ofWallClock: wall)
            wallClock = String(wall.rfc3339.prefix(19))
        }
        let (timestamp, isTimeUnknown) = try c.clock.time(
            read, location: location(at), sink: sink,
            warning: "message \(id) has no readable date; it takes the previous message's time")
        return (timestamp, wallClock, isTimeUnknown)
    }

    /// The message's sender (a service message's actor), emitted as a member when new or
    /// renamed; in a personal chat, the first sender who is not the peer becomes the owner.
    private func sender(of m: JSONValue, isService: Bool, chat c: inout ChatState) throws -> String? {
        let senderKey = isService && m["actor_id"] != nil ? "actor" : "from"
        let sender = Self.memberID(m[senderKey + "_id"], chat: c)
        // A personal chat's owner is whoever is not the peer.
        if c.ownerID == nil, c.type == "personal_chat" || c.type == "bot_chat", let sender, let id = c.id,
            sender != (id.hasPrefix("user") ? id : "user" + id)
        {
            c.ownerID = sender
        }
        if let sender {
            let given = m[senderKey]?.stringValue
            let known = c.memberNames[sender]
            if known == nil || (given != nil && given != known) {
                let name = given ?? known ?? "Deleted Account"
                c.memberNames[sender] = name
                try sink.emit(
                    .member(
                        Member(
                            chatSourceId: c.sourceId, sourceId: sender, displayName: name, isUser: sender == c.ownerID))
                )
                if sender == c.ownerID { c.ownerEmitted = true }
            }
        }
        return sender
    }

    /// The message's content type, its text pieces (a service message's text made from its
    /// action) and its attachment.
    private func content(
        of m: JSONValue, text: TelegramText, isService: Bool, id: Int64, at: JSONStreamReader.Location
    ) throws -> (MessageContent, TelegramText, FileRef?) {
        var content = MessageContent(type: .text, text: "")
        var pieces = text
        var file: FileRef?
        if isService {
            content.type = .event
            pieces = TelegramText()
            pieces.append(TelegramServiceText.text(of: m), nil)
        } else if m["type"]?.stringValue == "unsupported" {
            content.type = .unknown
        }
        if !isService {
            file = try media(of: m, id: id, at: at, content: &content)
            Self.appendAttachedText(of: m, to: &pieces)
        }
        content.text = pieces.plainText
        return (content, pieces, file)
    }

    /// The photo or file of a message, setting the content type (and a video's or voice
    /// message's duration); nil when the export left the file out without a name.
    private func media(
        of m: JSONValue, id: Int64, at: JSONStreamReader.Location, content: inout MessageContent
    ) throws -> FileRef? {
        var file: FileRef?
        if let photo = m["photo"]?.stringValue {
            content.type = .image
            let name = Self.isPlaceholder(photo) ? "" : JSONField.lastPathComponent(photo)
            if !name.isEmpty {
                file = FileRef(
                    name: name, size: JSONField.int(m["photo_file_size"]),
                    path: try exportPath(photo, id: id, at: at))
            }
        } else if let path = m["file"]?.stringValue {
            switch m["media_type"]?.stringValue {
            case "video_file"?, "animation"?, "video_message"?: content.type = .video
            case "voice_message"?: content.type = .voice
            default: content.type = .file
            }
            var name = m["file_name"]?.stringValue ?? ""
            let exported = !Self.isPlaceholder(path)
            if name.isEmpty, exported { name = JSONField.lastPathComponent(path) }
            if !name.isEmpty {
                file = FileRef(
                    name: name, size: JSONField.int(m["file_size"]),
                    path: exported ? try exportPath(path, id: id, at: at) : nil)
            }
            if content.type == .video || content.type == .voice {
                content.duration = JSONField.int(m["duration_seconds"]).map { Int($0) }
            }
        }
        return file
    }

    /// Appends the text of a poll, a shared contact and a shared place, each as a block.
    private static func appendAttachedText(of m: JSONValue, to pieces: inout TelegramText) {
        if let poll = m["poll"] {
            var lines = [poll["question"]?.stringValue ?? ""]
            for a in poll["answers"]?.arrayValue ?? [] {
                if let t = a["text"]?.stringValue { lines.append("- " + t) }
            }
            pieces.appendBlock(lines.filter { !$0.isEmpty }.joined(separator: "\n"))
        }
        if let contact = m["contact_information"] {
            let parts = ["first_name", "last_name", "phone_number"].compactMap { contact[$0]?.stringValue }.filter {
                !$0.isEmpty
            }
            pieces.appendBlock(parts.joined(separator: " "))
        }
        if let place = m["location_information"] {
            var parts = [m["place_name"]?.stringValue, m["address"]?.stringValue].compactMap { $0 }.filter {
                !$0.isEmpty
            }
            if let lat = place["latitude"], let lon = place["longitude"], let a = JSONField.scalarText(lat),
                let b = JSONField.scalarText(lon)
            {
                parts.append("\(a), \(b)")
            }
            pieces.appendBlock(parts.joined(separator: "\n"))
        }
    }

    /// The message the message replies to, when it is in the same chat.
    private static func quote(of m: JSONValue) -> Quote? {
        guard let reply = JSONField.int(m["reply_to_message_id"]) else { return nil }
        return Quote(itemSourceId: m["reply_to_peer_id"] == nil ? String(reply) : nil, text: "")
    }

    /// Whether the message was edited.
    private static func isEdited(_ m: JSONValue) -> Bool {
        var isEdited = m["edited_unixtime"] != nil
        if !isEdited, let edited = m["edited"]?.stringValue, let wall = Timestamp.parse(edited) {
            // Old exports write the epoch in local time for "not edited".
            isEdited = abs(wall.milliseconds) > 14 * 3600 * 1000
        }
        return isEdited
    }

    /// The message's reactions: an emoji and a count. A custom emoji (a sticker the export names
    /// by its file or document id) shows as ``customEmojiPlaceholder``, never as its path.
    private static func reactions(of m: JSONValue) -> [Reaction] {
        var reactions: [Reaction] = []
        for r in m["reactions"]?.arrayValue ?? [] {
            let isCustom = r["emoji"]?.stringValue == nil && r["document_id"].flatMap(JSONField.scalarText) != nil
            let emoji = r["emoji"]?.stringValue ?? (isCustom ? customEmojiPlaceholder : "")
            if !emoji.isEmpty { reactions.append(Reaction(emoji: emoji, count: Int(JSONField.int(r["count"]) ?? 1))) }
        }
        return reactions
    }

    /// What a custom-emoji reaction shows: a dotted circle, the usual stand-in for a missing glyph.
    static let customEmojiPlaceholder = "\u{25CC}"

    /// The message's bytes as text, kept raw; invalid UTF-8 is read as U+FFFD and reported.
    private func rawText(_ bytes: [UInt8], id: Int64, at: JSONStreamReader.Location) throws -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        try sink.report(.warning(location(at), "message \(id) contains invalid UTF-8, read as U+FFFD"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
