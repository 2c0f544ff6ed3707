import ChatIndex
import ChatModel
import ChatSearch

/// The façade's read queries, each written once as work on one of the archive's connections:
/// ``Archive``'s `async` methods await it on the pool (``Archive/observeChats(matching:filter:limit:)``
/// and the other observations repeat it), ``Archive/Blocking`` runs it on the calling thread.
enum ArchiveQuery {
    /// ``Archive/chats(matching:filter:limit:)``.
    static func chats(matching query: String?, filter: ChatFilter, limit: Int) -> ArchiveDatabase.Access<[ChatRow]> {
        { db in try ChatList.chats(matching: query, filter: filter, limit: limit, in: db) }
    }

    /// ``Archive/chats(matching:filter:limit:after:)``, from the position its cursor stands for.
    static func chats(matching query: String?, filter: ChatFilter, limit: Int, after position: ChatListCursor?)
        -> ArchiveDatabase.Access<ChatListPage>
    {
        { db in try ChatList.page(matching: query, filter: filter, limit: limit, after: position, in: db) }
    }

    /// ``Archive/chats(ids:)``.
    static func chats(ids: [String]) -> ArchiveDatabase.Access<[ChatRow]> {
        { db in try ChatList.chats(ids: ids, in: db) }
    }

    /// ``Archive/chatFilterCounts()``.
    static let chatFilterCounts: ArchiveDatabase.Access<ChatFilterCounts> = { db in try ChatList.filterCounts(in: db) }

    /// ``Archive/search(_:options:)``.
    static func search(_ query: String, options: SearchOptions) -> ArchiveDatabase.Access<SearchPage> {
        { db in try MessageSearch.search(query, options: options, in: db) }
    }

    /// ``Archive/histogram(_:by:options:exact:)``.
    static func histogram(_ query: String, by period: HistogramPeriod, options: SearchOptions, exact: Bool)
        -> ArchiveDatabase.Access<SearchHistogram>
    {
        { db in try MessageSearch.histogram(query, period: period, exact: exact, options: options, in: db) }
    }

    /// ``Archive/searchCount(_:options:positionOf:limit:)``.
    static func searchCount(_ query: String, options: SearchOptions, positionOf item: Int64?, limit: Int?)
        -> ArchiveDatabase.Access<SearchCount>
    {
        { db in try MessageSearch.count(query, options: options, positionOf: item, limit: limit, in: db) }
    }

    /// ``Archive/items(in:window:content:search:)``.
    static func items(chat: String, _ request: WindowRequest, content: ContentFilter?, search: String?)
        -> ArchiveDatabase.Access<ItemWindow>
    {
        { db in try ItemWindows.window(chat: chat, request, content: content, search: search, in: db) }
    }

    /// ``Archive/observeItemWindow(in:window:content:search:)``: the window grown by what the
    /// observer loaded since.
    static func items(
        chat: String, _ request: WindowRequest, content: ContentFilter?, search: String?, growth: WindowGrowth
    ) -> ArchiveDatabase.Access<ItemWindow> {
        { db in
            let (older, newer) = growth.extents
            return try ItemWindows.window(
                chat: chat, request, content: content, search: search, older: older, newer: newer, in: db)
        }
    }

    /// ``Archive/media(in:kind:limit:after:)``.
    static func media(chat: String, kind: MediaKind, limit: Int, after cursor: String?)
        -> ArchiveDatabase.Access<MediaPage>
    {
        { db in try SharedMedia.page(chat: chat, kind: kind, limit: limit, cursor: cursor, in: db) }
    }

    /// ``Archive/itemId(chat:sourceId:)``.
    static func itemId(chat: String, sourceId: String) -> ArchiveDatabase.Access<Int64?> {
        { db in try ItemWindows.itemId(chat: chat, sourceId: sourceId, in: db) }
    }

    /// ``Archive/members(chat:matching:limit:)``.
    static func members(chat: String, matching query: String, limit: Int) -> ArchiveDatabase.Access<[ChatMember]> {
        { db in try MemberSearch.members(chat: chat, matching: query, limit: limit, in: db) }
    }

    /// ``Archive/memberNames(matching:limit:)``.
    static func memberNames(matching query: String, limit: Int) -> ArchiveDatabase.Access<[MemberName]> {
        { db in try MemberSearch.names(matching: query, limit: limit, in: db) }
    }

    /// ``Archive/unreadCounters()``.
    static let unreadCounters: ArchiveDatabase.Access<UnreadCounters> = { db in try UnreadCounters.fetch(db) }
}
