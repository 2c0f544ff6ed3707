import ChatModel
import ChatText
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// The writer thread's side: every database write and every cache of database ids.
final class BatchStore: @unchecked Sendable {
    /// Unowned: the archive keeps its live writes' store (``ArchiveDatabase/liveStore``).
    private unowned let database: ArchiveDatabase
    /// The archive had no items when this ingest began and no other writer has committed
    /// since: ids need no lookup.
    var startedEmpty: Bool
    /// `PRAGMA data_version` and the writer connection's change count when this store's last
    /// transaction ended: when either moved, another program or another writer of this one
    /// committed in between (see ``noticeOtherWriters(_:)``).
    private var lastSeen: (dataVersion: Int64, changes: Int)?
    var chatIds: [String: Int64] = [:]
    var memberIds: [MemberKey: Int64] = [:]
    var memberNames: [Int64: [String: Int64]] = [:]
    var userMember: [Int64: Int64] = [:]
    /// The archive's id scale (``ArchiveIds``), read at the first id this store allocates.
    var idScale: ArchiveIds.Scale?
    /// The archive's chat-key layout, once read (``keyLayout(_:)``).
    var keyLayout: ChatKeys.Layout?
    /// Next free id per time slot, for this batch only (memory stays bounded; a slot
    /// used by an earlier batch is found by the primary-key conflict and skipped).
    var nextSeq: [Int64: Int64] = [:]
    /// Slots used by this ingest (a one-hash filter of 2^26 bits: false positives cost a lookup).
    lazy var usedSlots = SlotFilter()
    var aggregates: [Int64: ChatAggregateDelta] = [:]
    /// The newest item time of each sender written by this batch (mention autocomplete's recency).
    var memberLastTs: [Int64: Int64] = [:]
    /// This batch's changes to the archive-wide counters.
    var counters = ArchiveCounters.Delta()
    /// The newest item of each chat written by this ingest and its position.
    var chatTail: [Int64: (ts: Int64, id: Int64, pos: Int64)] = [:]
    /// Chats that received an item before their newest one: positions are renumbered.
    var needsRenumber = Set<Int64>()
    /// Per chat, whether it is keyed (see ``ChatKeys``) and its item with the highest key.
    var keyTails: [Int64: KeyTail] = [:]
    /// Chats that lose their keys at the end of this transaction (see ``ChatKeys``).
    var losingKeys = Set<Int64>()
    /// New items of keyed chats that found no room between their neighbours' keys.
    var withoutRoom: [(chat: Int64, id: Int64)] = []
    /// The read marks of the chats written to (see ``ReadMark``), looked up once while no other
    /// writer commits.
    var readMarks: [Int64: ReadMark] = [:]
    /// Rows of this batch's FTS operations that insert a rowid (a later update replaces them).
    var pendingInsert: [Int64: Int] = [:]
    /// The item insert of the current transaction (see `insert(_:mark:_:)`); `nil` between
    /// transactions and after a failed insert.
    var itemInsert: Statement?
    /// Chats and members this transaction inserted, whose name-index rows it adds at its end
    /// (see ``writeNewNameRows(_:)``).
    var newChats: [Int64: (name: String, translit: String)] = [:]
    var newMembers: [Int64: (search: String, name: String, chat: Int64)] = [:]
    /// The short fragments (`memberNameShort`) this store has written, by folded name: many
    /// members share a name, and each of its rows is written once (all forgotten past
    /// ``shortGramsRemembered`` entries, after which a row is only written again, ignored).
    var shortGramsWritten: [String: Set<String>] = [:]
    /// The (search key, name key) pairs whose pieces this store has taken.
    var shortKeysSeen: Set<String> = []
    var shortGramsCount = 0
    static let shortGramsRemembered = 100_000
    /// Member keys (``MemberKeys``) by name key and search key, and each written member's
    /// key, listing and spelling as last written: caches, dropped with the other id caches.
    var memberKeyIds: [String: Int64] = [:]
    var memberStates: [Int64: MemberState] = [:]
    /// This transaction's changes to member keys: listed members added per key (with the first
    /// one's spelling), keys to count again from their members, and keys added (whose trigram
    /// rows it writes at its end).
    var keyAdditions: [Int64: (count: Int, name: String)] = [:]
    var keysToRecount = Set<Int64>()
    var newKeys: [(id: Int64, nameKey: String, searchKey: String)] = []
    /// This transaction's chats added to member names (``MemberKeys``), per folded name.
    var nameChatAdditions: [String: Int] = [:]
    var issues: [String] = []
    var summary = IngestSummary()
    var failure: Error?

    struct MemberKey: Hashable {
        var chat: Int64
        var source: String
    }

    struct FTSOp {
        var rowid: Int64
        var isDelete: Bool
        var text: String
        var extra: String
        var tags: String
        var textTokens: TokenizedDocument? = nil
        var extraTokens: TokenizedDocument? = nil
        /// The item's row in `itemChatFts` (see ``ChatKeys``), if it has one.
        var chatKey: Int64? = nil

        /// Runs `statement` (an insert into a full-text index, or its `'delete'`) with this row's
        /// columns under `rowid`, replaying its prepared tokens.
        func write(_ statement: Statement, rowid: Int64?) throws {
            try TokenizedDocument.armed(textTokens, extraTokens) {
                try statement.execute { b in
                    b.bind(rowid)
                    b.bind(text)
                    b.bind(extra)
                    b.bind(tags)
                }
            }
        }
    }

    /// A chat's keying state in this store: `keyed` false means new items get no key.
    struct KeyTail {
        var keyed: Bool
        var id = Int64.min
        var key: Int64? = nil
    }

    /// Changes to a chat's counters made by one batch.
    struct ChatAggregateDelta {
        var items = 0
        var unread = 0
        var unreadMentions = 0
        var reports = 0

        mutating func add(flags: Int64, contentType: Int64, sign: Int) {
            items += sign
            let live = flags & ItemFlags.deleted.rawValue == 0
            // Unread items count whether or not they are marked deleted, as in SimpleX.
            if flags & ItemFlags.unread.rawValue != 0 { unread += sign }
            let mentionUnread = ItemFlags.unread.rawValue | ItemFlags.mentionsUser.rawValue
            if live && flags & mentionUnread == mentionUnread { unreadMentions += sign }
            if live && contentType == ContentType.report.code { reports += sign }
        }
    }

    /// The prepared items' terms, drained into the vocabulary by each transaction (a live
    /// write hands in its own).
    var terms: TermSet
    private let checkpointer: Checkpointer?

    /// The stored form of each message's text (compressed once the archive has a dictionary).
    let textCompression: TextCompression

    init(
        database: ArchiveDatabase, startedEmpty: Bool, terms: TermSet, checkpointer: Checkpointer?,
        textTrainingTexts: Int = 0
    ) {
        textCompression = TextCompression(trainingTexts: textTrainingTexts)
        self.database = database
        self.startedEmpty = startedEmpty
        self.terms = terms
        self.checkpointer = checkpointer
    }

    private var autocheckpointOff = false

    /// How the archive stores its items' tags, read in the first transaction (an archive keeps
    /// its way while it is open).
    private(set) var storedTags = StoredTags(headTypes: nil)
    private var storedTagsRead = false

    /// Transactions that began after another writer's, as far as this store could tell (each
    /// dropped its caches): for tests.
    private(set) var otherWritersNoticed = 0

    private var batchesWritten = 0

    /// Gives the C heap's free pages back to the system. The caller's thread allocates each
    /// batch and the writer's thread frees it, and glibc keeps what its arenas freed, so a long
    /// ingest's resident memory grew well past what was in use. Trimming every fourth batch
    /// keeps the peak near what is in use (<doc:WritePerformance>).
    static func returnFreeMemory() {
        #if canImport(Glibc)
            _ = mallocTrim?(0)
        #endif
    }

    #if canImport(Glibc)
        /// glibc's `malloc_trim` (declared in `malloc.h`, which Swift's Glibc module leaves out).
        private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        }()
    #endif

    /// Drops every cache at the next transaction (after one that failed or rolled back).
    func forgetCaches() { lastSeen = nil }

    /// Runs a write of this store's own connection that changes nothing the caches hold (a
    /// merge of full-text segments), without making the next transaction drop them.
    func keepingCaches<T>(_ db: Database, _ body: () throws -> T) rethrows -> T {
        let before = db.totalChangesCount
        let result = try body()
        if let last = lastSeen, last.changes == before { lastSeen = (last.dataVersion, db.totalChangesCount) }
        return result
    }

    /// Gives the writer connection its automatic checkpoint and its page cache back.
    func restoreAutocheckpoint() throws {
        guard autocheckpointOff else { return }
        autocheckpointOff = false
        try database.writer.writeWithoutTransaction { db in
            try db.execute(
                sql: "PRAGMA wal_autocheckpoint = 1000; PRAGMA cache_size = -\(ArchiveOpening.cacheKiB)")
        }
    }

    /// The writer connection's page cache during an ingest (KiB). Its batches touch far more
    /// pages than any cache holds, and the file's pages stay in the OS's cache anyway: half the
    /// other connections' cache took the same time and lowered the ingest's peak memory
    /// (<doc:WritePerformance>).
    static let ingestCacheKiB = 32_768

    func write(_ batch: Batch) {
        guard failure == nil else { return }
        let start = DispatchTime.now()
        defer { summary.timing.writing += ArchiveWriter.seconds(since: start) }
        do {
            if !autocheckpointOff {
                try database.writer.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -\(Self.ingestCacheKiB)")
                }
                autocheckpointOff = true
            }
            try database.writer.write { db in
                if batchesWritten == 0 { try IdleMerger.enableAutomerge(db) }
                try apply(batch.records, db, exportId: batch.exportId)
            }
            try checkpointer?.keepLogBounded(database.writer)
            batchesWritten += 1
            if batchesWritten % 4 == 0 { Self.returnFreeMemory() }
        } catch {
            failure = error
            lastSeen = nil
            aggregates.removeAll()
            memberLastTs.removeAll()
            keyAdditions.removeAll()
            nameChatAdditions.removeAll()
            keysToRecount.removeAll()
            newKeys.removeAll()
            counters = ArchiveCounters.Delta()
            chatTail.removeAll()
            needsRenumber.removeAll()
            keyTails.removeAll()
            losingKeys.removeAll()
            withoutRoom.removeAll()
        }
    }

    /// Ids and positions are allocated from what is committed, inside the batch's transaction:
    /// when another writer (another process, or live writes through the same connection) has
    /// committed since this store's last batch, the cached chat, member and position lookups
    /// are dropped and every id slot is looked up, so two writers never take the same id.
    /// Returns the `data_version` seen.
    private func noticeOtherWriters(_ db: Database) throws -> Int64 {
        let version = try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
        if let last = lastSeen, last.dataVersion == version, last.changes == db.totalChangesCount { return version }
        let othersWrote = try lastSeen != nil || Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") == true
        if lastSeen != nil { otherWritersNoticed += 1 }
        if othersWrote {
            startedEmpty = false
        }
        textCompression.othersCommitted()
        chatIds.removeAll()
        memberIds.removeAll()
        memberKeyIds.removeAll()
        memberStates.removeAll()
        memberNames.removeAll()
        userMember.removeAll()
        chatTail.removeAll()
        keyTails.removeAll()
        readMarks.removeAll()
        knownTerms?.removeAll()
        return version
    }

    /// Writes records in the caller's transaction: chats, members, items, their full-text rows
    /// (in rowid order), new vocabulary terms, positions and chat counters. The one path by which
    /// both an ingest's batches and an app's live writes reach the tables.
    func apply(_ records: [ArchiveWriter.Pending], _ db: Database, exportId: Int64? = nil) throws {
        // Another writer may have committed since this store's last transaction.
        let dataVersion: Int64
        do {
            dataVersion = try noticeOtherWriters(db)
        } catch {
            lastSeen = nil
            throw error
        }
        defer { itemInsert = nil }
        do {
            if !storedTagsRead {
                storedTags = try StoredTags.of(db)
                storedTagsRead = true
            }
            try textCompression.begin(db)
            try applyRecords(records, db, exportId: exportId)
            try textCompression.end(db)
            // FTS5 writes its pending rows out at a savepoint or at the commit. Here, so that
            // the changes this transaction makes are all counted in `lastSeen`: rows the commit
            // wrote would count as another writer's, and the next transaction would drop every
            // cache and look up every id slot.
            try db.inSavepoint { .commit }
        } catch {
            lastSeen = nil
            counters = ArchiveCounters.Delta()
            throw error
        }
        lastSeen = (dataVersion, db.totalChangesCount)
        trimCaches()
    }

    /// Terms known to be in the vocabulary, for a store that lives across transactions (an
    /// app's live writes, ``LiveStoreSlot``): their `INSERT … ON CONFLICT DO NOTHING` is
    /// skipped. `nil` for an ingest, whose batches hold thousands of terms each.
    var knownTerms: Set<String>?

    /// Entries beyond which a cache of ids is dropped (and refilled by lookups as needed), so
    /// that an ingest's memory does not grow with the number of chats and members it has seen.
    /// An export lists one chat after another, so a batch needs the ids of a few hundred
    /// chats at most; a bigger bound only held ids no later batch used, which made a big
    /// ingest's peak memory grow with its chats (<doc:WritePerformance>).
    static let cacheLimit = 20_000

    /// Terms a live store remembers as stored (``knownTerms``) before it forgets them all.
    static let knownTermsLimit = 100_000

    /// Drops the caches that outgrew ``cacheLimit`` (each is refilled from the tables on demand).
    private func trimCaches() {
        if userMember.count > Self.cacheLimit { userMember.removeAll() }
        if chatIds.count > Self.cacheLimit { chatIds.removeAll() }
        if memberIds.count > Self.cacheLimit { memberIds.removeAll() }
        if memberKeyIds.count > Self.cacheLimit { memberKeyIds.removeAll() }
        if memberStates.count > Self.cacheLimit { memberStates.removeAll() }
        if memberNames.count > Self.cacheLimit / 20 { memberNames.removeAll() }
        if chatTail.count > Self.cacheLimit { chatTail.removeAll() }
        if keyTails.count > Self.cacheLimit { keyTails.removeAll() }
        if readMarks.count > Self.cacheLimit { readMarks.removeAll() }
        if let known = knownTerms, known.count > Self.knownTermsLimit { knownTerms = [] }
    }

    private func applyRecords(_ records: [ArchiveWriter.Pending], _ db: Database, exportId: Int64?) throws {
        var fts: [FTSOp] = []
        pendingInsert.removeAll(keepingCapacity: true)
        nextSeq.removeAll(keepingCapacity: true)
        losingKeys.removeAll()
        withoutRoom.removeAll()
        newChats.removeAll()
        newMembers.removeAll()
        keyAdditions.removeAll()
        nameChatAdditions.removeAll()
        keysToRecount.removeAll()
        newKeys.removeAll()
        for record in records {
            switch record {
            case .chat(let c, let nameKey, let translitKey):
                try write(c, nameKey: nameKey, translitKey: translitKey, db)
            case .member(let m, let nameKey, let searchKey): try write(m, nameKey: nameKey, searchKey: searchKey, db)
            case .item(let i):
                try write(i, db, fts: &fts)
                if let exportId, i.item.file != nil || !i.item.moreFiles.isEmpty {
                    try recordExport(exportId, of: i.item, db)
                }
            }
        }
        // Before the first full-text write: each of these statements opens a statement
        // savepoint, at which FTS5 would write out the rows it holds so far, and they cost the
        // writer far more after it (<doc:WritePerformance>).
        try renumberPositions(db)
        try updateChatAggregates(db)
        if knownTerms != nil {
            let fresh = terms.drain().filter { !knownTerms!.contains($0) }
            try TermVocabulary.insert(fresh, into: db)
            knownTerms!.formUnion(fresh)
        } else {
            try TermVocabulary.insert(terms.drain(), into: db)
        }
        if !fts.isEmpty {
            fts.sort { ($0.rowid, $0.isDelete ? 0 : 1) < ($1.rowid, $1.isDelete ? 0 : 1) }
            let insert = try db.cachedStatement(
                sql: "INSERT INTO itemFts(rowid, text, extra, tags) VALUES (?, ?, ?, ?)")
            let delete = try db.cachedStatement(
                sql: "INSERT INTO itemFts(itemFts, rowid, text, extra, tags) VALUES ('delete', ?, ?, ?, ?)")
            for op in fts { try op.write(op.isDelete ? delete : insert, rowid: op.rowid) }
            try writeChatKeyedRows(fts, db)
        }
        try keyItemsWithoutRoom(db)
        for chat in losingKeys {
            try ChatKeys.dropKeys(chat: chat, db)
            keyTails[chat] = KeyTail(keyed: false)
        }
        losingKeys.removeAll()
        try writeNewNameRows(db)
        try counters.apply(db)
    }

    /// Remembers which export an item's attachments are in.
    private func recordExport(_ export: Int64, of item: Item, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO itemExport(itemId, exportId)
                SELECT item.id, ? FROM item JOIN chat ON chat.id = item.chatId WHERE chat.sourceId = ? AND item.sourceId = ?
                """
        ).execute(arguments: [export, item.chatSourceId, item.sourceId])
    }

    /// Applies this batch's counter changes; the last item comes from the (chat, ts, id) index.
    ///
    /// One statement for every chat of the batch, one for the members and a few for their keys
    /// (``MemberKeys``): fewer statements, and each runs before the batch's full-text writes
    /// (see `applyRecords`).
    private func updateChatAggregates(_ db: Database) throws {
        if !aggregates.isEmpty {
            var deltas = JSONBytes(capacity: 32 * aggregates.count)
            deltas.rows(aggregates.sorted { $0.key < $1.key }) { chat, d in
                [chat, Int64(d.items), Int64(d.unread), Int64(d.unreadMentions), Int64(d.reports)].map { .int($0) }
            }
            try db.cachedStatement(
                sql: """
                    UPDATE chat SET
                        itemCount = itemCount + json_extract(d.value, '$[1]'),
                        unreadCount = unreadCount + json_extract(d.value, '$[2]'),
                        unreadMentions = unreadMentions + json_extract(d.value, '$[3]'),
                        reportCount = reportCount + json_extract(d.value, '$[4]'),
                        lastItemId = (SELECT id FROM item WHERE chatId = chat.id ORDER BY ts DESC, id DESC LIMIT 1),
                        lastTs = (SELECT ts FROM item WHERE chatId = chat.id ORDER BY ts DESC, id DESC LIMIT 1)
                    FROM json_each(?) AS d
                    WHERE chat.id = json_extract(d.value, '$[0]')
                    """
            ).execute(arguments: [deltas.text])
        }
        aggregates.removeAll()
        // New listed members before the newest messages: a new key takes its first member's
        // spelling, then its newest writer's.
        try MemberKeys.add(keyAdditions, db)
        keyAdditions.removeAll()
        try MemberKeys.addChats(nameChatAdditions, db)
        nameChatAdditions.removeAll()
        if !memberLastTs.isEmpty {
            var active = JSONBytes(capacity: 24 * memberLastTs.count)
            active.rows(memberLastTs.sorted { $0.key < $1.key }) { [.int($0.key), .int($0.value)] }
            try db.cachedStatement(
                sql: """
                    UPDATE member SET lastTs = max(coalesce(lastTs, d.ts), d.ts)
                    FROM (SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS ts FROM json_each(?)) AS d
                    WHERE member.id = d.id
                    """
            ).execute(arguments: [active.text])
            try db.cachedStatement(sql: MemberKeys.activitySQL).execute(arguments: [active.text])
        }
        memberLastTs.removeAll()
        // Keys whose members changed, counted from the members after every other change.
        try MemberKeys.recount(keysToRecount, db)
        keysToRecount.removeAll()
    }

}
