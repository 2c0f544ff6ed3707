import ChatIndex
import ChatSearch
import Dispatch
import GRDB

/// Values that change as the archive does: a first value at once, then a new one after every
/// committed write that changes it (never a repeat of the same value), until the task that
/// iterates is cancelled or an error ends it.
///
/// Each iteration starts its own observation; values an observer has not taken yet are
/// replaced by newer ones, so a slow observer sees the latest state, not a backlog.
public struct ArchiveObservation<Element: Sendable & Equatable>: AsyncSequence, Sendable {
    /// The sequence's values.
    public typealias Element = Element
    private let fetch: @Sendable (Database) throws -> Element
    private let database: ArchiveDatabase

    init(_ database: ArchiveDatabase, fetch: @escaping @Sendable (Database) throws -> Element) {
        self.database = database
        self.fetch = fetch
    }

    /// Starts the observation.
    public func makeAsyncIterator() -> AsyncIterator {
        let fetch = self.fetch
        let writer = database.writer
        let stream = AsyncThrowingStream<Element, any Error>(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let cancellable = ValueObservation.tracking { db in try fetch(db) }
                .removeDuplicates()
                .start(
                    in: writer, scheduling: .task,
                    onError: { continuation.finish(throwing: $0) },
                    onChange: { continuation.yield($0) })
            continuation.onTermination = { _ in cancellable.cancel() }
        }
        return AsyncIterator(base: stream.makeAsyncIterator())
    }

    /// Iterates an ``ArchiveObservation``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator

        /// The next value; `nil` when the task is cancelled.
        public mutating func next() async throws -> Element? { try await base.next() }
    }
}

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

    static func fetch(_ db: Database) throws -> UnreadCounters {
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

extension Archive {
    /// The chat list (as ``chats(matching:filter:limit:)``), again whenever it changes:
    /// a new message, a read, a renamed or muted chat.
    public func observeChats(matching query: String? = nil, filter: ChatFilter = .all, limit: Int = 100)
        -> ArchiveObservation<[ChatRow]>
    {
        ArchiveObservation(database) { db in try ChatList.chats(matching: query, filter: filter, limit: limit, in: db) }
    }

    /// A window of a chat (as ``items(chat:_:content:search:)``), again whenever it changes.
    /// An unknown chat or anchor ends the sequence with an error.
    public func observeItems(
        chat: String, _ request: WindowRequest, content: ContentFilter? = nil, search: String? = nil
    )
        -> ArchiveObservation<ItemWindow>
    {
        ArchiveObservation(database) { db in
            try ItemWindows.window(chat: chat, request, content: content, search: search, in: db)
        }
    }

    /// The unread counters, now.
    public func unreadCounters() async throws -> UnreadCounters {
        try await database.writer.read { db in try UnreadCounters.fetch(db) }
    }

    /// The unread counters (as ``unreadCounters()``), again whenever they change.
    public func observeUnreadCounters() -> ArchiveObservation<UnreadCounters> {
        ArchiveObservation(database) { db in try UnreadCounters.fetch(db) }
    }

    /// Mention autocomplete: the members of a group matching what the user typed after `@`
    /// (see `MemberSearch/members(chat:matching:limit:in:)`): word starts before inner parts,
    /// recent writers first, the user and members who left excluded.
    public func members(chat: String, matching query: String, limit: Int = 10) async throws -> [ChatMember] {
        try await database.writer.read { db in
            try MemberSearch.members(chat: chat, matching: query, limit: limit, in: db)
        }
    }
}
