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

    static let selection = """
        item.id, chat.sourceId AS chatSourceId, item.sourceId, item.ts, item.dir, item.contentType, item.text, item.flags,
        item.fileName, item.fileSize, item.previewUri, item.previewTitle, item.previewDescription, item.duration,
        item.quoteSourceId, item.quoteText, item.reactions, item.status,
        member.displayName AS memberName, member.localAlias AS memberAlias, member.isUser AS memberIsUser
        FROM item JOIN chat ON chat.id = item.chatId LEFT JOIN member ON member.id = item.memberId
        """

    init(row: Row) {
        id = row["id"]
        chatId = row["chatSourceId"]
        sourceId = row["sourceId"]
        timestamp = Timestamp(milliseconds: row["ts"])
        direction = ItemDirection(code: row["dir"])
        contentType = ContentType(code: row["contentType"])
        text = row["text"]
        let flags = ItemFlags(rawValue: row["flags"])
        isEdited = flags.contains(.edited)
        isDeleted = flags.contains(.deleted)
        isUnread = flags.contains(.unread)
        isPinned = flags.contains(.pinned)
        let alias: String? = row["memberAlias"]
        let name: String? = row["memberName"]
        if let alias, !alias.isEmpty { sender = alias } else { sender = name }
        if sender == nil, direction == .snd { sender = "me" }
        if let f: String = row["fileName"] { file = FileRef(name: f, size: row["fileSize"]) }
        if let u: String = row["previewUri"] {
            preview = LinkPreview(uri: u, title: row["previewTitle"] ?? "", description: row["previewDescription"] ?? "")
        }
        duration = row["duration"]
        let qText: String? = row["quoteText"]
        let qId: String? = row["quoteSourceId"]
        if qText != nil || qId != nil { quote = Quote(itemSourceId: qId, text: qText ?? "") }
        reactions = []
        if let r: String = row["reactions"], let v = try? JSONParser.parse(Array(r.utf8)), let arr = v.arrayValue {
            for x in arr {
                if let e = x["emoji"]?.stringValue, let n = x["count"]?.numberValue { reactions.append(Reaction(emoji: e, count: Int(n))) }
            }
        }
        status = (row["status"] as String?).flatMap(ItemStatus.init(rawValue:))
    }

    /// Loads items by archive id, in the order of `ids`.
    static func fetch(_ ids: [Int64], _ db: Database) throws -> [ArchivedItem] {
        guard !ids.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db, sql: "SELECT \(selection) WHERE item.id IN (\(ids.map { _ in "?" }.joined(separator: ",")))",
            arguments: StatementArguments(ids))
        var byId: [Int64: ArchivedItem] = [:]
        for r in rows {
            let i = ArchivedItem(row: r)
            byId[i.id] = i
        }
        return ids.compactMap { byId[$0] }
    }
}
