import ChatModel

/// Reads DiscordChatExporter's JSON: one file per channel, or a folder of them (partitions
/// and re-exports may overlap; the newest export of a message wins).
package struct DiscordImporter: Sendable {
    /// The format's name as `--format` takes it.
    package static let formatName = "discord"

    /// Makes an importer; options come with each source.
    package init() {}

    /// Whether the start of a JSON file looks like a DiscordChatExporter export.
    package static func recognises(prefix: [UInt8]) -> Bool {
        let s = String(decoding: prefix, as: UTF8.self)
        return s.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) == "{" && s.contains("\"guild\"")
            && s.contains("\"channel\"")
    }

    /// Reads the given JSON entries of `container`, newest export first, so that a message
    /// repeated in overlapping files is taken from the newest one.
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        var heads: [(entry: String, exportedAt: Int64)] = []
        for entry in entries {
            let exportedAt = (try? Self.exportedAt(of: container, entry: entry)) ?? nil
            heads.append((entry, exportedAt?.milliseconds ?? Int64.min))
        }
        heads.sort { $0.exportedAt != $1.exportedAt ? $0.exportedAt > $1.exportedAt : $0.entry < $1.entry }
        var run = DiscordRun(sink: sink, ownerName: options.ownerName)
        for (index, head) in heads.enumerated() {
            try run.read(container, entry: head.entry, fileIndex: index)
        }
    }

    /// The `exportedAt` of an entry, read from its head (before the messages).
    static func exportedAt(of container: any ExportContainer, entry: String) throws -> Timestamp? {
        let reader = JSONStreamReader(try container.open(entry), elementPaths: ["messages[*]"], chunkSize: 64 << 10)
        while let e = try reader.next() {
            switch e {
            case .value("exportedAt", _, let bytes, _):
                return (try? JSONParser.parse(bytes))?.stringValue.flatMap { Timestamp.parse($0) }
            case .element, .enter("messages", _, _): return nil
            default: continue
            }
        }
        return nil
    }
}

/// The state of one DCE import over all its files.
struct DiscordRun {
    struct Channel {
        var sourceId: String
        var members: Set<String> = []
        /// Message id → index of the file it was taken from.
        var emitted: [Int64: Int] = [:]
        var otherIDs: [String: Int] = [:]
        var clock = ItemClock()
    }

    let sink: any ImportSink
    let ownerName: String?
    var channels: [String: Channel] = [:]

    init(sink: any ImportSink, ownerName: String?) {
        self.sink = sink
        self.ownerName = ownerName
    }

    private static let normalTypes: Set<String> = [
        "Default", "Reply", "ChatInputCommand", "ContextMenuCommand", "ThreadStarterMessage", "0", "19", "20", "23",
    ]

    mutating func read(_ container: any ExportContainer, entry: String, fileIndex: Int) throws {
        let file = container.displayName(of: entry)
        let folder = entry.split(separator: "/").dropLast().joined(separator: "/")
        let reader = JSONStreamReader(try container.open(entry), elementPaths: ["messages[*]"])
        var guild: JSONValue?
        var channelValue: JSONValue?
        var channelID: String?
        var sinceProgress: Int64 = 0
        func location(_ at: JSONStreamReader.Location) -> SourceLocation {
            SourceLocation(file: file, line: at.line, byteOffset: at.offset)
        }
        do {
            while let event = try reader.next() {
                switch event {
                case .value(let path, _, let bytes, let at) where path == "guild" || path == "channel":
                    guard let v = try? JSONParser.parse(bytes) else {
                        try sink.report(.warning(location(at), "\(path) is not valid JSON"))
                        continue
                    }
                    if path == "guild" { guild = v } else { channelValue = v }
                case .enter("messages", _, let at):
                    guard let channel = channelValue, let id = JSONField.idString(channel["id"]) else {
                        try sink.report(
                            .fatal(location(at), "no channel before the messages; not a DiscordChatExporter file"))
                        return
                    }
                    channelID = id
                    try openChannel(id: id, channel: channel, guild: guild)
                case .element(_, _, let bytes, let at):
                    guard let channelID else { continue }
                    try message(
                        bytes, at: at, channelID: channelID, fileIndex: fileIndex, folder: folder,
                        location: location(at))
                    if reader.bytesRead - sinceProgress > 4 << 20 {
                        sinceProgress = reader.bytesRead
                        sink.progress(bytesRead: reader.bytesRead, totalBytes: reader.totalBytes)
                    }
                default: continue
                }
            }
        } catch let e as JSONStreamError {
            try sink.report(.fatal(SourceLocation(file: file, line: e.line, byteOffset: e.offset), e.message))
            return
        }
        if channelValue == nil {
            try sink.report(.fatal(SourceLocation(file: file), "no channel: not a DiscordChatExporter file; skipped"))
        }
    }

    private mutating func openChannel(id: String, channel: JSONValue, guild: JSONValue?) throws {
        guard channels[id] == nil else { return }
        let sourceId = "discord:" + id
        let kind = channel["type"]?.stringValue ?? ""
        let type: ChatType = kind == "DirectTextChat" || kind == "1" ? .direct : .group
        let guildName = JSONField.idString(guild?["id"]) == "0" ? "" : guild?["name"]?.stringValue ?? ""
        let name = channel["name"]?.stringValue ?? id
        try sink.emit(
            .chat(Chat(sourceId: sourceId, type: type, displayName: name, fullName: guildName, source: "discord")))
        channels[id] = Channel(sourceId: sourceId)
    }

    private static func user(_ v: JSONValue?) -> (id: String, name: String, nickname: String)? {
        guard let v, let id = JSONField.idString(v["id"]) else { return nil }
        let name = v["name"]?.stringValue ?? ""
        var nickname = v["nickname"]?.stringValue ?? ""
        if nickname.isEmpty { nickname = name }
        return (id, name, nickname)
    }

    private func member(_ u: (id: String, name: String, nickname: String), in c: inout Channel) throws {
        guard !c.members.contains(u.id) else { return }
        c.members.insert(u.id)
        let isUser = ownerName.map { $0 == u.name || $0 == u.nickname } ?? false
        try sink.emit(
            .member(
                Member(
                    chatSourceId: c.sourceId, sourceId: u.id, displayName: u.nickname, fullName: u.name, isUser: isUser)
            ))
    }

    private static func contentType(ofFile name: String) -> ContentType {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "jpg", "jpeg", "png", "gif", "webp", "bmp", "heic", "heif", "avif", "tif", "tiff": return .image
        case "mp4", "mov", "webm", "mkv", "avi", "m4v": return .video
        case "ogg", "oga", "opus": return .voice
        default: return .file
        }
    }

    /// Emits one message of a channel's export as an item, with its author, mentioned users and reactors as members.
    private mutating func message(
        _ bytes: [UInt8], at: JSONStreamReader.Location, channelID: String, fileIndex: Int, folder: String,
        location: SourceLocation
    ) throws {
        // Take the channel out while working on it, so that its id map is not copied.
        guard var c = channels.removeValue(forKey: channelID) else { return }
        defer { channels[channelID] = c }
        guard let (m, id) = try newMessage(bytes, in: &c, fileIndex: fileIndex, location: location) else { return }

        let (timestamp, isTimeUnknown) = try c.clock.time(
            m["timestamp"]?.stringValue.flatMap { Timestamp.parse($0) }, location: location, sink: sink,
            warning: "message \(id) has no readable timestamp; it takes the previous message's time")

        let author = Self.user(m["author"])
        if let author { try member(author, in: &c) }
        let users = try mentionedUsers(m, in: &c)

        let type = m["type"]?.stringValue ?? "Default"
        let isSystem = !Self.normalTypes.contains(type)
        let isOwner = ownerName != nil && author.map { $0.name == ownerName || $0.nickname == ownerName } == true
        var content = MessageContent(type: .text, text: "")
        var markup: Markup = .plain
        var mentions: [String: MentionTarget] = [:]
        var text = m["content"]?.stringValue ?? ""
        let reference = m["reference"]
        if text.isEmpty, reference?["type"]?.stringValue == "Forward" {
            text = m["forwardedMessage"]?["content"]?.stringValue ?? ""
        }

        if isSystem {
            content.type = .event
            content.text = text.isEmpty ? Self.systemText(type: type, message: m, author: author?.nickname) : text
        } else {
            let md = DiscordMarkdown(text, users: users)
            content.text = md.plainText
            mentions = md.mentions
            if md.isFormatted { markup = .formatted(md.pieces) }
        }

        let attachments = m["attachments"]?.arrayValue ?? []
        let files = try self.files(attachments, id: id, folder: folder, location: location)
        let file = files.first
        if let file, !isSystem { content.type = Self.contentType(ofFile: file.name) }
        if let embed = (m["embeds"]?.arrayValue ?? []).first(where: { $0["title"] != nil || $0["description"] != nil })
        {
            content.preview = LinkPreview(
                uri: embed["url"]?.stringValue ?? "", title: embed["title"]?.stringValue ?? "",
                description: embed["description"]?.stringValue ?? "")
            if !isSystem, attachments.isEmpty { content.type = .link }
        }
        if !isSystem { Self.appendStickers(m, to: &content, markup: &markup) }
        let reactions = try self.reactions(m, in: &c)
        var quote: Quote?
        if let reference, reference["type"]?.stringValue != "Forward",
            let target = JSONField.idString(reference["messageId"])
        {
            let sameChannel = JSONField.idString(reference["channelId"]).map { $0 == channelID } ?? true
            quote = Quote(itemSourceId: sameChannel ? target : nil, text: "")
        }
        let isEdited = m["timestampEdited"].map { !$0.isNull } ?? false

        let raw = try rawText(bytes, id: id, location: location)
        let item = Item(
            chatSourceId: c.sourceId, sourceId: id, timestamp: timestamp,
            direction: isSystem ? .event : isOwner ? .snd : .rcv, memberSourceId: author?.id, content: content,
            markup: markup, mentions: mentions, quote: quote, file: file, reactions: reactions, isEdited: isEdited,
            isPinned: m["isPinned"]?.boolValue ?? false, raw: raw, isTimeUnknown: isTimeUnknown,
            moreFiles: Array(files.dropFirst()))
        try sink.emit(.item(item))
    }

    /// The parsed message and its id, or nil (reported) when it is unreadable or a copy of one already taken.
    private func newMessage(_ bytes: [UInt8], in c: inout Channel, fileIndex: Int, location: SourceLocation) throws
        -> (message: JSONValue, id: String)?
    {
        let m: JSONValue
        do { m = try JSONParser.parse(bytes) } catch {
            try sink.report(.skipped(location, "message is not valid JSON: \(error.message); skipped"))
            return nil
        }
        guard case .object = m, let id = JSONField.idString(m["id"]), !id.isEmpty else {
            try sink.report(.skipped(location, "message without an id; skipped"))
            return nil
        }
        if let content = m["content"], content.stringValue == nil, !content.isNull {
            try sink.report(.skipped(location, "message \(id): content is not a string; skipped"))
            return nil
        }
        // Dedupe: files run newest first, so an id already taken came from a newer (or the same) export.
        let previous = Int64(id).map { c.emitted[$0] } ?? c.otherIDs[id]
        if let previous {
            if previous == fileIndex {
                try sink.report(.warning(location, "message \(id) appears again in this file; the first copy was kept"))
            }
            return nil
        }
        if let n = Int64(id) { c.emitted[n] = fileIndex } else { c.otherIDs[id] = fileIndex }
        return (m, id)
    }

    /// The users a message mentions, each emitted as a member of the channel.
    private func mentionedUsers(_ m: JSONValue, in c: inout Channel) throws -> [DiscordMarkdown.User] {
        var users: [DiscordMarkdown.User] = []
        for v in m["mentions"]?.arrayValue ?? [] {
            guard let u = Self.user(v) else { continue }
            try member(u, in: &c)
            users.append(DiscordMarkdown.User(id: u.id, names: u.nickname == u.name ? [u.name] : [u.nickname, u.name]))
        }
        return users
    }

    /// The files of a message's attachments, with paths inside the export folder (or none, reported).
    private func files(_ attachments: [JSONValue], id: String, folder: String, location: SourceLocation) throws
        -> [FileRef]
    {
        var files: [FileRef] = []
        for attachment in attachments {
            let url = attachment["url"]?.stringValue ?? ""
            var name = attachment["fileName"]?.stringValue ?? ""
            if name.isEmpty { name = JSONField.lastPathComponent(url) }
            // Media downloaded beside the JSON: the path is relative to the JSON file's folder.
            // CDN links carry signed, expiring query parameters: keep the address without them.
            let address = url.lowercased().hasPrefix("http") ? String(url.prefix { $0 != "?" && $0 != "#" }) : url
            var path = address.isEmpty ? nil : JSONField.relativePath(address)
            if let p = path, !p.lowercased().hasPrefix("http"), !folder.isEmpty { path = folder + "/" + p }
            if !url.isEmpty, path == nil {
                try sink.report(
                    .warning(
                        location, "message \(id): attachment path \"\(url)\" leaves the export folder; path dropped"))
            }
            files.append(FileRef(name: name, size: JSONField.int(attachment["fileSizeBytes"]), path: path))
        }
        return files
    }

    /// Appends the names of a message's stickers to its text (and to its markup when formatted).
    private static func appendStickers(_ m: JSONValue, to content: inout MessageContent, markup: inout Markup) {
        let stickers = (m["stickers"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }.filter { !$0.isEmpty }
        guard !stickers.isEmpty else { return }
        let names = stickers.joined(separator: ", ")
        let extra = content.text.isEmpty ? names : "\n" + names
        content.text += extra
        if case .formatted(var pieces) = markup {
            pieces.append(FormattedText(extra))
            markup = .formatted(pieces)
        }
    }

    /// The reactions to a message, with the users who reacted emitted as members of the channel.
    private func reactions(_ m: JSONValue, in c: inout Channel) throws -> [Reaction] {
        var reactions: [Reaction] = []
        for r in m["reactions"]?.arrayValue ?? [] {
            for v in r["users"]?.arrayValue ?? [] {
                if let u = Self.user(v) { try member(u, in: &c) }
            }
            guard let name = r["emoji"]?["name"]?.stringValue, !name.isEmpty else { continue }
            let custom = JSONField.idString(r["emoji"]?["id"]).map { !$0.isEmpty } ?? false
            reactions.append(Reaction(emoji: custom ? ":\(name):" : name, count: Int(JSONField.int(r["count"]) ?? 1)))
        }
        return reactions
    }

    /// The message's JSON text, with invalid UTF-8 replaced (and reported).
    private func rawText(_ bytes: [UInt8], id: String, location: SourceLocation) throws -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        try sink.report(.warning(location, "message \(id) contains invalid UTF-8, read as U+FFFD"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Text for a system message whose `content` is empty.
    private static func systemText(type: String, message m: JSONValue, author: String?) -> String {
        let who = author ?? "Someone"
        let others = (m["mentions"]?.arrayValue ?? []).compactMap { user($0)?.nickname }.joined(separator: ", ")
        switch type {
        case "Call":
            if let start = m["timestamp"]?.stringValue.flatMap({ Timestamp.parse($0) }),
                let end = m["callEndedTimestamp"]?.stringValue.flatMap({ Timestamp.parse($0) })
            {
                return "\(who) started a call (\((end.milliseconds - start.milliseconds) / 1000) s)"
            }
            return "\(who) started a call"
        case "RecipientAdd": return "\(who) added \(others)"
        case "RecipientRemove": return "\(who) removed \(others)"
        case "ChannelNameChange": return "\(who) changed the channel name"
        case "ChannelIconChange": return "\(who) changed the channel icon"
        case "ChannelPinnedMessage": return "\(who) pinned a message"
        case "GuildMemberJoin": return "\(who) joined the server"
        case "ThreadCreated": return "\(who) started a thread"
        default: return "\(who): \(type)"
        }
    }
}
