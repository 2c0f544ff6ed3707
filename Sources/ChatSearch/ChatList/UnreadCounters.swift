import GRDB

/// The unread badges of a chat app: what the unread tab and the app icon show.
public struct UnreadCounters: Sendable, Hashable, Encodable {
    /// Chats the unread tab lists (see `ChatFilter/unread`).
    public var unreadChats: Int
    /// Unread items in chats that are not muted.
    public var unreadItems: Int
    /// Unread items that mention the user, in every chat.
    public var unreadMentions: Int

    /// Creates counters (for previews and tests).
    public init(unreadChats: Int, unreadItems: Int, unreadMentions: Int) {
        self.unreadChats = unreadChats
        self.unreadItems = unreadItems
        self.unreadMentions = unreadMentions
    }

    /// The counters now, from the chat rows (the chat list's own counters).
    package static func fetch(_ db: Database) throws -> UnreadCounters {
        let (unread, _) = ChatFilter.unread.condition
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT count(*) FILTER (WHERE \(unread)),
                        coalesce(sum(unreadCount) FILTER (WHERE notifications <> 'none'), 0),
                        coalesce(sum(unreadMentions), 0)
                    FROM chat
                    """))
        return UnreadCounters(unreadChats: row?[0] ?? 0, unreadItems: row?[1] ?? 0, unreadMentions: row?[2] ?? 0)
    }
}
