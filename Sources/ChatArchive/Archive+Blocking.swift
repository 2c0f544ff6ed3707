import ChatIndex
import ChatSearch

extension Archive {
    /// The queries of a process that makes one query and exits (the CLI's read commands), as
    /// blocking calls: each runs on the calling thread. The `async` API hops to the
    /// cooperative thread pool and then to the connection's queue; for one query, starting
    /// those threads (their stacks, a new malloc arena, the faults of their first pages) costs
    /// a short-lived process more than the query does.
    ///
    /// Each call runs the same ``ArchiveQuery`` as its `async` twin.
    package struct Blocking: Sendable {
        let archive: Archive

        /// ``Archive/search(_:options:)``.
        package func search(_ query: String, options: SearchOptions = SearchOptions()) throws -> SearchPage {
            try archive.database.reading(ArchiveQuery.search(query, options: options))
        }

        /// ``Archive/searchCount(_:options:positionOf:limit:)``.
        package func searchCount(_ query: String, options: SearchOptions, limit: Int? = SearchCount.defaultLimit)
            throws -> SearchCount
        {
            try archive.database.reading(
                ArchiveQuery.searchCount(query, options: options, positionOf: nil, limit: limit))
        }

        /// ``Archive/histogram(_:by:options:exact:)``.
        package func histogram(_ query: String, by period: HistogramPeriod, options: SearchOptions, exact: Bool)
            throws -> SearchHistogram
        {
            try archive.database.reading(ArchiveQuery.histogram(query, by: period, options: options, exact: exact))
        }

        /// ``Archive/chats(matching:filter:limit:after:)``.
        package func chats(matching query: String?, filter: ChatFilter, limit: Int, after cursor: String?) throws
            -> ChatListPage
        {
            let position = try Archive.chatListPosition(cursor)
            return try archive.database.reading(
                ArchiveQuery.chats(matching: query, filter: filter, limit: limit, after: position))
        }

        /// ``Archive/chats(ids:)``.
        package func chats(ids: [String]) throws -> [ChatRow] {
            try archive.database.reading(ArchiveQuery.chats(ids: ids))
        }

        /// ``Archive/chatFilterCounts()``.
        package func chatFilterCounts() throws -> ChatFilterCounts {
            try archive.database.reading(ArchiveQuery.chatFilterCounts)
        }

        /// ``Archive/items(in:window:content:search:)``.
        package func items(chat: String, _ request: WindowRequest, content: ContentFilter?, search: String?) throws
            -> ItemWindow
        {
            try archive.database.reading(ArchiveQuery.items(chat: chat, request, content: content, search: search))
        }

        /// ``Archive/media(in:kind:limit:after:)``.
        package func media(in chat: String, kind: MediaKind, limit: Int, after cursor: String?) throws -> MediaPage {
            try archive.database.reading(ArchiveQuery.media(chat: chat, kind: kind, limit: limit, after: cursor))
        }

        /// ``Archive/itemId(chat:sourceId:)``.
        package func itemId(chat: String, sourceId: String) throws -> Int64? {
            try archive.database.reading(ArchiveQuery.itemId(chat: chat, sourceId: sourceId))
        }

        /// ``Archive/members(chat:matching:limit:)``.
        package func members(chat: String, matching query: String, limit: Int) throws -> [ChatMember] {
            try archive.database.reading(ArchiveQuery.members(chat: chat, matching: query, limit: limit))
        }

        /// ``Archive/memberNames(matching:limit:)``.
        package func memberNames(matching query: String, limit: Int) throws -> [MemberName] {
            try archive.database.reading(ArchiveQuery.memberNames(matching: query, limit: limit))
        }

        /// ``Archive/stats()``.
        package func stats() throws -> ArchiveStats {
            if let damage = archive.database.damage { throw damage }
            return try ArchiveError.mapping(path: archive.database.path) { try ArchiveStats.read(archive.database) }
        }
    }

    /// The blocking forms of the queries (see ``Blocking``).
    package var blocking: Blocking { Blocking(archive: self) }
}
