import ChatIndex
import ChatSearch
import GRDB

extension Archive {
    /// The queries of a process that makes one query and exits (the CLI's read commands), as
    /// blocking calls: each runs on the calling thread. The `async` API hops to the
    /// cooperative thread pool and then to the connection's queue; for one query, starting
    /// those threads (their stacks, a new malloc arena, the faults of their first pages) costs
    /// a short-lived process more than the query does.
    package struct Blocking: Sendable {
        let archive: Archive

        /// Runs a read on this thread, turning SQLite's errors into `ArchiveError`s as every read does.
        private func reading<T>(_ body: (Database) throws -> T) throws -> T {
            if let damage = archive.database.damage { throw damage }
            return try ArchiveError.mapping(path: archive.database.path) { try archive.database.writer.read(body) }
        }

        /// ``Archive/search(_:options:)``.
        package func search(_ query: String, options: SearchOptions = SearchOptions()) throws -> SearchPage {
            try reading { db in try MessageSearch.search(query, options: options, in: db) }
        }

        /// ``Archive/chats(matching:filter:limit:after:)``.
        package func chats(matching query: String?, filter: ChatFilter, limit: Int, after cursor: String?) throws
            -> ChatListPage
        {
            let position = try Archive.chatListPosition(cursor)
            return try reading { db in
                try ChatList.page(matching: query, filter: filter, limit: limit, after: position, in: db)
            }
        }

        /// ``Archive/chats(ids:)``.
        package func chats(ids: [String]) throws -> [ChatRow] {
            try reading { db in try ChatList.chats(ids: ids, in: db) }
        }

        /// ``Archive/chatFilterCounts()``.
        package func chatFilterCounts() throws -> ChatFilterCounts {
            try reading { db in try ChatList.filterCounts(in: db) }
        }

        /// ``Archive/items(chat:_:content:search:)``.
        package func items(chat: String, _ request: WindowRequest, content: ContentFilter?, search: String?) throws
            -> ItemWindow
        {
            try reading { db in try ItemWindows.window(chat: chat, request, content: content, search: search, in: db) }
        }

        /// ``Archive/itemId(chat:sourceId:)``.
        package func itemId(chat: String, sourceId: String) throws -> Int64? {
            try reading { db in try ItemWindows.itemId(chat: chat, sourceId: sourceId, in: db) }
        }

        /// ``Archive/stats()``.
        package func stats() throws -> ArchiveStats {
            if let damage = archive.database.damage { throw damage }
            return try ArchiveError.mapping(path: archive.database.path) {
                try ArchiveMaintenance.stats(archive.database)
            }
        }
    }

    /// The blocking forms of the queries (see ``Blocking``).
    package var blocking: Blocking { Blocking(archive: self) }
}
