import ChatIndex
import ChatSearch

extension Archive {
    /// One page of the chat list, in the order of ``chats(matching:filter:limit:)``, and the
    /// cursor of the next page.
    ///
    /// Pass `nil` for the first page, then the previous page's `ChatListPage.nextCursor` with
    /// the same query and filter: every chat the list holds comes on exactly one page.
    ///
    /// ```swift
    /// var cursor: String? = nil
    /// repeat {
    ///     let page = try await archive.chats(matching: "zo", filter: .groups, limit: 80, after: cursor)
    ///     show(page.rows)
    ///     cursor = page.nextCursor
    /// } while cursor != nil
    /// ```
    ///
    /// - Throws: `ArchiveError` with `ArchiveError/Code/invalidCursor` for a cursor no page returned.
    public func chats(matching query: String? = nil, filter: ChatFilter = .all, limit: Int = 100, after cursor: String?)
        async throws -> ChatListPage
    {
        let position = try Archive.chatListPosition(cursor)
        return try await database.reading(
            ArchiveQuery.chats(matching: query, filter: filter, limit: limit, after: position))
    }

    /// The chat-list rows of the chats with these source ids, in the order given (how a search
    /// hit names its chat, wherever the chat is in the list); ids the archive does not hold and
    /// repeats are skipped.
    public func chats(ids: [String]) async throws -> [ChatRow] {
        try await database.reading(ArchiveQuery.chats(ids: ids))
    }

    /// The position a chat-list cursor stands for.
    ///
    /// - Throws: `ArchiveError` with `ArchiveError/Code/invalidCursor` for a cursor no page returned.
    static func chatListPosition(_ cursor: String?) throws -> ChatListCursor? {
        try cursor.map { text in
            guard let position = ChatListCursor(text) else {
                throw ArchiveError(
                    .invalidCursor,
                    "\"\(text.prefix(80))\" is not a cursor of the chat list: pass the nextCursor of the previous page")
            }
            return position
        }
    }
}
