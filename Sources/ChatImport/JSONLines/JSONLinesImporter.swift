import ChatModel

/// Reads ChatArchive JSON Lines (ChatArchive's JSONLinesFormat article): one object per line, each with a `kind`.
///
/// Streaming: memory is bounded by the longest line. Every bad line is reported with its file
/// and line number and skipped (the sink throws to stop in strict mode).
package struct JSONLinesImporter: Sendable {
    package static let formatName = "jsonl"

    package init() {}

    /// Reads one entry of a container.
    package func read(_ container: any ExportContainer, entry: String, into sink: any ImportSink) throws {
        let stream = try container.open(entry)
        let file = container.displayName(of: entry)
        var reader = LineReader(stream)
        var knownChats = Set<String>()
        let total = stream.totalBytes
        var lastProgress: Int64 = 0
        while let line = try reader.next() {
            if reader.bytesRead - lastProgress >= 1 << 20 {
                lastProgress = reader.bytesRead
                sink.progress(bytesRead: line.offset, totalBytes: total)
            }
            let location = SourceLocation(file: file, line: line.number)
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            if line.isTruncated {
                try sink.report(ImportIssue(location, "line longer than \(reader.maxLineBytes >> 20) MiB; skipped"))
                continue
            }
            if String(validating: line.bytes, as: UTF8.self) == nil {
                try sink.report(.warning(location, "invalid UTF-8; the bad bytes were replaced by U+FFFD"))
            }
            let value: JSONValue
            do {
                value = try JSONParser.parse(line.bytes)
            } catch {
                try sink.report(ImportIssue(location, "invalid JSON: \(error)"))
                continue
            }
            do {
                let record = try JSONLinesRecord.decode(value) { String(decoding: line.bytes, as: UTF8.self) }
                switch record {
                case .chat(let c): knownChats.insert(c.sourceId)
                case .member(let m):
                    guard knownChats.contains(m.chatSourceId) else {
                        throw JSONLinesRecord.Failure("member of chat \"\(m.chatSourceId)\" before that chat's line")
                    }
                case .item(let i):
                    guard knownChats.contains(i.chatSourceId) else {
                        throw JSONLinesRecord.Failure("item of chat \"\(i.chatSourceId)\" before that chat's line")
                    }
                }
                try sink.emit(record)
            } catch let failure as JSONLinesRecord.Failure {
                try sink.report(ImportIssue(location, failure.message))
            }
        }
        sink.progress(bytesRead: reader.bytesRead, totalBytes: total)
    }
}

/// Decoding of one JSON Lines object into an ``ImportRecord``.
enum JSONLinesRecord {
    struct Failure: Error {
        var message: String
        init(_ m: String) { message = m }
    }

    /// `raw`: the line's text, made only for an item that keeps it (one with fields this version
    /// does not model).
    static func decode(_ v: JSONValue, raw: () -> String) throws(Failure) -> ImportRecord {
        guard case .object = v else { throw Failure("expected a JSON object") }
        guard let kind = v["kind"]?.stringValue else { throw Failure("missing \"kind\"") }
        switch kind {
        case "chat": return .chat(try chat(v))
        case "member": return .member(try member(v))
        case "item": return .item(try item(v, raw: raw))
        default: throw Failure("unknown kind \"\(kind)\" (expected chat, member or item)")
        }
    }

    private static func string(_ v: JSONValue, _ key: String) throws(Failure) -> String {
        guard let field = v[key] else { throw Failure("missing \"\(key)\"") }
        switch field {
        case .string(let s):
            guard !s.isEmpty else { throw Failure("empty \"\(key)\"") }
            return s
        case .number(let n) where n == n.rounded() && abs(n) < 9e15: return String(Int64(n))
        default: throw Failure("\"\(key)\" must be a string")
        }
    }

    private static func optString(_ v: JSONValue, _ key: String) throws(Failure) -> String? {
        guard let field = v[key], !field.isNull else { return nil }
        guard let s = field.stringValue else { throw Failure("\"\(key)\" must be a string") }
        return s
    }

    private static func bool(_ v: JSONValue, _ key: String) throws(Failure) -> Bool {
        guard let field = v[key], !field.isNull else { return false }
        guard let b = field.boolValue else { throw Failure("\"\(key)\" must be true or false") }
        return b
    }

    static func chat(_ v: JSONValue) throws(Failure) -> Chat {
        let id = try string(v, "chatId")
        let typeName = try optString(v, "type") ?? "direct"
        guard let type = ChatType(rawValue: typeName) else {
            throw Failure(
                "unknown chat type \"\(typeName)\" (expected direct, group, local, contactRequest or contactConnection)"
            )
        }
        var business: BusinessRole? = nil
        if let b = try optString(v, "business") {
            guard let role = BusinessRole(rawValue: b) else {
                throw Failure("\"business\" must be null, \"business\" or \"customer\"")
            }
            business = role
        }
        let notif = try optString(v, "notifications") ?? "all"
        guard let mode = NotificationMode(rawValue: notif) else {
            throw Failure("\"notifications\" must be all, mentions or none")
        }
        var tags: [String] = []
        if let t = v["tags"], !t.isNull {
            guard let arr = t.arrayValue else { throw Failure("\"tags\" must be an array of strings") }
            for x in arr {
                guard let s = x.stringValue else { throw Failure("\"tags\" must be an array of strings") }
                tags.append(s)
            }
        }
        return Chat(
            sourceId: id, type: type, displayName: try optString(v, "displayName") ?? "",
            fullName: try optString(v, "fullName") ?? "", localAlias: try optString(v, "localAlias") ?? "",
            isFavorite: try bool(v, "favorite"), notifications: mode, isMarkedUnread: try bool(v, "unreadChat"),
            business: business, tags: tags, draft: try optString(v, "draft"), source: "jsonl")
    }

    static func member(_ v: JSONValue) throws(Failure) -> Member {
        Member(
            chatSourceId: try string(v, "chatId"), sourceId: try string(v, "memberId"),
            displayName: try optString(v, "displayName") ?? "", fullName: try optString(v, "fullName") ?? "",
            localAlias: try optString(v, "localAlias") ?? "", isUser: try bool(v, "isUser"),
            hasLeft: try bool(v, "left"))
    }

    /// The fields of an item line, and of its `content`, that this version models.
    static let itemFields: Set<String> = [
        "kind", "chatId", "id", "ts", "dir", "memberId", "sender", "content", "mentions", "quote", "file", "reactions",
        "edited", "deleted", "unread", "pinned", "status",
    ]
    static let contentFields: Set<String> = ["type", "text", "preview", "duration", "reason"]

    static func item(_ v: JSONValue, raw: () -> String) throws(Failure) -> Item {
        let chatSourceId = try string(v, "chatId")
        let id = try string(v, "id")
        let tsText = try string(v, "ts")
        guard let ts = Timestamp.parse(tsText) else {
            throw Failure("\"ts\" is not an RFC 3339 date-time: \"\(tsText)\"")
        }
        let dirName = try optString(v, "dir") ?? "rcv"
        guard let dir = ItemDirection(rawValue: dirName) else { throw Failure("\"dir\" must be snd, rcv or event") }
        guard let c = v["content"], case .object = c else { throw Failure("missing \"content\" object") }
        guard let typeName = try optString(c, "type") else { throw Failure("\"content\" has no \"type\"") }
        let ctype = ContentType(rawValue: typeName) ?? .unknown
        var content = MessageContent(type: ctype, text: try optString(c, "text") ?? "")
        if let p = c["preview"], case .object = p {
            content.preview = LinkPreview(
                uri: try optString(p, "uri") ?? "", title: try optString(p, "title") ?? "",
                description: try optString(p, "description") ?? "")
        }
        if let d = c["duration"]?.numberValue, d.isFinite, abs(d) < 1e12 { content.duration = Int(d) }
        content.reason = try optString(c, "reason")
        // The raw record is kept only when it holds fields this version does not model.
        var hasUnknown = false
        if case .object(let members) = v { hasUnknown = members.contains { !Self.itemFields.contains($0.0) } }
        if case .object(let members) = c {
            hasUnknown = hasUnknown || members.contains { !Self.contentFields.contains($0.0) }
        }
        var item = Item(
            chatSourceId: chatSourceId, sourceId: id, timestamp: ts, direction: dir,
            memberSourceId: try optString(v, "memberId"),
            senderName: try optString(v, "sender"), content: content, raw: hasUnknown ? raw() : nil)
        if let m = v["mentions"], case .object(let entries) = m {
            for (name, target) in entries {
                item.mentions[name] = MentionTarget(
                    memberSourceId: target["memberId"]?.stringValue,
                    isUserMention: target["userMention"]?.boolValue ?? false)
            }
        }
        if let q = v["quote"], case .object = q {
            item.quote = Quote(itemSourceId: try optString(q, "id"), text: try optString(q, "text") ?? "")
        }
        if let f = v["file"], case .object = f {
            var size: Int64? = nil
            if let s = f["size"]?.numberValue, s.isFinite, s >= 0, s < 9e18 { size = Int64(s) }
            // `path`: where the file lies in the export, relative to its folder (kept when safe).
            item.file = FileRef(
                name: try optString(f, "name") ?? "", size: size,
                path: try optString(f, "path").flatMap(JSONField.relativePath))
        }
        if let r = v["reactions"]?.arrayValue {
            for x in r {
                if let e = x["emoji"]?.stringValue, let n = x["count"]?.numberValue, n.isFinite, n >= 0, n < 1e9 {
                    item.reactions.append(Reaction(emoji: e, count: Int(n), isMine: x["mine"]?.boolValue == true))
                }
            }
        }
        item.isEdited = try bool(v, "edited")
        item.isDeleted = try bool(v, "deleted")
        item.isUnread = try bool(v, "unread")
        item.isPinned = try bool(v, "pinned")
        if let s = try optString(v, "status") { item.status = ItemStatus(rawValue: s) }
        return item
    }
}
