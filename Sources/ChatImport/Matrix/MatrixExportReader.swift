import ChatModel

/// Reads one Element `export.json` (or a JSON export file) in two streamed passes: a
/// ``MatrixSurvey``, then the chat, its members and one item per event.
struct MatrixExportReader {
    let container: any ExportContainer
    let entry: String
    let sink: any ImportSink
    let options: ImportOptions
    let file: String

    private var survey = MatrixSurvey()
    private var attachments: MatrixAttachments
    private var chatSourceId = ""
    private var ownerID: String?
    private var seen: Set<UInt64> = []
    private var quoteTexts: [String: String] = [:]
    private var clock = ItemClock()
    private var undecryptable = 0
    private var missingFiles = 0

    /// Longest quote text remembered for a reply, in characters.
    static let quoteLength = 280

    init(container: any ExportContainer, entry: String, sink: any ImportSink, options: ImportOptions) {
        self.container = container
        self.entry = entry
        self.sink = sink
        self.options = options
        file = container.displayName(of: entry)
        attachments = MatrixAttachments(container: container, exportEntry: entry)
    }

    mutating func read() throws {
        survey = try MatrixSurvey.read(container, entry: entry)
        guard survey.sawMessages || survey.roomName != nil else {
            try sink.report(
                .fatal(
                    SourceLocation(file: file), "no room_name or messages: not a Matrix (Element) JSON export; skipped")
            )
            return
        }
        try emitChatAndMembers()
        let reader = JSONStreamReader(try container.open(entry), elementPaths: ["messages[*]"])
        let total = reader.totalBytes
        var sinceProgress: Int64 = 0
        do {
            while let event = try reader.next() {
                guard case .element(_, _, let bytes, let at) = event else { continue }
                try self.event(bytes, location: SourceLocation(file: file, line: at.line, byteOffset: at.offset))
                if reader.bytesRead - sinceProgress > 4 << 20 {
                    sinceProgress = reader.bytesRead
                    sink.progress(bytesRead: reader.bytesRead, totalBytes: total)
                }
            }
        } catch let e as JSONStreamError {
            try sink.report(.fatal(SourceLocation(file: file, line: e.line, byteOffset: e.offset), e.message))
        }
        if undecryptable > 0 {
            try sink.report(
                .warning(
                    SourceLocation(file: file),
                    "\(undecryptable) encrypted event(s) could not be decrypted by the exporting client and are kept as "
                        + "placeholders; restore your key backup in Element (Settings → Security) and export again to read them"
                ))
        }
        if missingFiles > 0 {
            try sink.report(
                .warning(
                    SourceLocation(file: file),
                    "\(missingFiles) attachment(s) are not in the export (over its size limit or not downloaded); "
                        + "their items are kept without a file"))
        }
    }

    // MARK: Chat and members

    private func name(of user: String) -> String {
        if let n = survey.latestName[user] { return n }
        // `exported_by` is the owner's display name, unless it is the user id itself.
        if user == ownerID, let n = survey.exportedBy, !n.isEmpty, !n.hasPrefix("@") { return n }
        return Self.localpart(user)
    }

    private mutating func emitChatAndMembers() throws {
        let head = SourceLocation(file: file)
        if let room = survey.roomID {
            chatSourceId = "matrix:" + room
        } else {
            chatSourceId = "matrix:name:" + (survey.roomName ?? entry)
            if survey.eventCount > 0 {
                try sink.report(.warning(head, "the events carry no room_id; the chat is keyed by its name instead"))
            }
        }
        if survey.hasOtherRooms {
            try sink.report(
                .warning(head, "events of more than one room_id; all are kept in the chat of the first one"))
        }
        ownerID = findOwner()
        // The export does not say whether the room is a direct chat: an invitation marked
        // `is_direct` says so, or a whole export (from the room's creation) of two people or
        // fewer. A partial export proves nothing: it stays a group.
        let isDirect = survey.isDirect || (survey.hasCreateEvent && survey.memberOrder.count <= 2)
        let type: ChatType = isDirect ? .direct : .group
        let roomName = survey.roomName.flatMap { $0.isEmpty ? nil : $0 } ?? survey.roomID ?? "Matrix room"
        try sink.emit(.chat(Chat(sourceId: chatSourceId, type: type, displayName: roomName, source: "matrix")))
        // Members whose name this file does not tell (a partial export without their
        // membership events) are left to the items' sender names, so that an earlier import's
        // name for them stays.
        for user in survey.memberOrder where survey.latestName[user] != nil || user == ownerID {
            try sink.emit(
                .member(
                    Member(
                        chatSourceId: chatSourceId, sourceId: user, displayName: name(of: user), fullName: user,
                        isUser: user == ownerID)))
        }
    }

    /// The owner's user id: `ownerName` when given (an id or a name), else `exported_by`
    /// (a display name, or the id when the exporter had none), when exactly one member fits.
    private func findOwner() -> String? {
        guard let wanted = options.ownerName ?? survey.exportedBy, !wanted.isEmpty else { return nil }
        if survey.memberOrder.contains(wanted) { return wanted }
        let current = survey.memberOrder.filter { name(of: $0) == wanted }
        if current.count == 1 { return current.first }
        let ever = survey.memberOrder.filter { survey.allNames[$0]?.contains(wanted) == true }
        if ever.count == 1 { return ever.first }
        // A partial export holds no membership events, so no names: the localpart is the last resort.
        let lowered = wanted.lowercased()
        let local = survey.memberOrder.filter { Self.localpart($0).lowercased() == lowered }
        return local.count == 1 ? local.first : nil
    }

    /// `@alice:example.org` → `alice`.
    static func localpart(_ user: String) -> String {
        let local = user.hasPrefix("@") ? user.dropFirst() : Substring(user)
        return String(local.prefix { $0 != ":" })
    }

    // MARK: Events

    private mutating func event(_ bytes: [UInt8], location: SourceLocation) throws {
        let e: JSONValue
        do { e = try JSONParser.parse(bytes) } catch {
            try sink.report(.skipped(location, "event is not valid JSON: \(error.message); skipped"))
            return
        }
        guard case .object = e, let id = e["event_id"]?.stringValue, !id.isEmpty else {
            try sink.report(.skipped(location, "event without an event_id; skipped"))
            return
        }
        // Reactions, edits and redactions were applied to their targets by the survey.
        if survey.relationEvents.contains(id) { return }
        guard seen.insert(Self.hash(id)).inserted else {
            try sink.report(.warning(location, "event \(id) appears again in this file; the first copy was kept"))
            return
        }
        let type = e["type"]?.stringValue ?? ""
        let sender = e["sender"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }

        let (timestamp, isTimeUnknown) = try clock.time(
            JSONField.int(e["origin_server_ts"]).flatMap { $0 > 0 ? Timestamp(milliseconds: $0) : nil },
            location: location, sink: sink,
            warning: "event \(id) has no readable origin_server_ts; it takes the previous event's time")

        let unsigned = e["unsigned"]
        let isDeleted = unsigned?["redacted_because"] != nil || survey.redacted.contains(id)
        let original = e["content"] ?? .object([])
        var content = original
        var isEdited = false
        // The export applies the latest edit bundled by the server; another tool may leave
        // it bundled only, or write the edit as an event of its own. A redaction hides edits.
        if let bundled = unsigned?["m.relations"]?["m.replace"] {
            isEdited = true
            if !isDeleted, let new = bundled["content"]?["m.new_content"] {
                content = Self.replaced(content, with: new)
            }
        }
        let edits = survey.edits[id] ?? []
        if !isDeleted,
            let edit = sender.map({ s in edits.first { $0.sender == s } })
                ?? edits.max(by: { $0.timestamp < $1.timestamp })
        {
            let bundledTime = JSONField.int(unsigned?["m.relations"]?["m.replace"]?["origin_server_ts"]) ?? 0
            if edit.timestamp >= bundledTime { content = Self.replaced(content, with: edit.newContent) }
            isEdited = true
        }

        var item = Item(
            chatSourceId: chatSourceId, sourceId: id, timestamp: timestamp,
            direction: sender != nil && sender == ownerID ? .snd : .rcv,
            memberSourceId: sender, senderName: sender.map(name(of:)), content: MessageContent(type: .text, text: ""),
            markup: .plain, isEdited: isEdited,
            isDeleted: isDeleted, isTimeUnknown: isTimeUnknown)

        let isState = e["state_key"] != nil
        switch type {
        case _ where isState, "m.call.invite", "m.call.answer", "m.call.hangup", "m.call.reject":
            item.direction = .event
            item.content = MessageContent(
                type: .event, text: MatrixStateText.sentence(type: type, event: e, name: name(of:)))
        case "m.room.message", "m.sticker":
            message(content, type: type, sender: sender, timestamp: timestamp, into: &item)
        case "m.room.encrypted":
            undecryptable += 1
            item.content = MessageContent(type: .unknown, text: "Encrypted message that could not be decrypted")
        case "m.poll.start", "org.matrix.msc3381.poll.start":
            item.content = MessageContent(type: .text, text: Self.pollText(content))
        case "m.poll.end", "org.matrix.msc3381.poll.end":
            let actor = sender.map(name(of:)) ?? "Someone"
            item.direction = .event
            item.content = MessageContent(type: .event, text: Self.textField(content) ?? "\(actor) ended the poll")
        default:
            item.content = MessageContent(type: .unknown, text: Self.textField(content) ?? "")
        }

        // Replies and threads. In a thread, a reply marked `is_falling_back` only points at
        // the latest message for older clients: the thread's root is what it answers.
        let relates = original["m.relates_to"]
        let replyTo = relates?["m.in_reply_to"]?["event_id"]?.stringValue
        let root = relates?["rel_type"]?.stringValue == "m.thread" ? relates?["event_id"]?.stringValue : nil
        let isFallingBack = relates?["is_falling_back"]?.boolValue ?? false
        if let target = root.flatMap({ isFallingBack || replyTo == nil ? $0 : nil }) ?? replyTo {
            item.quote = Quote(itemSourceId: target, text: quoteTexts[target] ?? "")
        }
        if survey.quoted.contains(id) { quoteTexts[id] = String(item.content.text.prefix(Self.quoteLength)) }

        if let chunk = unsigned?["m.relations"]?["m.annotation"]?["chunk"]?.arrayValue {
            item.reactions = chunk.compactMap { r in
                guard let key = r["key"]?.stringValue, !key.isEmpty else { return nil }
                return Reaction(emoji: key, count: Int(JSONField.int(r["count"]) ?? 1))
            }
        } else {
            item.reactions = survey.reactions[id] ?? []
        }
        item.raw = try raw(bytes, value: e, id: id, location: location)
        try sink.emit(.item(item))
    }

    /// Fills a message's (`m.room.message`, `m.sticker`) content type, text and file.
    private mutating func message(
        _ content: JSONValue, type: String, sender: String?, timestamp: Timestamp, into item: inout Item
    ) {
        let msgtype = type == "m.sticker" ? "m.sticker" : content["msgtype"]?.stringValue ?? ""
        let body = content["body"]?.stringValue ?? ""
        let isReply = content["m.relates_to"]?["m.in_reply_to"] != nil
        switch msgtype {
        case "m.image", "m.video", "m.audio", "m.file", "m.sticker":
            let filename = content["filename"]?.stringValue ?? ""
            // A `filename` that differs from `body` makes `body` a caption.
            let hasCaption = !filename.isEmpty && filename != body
            let info = content["info"]
            let isVoice = content["org.matrix.msc3245.voice"] != nil || content["org.matrix.msc2516.voice"] != nil
            let folder: String
            switch msgtype {
            case "m.image": folder = "images"
            case "m.video": folder = "videos"
            case "m.audio": folder = "audio"
            case "m.sticker": folder = "stickers"
            default: folder = "files"
            }
            let forcedExtension = msgtype == "m.sticker" ? ".png" : isVoice ? ".ogg" : nil
            let path = attachments.match(
                folder: folder, body: body, forcedExtension: forcedExtension, timestamp: timestamp)
            if path == nil, attachments.hasMedia, !item.isDeleted { missingFiles += 1 }
            item.file = FileRef(name: hasCaption ? filename : body, size: JSONField.int(info?["size"]), path: path)
            let contentType: ContentType
            switch msgtype {
            case "m.image", "m.sticker": contentType = .image
            case "m.video": contentType = .video
            case "m.audio": contentType = isVoice ? .voice : .file
            default: contentType = .file
            }
            item.content.type = contentType
            if msgtype == "m.video" || msgtype == "m.audio", let ms = JSONField.int(info?["duration"]), ms >= 0 {
                item.content.duration = Int((ms + 500) / 1000)
            }
            if hasCaption { setText(content, body: body, isReply: isReply, into: &item) }
        case "m.bad.encrypted":
            undecryptable += 1
            item.content = MessageContent(type: .unknown, text: body)
        case "m.text", "m.notice", "m.emote", "m.location", "":
            setText(content, body: body, isReply: isReply, into: &item)
            if msgtype == "m.emote" {
                let prefix = "* " + (sender.map(name(of:)) ?? "Someone") + " "
                if case .formatted(let pieces) = item.markup {
                    item.markup = .formatted([FormattedText(prefix)] + pieces)
                }
                item.content.text = prefix + item.content.text
            }
        default:
            setText(content, body: body, isReply: isReply, into: &item)
            item.content.type = .unknown
        }
    }

    /// The display text: from `formatted_body` when it is Matrix HTML (with the reply
    /// fallback removed), else `body` (with its plain reply fallback removed). `body` is the
    /// Markdown source the sender typed when there is HTML, so only one of them is used.
    private func setText(_ content: JSONValue, body: String, isReply: Bool, into item: inout Item) {
        if content["format"]?.stringValue == "org.matrix.custom.html", let html = content["formatted_body"]?.stringValue
        {
            let rich = MatrixHTML.parse(html, nameOf: { survey.latestName[$0] }, ownerID: ownerID)
            if !rich.text.isEmpty || body.isEmpty {
                item.content.text = rich.text
                item.markup = rich.isFormatted ? .formatted(rich.pieces) : .plain
                item.mentions = rich.mentions
                return
            }
        }
        item.content.text = isReply ? MatrixReplyFallback.strip(body) : body
        item.markup = .plain
    }

    /// `content` replaced by an edit's `m.new_content`, keeping the original's relation.
    static func replaced(_ content: JSONValue, with new: JSONValue) -> JSONValue {
        guard case .object(var members) = new else { return content }
        members.removeAll { $0.0 == "m.relates_to" }
        if let relates = content["m.relates_to"] { members.append(("m.relates_to", relates)) }
        return .object(members)
    }

    /// A text field of extensible-event content: `body`, `org.matrix.msc1767.text`, or the
    /// first `m.text` representation.
    static func textField(_ content: JSONValue) -> String? {
        if let s = content["body"]?.stringValue, !s.isEmpty { return s }
        if let s = content["org.matrix.msc1767.text"]?.stringValue, !s.isEmpty { return s }
        for key in ["m.text", "org.matrix.msc1767.text"] {
            if let s = content[key]?.arrayValue?.first?["body"]?.stringValue, !s.isEmpty { return s }
        }
        return nil
    }

    /// A poll's question, then one line per answer (stable and MSC3381 shapes).
    static func pollText(_ content: JSONValue) -> String {
        let poll = content["m.poll"] ?? content["org.matrix.msc3381.poll.start"] ?? content["m.poll.start"]
        guard let poll else { return textField(content) ?? "" }
        var lines: [String] = []
        if let q = poll["question"].flatMap({ textField($0) }) { lines.append(q) }
        for a in poll["answers"]?.arrayValue ?? [] {
            if let t = textField(a) { lines.append("• " + t) }
        }
        return lines.isEmpty ? textField(content) ?? "" : lines.joined(separator: "\n")
    }

    // MARK: Raw record

    /// The event's JSON as read; without encrypted media keys (JWK objects under `key`), which
    /// are secrets and never stored.
    private func raw(_ bytes: [UInt8], value: JSONValue, id: String, location: SourceLocation) throws -> String {
        let marker = Array("\"kty\"".utf8)
        if bytes.count >= marker.count, Self.contains(bytes, marker) {
            return Self.withoutKeys(value).jsonText
        }
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        try sink.report(.warning(location, "event \(id) contains invalid UTF-8, read as U+FFFD"))
        return String(decoding: bytes, as: UTF8.self)
    }

    static func withoutKeys(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let members):
            return .object(
                members.compactMap { key, value in
                    if key == "key", value["kty"] != nil || value["k"] != nil { return nil }
                    return (key, withoutKeys(value))
                })
        case .array(let a): return .array(a.map(withoutKeys))
        default: return v
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// FNV-1a over the id's UTF-8 bytes: a stable 64-bit key for the duplicate check.
    private static func hash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
