import ChatIndex
import ChatSearch

/// Values that change as the archive does: a first value at once, then a new one after every
/// committed write that changes it (never a repeat of the same value), until the task that
/// iterates is cancelled or an error ends it.
///
/// Each iteration starts its own observation; values an observer has not taken yet are
/// replaced by newer ones, so a slow observer sees the latest state, not a backlog.
public struct ArchiveObservation<Element: Sendable & Equatable>: AsyncSequence, Sendable {
    /// The sequence's values.
    public typealias Element = Element
    private let fetch: ArchiveDatabase.Access<Element>
    private let database: ArchiveDatabase

    init(_ database: ArchiveDatabase, fetch: @escaping ArchiveDatabase.Access<Element>) {
        self.database = database
        self.fetch = fetch
    }

    /// Starts the observation.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: database.observe(fetch).makeAsyncIterator())
    }

    /// Iterates an ``ArchiveObservation``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator

        /// The next value; `nil` when the task is cancelled.
        public mutating func next() async throws -> Element? { try await base.next() }
    }
}

extension Archive {
    /// The chat list (as ``chats(matching:filter:limit:)``), again whenever it changes:
    /// a new message, a read, a renamed or muted chat.
    public func observeChats(matching query: String? = nil, filter: ChatFilter = .all, limit: Int = 100)
        -> ArchiveObservation<[ChatRow]>
    {
        ArchiveObservation(database, fetch: ArchiveQuery.chats(matching: query, filter: filter, limit: limit))
    }

    /// A window of a chat (as ``items(chat:_:content:search:)``), again whenever it changes.
    /// An unknown chat or anchor ends the sequence with an error.
    public func observeItems(
        chat: String, _ request: WindowRequest, content: ContentFilter? = nil, search: String? = nil
    )
        -> ArchiveObservation<ItemWindow>
    {
        ArchiveObservation(database, fetch: ArchiveQuery.items(chat: chat, request, content: content, search: search))
    }

    /// The unread counters, now.
    public func unreadCounters() async throws -> UnreadCounters {
        try await database.reading(ArchiveQuery.unreadCounters)
    }

    /// The unread counters (as ``unreadCounters()``), again whenever they change.
    public func observeUnreadCounters() -> ArchiveObservation<UnreadCounters> {
        ArchiveObservation(database, fetch: ArchiveQuery.unreadCounters)
    }

    /// Mention autocomplete: the members of a group matching what the user typed after `@`
    /// (see `MemberSearch/members(chat:matching:limit:in:)`): word starts before inner parts,
    /// recent writers first, the user and members who left excluded.
    public func members(chat: String, matching query: String, limit: Int = 10) async throws -> [ChatMember] {
        try await database.reading(ArchiveQuery.members(chat: chat, matching: query, limit: limit))
    }

    /// `from:` autocomplete in a search of all chats: member names of every chat matching what
    /// the user typed, folded and ranked as ``members(chat:matching:limit:)`` ranks them, one
    /// row per name with the number of chats it is in.
    public func memberNames(matching query: String, limit: Int = 10) async throws -> [MemberName] {
        try await database.reading(ArchiveQuery.memberNames(matching: query, limit: limit))
    }
}
