import ChatIndex
import ChatSearch
import Foundation

/// Values that change as the archive does: a first value at once, then a new one after every
/// committed write that changes it (never a repeat of the same value), until the task that
/// iterates is cancelled or an error ends it (an `ArchiveError`).
///
/// Each iteration starts its own observation; values an observer has not taken yet are
/// replaced by newer ones, so a slow observer sees the latest state, not a backlog.
///
/// Writes through this ``Archive`` are seen as they commit; writes by another `Archive` on
/// the same file or by another program a moment later: while an observation runs, the
/// archive asks the file whether another connection committed.
///
/// The first value is read on the pool, like every later one; a screen that must draw it
/// before it returns asks for it at once with ``startingImmediately()`` or ``currentValue()``.
public struct ArchiveObservation<Element: Sendable & Equatable>: AsyncSequence, Sendable {
    /// The sequence's values.
    public typealias Element = Element
    private let fetch: ArchiveDatabase.Access<Element>
    private let database: ArchiveDatabase
    private let refresh: ObservationRefresh?
    private let startsImmediately: Bool

    init(
        _ database: ArchiveDatabase, fetch: @escaping ArchiveDatabase.Access<Element>,
        refresh: ObservationRefresh? = nil, startsImmediately: Bool = false
    ) {
        self.database = database
        self.fetch = fetch
        self.refresh = refresh
        self.startsImmediately = startsImmediately
    }

    /// The same observation, whose iteration reads its first value on the thread that starts
    /// it (`makeAsyncIterator()`), so that the first `next()` returns it without waiting for
    /// the pool: a view's first frame shows the data, not a placeholder. A failed first read
    /// is thrown by that `next()`.
    public func startingImmediately() -> ArchiveObservation {
        ArchiveObservation(database, fetch: fetch, refresh: refresh, startsImmediately: true)
    }

    /// The value now, read on the calling thread (the initial state of a view that then
    /// iterates the observation).
    ///
    /// - Throws: `ArchiveError`.
    public func currentValue() throws -> Element { try database.reading(fetch) }

    /// Starts the observation.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: database.observe(fetch, refresh: refresh).makeAsyncIterator(),
            first: startsImmediately ? Result { try currentValue() } : nil)
    }

    /// Iterates an ``ArchiveObservation``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
        /// The first value, when it was read as the iteration started.
        var first: Result<Element, any Error>?
        /// The value returned last: the observation starts over when its question changes
        /// (``ItemWindowObservation/loadOlder(_:)``), and a same answer is not repeated.
        var last: Element?

        /// The next value; `nil` when the task is cancelled.
        public mutating func next() async throws -> Element? {
            if let first {
                self.first = nil
                last = try first.get()
                return last
            }
            while let value = try await base.next() {
                if value != last {
                    last = value
                    return value
                }
            }
            return nil
        }
    }
}

/// A window of a chat observed as a chat view shows it: it grows as the user scrolls back
/// (``loadOlder(_:)``) or forward (``loadNewer(_:)``), and a new value follows each growth at
/// once and each write that changes what it shows.
///
/// ```swift
/// let window = archive.observeItemWindow(in: "g1", window: .last(50))
/// Task { for try await items in window { show(items) } }
/// // The user scrolled to the top:
/// window.loadOlder(50)
/// ```
public final class ItemWindowObservation: AsyncSequence, Sendable {
    /// The window's values.
    public typealias Element = ItemWindow

    /// The window's values, as an observation (``ArchiveObservation/startingImmediately()``
    /// gives the first at once).
    public let values: ArchiveObservation<ItemWindow>
    private let growth: WindowGrowth
    private let refresh: ObservationRefresh

    init(values: ArchiveObservation<ItemWindow>, growth: WindowGrowth, refresh: ObservationRefresh) {
        self.values = values
        self.growth = growth
        self.refresh = refresh
    }

    /// Adds up to `count` items before the oldest shown (fewer at the start of the chat).
    public func loadOlder(_ count: Int = 50) {
        growth.grow(older: Swift.max(0, count), newer: 0)
        refresh.fire()
    }

    /// Adds up to `count` items after the newest shown (fewer at its end).
    public func loadNewer(_ count: Int = 50) {
        growth.grow(older: 0, newer: Swift.max(0, count))
        refresh.fire()
    }

    /// Starts iterating the window's values.
    public func makeAsyncIterator() -> ArchiveObservation<ItemWindow>.AsyncIterator { values.makeAsyncIterator() }
}

/// How far an observed window has grown beyond its request, changed from any thread.
final class WindowGrowth: @unchecked Sendable {
    private let lock = NSLock()
    private var older = 0
    private var newer = 0

    /// The items added before and after the request's window.
    var extents: (older: Int, newer: Int) { lock.withLock { (older, newer) } }

    func grow(older more: Int, newer further: Int) {
        lock.withLock {
            older = min(older + more, 1_000_000)
            newer = min(newer + further, 1_000_000)
        }
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

    /// A window of a chat (as ``items(in:window:content:search:)``), again whenever it changes.
    /// An unknown chat or anchor ends the sequence with an error.
    public func observeItems(
        in chat: String, window request: WindowRequest, content: ContentFilter? = nil, search: String? = nil
    ) -> ArchiveObservation<ItemWindow> {
        ArchiveObservation(database, fetch: ArchiveQuery.items(chat: chat, request, content: content, search: search))
    }

    /// ``observeItems(in:window:content:search:)`` under its 0.1.0 name.
    @available(*, deprecated, renamed: "observeItems(in:window:content:search:)")
    public func observeItems(
        chat: String, _ request: WindowRequest, content: ContentFilter? = nil, search: String? = nil
    )
        -> ArchiveObservation<ItemWindow>
    {
        observeItems(in: chat, window: request, content: content, search: search)
    }

    /// A window of a chat (as ``items(in:window:content:search:)``) that grows as the user
    /// scrolls: see ``ItemWindowObservation``. An unknown chat or anchor ends it with an error.
    ///
    /// - Complexity: each value reads the request's window and what was loaded around it, in
    ///   one read transaction.
    public func observeItemWindow(
        in chat: String, window request: WindowRequest, content: ContentFilter? = nil, search: String? = nil
    ) -> ItemWindowObservation {
        let growth = WindowGrowth()
        let refresh = ObservationRefresh()
        let fetch = ArchiveQuery.items(chat: chat, request, content: content, search: search, growth: growth)
        return ItemWindowObservation(
            values: ArchiveObservation(database, fetch: fetch, refresh: refresh), growth: growth, refresh: refresh)
    }

    /// One page of the chat list (as ``chats(matching:filter:limit:after:)``), again whenever
    /// it changes. A cursor no page returned ends it with `ArchiveError/Code/invalidCursor`.
    public func observeChats(
        matching query: String? = nil, filter: ChatFilter = .all, limit: Int = 100, after cursor: String?
    )
        -> ArchiveObservation<ChatListPage>
    {
        let position = Result { try Archive.chatListPosition(cursor) }
        return ArchiveObservation(database) { db in
            try ArchiveQuery.chats(matching: query, filter: filter, limit: limit, after: position.get())(db)
        }
    }

    /// The counts beside the chat list's tabs (as ``chatFilterCounts()``), again whenever they change.
    public func observeChatFilterCounts() -> ArchiveObservation<ChatFilterCounts> {
        ArchiveObservation(database, fetch: ArchiveQuery.chatFilterCounts)
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
    /// (see `MemberSearch/members(chat:matching:limit:spread:common:in:)`): word starts before inner parts,
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
