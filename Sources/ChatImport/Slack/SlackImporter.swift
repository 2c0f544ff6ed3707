import ChatModel
import Foundation

/// Reads a Slack workspace export (folder or zip): `users.json`, the conversation lists and
/// one folder of day files per conversation (<doc:SlackFormat>).
package struct SlackImporter: Sendable {
    /// The format's name as `--format` takes it.
    package static let formatName = "slack"

    /// Makes an importer.
    package init() {}

    /// The conversation lists, their chat type, and the key naming each conversation's folder.
    private static let lists: [(file: String, type: ChatType)] = [
        ("channels.json", .group), ("groups.json", .group), ("mpims.json", .group), ("dms.json", .direct),
    ]

    /// Whether an entry listing is a Slack export: `users.json` (or Grid's `org_users.json`)
    /// beside at least one conversation list, at the top or inside one extra folder.
    package static func recognises(entryNames: [String]) -> Bool {
        let root = root(of: entryNames)
        let names = Set(entryNames)
        let hasUsers = names.contains(root + "users.json") || names.contains(root + "org_users.json")
        return hasUsers && lists.contains { names.contains(root + $0.file) }
    }

    /// The prefix the export's files sit under: `""`, or `"folder/"` for one extra top folder.
    static func root(of entryNames: [String]) -> String {
        let markers = ["users.json", "org_users.json", "channels.json", "groups.json", "dms.json", "mpims.json"]
        if entryNames.contains(where: { markers.contains($0) }) { return "" }
        for name in entryNames {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 2, markers.contains(String(parts[1])) { return parts[0] + "/" }
        }
        return ""
    }

    /// Reads a Slack export from any container (folder or zip).
    ///
    /// Bad day files and records are reported and skipped; throws only when `sink` does or
    /// the container is not a Slack export.
    package func read(_ container: any ExportContainer, into sink: any ImportSink, options: ImportOptions) throws {
        guard SlackImporter.recognises(entryNames: container.entryNames) else {
            throw ImportError(
                "\(container.path): not a Slack export (needs users.json and channels.json, groups.json, dms.json or mpims.json)"
            )
        }
        let root = SlackImporter.root(of: container.entryNames)
        var directory = SlackDirectory()
        let names = Set(container.entryNames)
        try readUsers(container, root: root, into: &directory, sink: sink, options: options)

        struct Conversation {
            var id: String
            var name: String?
            var type: ChatType
            var record: JSONValue
            var isPrivateList: Bool
        }
        var conversations: [Conversation] = []
        for list in SlackImporter.lists where names.contains(root + list.file) {
            for (record, location) in try records(container, root + list.file, sink: sink) {
                guard let id = record["id"]?.stringValue else {
                    try sink.report(
                        .warning(
                            location, "conversation without an \"id\"; skipped (its folder is read as an unlisted one)")
                    )
                    continue
                }
                let name = record["name"]?.stringValue
                if let name { directory.channelNames[id] = name }
                conversations.append(
                    Conversation(
                        id: id, name: name, type: list.type, record: record, isPrivateList: list.file != "channels.json"
                    ))
            }
        }

        // Day files by folder.
        var folders: [String: [String]] = [:]
        for name in container.entryNames where name.hasPrefix(root) && name.hasSuffix(".json") {
            let parts = name.dropFirst(root.count).split(separator: "/")
            guard parts.count == 2 else { continue }
            folders[String(parts[0]), default: []].append(name)
        }
        var claimed: Set<String> = []
        for conversation in conversations {
            let folder = [conversation.name, conversation.id].compactMap { $0 }.first { folders[$0] != nil }
            if let folder { claimed.insert(folder) }
            let memberIds = (conversation.record["members"]?.arrayValue ?? []).compactMap(\.stringValue)
            let memberNames = memberIds.map { directory.userName($0) ?? $0 }
            let shownName: String
            switch conversation.type {
            case .direct:
                let others = memberIds.filter { !directory.ownerIds.contains($0) }.map { directory.userName($0) ?? $0 }
                shownName = (others.isEmpty ? memberNames : others).joined(separator: ", ")
            default:
                shownName =
                    conversation.name.map {
                        conversation.isPrivateList && $0.hasPrefix("mpdm-") ? memberNames.joined(separator: ", ") : $0
                    }
                    ?? memberNames.joined(separator: ", ")
            }
            let chat = Chat(
                sourceId: "slack:" + conversation.id, type: conversation.type,
                displayName: shownName.isEmpty ? conversation.id : shownName, fullName: conversation.name ?? "",
                source: SlackImporter.formatName)
            var reader = SlackConversationReader(chatSourceId: chat.sourceId, directory: directory, sink: sink)
            try sink.emit(.chat(chat))
            for id in memberIds { try reader.emitMember(id) }
            for file in folder.flatMap({ folders[$0] }) ?? [] { try reader.readDayFile(container, file) }
        }
        for (folder, files) in folders.sorted(by: { $0.key < $1.key }) where !claimed.contains(folder) {
            try sink.report(
                .warning(
                    SourceLocation(file: container.displayName(of: root + folder)),
                    "folder not listed in channels.json, groups.json, dms.json or mpims.json; read as a chat named after it"
                ))
            try sink.emit(
                .chat(
                    Chat(
                        sourceId: "slack:" + folder, type: .group, displayName: folder, source: SlackImporter.formatName
                    )))
            var reader = SlackConversationReader(chatSourceId: "slack:" + folder, directory: directory, sink: sink)
            for file in files { try reader.readDayFile(container, file) }
        }
    }

    /// The export's users (`users.json`, Grid's `org_users.json`) into `directory`, with the
    /// owner's ids when `options` names the owner.
    private func readUsers(
        _ container: any ExportContainer, root: String, into directory: inout SlackDirectory, sink: any ImportSink,
        options: ImportOptions
    ) throws {
        let names = Set(container.entryNames)
        for usersFile in ["users.json", "org_users.json"] where names.contains(root + usersFile) {
            for (user, location) in try records(container, root + usersFile, sink: sink) {
                guard let id = user["id"]?.stringValue else {
                    try sink.report(
                        .warning(location, "user without an \"id\"; skipped (its messages keep their user id)"))
                    continue
                }
                let profile = user["profile"]
                let candidates = [
                    profile?["display_name"]?.stringValue, profile?["real_name"]?.stringValue,
                    user["name"]?.stringValue,
                ]
                let name = candidates.compactMap { $0 }.first { !$0.isEmpty } ?? id
                directory.users[id] = SlackDirectory.User(
                    id: id, name: name,
                    realName: profile?["real_name"]?.stringValue ?? user["real_name"]?.stringValue ?? "")
                if let owner = options.ownerName,
                    [id, name, user["name"]?.stringValue, profile?["real_name"]?.stringValue].contains(owner)
                {
                    directory.ownerIds.insert(id)
                }
            }
        }
    }

    /// The object elements of a JSON array file, each with its location; problems reported.
    private func records(_ container: any ExportContainer, _ entry: String, sink: any ImportSink) throws -> [(
        JSONValue, SourceLocation
    )] {
        // Users and conversations are not items: a bad one is a warning, not a skipped item.
        try SlackConversationReader.elements(of: container, entry, sink: sink, badElement: .warning).records.map {
            ($0.value, $0.location)
        }
    }
}

/// Reads one conversation's day files into items.
struct SlackConversationReader {
    let chatSourceId: String
    let directory: SlackDirectory
    let sink: any ImportSink
    /// Members emitted so far, with the name they were given.
    private var emittedMembers: [String: String] = [:]
    /// Thread parents seen so far: ts → the start of their text (for reply quotes).
    private var threadParents: [String: String] = [:]
    /// Message ts already emitted in this chat (a second copy is reported, not emitted).
    private var seenTs: Set<String> = []

    init(chatSourceId: String, directory: SlackDirectory, sink: any ImportSink) {
        self.chatSourceId = chatSourceId
        self.directory = directory
        self.sink = sink
    }

    /// Subtypes that are ordinary messages; every other subtype is a system event.
    static let messageSubtypes: Set<String> = [
        "bot_message", "me_message", "thread_broadcast", "file_share", "reply_broadcast", "file_comment",
        "slackbot_response", "huddle_thread",
    ]

    /// Emits a member once; again when a later message names a member first seen by its id
    /// only (a bot whose first message had no `username` or `bot_profile`).
    mutating func emitMember(_ id: String, fallbackName: String? = nil) throws {
        let user = directory.users[id]
        let name = user?.name ?? fallbackName ?? id
        if let emitted = emittedMembers[id], emitted != id || name == id { return }
        emittedMembers[id] = name
        try sink.emit(
            .member(
                Member(
                    chatSourceId: chatSourceId, sourceId: id, displayName: name, fullName: user?.realName ?? "",
                    isUser: directory.ownerIds.contains(id))))
    }

    /// Parses a JSON array file into its object elements; reports the file or elements that fail.
    static func elements(
        of container: any ExportContainer, _ entry: String, sink: any ImportSink,
        badElement: ImportIssue.Severity = .skipped
    ) throws -> (
        bytes: [UInt8], records: [(value: JSONValue, location: SourceLocation, range: Range<Int>)]
    ) {
        let file = container.displayName(of: entry)
        let bytes: [UInt8]
        do {
            bytes = try container.readAll(entry)
        } catch {
            try sink.report(.fatal(SourceLocation(file: file), "cannot read: \(error); skipped"))
            return ([], [])
        }
        let array = SlackJSONArray(bytes)
        if let e = array.error {
            let what = array.isArray ? e.message : e.message + "; file skipped"
            try sink.report(.fatal(SourceLocation(file: file, line: e.line, byteOffset: Int64(e.offset)), what))
        }
        var out: [(value: JSONValue, location: SourceLocation, range: Range<Int>)] = []
        for element in array.elements {
            let location = SourceLocation(file: file, line: element.line, byteOffset: Int64(element.range.lowerBound))
            let value: JSONValue
            do throws(JSONSyntaxError) {
                value = try JSONParser.parse(bytes[element.range])
            } catch {
                let at = SourceLocation(
                    file: file, line: element.line, byteOffset: Int64(element.range.lowerBound + error.offset))
                try sink.report(ImportIssue(at, "\(error.message); element skipped", severity: badElement))
                continue
            }
            guard case .object = value else {
                try sink.report(ImportIssue(location, "element is not a JSON object; skipped", severity: badElement))
                continue
            }
            out.append((value, location, element.range))
        }
        return (bytes, out)
    }

    /// Reads one `YYYY-MM-DD.json` day file.
    mutating func readDayFile(_ container: any ExportContainer, _ entry: String) throws {
        let (bytes, records) = try SlackConversationReader.elements(of: container, entry, sink: sink)
        for (record, location, range) in records {
            guard let ts = record["ts"]?.stringValue, let timestamp = SlackConversationReader.timestamp(ts) else {
                try sink.report(.skipped(location, "message without a valid \"ts\" (seconds.micros); skipped"))
                continue
            }
            guard seenTs.insert(ts).inserted else {
                try sink.report(.warning(location, "second message with ts \(ts) in this conversation; kept the first"))
                continue
            }
            let raw = SlackConversationReader.rawText(record, bytes: bytes[range])
            try emit(record, ts: ts, timestamp: timestamp, raw: raw)
        }
    }

    private mutating func emit(_ m: JSONValue, ts: String, timestamp: Timestamp, raw: String) throws {
        let subtype = m["subtype"]?.stringValue
        let isEvent =
            subtype.map { !SlackConversationReader.messageSubtypes.contains($0) && $0 != "tombstone" } ?? false
        let isTombstone = subtype == "tombstone"
        let userId = m["user"]?.stringValue ?? m["bot_id"]?.stringValue
        let senderName = self.senderName(of: m, userId: userId)
        if let userId, !isEvent, !isTombstone { try emitMember(userId, fallbackName: senderName) }

        var rich = shownText(of: m)
        let (files, fileTitles) = SlackConversationReader.files(of: m)
        var contentType: ContentType = isEvent ? .event : .text
        if let first = m["files"]?.arrayValue?.first, !isEvent {
            contentType = SlackConversationReader.contentType(mimetype: first["mimetype"]?.stringValue)
        }
        // A shared file shows its title: it is part of the text (and so searchable) unless the
        // text already says it.
        for title in fileTitles where !isEvent && rich.text.range(of: title, options: .caseInsensitive) == nil {
            if !rich.pieces.isEmpty { rich.append("\n") }
            rich.append(title)
        }
        let preview = linkPreview(of: m)
        if let preview, contentType == .text, !preview.uri.isEmpty { contentType = .link }
        if isTombstone { rich = SlackRichText() }
        let text = rich.text

        var quote: Quote?
        if let threadTs = m["thread_ts"]?.stringValue {
            if threadTs != ts {
                quote = Quote(itemSourceId: threadTs, text: threadParents[threadTs] ?? "")
            } else {
                threadParents[ts] = String(text.prefix(200))
            }
        }
        let direction: ItemDirection =
            isEvent ? .event : (userId.map { directory.ownerIds.contains($0) } ?? false) ? .snd : .rcv
        let item = Item(
            chatSourceId: chatSourceId, sourceId: ts, timestamp: timestamp, direction: direction,
            memberSourceId: isEvent || isTombstone ? nil : userId, senderName: isTombstone ? nil : senderName,
            content: MessageContent(type: contentType, text: text, preview: preview), markup: .formatted(rich.pieces),
            mentions: rich.mentions, quote: quote, file: files.first,
            reactions: SlackConversationReader.reactions(of: m),
            isEdited: m["edited"] != nil, isDeleted: isTombstone,
            isPinned: !(m["pinned_to"]?.arrayValue?.isEmpty ?? true), raw: raw, moreFiles: Array(files.dropFirst()))
        try sink.emit(.item(item))
    }

    /// The name a message is shown under: the workspace's name for its user, else the profile it
    /// carries, else its bot's name (a bot message always shows its bot's name).
    private func senderName(of m: JSONValue, userId: String?) -> String? {
        let botName = [m["username"]?.stringValue, m["bot_profile"]?["name"]?.stringValue].compactMap { $0 }.first {
            !$0.isEmpty
        }
        guard let userId else { return botName }
        if m["subtype"]?.stringValue == "bot_message", let botName { return botName }
        if let known = directory.userName(userId) { return known }
        let profile = m["user_profile"]
        let profileName = [
            profile?["display_name"]?.stringValue, profile?["real_name"]?.stringValue, profile?["name"]?.stringValue,
        ]
        .compactMap { $0 }.first { !$0.isEmpty }
        return profileName ?? botName
    }

    /// What the message shows, once: its blocks (else its mrkdwn text, unless that only repeats an
    /// attachment's fallback), then what its bot attachments show.
    private func shownText(of m: JSONValue) -> SlackRichText {
        let attachments = m["attachments"]?.arrayValue ?? []
        var body = SlackBlocks.render(m["blocks"], directory: directory)
        if body == nil {
            let text = SlackMrkdwn.parse(m["text"]?.stringValue ?? "", directory: directory)
            let repeatsFallback = SlackAttachments.fallbacks(attachments, directory: directory)
                .contains(SlackAttachments.comparable(text.text))
            body = repeatsFallback ? SlackRichText() : text
        }
        let shown = attachments.filter { !SlackAttachments.isUnfurl($0) }.map {
            SlackAttachments.render($0, directory: directory)
        }
        return shown.isEmpty ? body ?? SlackRichText() : SlackAttachments.joinedOnce([body ?? SlackRichText()] + shown)
    }

    /// The first unfurled link's preview, its Slack markup resolved (`<url|label>` shows its
    /// label, `<@U…>` the member's name).
    private func linkPreview(of m: JSONValue) -> LinkPreview? {
        guard let a = (m["attachments"]?.arrayValue ?? []).first(where: SlackAttachments.isUnfurl) else { return nil }
        let uri = a["from_url"]?.stringValue ?? a["title_link"]?.stringValue ?? a["original_url"]?.stringValue ?? ""
        let title = a["title"]?.stringValue ?? a["service_name"]?.stringValue ?? ""
        let description = a["text"]?.stringValue ?? a["fallback"]?.stringValue ?? ""
        guard !uri.isEmpty || !title.isEmpty || !description.isEmpty else { return nil }
        return LinkPreview(
            uri: uri, title: SlackMrkdwn.parse(title, directory: directory).text,
            description: SlackMrkdwn.parse(description, directory: directory).text)
    }

    /// A message's files, by name only (Slack exports link files, with tokens, rather than
    /// include them), and the titles that differ from their names.
    static func files(of m: JSONValue) -> (files: [FileRef], titles: [String]) {
        var files: [FileRef] = []
        var titles: [String] = []
        for f in m["files"]?.arrayValue ?? [] {
            if let title = f["title"]?.stringValue.map(SlackMrkdwn.unescape), !title.isEmpty,
                title != f["name"]?.stringValue
            {
                titles.append(title)
            }
            switch f["mode"]?.stringValue {
            case "hidden_by_limit": files.append(FileRef(name: "(file unavailable)"))
            case "tombstone": files.append(FileRef(name: "(file deleted)"))
            default:
                let name =
                    [f["name"]?.stringValue, f["title"]?.stringValue, f["id"]?.stringValue]
                    .compactMap { $0 }.first { !$0.isEmpty } ?? "file"
                files.append(
                    FileRef(
                        name: name, size: f["size"]?.numberValue.flatMap { Int64(exactly: $0.rounded(.towardZero)) }))
            }
        }
        return (files, titles)
    }

    /// Reactions with their emoji from Slack's shortcode table (unknown names stay `:name:`).
    static func reactions(of m: JSONValue) -> [Reaction] {
        (m["reactions"]?.arrayValue ?? []).compactMap { r -> Reaction? in
            guard let name = r["name"]?.stringValue else { return nil }
            let count =
                r["count"]?.numberValue.flatMap { Int(exactly: $0.rounded(.towardZero)) } ?? r["users"]?.arrayValue?
                .count ?? 1
            return Reaction(emoji: SlackEmoji.emoji(named: name) ?? ":\(name):", count: count)
        }
    }

    /// `"1726299665.004100"` → milliseconds, as two integers (never via `Double`).
    static func timestamp(_ ts: String) -> Timestamp? {
        let parts = ts.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let secondsPart = parts.first, !secondsPart.isEmpty, secondsPart.allSatisfy(\.isASCII),
            let seconds = Int64(secondsPart), seconds >= 0, seconds < 100_000_000_000
        else { return nil }
        var millis: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return nil
            }
            let padded = (fraction + "000").prefix(3)
            millis = Int64(padded) ?? 0
        }
        return Timestamp(milliseconds: seconds * 1000 + millis)
    }

    static func contentType(mimetype: String?) -> ContentType {
        guard let mimetype else { return .file }
        if mimetype.hasPrefix("image/") { return .image }
        if mimetype.hasPrefix("video/") { return .video }
        if mimetype.hasPrefix("audio/") { return .voice }
        return .file
    }

    /// The element's JSON as read, or re-serialised without `url_private*` keys (they can
    /// carry download tokens).
    static func rawText(_ record: JSONValue, bytes: ArraySlice<UInt8>) -> String {
        let stripped = strippingPrivateURLs(record)
        return stripped == record ? String(decoding: bytes, as: UTF8.self) : stripped.jsonText
    }

    static func strippingPrivateURLs(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let members):
            return .object(members.filter { !$0.0.hasPrefix("url_private") }.map { ($0.0, strippingPrivateURLs($0.1)) })
        case .array(let a): return .array(a.map(strippingPrivateURLs))
        default: return v
        }
    }
}
