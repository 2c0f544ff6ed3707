import ChatModel
import ChatText
import GRDB

/// An app's upserts of chats, members and items: analysed before the transaction, then written
/// by the ingest's own writer code (`BatchStore.apply(_:_:)`) inside one transaction, so that
/// spans, mentions, the vocabulary, the full-text rows, positions and chat counters are made
/// exactly as an ingest makes them.
package struct LiveUpsert: @unchecked Sendable {
    fileprivate let records: [ArchiveWriter.Pending]
    fileprivate let terms: TermSet
    /// Chat source ids the members and items need, other than those of the chats upserted with them.
    fileprivate let neededChats: [String]

    /// Analyses the values (markdown, display text, tokens, name keys) on the caller's thread.
    package init(chats: [Chat] = [], members: [Member] = [], items: [Item] = []) {
        let terms = TermSet()
        var records: [ArchiveWriter.Pending] = []
        records.reserveCapacity(chats.count + members.count + items.count)
        for c in chats {
            let c = c.storable
            records.append(
                .chat(
                    c, nameKey: ChatNames.key(c.displayName, c.fullName, c.localAlias),
                    translitKey: ChatNames.transliterationKey(c.displayName, c.fullName, c.localAlias)))
        }
        for m in members {
            let m = m.storable
            records.append(
                .member(
                    m, nameKey: ChatNames.key(m.displayName, m.fullName, m.localAlias),
                    searchKey: MemberNames.searchKey(m)))
        }
        for i in items {
            let prepared = PreparedItem(i.storable)
            terms.add(prepared.textTokens)
            if let extra = prepared.extraTokens { terms.add(extra) }
            records.append(.item(prepared))
        }
        let upserted = Set(chats.map(\.sourceId.storable))
        var needed: [String] = []
        var seen = Set<String>()
        for id in (members.map(\.chatSourceId) + items.map(\.chatSourceId)).map(\.storable)
        where !upserted.contains(id) && seen.insert(id).inserted {
            needed.append(id)
        }
        self.records = records
        self.terms = terms
        self.neededChats = needed
    }

    /// Writes the values in the caller's transaction (a transaction of ``ArchiveDatabase/liveWrite(_:)``,
    /// through the archive's live store, whose id caches last while no one else writes).
    /// Throws ``ArchiveError`` naming the first chat that neither exists nor is upserted in the
    /// same call (nothing is written then).
    package func write(to database: ArchiveDatabase, _ db: Database) throws {
        let store = database.liveStore.store(for: database)
        for chat in neededChats where try store.chatId(chat, db) == nil {
            throw ArchiveError.unknownChat(chat)
        }
        guard !records.isEmpty else { return }
        store.terms = terms
        store.issues.removeAll()
        store.summary = IngestSummary()
        try store.apply(records, db)
    }
}

/// The store of an archive's live upserts, kept from one call to the next: chat and member ids,
/// the chats' newest positions and read marks, and the terms known to the vocabulary stay
/// cached while no other writer commits (the store notices
/// one by `data_version` and its connection's change count, and looks everything up again).
/// Touched only inside the writer's transactions, which run one at a time.
package final class LiveStoreSlot: @unchecked Sendable {
    private var current: BatchStore?

    package init() {}

    func store(for database: ArchiveDatabase) -> BatchStore {
        if let current { return current }
        let store = BatchStore(database: database, startedEmpty: false, terms: TermSet(), checkpointer: nil)
        store.knownTerms = []
        current = store
        return store
    }

    /// After a live write that failed, possibly at its commit: the caches may hold what was rolled back.
    package func forgetCaches() { current?.forgetCaches() }

    /// Runs a write that changes nothing the caches hold (see ``BatchStore/keepingCaches(_:_:)``).
    func keepingCaches<T>(_ db: Database, _ body: () throws -> T) rethrows -> T {
        guard let current else { return try body() }
        return try current.keepingCaches(db, body)
    }
}
