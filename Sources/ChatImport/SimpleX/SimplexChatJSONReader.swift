import ChatModel

/// Reads SimpleX app/CLI chat JSON (<doc:SimplexFormat>): `{chatInfo, chatItems}`, the `apiChat`
/// envelope (`{"type":"apiChat","chat":…}` or iOS `{"result":{"apiChat":…}}`), or `apiChats`.
/// Tagged and single-key sum types give the same records.
struct SimplexChatJSONReader {
    /// How the file is named in messages.
    var displayName: String

    func read(_ root: JSONValue, into sink: any ImportSink) throws {
        let found = SimplexChatJSONReader.chats(in: root, userId: nil)
        if found.isEmpty {
            try sink.report(
                .fatal(SourceLocation(file: displayName), "no SimpleX chat (chatInfo and chatItems) in this JSON"))
        }
        for (chat, userId) in found {
            try readChat(chat, userId: userId ?? "1", sink)
        }
    }

    /// Finds `{chatInfo, chatItems}` objects through the envelopes, with the user id when one is given.
    static func chats(in v: JSONValue, userId: String?, depth: Int = 0) -> [(JSONValue, String?)] {
        guard depth < 6, case .object = v else { return [] }
        if v["chatInfo"] != nil, v["chatItems"] != nil { return [(v, userId)] }
        for key in ["result", "resp"] {
            if let inner = v[key] { return chats(in: inner, userId: userId, depth: depth + 1) }
        }
        guard let (tag, body) = SimplexJSON.tagged(v) else { return [] }
        let user = SimplexJSON.idString(body["user"]?["userId"]) ?? userId
        switch tag {
        case "apiChat":
            return body["chat"].map { chats(in: $0, userId: user, depth: depth + 1) } ?? []
        case "apiChats":
            return (body["chats"]?.arrayValue ?? []).flatMap { chats(in: $0, userId: user, depth: depth + 1) }
        default:
            return []
        }
    }

    /// What items need to know about their chat.
    private struct Context {
        var chatSourceId: String
        var kind: String
        var peerMemberId: String?
        var ownMemberId: String?
        var seenMembers: Set<String> = []
    }

    private func readChat(_ chat: JSONValue, userId: String, _ sink: any ImportSink) throws {
        let location = SourceLocation(file: displayName)
        guard let (kind, info) = SimplexJSON.tagged(chat["chatInfo"]) else {
            let count = chat["chatItems"]?.arrayValue?.count ?? 0
            try sink.report(
                .skipped(
                    location, "chatInfo is not a SimpleX ChatInfo; chat and its \(count) items skipped", count: count))
            return
        }
        let stats = chat["chatStats"]
        var ctx: Context
        switch kind {
        case "direct":
            let contact = info["contact"] ?? .object([])
            let id = SimplexJSON.idString(contact["contactId"]) ?? "?"
            let profile = contact["profile"] ?? .object([])
            let name = nonEmpty(profile["displayName"]?.stringValue) ?? contact["localDisplayName"]?.stringValue ?? ""
            ctx = Context(chatSourceId: "simplex:\(userId):direct:\(id)", kind: kind, peerMemberId: "contact:\(id)")
            let settings = contact["chatSettings"]
            let c = Chat(
                sourceId: ctx.chatSourceId, type: .direct, displayName: name,
                fullName: profile["fullName"]?.stringValue ?? "",
                localAlias: profile["localAlias"]?.stringValue ?? "",
                isFavorite: SimplexJSON.bool(settings?["favorite"]),
                notifications: notifications(settings),
                isMarkedUnread: SimplexJSON.bool(stats?["unreadChat"] ?? contact["unreadChat"]),
                source: SimplexImporter.formatName)
            try sink.emit(.chat(c))
            try sink.emit(
                .member(
                    Member(
                        chatSourceId: ctx.chatSourceId, sourceId: "contact:\(id)", displayName: name,
                        fullName: c.fullName,
                        localAlias: c.localAlias)))
        case "group":
            let group = info["groupInfo"] ?? .object([])
            let id = SimplexJSON.idString(group["groupId"]) ?? "?"
            let profile = group["groupProfile"] ?? .object([])
            let name = nonEmpty(profile["displayName"]?.stringValue) ?? group["localDisplayName"]?.stringValue ?? ""
            ctx = Context(chatSourceId: "simplex:\(userId):group:\(id)", kind: kind)
            let settings = group["chatSettings"]
            let businessTag = group["businessChat"]?["chatType"].flatMap {
                $0.stringValue ?? SimplexJSON.tagged($0)?.tag
            }
            let c = Chat(
                sourceId: ctx.chatSourceId, type: .group, displayName: name,
                fullName: profile["fullName"]?.stringValue ?? "",
                localAlias: group["localAlias"]?.stringValue ?? "", isFavorite: SimplexJSON.bool(settings?["favorite"]),
                notifications: notifications(settings),
                isMarkedUnread: SimplexJSON.bool(stats?["unreadChat"] ?? group["unreadChat"]),
                business: businessTag.flatMap(BusinessRole.init), source: SimplexImporter.formatName)
            try sink.emit(.chat(c))
            if let membership = group["membership"], let own = try emitMember(membership, isUser: true, &ctx, sink) {
                ctx.ownMemberId = own
            }
        case "local":
            let folder = info["noteFolder"] ?? .object([])
            let id = SimplexJSON.idString(folder["noteFolderId"]) ?? "?"
            let user = SimplexJSON.idString(folder["userId"]) ?? userId
            ctx = Context(chatSourceId: "simplex:\(user):local:\(id)", kind: kind)
            try sink.emit(
                .chat(
                    Chat(
                        sourceId: ctx.chatSourceId, type: .local, displayName: SimplexImporter.notesName,
                        isFavorite: SimplexJSON.bool(folder["favorite"]),
                        isMarkedUnread: SimplexJSON.bool(stats?["unreadChat"] ?? folder["unread"]),
                        source: SimplexImporter.formatName)))
        default:
            try sink.report(.warning(location, "chat of kind '\(kind)' has no messages to import; skipped"))
            return
        }
        var previous = Timestamp(milliseconds: 0)
        for (index, element) in (chat["chatItems"]?.arrayValue ?? []).enumerated() {
            let itemLocation = SourceLocation(file: displayName, record: "chatItems[\(index)]")
            guard let item = try makeItem(element, &ctx, previous: previous, location: itemLocation, sink) else {
                continue
            }
            previous = item.timestamp
            try sink.emit(.item(item))
        }
    }

    /// Emits a group member the first time it is seen; returns its member id.
    private func emitMember(_ m: JSONValue, isUser: Bool, _ ctx: inout Context, _ sink: any ImportSink) throws
        -> String?
    {
        guard let id = m["memberId"]?.stringValue else { return nil }
        if ctx.seenMembers.insert(id).inserted {
            let profile = m["memberProfile"] ?? .object([])
            try sink.emit(
                .member(
                    Member(
                        chatSourceId: ctx.chatSourceId, sourceId: id,
                        displayName: nonEmpty(profile["displayName"]?.stringValue) ?? m["localDisplayName"]?.stringValue
                            ?? "",
                        fullName: profile["fullName"]?.stringValue ?? "",
                        localAlias: profile["localAlias"]?.stringValue ?? "",
                        isUser: isUser)))
        }
        return id
    }

    private func makeItem(
        _ v: JSONValue, _ ctx: inout Context, previous: Timestamp, location: SourceLocation, _ sink: any ImportSink
    ) throws -> Item? {
        let meta = v["meta"] ?? .object([])
        guard let itemId = SimplexJSON.idString(meta["itemId"]) else {
            try sink.report(.skipped(location, "chat item without meta.itemId; skipped"))
            return nil
        }
        let itemLocation = SourceLocation(file: displayName, record: "itemId \(itemId)")
        var timestamp = previous
        var isTimeUnknown = false
        let tsText = meta["itemTs"]?.stringValue ?? meta["createdAt"]?.stringValue
        if let t = tsText.flatMap({ Timestamp.parse($0) }) {
            timestamp = t
        } else {
            isTimeUnknown = true
            try sink.report(.warning(itemLocation, "unreadable itemTs; using the previous item's time"))
        }

        let dirTag = SimplexJSON.tagged(v["chatDir"])
        let sent = dirTag.map { $0.tag.hasSuffix("Snd") } ?? false
        var memberId: String? = nil
        switch dirTag?.tag {
        case "groupRcv"?, "channelRcv"?:
            if let m = dirTag?.body["groupMember"] { memberId = try emitMember(m, isUser: false, &ctx, sink) }
        case "groupSnd"?: memberId = ctx.ownMemberId
        case "directRcv"?: memberId = ctx.peerMemberId
        default: break
        }

        let itemText = meta["itemText"]?.stringValue ?? ""
        var direction: ItemDirection = sent ? .snd : .rcv
        var content = MessageContent(type: .unknown, text: itemText)
        var isDeleted = !(meta["itemDeleted"]?.isNull ?? true)
        if let (tag, body) = SimplexJSON.tagged(v["content"]) {
            switch tag {
            case "sndMsgContent", "rcvMsgContent": content = SimplexJSON.messageContent(body["msgContent"])
            case "chatBanner": return nil
            case "sndDeleted", "rcvDeleted", "sndModerated", "rcvModerated", "rcvBlocked":
                content = MessageContent(type: .text, text: itemText)
                isDeleted = true
            case "invalidJSON": break
            default:
                direction = .event
                content = MessageContent(type: .event, text: itemText)
            }
        } else {
            try sink.report(.warning(itemLocation, "content is missing or unknown; keeping meta.itemText"))
        }

        var mentions: [String: MentionTarget] = [:]
        if case .object(let entries)? = v["mentions"] {
            for (name, target) in entries {
                let member = target["memberId"]?.stringValue
                mentions[name] = MentionTarget(
                    memberSourceId: member, isUserMention: member != nil && member == ctx.ownMemberId)
            }
        }

        var quote: Quote? = nil
        if let q = v["quotedItem"], !q.isNull {
            quote = Quote(
                itemSourceId: SimplexJSON.idString(q["itemId"]), text: SimplexJSON.messageContent(q["content"]).text)
        }

        var reactions: [Reaction] = []
        for r in v["reactions"]?.arrayValue ?? [] {
            guard let emoji = SimplexJSON.reactionEmoji(r["reaction"]) else { continue }
            reactions.append(
                Reaction(
                    emoji: emoji, count: Int(SimplexJSON.int(r["totalReacted"]) ?? 1),
                    isMine: r["userReacted"]?.boolValue == true))
        }

        var file: FileRef? = nil
        if let f = v["file"], let name = f["fileName"]?.stringValue {
            // `fileSource.filePath` names the stored file (in the app's files folder) unless it is encrypted.
            let source = f["fileSource"]
            let stored = (source?["cryptoArgs"]?.isNull ?? true) ? source?["filePath"]?.stringValue : nil
            let path = stored.flatMap { JSONField.relativePath($0) }.map {
                $0.hasPrefix("simplex_v1_files/") ? $0 : "simplex_v1_files/" + $0
            }
            file = FileRef(name: name, size: SimplexJSON.int(f["fileSize"]), path: path)
        }

        let status =
            SimplexJSON.tagged(meta["itemStatus"]).map { SimplexJSON.status(tag: $0.tag) } ?? (
                unread: false, status: nil
            )
        let markup: Markup = SimplexJSON.formattedText(v["formattedText"]).map { .formatted($0) } ?? .simplex

        return Item(
            chatSourceId: ctx.chatSourceId, sourceId: itemId, timestamp: timestamp, direction: direction,
            memberSourceId: memberId,
            content: content, markup: markup, mentions: mentions, quote: quote, file: file, reactions: reactions,
            isEdited: SimplexJSON.bool(meta["itemEdited"]), isDeleted: isDeleted, isUnread: status.unread,
            status: sent ? status.status : nil, raw: v.jsonText, isTimeUnknown: isTimeUnknown)
    }

    private func notifications(_ settings: JSONValue?) -> NotificationMode {
        guard let n = settings?["enableNtfs"] else { return .all }
        if let b = n.boolValue { return b ? .all : .none }
        return (n.stringValue ?? SimplexJSON.tagged(n)?.tag).flatMap(NotificationMode.init) ?? .all
    }

    private func nonEmpty(_ s: String?) -> String? { s?.isEmpty == false ? s : nil }
}
