import ChatIndex
import ChatModel
import GRDB

/// An item as the archive stores it, ready to show.
public struct ArchivedItem: Sendable, Hashable {
    /// The archive id (stable; follows time).
    public var id: Int64
    /// The chat's source id.
    public var chatId: String
    /// The item's id in its source.
    public var sourceId: String
    /// When the item was sent.
    public var timestamp: Timestamp
    /// Sent, received, or an event.
    public var direction: ItemDirection
    /// The sender's shown name (`nil` for events without one).
    public var sender: String?
    /// The content type.
    public var contentType: ContentType
    /// Display text: markdown markers removed.
    public var text: String
    /// The item was edited.
    public var isEdited: Bool
    /// The item was deleted.
    public var isDeleted: Bool
    /// The user has not read the item.
    public var isUnread: Bool
    /// The item is pinned.
    public var isPinned: Bool
    /// The attachment, if any.
    public var file: FileRef?
    /// The link preview, for `link` items.
    public var preview: LinkPreview?
    /// Length in seconds, for `video` and `voice` items.
    public var duration: Int?
    /// The item this one replies to.
    public var quote: Quote?
    /// Reaction counts, one per emoji.
    public var reactions: [Reaction]
    /// The delivery status of a sent item, when recorded.
    public var status: ItemStatus?
    /// The time was a zone-less wall clock (WhatsApp) placed in the zone chosen at import.
    public var isFloatingTime: Bool = false
    /// For floating times, the wall clock as the source wrote it (`YYYY-MM-DDTHH:MM[:SS]`).
    public var wallClock: String? = nil
    /// The source's time was missing or unreadable (the previous item's time is shown).
    public var isTimeUnknown: Bool = false
    /// Attachments after the first (``file``).
    public var moreFiles: [FileRef] = []
    /// The sender's member source id (`Member/sourceId`), which tells apart two members with
    /// one name; `nil` for the user's own items in direct chats, events, and senders the export
    /// named without a member.
    public var memberSourceId: String? = nil
    /// The text as its source gave it, as typed with its markdown markers (what an edit starts
    /// from); ``text`` is what is shown.
    public var sourceText: String = ""
    /// The mentions in ``text``, in text order.
    public var mentions: [ArchivedMention] = []
    /// The archive id of the item ``quote`` quotes, when the archive holds it: the anchor of
    /// `.around(_:count:)` for a quote jump.
    public var quotedItemId: Int64? = nil

    static let selection = """
        item.id, chat.sourceId AS chatSourceId, item.sourceId, item.ts, item.dir, item.contentType, chat_text(item.text), item.flags,
        item.fileName, item.fileSize, item.previewUri, item.previewTitle, item.previewDescription, item.duration,
        item.quoteSourceId, item.quoteText, item.reactions, item.status,
        member.displayName AS memberName, member.localAlias AS memberAlias, member.isUser AS memberIsUser,
        item.filePath, item.moreFiles, item.wallClock, chat.readTs, chat.readId,
        item.sourceText, member.sourceId, quoted.id, quoted.dir, quotedMember.sourceId, quotedMember.displayName,
        quotedMember.localAlias,
        (SELECT json_group_array(json_array(span.start, span."end", span.name, mentioned.sourceId, mention.isUser))
            FROM (SELECT itemSpan.start, itemSpan."end", json_extract(itemSpan.format, '$.memberName') AS name
                  FROM itemSpan WHERE itemSpan.itemId = item.id AND itemSpan.type = 'mention') AS span
            LEFT JOIN itemMention AS mention ON mention.itemId = item.id AND mention.name = span.name
            LEFT JOIN member AS mentioned ON mentioned.id = mention.memberId)
        FROM item JOIN chat ON chat.id = item.chatId LEFT JOIN member ON member.id = item.memberId
        LEFT JOIN item AS quoted ON quoted.chatId = item.chatId AND quoted.sourceId = item.quoteSourceId
        LEFT JOIN member AS quotedMember ON quotedMember.id = quoted.memberId
        """

    /// Decodes a row of ``selection`` (by position: name lookups cost more than the decoding).
    init(row: Row) {
        id = row[0]
        chatId = row[1]
        sourceId = row[2]
        timestamp = Timestamp(milliseconds: row[3])
        direction = ItemDirection(code: row[4])
        contentType = ContentType(code: row[5])
        text = row[6]
        let flags = ItemFlags(rawValue: row[7])
        isEdited = flags.contains(.edited)
        isDeleted = flags.contains(.deleted)
        // Unread: flagged, and after the chat's read mark (see ReadMark).
        isUnread = flags.contains(.unread) && !ReadMark(ts: row[24], id: row[25]).covers(ts: row[3], id: id)
        isPinned = flags.contains(.pinned)
        if let f: String = row[8] { file = FileRef(name: f, size: row[9], path: row[21]) }
        isFloatingTime = flags.contains(.floatingTime)
        isTimeUnknown = flags.contains(.timeUnknown)
        wallClock = row[23]
        moreFiles = []
        if let m: String = row[22], let v = try? JSONParser.parse(Array(m.utf8)), let arr = v.arrayValue {
            for x in arr {
                guard let name = x["name"]?.stringValue else { continue }
                moreFiles.append(
                    FileRef(name: name, size: x["size"]?.numberValue.map { Int64($0) }, path: x["path"]?.stringValue))
            }
        }
        if let u: String = row[10] {
            preview = LinkPreview(uri: u, title: row[11] ?? "", description: row[12] ?? "")
        }
        duration = row[13]
        let qId: String? = row[14]
        let qText: String? = row[15]
        if qText != nil || qId != nil {
            var q = Quote(itemSourceId: qId, text: qText ?? "")
            q.memberSourceId = row[30]
            q.sender = Self.shownName(
                name: row[31], alias: row[32], isUser: (row[29] as Int64?) == ItemDirection.snd.code)
            quote = q
            quotedItemId = row[28]
        }
        reactions = []
        if let r: String = row[16], let v = try? JSONParser.parse(Array(r.utf8)), let arr = v.arrayValue {
            for x in arr {
                if let e = x["emoji"]?.stringValue, let n = x["count"]?.numberValue {
                    reactions.append(Reaction(emoji: e, count: Int(n), isMine: x["mine"]?.boolValue == true))
                }
            }
        }
        status = (row[17] as String?).flatMap(ItemStatus.init(rawValue:))
        sender = Self.shownName(name: row[18], alias: row[19], isUser: direction == .snd)
        memberSourceId = row[27]
        sourceText = row[26] ?? text
        if let m: String = row[33], m != "[]", let v = try? JSONParser.parse(Array(m.utf8)), let arr = v.arrayValue {
            mentions = arr.compactMap { x in
                guard let f = x.arrayValue, f.count == 5, let start = f[0].numberValue, let end = f[1].numberValue,
                    start <= end, let name = f[2].stringValue
                else { return nil }
                return ArchivedMention(
                    name: name, range: Int(start)..<Int(end), memberSourceId: f[3].stringValue,
                    isUserMention: (f[4].numberValue ?? 0) != 0)
            }.sorted { $0.range.lowerBound < $1.range.lowerBound }
        }
    }

    /// A sender as shown: the local alias when set, else the name; `"me"` for the user's own
    /// items without a member.
    private static func shownName(name: String?, alias: String?, isUser: Bool) -> String? {
        if let alias, !alias.isEmpty { return alias }
        return name ?? (isUser ? "me" : nil)
    }

    /// Loads items by archive id, in the order of `ids`.
    static func fetch(_ ids: [Int64], _ db: Database) throws -> [ArchivedItem] {
        guard !ids.isEmpty else { return [] }
        // One cached statement whatever the number of ids.
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        // Rows decoded straight from the statement (no copied rows).
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT \(selection) WHERE item.id IN (SELECT value FROM json_each(?))"),
            arguments: [list])
        var byId: [Int64: ArchivedItem] = Dictionary(minimumCapacity: ids.count)
        while let r = try rows.next() {
            let i = ArchivedItem(row: r)
            byId[i.id] = i
        }
        return ids.compactMap { byId[$0] }
    }

    /// Loads up to `limit` items of a chat strictly before `before` and after `after` by
    /// `(ts, id)`, newest or oldest first: one range of the `(chatId, ts, id)` index.
    static func fetch(
        chatId: Int64, before: (ts: Int64, id: Int64)?, after: (ts: Int64, id: Int64)?, limit: Int, newestFirst: Bool,
        _ db: Database
    ) throws -> [ArchivedItem] {
        var sql = "SELECT \(selection) WHERE item.chatId = ?"
        var args: [DatabaseValueConvertible] = [chatId]
        if let before {
            sql += " AND (item.ts, item.id) < (?, ?)"
            args += [before.ts, before.id]
        }
        if let after {
            sql += " AND (item.ts, item.id) > (?, ?)"
            args += [after.ts, after.id]
        }
        sql +=
            newestFirst ? " ORDER BY item.ts DESC, item.id DESC LIMIT ?" : " ORDER BY item.ts ASC, item.id ASC LIMIT ?"
        args.append(limit)
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(args))
        var items: [ArchivedItem] = []
        items.reserveCapacity(min(limit, 1024))
        while let r = try rows.next() { items.append(ArchivedItem(row: r)) }
        return items
    }

    /// Creates an item (for previews and tests of apps that embed the library).
    public init(
        id: Int64,
        chatId: String,
        sourceId: String,
        timestamp: Timestamp,
        direction: ItemDirection,
        sender: String? = nil,
        contentType: ContentType,
        text: String,
        isEdited: Bool = false,
        isDeleted: Bool = false,
        isUnread: Bool = false,
        isPinned: Bool = false,
        file: FileRef? = nil,
        preview: LinkPreview? = nil,
        duration: Int? = nil,
        quote: Quote? = nil,
        reactions: [Reaction] = [],
        status: ItemStatus? = nil
    ) {
        self.id = id
        self.chatId = chatId
        self.sourceId = sourceId
        self.timestamp = timestamp
        self.direction = direction
        self.sender = sender
        self.contentType = contentType
        self.text = text
        self.isEdited = isEdited
        self.isDeleted = isDeleted
        self.isUnread = isUnread
        self.isPinned = isPinned
        self.file = file
        self.preview = preview
        self.duration = duration
        self.quote = quote
        self.reactions = reactions
        self.status = status
    }
}

extension ArchivedItem: Identifiable {}
