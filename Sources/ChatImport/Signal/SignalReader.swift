import ChatModel

/// Reads one Signal `main.jsonl`, line by line (memory is bounded by the recipients and
/// chats, not by the messages), and sends its chats, members and items to the sink.
struct SignalReader {
    struct OpenChat {
        var sourceId: String
        var kind: SignalRecipients.Kind
    }

    let container: any ExportContainer
    let entry: String
    let sink: any ImportSink
    let file: String
    let files: SignalFileLocator
    var recipients = SignalRecipients()
    /// Chats by their file-local id.
    var chats: [String: OpenChat] = [:]
    var emittedChats: Set<String> = []
    var emittedMembers: [String: Set<String>] = [:]
    /// Item keys of the last few thousand items (chat, key): the same author and sent time
    /// twice in a row gets a `#2` suffix rather than overwriting the first.
    var recentKeys: Set<String> = []
    var recentOrder: [String] = []
    var recentNext = 0
    /// Sent times of later revisions of edited messages → the message's key, so that quotes
    /// of an edited version find the message.
    var revisionAliases: [String: String] = [:]
    var backupTime: Int64?
    /// The recipients are all read (the first chat frame came).
    var settled = false
    var clock = ItemClock()

    init(container: any ExportContainer, entry: String, sink: any ImportSink, entryNames: [String]) {
        self.container = container
        self.entry = entry
        self.sink = sink
        file = container.displayName(of: entry)
        files = SignalFileLocator(mainEntry: entry, entries: entryNames)
    }

    mutating func read() throws {
        var lines = LineReader(try container.open(entry))
        var sawHeader = false
        var sinceProgress: Int64 = 0
        while let line = try lines.next() {
            let location = SourceLocation(file: file, line: line.number, byteOffset: line.offset)
            var bytes = line.bytes
            if line.number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            if line.isTruncated {
                try sink.report(.skipped(location, "line longer than \(lines.maxLineBytes >> 20) MiB; skipped"))
                continue
            }
            let value: JSONValue
            do throws(JSONSyntaxError) {
                value = try JSONParser.parse(bytes)
            } catch {
                if !sawHeader {
                    try sink.report(
                        .fatal(location, "not a Signal export: the first line is not JSON (\(error.message))"))
                    return
                }
                try sink.report(.skipped(location, "line is not valid JSON: \(error.message); skipped"))
                continue
            }
            if !sawHeader {
                guard value["version"] != nil, value["backupTimeMs"] != nil else {
                    try sink.report(
                        .fatal(location, "not a Signal export: the first line has no version and backupTimeMs"))
                    return
                }
                sawHeader = true
                backupTime = JSONField.int(value["backupTimeMs"])
                continue
            }
            guard case .object(let members) = value, let (kind, frame) = members.first else {
                try sink.report(.skipped(location, "line is not a JSON object; skipped"))
                continue
            }
            switch kind {
            case "account":
                let given = frame["givenName"]?.stringValue ?? ""
                let family = frame["familyName"]?.stringValue ?? ""
                recipients.ownName = [given, family].filter { !$0.isEmpty }.joined(separator: " ")
            case "recipient":
                if let problem = recipients.add(frame) { try sink.report(.skipped(location, problem + "; skipped")) }
            case "chat":
                if !settled {
                    recipients.settle()
                    settled = true
                }
                try openChat(frame, location: location)
            case "chatItem":
                try item(frame, value: value, bytes: bytes, location: location)
            default:
                continue  // Sticker packs, call links, notification profiles, folders, and frames to come.
            }
            if lines.bytesRead - sinceProgress > 4 << 20 {
                sinceProgress = lines.bytesRead
                sink.progress(bytesRead: lines.bytesRead, totalBytes: container.size(of: entry))
            }
        }
        if !sawHeader { try sink.report(.fatal(SourceLocation(file: file), "empty file: not a Signal export")) }
    }

    // MARK: Chats and members

    private mutating func openChat(_ frame: JSONValue, location: SourceLocation) throws {
        guard let id = JSONField.idString(frame["id"]), let recipientId = JSONField.idString(frame["recipientId"])
        else {
            try sink.report(.skipped(location, "chat without an id or recipient; skipped"))
            return
        }
        guard let r = recipients[recipientId] else {
            try sink.report(
                .skipped(location, "chat \(id) names recipient \(recipientId), which the file does not hold; skipped"))
            return
        }
        let type: ChatType
        switch r.kind {
        case .contact, .releaseNotes: type = .direct
        case .group: type = .group
        case .me: type = .local
        case .other: return  // Distribution lists and call links hold no messages.
        }
        let sourceId = "signal:" + r.key
        chats[id] = OpenChat(sourceId: sourceId, kind: r.kind)
        guard emittedChats.insert(sourceId).inserted else { return }
        // Muted until a time after the export ("9223372036854775807": for ever).
        let isMuted = JSONField.int(frame["muteUntilMs"]).map { $0 > (backupTime ?? 0) } ?? false
        let name = r.kind == .me ? "Note to Self" : recipients.name(of: r)
        try sink.emit(
            .chat(
                Chat(
                    sourceId: sourceId, type: type, displayName: name, notifications: isMuted ? .none : .all,
                    isMarkedUnread: frame["markedUnread"]?.boolValue ?? false, source: SignalImporter.formatName)))
        try member(key: SignalRecipients.selfKey, name: recipients.ownShownName, isUser: true, chat: sourceId)
        if r.kind == .contact || r.kind == .releaseNotes {
            try member(key: r.key, name: r.name, isUser: false, chat: sourceId)
        }
        for aci in r.memberAcis {
            let person = recipients.person(aci: aci)
            try member(key: person.key, name: person.name, isUser: person.isUser, chat: sourceId)
        }
    }

    private mutating func member(key: String, name: String, isUser: Bool, chat: String) throws {
        guard emittedMembers[chat, default: []].insert(key).inserted else { return }
        try sink.emit(.member(Member(chatSourceId: chat, sourceId: key, displayName: name, isUser: isUser)))
    }

    // MARK: Items

    /// Emits one chat item frame as an item of its chat, with its author as a member.
    private mutating func item(_ frame: JSONValue, value: JSONValue, bytes: ArraySlice<UInt8>, location: SourceLocation)
        throws
    {
        guard let chatId = JSONField.idString(frame["chatId"]), let chat = chats[chatId] else {
            let id = JSONField.idString(frame["chatId"]) ?? "(none)"
            try sink.report(.skipped(location, "chat item of chat \(id), which the file does not hold; skipped"))
            return
        }
        let author = try itemAuthor(frame, location: location)
        let revisions = frame["revisions"]?.arrayValue ?? []
        let (timestamp, isTimeUnknown, key) = try itemTimeAndKey(
            frame, revisions: revisions, authorKey: author.key, chat: chat.sourceId, location: location)

        // Direction and read state.
        let incoming = frame["incoming"]
        let outgoing = frame["outgoing"]
        var direction: ItemDirection =
            incoming != nil
            ? .rcv : outgoing != nil ? .snd : frame["directionless"] != nil ? .event : author.isMe ? .snd : .rcv
        let isUnread = incoming.map { !($0["read"]?.boolValue ?? false) } ?? false
        let status = outgoing.flatMap { Self.status($0) }

        let body = try itemBody(frame, chat: chat.sourceId, authorName: author.name, location: location)
        if body.isEvent { direction = .event }

        if author.key != "unknown" {
            try member(key: author.key, name: author.name, isUser: author.isMe, chat: chat.sourceId)
        }
        let raw = try rawText(value, bytes: bytes, location: location)
        let item = Item(
            chatSourceId: chat.sourceId, sourceId: key, timestamp: timestamp, direction: direction,
            memberSourceId: author.key == "unknown" ? nil : author.key,
            senderName: author.key == "unknown" ? nil : author.name,
            content: body.content, markup: body.markup, mentions: body.mentions, quote: body.quote,
            file: body.fileRefs.first, reactions: Self.counted(body.reactions), isEdited: !revisions.isEmpty,
            isDeleted: body.isDeleted, isUnread: isUnread, isPinned: frame["pinDetails"] != nil, status: status,
            raw: raw, isTimeUnknown: isTimeUnknown, moreFiles: Array(body.fileRefs.dropFirst()))
        try sink.emit(.item(item))
    }

    /// The author of a chat item, or an unknown sender (with a warning) when it has none the file knows.
    private func itemAuthor(_ frame: JSONValue, location: SourceLocation) throws -> (
        key: String, name: String, isMe: Bool
    ) {
        if let authorId = JSONField.idString(frame["authorId"]), let r = recipients[authorId] {
            return (r.key, recipients.name(of: r), r.kind == .me)
        }
        try sink.report(.warning(location, "chat item without a known author; kept as from an unknown sender"))
        return ("unknown", "Unknown", false)
    }

    /// The time and key of a chat item, noting its revisions' keys as aliases of that key.
    private mutating func itemTimeAndKey(
        _ frame: JSONValue, revisions: [JSONValue], authorKey: String, chat: String, location: SourceLocation
    ) throws -> (timestamp: Timestamp, isTimeUnknown: Bool, key: String) {
        // Time and key: the author and the sent time of the first version (an edit neither
        // moves a message nor changes its identity).
        let sentTimes = ([frame] + revisions).compactMap { JSONField.int($0["dateSent"]).flatMap { $0 > 0 ? $0 : nil } }
        let sent =
            sentTimes.min() ?? JSONField.int(frame["incoming"]?["dateReceived"])
            ?? JSONField.int(frame["outgoing"]?["dateReceived"])
        let (timestamp, isTimeUnknown) = try clock.time(
            sent.map { Timestamp(milliseconds: $0) }, start: Timestamp(milliseconds: backupTime ?? 0),
            location: location, sink: sink, warning: "chat item without a sent time; it takes the previous item's time")
        let firstSent = timestamp.milliseconds
        var key = authorKey + ":" + String(firstSent)
        key = try uniqueKey(key, chat: chat, location: location, isEvent: frame["updateMessage"] != nil)
        for sent in sentTimes where sent != firstSent {
            revisionAliases[chat + "\u{1}" + authorKey + ":" + String(sent)] = key
        }
        return (timestamp, isTimeUnknown, key)
    }

    /// The content of a chat item, by the kind of message it holds.
    private func itemBody(_ frame: JSONValue, chat: String, authorName: String, location: SourceLocation) throws
        -> SignalItemBody
    {
        var body = SignalItemBody()
        if let m = frame["standardMessage"] {
            body = try standardBody(m, chat: chat, location: location)
        } else if let m = frame["stickerMessage"] {
            body.content.type = .image
            body.content.text = m["sticker"]?["emoji"]?.stringValue ?? ""
            if var f = files.file(m["sticker"]?["data"]) {
                if f.name.hasPrefix("attachment") { f.name = "sticker" + f.name.dropFirst("attachment".count) }
                body.fileRefs = [f]
            }
            body.reactions = m["reactions"]?.arrayValue ?? []
        } else if let m = frame["contactMessage"] {
            body.content.text = Self.contactText(m["contact"])
            body.reactions = m["reactions"]?.arrayValue ?? []
        } else if frame["remoteDeletedMessage"] != nil {
            body.isDeleted = true
        } else if let m = frame["viewOnceMessage"] {
            body.content.text = "View-once media"
            body.reactions = m["reactions"]?.arrayValue ?? []
        } else if let m = frame["directStoryReplyMessage"] {
            if let emoji = m["emoji"]?.stringValue {
                body.content.text = "Reacted \(emoji) to a story"
            } else {
                let reply = m["textReply"]
                body.setText(
                    bodyText(
                        reply?["text"]?["body"]?.stringValue ?? "",
                        ranges: reply?["text"]?["bodyRanges"]?.arrayValue ?? []))
            }
            body.reactions = m["reactions"]?.arrayValue ?? []
        } else if let m = frame["poll"] {
            body.content.text = Self.pollText(m)
            body.reactions = m["reactions"]?.arrayValue ?? []
        } else if let event = eventBody(frame, authorName: authorName) {
            body = event
        } else {
            let kind = Self.itemKind(frame) ?? "unknown"
            body.content.type = .unknown
            body.content.text = "Unsupported Signal message (\(kind))"
            try sink.report(
                .warning(location, "chat item of a kind this version does not know (\(kind)); kept without its content")
            )
        }
        return body
    }

    /// The content of a standard message: its text, attachments, link preview, quote and reactions.
    private func standardBody(_ m: JSONValue, chat: String, location: SourceLocation) throws -> SignalItemBody {
        var body = SignalItemBody()
        var text = m["text"]?["body"]?.stringValue ?? ""
        if let long = files.file(m["longText"]), let full = try longText(long, location: location) { text = full }
        body.setText(bodyText(text, ranges: m["text"]?["bodyRanges"]?.arrayValue ?? []))
        let attachments = m["attachments"]?.arrayValue ?? []
        body.fileRefs = attachments.compactMap { files.file($0["pointer"]) }
        if let first = attachments.first { body.content.type = SignalFileLocator.contentType(of: first) }
        if let p = m["linkPreview"]?.arrayValue?.first {
            body.content.preview = LinkPreview(
                uri: p["url"]?.stringValue ?? "", title: p["title"]?.stringValue ?? "",
                description: p["description"]?.stringValue ?? "")
            if attachments.isEmpty { body.content.type = .link }
        }
        body.quote = quote(m["quote"], chat: chat)
        body.reactions = m["reactions"]?.arrayValue ?? []
        return body
    }

    /// The content of an event item (a chat update, a payment, a gift badge), or nil for any other kind.
    private func eventBody(_ frame: JSONValue, authorName: String) -> SignalItemBody? {
        var body = SignalItemBody()
        body.isEvent = true
        body.content.type = .event
        if let m = frame["updateMessage"] {
            let directory = recipients
            body.content.text = SignalEventText.update(m, author: authorName) { aci in
                SignalRecipients.uuid(aci).map { directory.person(aci: $0).name }
            }
        } else if let m = frame["paymentNotification"] {
            let amount = m["amountMob"]?.stringValue.map { " of \($0) MOB" } ?? ""
            let note = m["note"]?.stringValue.map { ": " + $0 } ?? ""
            body.content.text = "Payment\(amount)\(note)"
        } else if frame["giftBadge"] != nil {
            body.content.text = "\(authorName) sent a gift badge"
        } else {
            return nil
        }
        return body
    }

    /// `key`, or `key#2`, `key#3`… when a recent item of the chat already has it.
    private mutating func uniqueKey(_ key: String, chat: String, location: SourceLocation, isEvent: Bool) throws
        -> String
    {
        var candidate = key
        var n = 1
        while recentKeys.contains(chat + "\u{1}" + candidate) {
            n += 1
            candidate = key + "#" + String(n)
        }
        if n > 1, !isEvent {
            try sink.report(
                .warning(location, "a second message from the same author at the same time; kept as \(candidate)"))
        }
        let full = chat + "\u{1}" + candidate
        recentKeys.insert(full)
        if recentOrder.count < 4096 {
            recentOrder.append(full)
        } else {
            recentKeys.remove(recentOrder[recentNext])
            recentOrder[recentNext] = full
            recentNext = (recentNext + 1) % recentOrder.count
        }
        return candidate
    }

    private func bodyText(_ body: String, ranges: [JSONValue]) -> SignalBodyText {
        let directory = recipients
        return SignalBodyText(body: body, ranges: ranges) { directory.person(aci: $0) }
    }

    /// The full text of a long message, from its `.txt` attachment when the export holds it.
    private func longText(_ file: FileRef, location: SourceLocation) throws -> String? {
        guard let path = file.path, container.entryNames.contains(path) else { return nil }
        do {
            let bytes = try container.readAll(path, limit: 4 << 20)
            return String(decoding: bytes, as: UTF8.self)
        } catch {
            try sink.report(
                .warning(location, "long text \(path) unreadable (\(error)); the message keeps its first part"))
            return nil
        }
    }

    private func quote(_ q: JSONValue?, chat: String) -> Quote? {
        guard let q else { return nil }
        var text = q["text"]?["body"]?.stringValue ?? ""
        if text.isEmpty {
            text = (q["attachments"]?.arrayValue ?? []).compactMap {
                $0["fileName"]?.stringValue ?? $0["contentType"]?.stringValue
            }
            .joined(separator: ", ")
        }
        var target: String?
        if let sent = JSONField.int(q["targetSentTimestamp"]), let authorId = JSONField.idString(q["authorId"]),
            let author = recipients[authorId]
        {
            let key = author.key + ":" + String(sent)
            target = revisionAliases[chat + "\u{1}" + key] ?? key
        }
        return Quote(itemSourceId: target, text: text)
    }

    /// The best delivery state among the recipients of a sent message.
    static func status(_ outgoing: JSONValue) -> ItemStatus? {
        var best: ItemStatus?
        func rank(_ s: ItemStatus?) -> Int {
            switch s {
            case .read?: 4
            case .delivered?: 3
            case .sent?: 2
            case .error?: 1
            case nil: 0
            }
        }
        for s in outgoing["sendStatus"]?.arrayValue ?? [] {
            let state: ItemStatus? =
                s["read"] != nil || s["viewed"] != nil
                ? .read
                : s["delivered"] != nil
                    ? .delivered
                    : s["sent"] != nil
                        ? .sent
                        : s["failed"] != nil ? .error : nil
            if rank(state) > rank(best) { best = state }
        }
        return best
    }

    /// Reactions counted by emoji, in the order Signal shows them.
    static func counted(_ reactions: [JSONValue]) -> [Reaction] {
        let ordered = reactions.enumerated().sorted {
            let a = JSONField.int($0.element["sortOrder"]) ?? 0
            let b = JSONField.int($1.element["sortOrder"]) ?? 0
            return a != b ? a < b : $0.offset < $1.offset
        }
        var out: [Reaction] = []
        for (_, r) in ordered {
            guard let emoji = r["emoji"]?.stringValue, !emoji.isEmpty else { continue }
            if let i = out.firstIndex(where: { $0.emoji == emoji }) {
                out[i].count += 1
            } else {
                out.append(Reaction(emoji: emoji, count: 1))
            }
        }
        return out
    }

    static func contactText(_ c: JSONValue?) -> String {
        let name = c?["name"]
        let full = [name?["givenName"]?.stringValue, name?["familyName"]?.stringValue].compactMap { $0 }.filter {
            !$0.isEmpty
        }
        .joined(separator: " ")
        var lines = ["Contact: " + (full.isEmpty ? name?["nickname"]?.stringValue ?? "" : full)]
        for phone in c?["number"]?.arrayValue ?? [] { if let v = phone["value"]?.stringValue { lines.append(v) } }
        for email in c?["email"]?.arrayValue ?? [] { if let v = email["value"]?.stringValue { lines.append(v) } }
        if let org = c?["organization"]?.stringValue, !org.isEmpty { lines.append(org) }
        return lines.joined(separator: "\n")
    }

    static func pollText(_ p: JSONValue) -> String {
        var lines = ["Poll: " + (p["question"]?.stringValue ?? "")]
        for option in p["options"]?.arrayValue ?? [] {
            let votes = (option["votes"]?.arrayValue ?? []).count
            lines.append("• " + (option["option"]?.stringValue ?? "") + " (\(votes) vote\(votes == 1 ? "" : "s"))")
        }
        return lines.joined(separator: "\n")
    }

    static let knownFields: Set<String> = [
        "chatId", "authorId", "dateSent", "expireStartDate", "expiresInMs", "revisions", "sms", "incoming", "outgoing",
        "directionless", "pinDetails",
    ]

    /// The name of an item's content member when none of the known ones is present.
    static func itemKind(_ frame: JSONValue) -> String? {
        guard case .object(let members) = frame else { return nil }
        return members.map(\.0).first { !knownFields.contains($0) }
    }

    /// The line as read, or re-serialised without its secrets when it holds any.
    private func rawText(_ value: JSONValue, bytes: ArraySlice<UInt8>, location: SourceLocation) throws -> String {
        if SignalSecrets.contains(value) { return SignalSecrets.stripped(value).jsonText }
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        try sink.report(.warning(location, "chat item contains invalid UTF-8, read as U+FFFD"))
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What a Signal chat item holds besides its author, time and key.
private struct SignalItemBody {
    var content = MessageContent(type: .text, text: "")
    var markup: Markup = .plain
    var mentions: [String: MentionTarget] = [:]
    var fileRefs: [FileRef] = []
    var quote: Quote?
    var reactions: [JSONValue] = []
    var isDeleted = false
    /// Whether the item is an event whatever its direction.
    var isEvent = false

    /// Takes the text, mentions and (when formatted or mentioning) the markup of `text`.
    mutating func setText(_ text: SignalBodyText) {
        content.text = text.text
        mentions = text.mentions
        if text.isFormatted || !mentions.isEmpty { markup = .formatted(text.pieces) }
    }
}
