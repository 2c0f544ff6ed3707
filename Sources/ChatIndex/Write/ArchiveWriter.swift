import ChatModel
import ChatText
import Dispatch
import Foundation
import GRDB

/// What an ingest did, as the JSONOutput article of ChatArchive's documentation reports it.
package struct IngestSummary: Sendable, Hashable {
    package var chats = 0
    package var itemsAdded = 0
    package var itemsUpdated = 0
    package var itemsUnchanged = 0
    package var itemsSkipped = 0
    package init() {}
}

/// Writes chats, members and items into the archive in batched transactions.
///
/// - Items are upserted by `(chat, source id)`: a new id is allocated once and never changes;
///   an item whose content hash is unchanged is left alone; a changed one is updated in place
///   (edits, deletions, read state).
/// - Archive ids follow time (`max(ts, 0) * 1024 + n`), so FTS5 rowid order is newest-first
///   order and keyset paging by rowid is paging by time.
/// - Two cores, two stages: `add` analyses an item on the caller's thread (markdown, display
///   text, and the full-text tokens, through ChatText's `TokenizedDocument`), while the previous batch
///   is written on a writer thread, where the FTS5 tokenizer replays the prepared tokens.
/// - Full-text rows are written by the application in increasing rowid order per batch, never
///   through triggers (<doc:WritePerformance>), in the same transaction as their items: a batch is all in or
///   all out, whatever happens later.
package final class ArchiveWriter {
    private let database: ArchiveDatabase
    private let batchSize: Int
    private let store: BatchStore
    private var pending: [Pending] = []
    private var pendingItems = 0
    private var chatsSeen = Set<String>()
    private let queue = DispatchQueue(label: "chat-archive.writer", qos: .userInitiated)
    private let inFlight = DispatchGroup()
    private let checkpointer: Checkpointer
    /// Terms of the prepared items, drained into the vocabulary by each batch's transaction.
    private let terms = TermSet()
    /// The `export` row the items added now come from (see ``setExport(_:)``).
    private var exportId: Int64?

    /// Problems with individual records (unknown chat…), already counted as skipped.
    package var issues: [String] {
        inFlight.wait()
        return store.issues
    }

    /// What has been written so far (complete after ``finish(rebuildProgress:)``).
    package var summary: IngestSummary {
        inFlight.wait()
        var s = store.summary
        s.chats = chatsSeen.count
        return s
    }

    enum Pending {
        /// A chat with its name keys (transliteration is slow: it runs on the caller's thread).
        case chat(Chat, nameKey: String, translitKey: String)
        case member(Member, nameKey: String, searchKey: String)
        case item(PreparedItem)
    }

    package init(database: ArchiveDatabase, batchSize: Int = 10_000) throws {
        self.database = database
        self.batchSize = batchSize
        let count = try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
        checkpointer = Checkpointer(path: database.path)
        store = BatchStore(database: database, startedEmpty: count == 0, terms: terms, checkpointer: checkpointer)
    }

    deinit {
        inFlight.wait()
        checkpointer.finish()
        try? store.restoreAutocheckpoint()
    }

    package func add(_ chat: Chat) throws {
        let chat = chat.storable
        pending.append(
            .chat(
                chat, nameKey: ChatNames.key(chat.displayName, chat.fullName, chat.localAlias),
                translitKey: ChatNames.transliterationKey(chat.displayName, chat.fullName, chat.localAlias)))
        chatsSeen.insert(chat.sourceId)
    }

    package func add(_ member: Member) throws {
        let member = member.storable
        pending.append(
            .member(
                member, nameKey: ChatNames.key(member.displayName, member.fullName, member.localAlias),
                searchKey: MemberNames.searchKey(member)))
    }

    package func add(_ item: Item) throws {
        let prepared = PreparedItem(item.storable)
        terms.add(prepared.textTokens)
        if let extra = prepared.extraTokens { terms.add(extra) }
        pending.append(.item(prepared))
        pendingItems += 1
        if pendingItems >= batchSize { try flush() }
    }

    /// Hands everything buffered to the writer thread, to be committed in one transaction,
    /// after the batch before it. Throws the error of an earlier batch, if one failed.
    package func flush() throws {
        try waitForWriter()
        checkpointer.request()
        guard !pending.isEmpty else { return }
        let batch = Batch(records: pending, exportId: exportId)
        pending = []
        pendingItems = 0
        let store = self.store
        queue.async(group: inFlight) { store.write(batch) }
    }

    /// Records the items added from now on, those with attachments, as coming from the export
    /// `id` (a row of the `export` table; `nil`: none), so that their files can be read back.
    package func setExport(_ id: Int64?) throws {
        try flush()
        exportId = id
    }

    /// Flushes, waits until everything is committed, and returns the summary.
    package func finish(rebuildProgress: (@Sendable (Int64, Int64) -> Void)? = nil) throws -> IngestSummary {
        try flush()
        try waitForWriter()
        try mergeSegments(progress: rebuildProgress)
        checkpointer.finish()
        try store.restoreAutocheckpoint()
        return summary
    }

    /// Merges the full-text index segments this ingest created (see
    /// ``ArchiveDatabase/mergeFullTextSegments(maxPasses:progress:onPass:)``); the work is
    /// bounded by what was written.
    private func mergeSegments(progress: (@Sendable (Int64, Int64) -> Void)?) throws {
        let written = store.summary.itemsAdded + store.summary.itemsUpdated
        guard written > 0 else { return }
        try database.mergeFullTextSegments(maxPasses: Int64(max(4, written / 2_000)), progress: progress) {
            checkpointer.request()
        }
    }

    private func waitForWriter() throws {
        inFlight.wait()
        if let e = store.failure {
            store.failure = nil
            throw e
        }
    }
}

/// Copies the WAL back into the database on a thread of its own, so that the writer's commits
/// never stop for it (the writer's automatic checkpoint is off during an ingest). Passive
/// checkpoints run concurrently with writes.
final class Checkpointer: @unchecked Sendable {
    private let path: String
    private let queue = DispatchQueue(label: "chat-archive.checkpoint", qos: .utility)
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var running = false
    private var logFrames = 0
    private var connection: DatabaseQueue?

    init(path: String) { self.path = path }

    /// Frames in the WAL at the last checkpoint. A WAL written continuously is never fully
    /// copied back at the start of a transaction, so it never restarts: the writer checkpoints
    /// itself between batches when this grows too large (most frames are copied already).
    var walFrames: Int {
        lock.lock()
        defer { lock.unlock() }
        return logFrames
    }

    func walRestarted() {
        lock.lock()
        logFrames = 0
        lock.unlock()
    }

    /// Starts a passive checkpoint unless one is running.
    func request() {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return }
        running = true
        queue.async(group: group) { [self] in
            if connection == nil { connection = try? DatabaseQueue(path: path) }
            let frames = try? connection?.writeWithoutTransaction { db in
                try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)").map { $0[1] as Int }
            }
            lock.lock()
            running = false
            if let frames = frames ?? nil { logFrames = frames }
            lock.unlock()
        }
    }

    /// Waits for the running checkpoint and closes the connection.
    func finish() {
        group.wait()
        queue.sync {
            try? connection?.close()
            connection = nil
        }
    }
}

/// A batch handed from the caller's thread to the writer thread (which alone touches it then).
private struct Batch: @unchecked Sendable {
    var records: [ArchiveWriter.Pending]
    var exportId: Int64?
}

/// An item analysed on the caller's thread: everything that needs no database.
struct PreparedItem {
    let item: Item
    let analyzed: AnalyzedText
    let extra: String
    let flags: ItemFlags
    let reactions: String?
    /// Attachments after the first, as JSON.
    let moreFiles: String?
    let sourceText: String?
    /// Hash of everything but the database-assigned parts (sender, tags).
    let contentHash: StableHasher
    let textTokens: TokenizedDocument
    let extraTokens: TokenizedDocument?

    init(_ item: Item) {
        self.item = item
        let analyzed = ItemAnalyzer.analyze(item.content.text, markup: item.markup)
        self.analyzed = analyzed
        var flags = ItemFlags()
        if item.isEdited { flags.insert(.edited) }
        if item.isDeleted { flags.insert(.deleted) }
        if item.isUnread { flags.insert(.unread) }
        if item.isPinned { flags.insert(.pinned) }
        if analyzed.hasLinkSpan || item.content.preview != nil { flags.insert(.hasLink) }
        if item.isFloating { flags.insert(.floatingTime) }
        if item.isTimeUnknown { flags.insert(.timeUnknown) }
        self.flags = flags

        var extraParts = analyzed.linkTargets
        if let p = item.content.preview { extraParts += [p.uri, p.title, p.description] }
        if let f = item.file { extraParts.append(f.name) }
        extraParts += item.moreFiles.map(\.name)
        if let r = item.content.reason { extraParts.append(r) }
        let extra = extraParts.filter { !$0.isEmpty }.joined(separator: "\n")
        self.extra = extra
        let reactions = item.reactions.isEmpty ? nil : PreparedItem.reactionsJSON(item.reactions)
        self.reactions = reactions
        let moreFiles = item.moreFiles.isEmpty ? nil : PreparedItem.filesJSON(item.moreFiles)
        self.moreFiles = moreFiles
        sourceText = analyzed.displayText == item.content.text ? nil : item.content.text

        var h = StableHasher()
        h.combine(item.timestamp.milliseconds)
        h.combine(item.direction.code)
        h.combine(item.content.type.code)
        h.combine(item.content.text)
        h.combine(analyzed.displayText)
        h.combine(extra)
        h.combine(item.file?.name)
        h.combine(item.file?.size ?? -1)
        h.combine(item.file?.path)
        h.combine(moreFiles)
        h.combine(item.wallClock)
        h.combine(Int64(item.content.duration ?? -1))
        h.combine(item.quote?.itemSourceId)
        h.combine(item.quote?.text)
        h.combine(reactions)
        h.combine(item.status?.rawValue)
        contentHash = h
        textTokens = TokenizedDocument(analyzed.displayText)
        extraTokens = extra.isEmpty ? nil : TokenizedDocument(extra)
    }

    static func filesJSON(_ files: [FileRef]) -> String {
        var out = "["
        for (k, f) in files.enumerated() {
            if k > 0 { out += "," }
            out += "{\"name\":"
            JSONValue.writeString(f.name, to: &out)
            if let size = f.size { out += ",\"size\":\(size)" }
            if let path = f.path {
                out += ",\"path\":"
                JSONValue.writeString(path, to: &out)
            }
            out += "}"
        }
        return out + "]"
    }

    static func reactionsJSON(_ r: [Reaction]) -> String {
        var out = "["
        for (k, x) in r.enumerated() {
            if k > 0 { out += "," }
            out += "{\"emoji\":"
            JSONValue.writeString(x.emoji, to: &out)
            out += ",\"count\":\(x.count)}"
        }
        return out + "]"
    }
}

/// The writer thread's side: every database write and every cache of database ids.
final class BatchStore: @unchecked Sendable {
    private let database: ArchiveDatabase
    /// The archive had no items when this ingest began and no other writer has committed
    /// since: ids need no lookup.
    private var startedEmpty: Bool
    /// `PRAGMA data_version` and the writer connection's change count when this store's last
    /// transaction ended: when either moved, another program or another writer of this one
    /// committed in between (see ``noticeOtherWriters(_:)``).
    private var lastSeen: (dataVersion: Int64, changes: Int)?
    private var chatIds: [String: Int64] = [:]
    private var memberIds: [MemberKey: Int64] = [:]
    private var memberNames: [Int64: [String: Int64]] = [:]
    private var userMember: [Int64: Int64] = [:]
    /// Next free id per millisecond slot, for this batch only (memory stays bounded; a slot
    /// used by an earlier batch is found by the primary-key conflict and skipped).
    private var nextSeq: [Int64: Int64] = [:]
    /// Slots used by this ingest (a one-hash filter of 2^26 bits, 8 MB: false positives cost a lookup).
    private lazy var usedSlots = SlotFilter()
    private var aggregates: [Int64: ChatAggregateDelta] = [:]
    /// The newest item time of each sender written by this batch (mention autocomplete's recency).
    private var memberLastTs: [Int64: Int64] = [:]
    /// This batch's changes to the archive-wide counters.
    private var counters = ArchiveCounters.Delta()
    /// The newest item of each chat written by this ingest and its position.
    private var chatTail: [Int64: (ts: Int64, id: Int64, pos: Int64)] = [:]
    /// Chats that received an item before their newest one: positions are renumbered.
    private var needsRenumber = Set<Int64>()
    /// Rows of this batch's FTS operations that insert a rowid (a later update replaces them).
    private var pendingInsert: [Int64: Int] = [:]
    var issues: [String] = []
    var summary = IngestSummary()
    var failure: Error?

    private struct MemberKey: Hashable {
        var chat: Int64
        var source: String
    }

    private struct FTSOp {
        var rowid: Int64
        var isDelete: Bool
        var text: String
        var extra: String
        var tags: String
        var textTokens: TokenizedDocument?
        var extraTokens: TokenizedDocument?
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

    private let terms: TermSet
    private let checkpointer: Checkpointer?
    /// WAL frames (8 KiB pages) beyond which the writer checkpoints itself between batches.
    private let walFrameLimit = 16_384

    init(database: ArchiveDatabase, startedEmpty: Bool, terms: TermSet, checkpointer: Checkpointer?) {
        self.database = database
        self.startedEmpty = startedEmpty
        self.terms = terms
        self.checkpointer = checkpointer
    }

    private var autocheckpointOff = false

    /// Gives the writer connection its automatic checkpoint back.
    func restoreAutocheckpoint() throws {
        guard autocheckpointOff else { return }
        autocheckpointOff = false
        try database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
    }

    fileprivate func write(_ batch: Batch) {
        guard failure == nil else { return }
        do {
            if !autocheckpointOff {
                try database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                }
                autocheckpointOff = true
            }
            if let checkpointer, checkpointer.walFrames > walFrameLimit {
                // Copy back the little the background checkpoints left, so that this batch's
                // transaction starts the WAL over instead of growing it.
                try database.writer.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
                }
                checkpointer.walRestarted()
            }
            try database.writer.write { db in try apply(batch.records, db, exportId: batch.exportId) }
        } catch {
            failure = error
            lastSeen = nil
            aggregates.removeAll()
            memberLastTs.removeAll()
            counters = ArchiveCounters.Delta()
            chatTail.removeAll()
            needsRenumber.removeAll()
        }
    }

    /// Ids and positions are allocated from what is committed, inside the batch's transaction:
    /// when another writer (another process, or live writes through the same connection) has
    /// committed since this store's last batch, the cached chat, member and position lookups
    /// are dropped and every id slot is looked up, so two writers never take the same id.
    /// Returns the `data_version` seen.
    private func noticeOtherWriters(_ db: Database) throws -> Int64 {
        let version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        if let last = lastSeen, last.dataVersion == version, last.changes == db.totalChangesCount { return version }
        let othersWrote = try lastSeen != nil || Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") == true
        if othersWrote {
            startedEmpty = false
        }
        chatIds.removeAll()
        memberIds.removeAll()
        memberNames.removeAll()
        userMember.removeAll()
        chatTail.removeAll()
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
        do {
            try applyRecords(records, db, exportId: exportId)
        } catch {
            lastSeen = nil
            counters = ArchiveCounters.Delta()
            throw error
        }
        lastSeen = (dataVersion, db.totalChangesCount)
    }

    private func applyRecords(_ records: [ArchiveWriter.Pending], _ db: Database, exportId: Int64?) throws {
        var fts: [FTSOp] = []
        pendingInsert.removeAll(keepingCapacity: true)
        nextSeq.removeAll(keepingCapacity: true)
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
        if !fts.isEmpty {
            fts.sort { ($0.rowid, $0.isDelete ? 0 : 1) < ($1.rowid, $1.isDelete ? 0 : 1) }
            let insert = try db.cachedStatement(
                sql: "INSERT INTO itemFts(rowid, text, extra, tags) VALUES (?, ?, ?, ?)")
            let delete = try db.cachedStatement(
                sql: "INSERT INTO itemFts(itemFts, rowid, text, extra, tags) VALUES ('delete', ?, ?, ?, ?)")
            for op in fts {
                let statement = op.isDelete ? delete : insert
                statement.setUncheckedArguments([op.rowid, op.text, op.extra, op.tags])
                try TokenizedDocument.armed(op.textTokens, op.extraTokens) { try statement.execute() }
            }
        }
        try TermVocabulary.insert(terms.drain(), into: db)
        try renumberPositions(db)
        try updateChatAggregates(db)
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

    // MARK: - Chats and members

    private func write(_ c: Chat, nameKey: String, translitKey translit: String, _ db: Database) throws {
        let id = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    INSERT INTO chat(sourceId, source, type, business, displayName, fullName, localAlias, nameKey, translitKey,
                                     favorite, notifications, unreadChat, draft)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(sourceId) DO UPDATE SET
                        type = excluded.type, business = excluded.business, displayName = excluded.displayName,
                        fullName = excluded.fullName, localAlias = excluded.localAlias, nameKey = excluded.nameKey,
                        translitKey = excluded.translitKey, favorite = excluded.favorite,
                        notifications = excluded.notifications, unreadChat = excluded.unreadChat, draft = excluded.draft
                    RETURNING id
                    """),
            arguments: [
                c.sourceId, c.source, c.type.rawValue, c.business?.rawValue, c.displayName, c.fullName, c.localAlias,
                nameKey, translit, c.isFavorite, c.notifications.rawValue, c.isMarkedUnread, c.draft,
            ])
        guard let id else { throw ArchiveError("could not store chat \(c.sourceId)") }
        chatIds[c.sourceId] = id
        try db.cachedStatement(sql: "DELETE FROM chatTag WHERE chatId = ?").execute(arguments: [id])
        for tag in Set(c.tags) where !tag.isEmpty {
            try db.cachedStatement(sql: "INSERT INTO chatTag(chatId, tag) VALUES (?, ?)").execute(arguments: [id, tag])
        }
        if aggregates[id] == nil { aggregates[id] = ChatAggregateDelta() }
    }

    private func chatId(_ sourceId: String, _ db: Database) throws -> Int64? {
        if let id = chatIds[sourceId] { return id }
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM chat WHERE sourceId = ?", arguments: [sourceId])
        if let id { chatIds[sourceId] = id }
        return id
    }

    @discardableResult
    private func write(_ m: Member, nameKey: String, searchKey: String, _ db: Database) throws -> Int64? {
        guard let chat = try chatId(m.chatSourceId, db) else {
            issues.append("member \(m.sourceId) of unknown chat \(m.chatSourceId) skipped")
            return nil
        }
        let id = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    INSERT INTO member(chatId, sourceId, displayName, fullName, localAlias, isUser, nameKey, searchKey, hasLeft)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(chatId, sourceId) DO UPDATE SET
                        displayName = excluded.displayName, fullName = excluded.fullName,
                        localAlias = excluded.localAlias, isUser = excluded.isUser, nameKey = excluded.nameKey,
                        searchKey = excluded.searchKey, hasLeft = excluded.hasLeft
                    RETURNING id
                    """),
            arguments: [
                chat, m.sourceId, m.displayName, m.fullName, m.localAlias, m.isUser, nameKey, searchKey, m.hasLeft,
            ])
        guard let id else { return nil }
        memberIds[MemberKey(chat: chat, source: m.sourceId)] = id
        memberNames[chat] = nil
        if m.isUser { userMember[chat] = id }
        return id
    }

    private func memberId(chat: Int64, sourceId: String, name: String?, _ db: Database) throws -> Int64? {
        let key = MemberKey(chat: chat, source: sourceId)
        if let id = memberIds[key] { return id }
        if let id = try Int64.fetchOne(
            db, sql: "SELECT id FROM member WHERE chatId = ? AND sourceId = ?", arguments: [chat, sourceId])
        {
            memberIds[key] = id
            return id
        }
        // A sender the export never described: make a member for it so `from:` finds it.
        let shown = name ?? sourceId
        let id = try Int64.fetchOne(
            db,
            sql:
                "INSERT INTO member(chatId, sourceId, displayName, fullName, localAlias, isUser, nameKey, searchKey) VALUES (?, ?, ?, '', '', 0, ?, ?) RETURNING id",
            arguments: [chat, sourceId, shown, ChatNames.key(shown, "", ""), MemberNames.searchKey(shown, "", "")])
        memberIds[key] = id
        memberNames[chat] = nil
        return id
    }

    /// Member ids of a chat by normalised display name and alias, for mentions without a map entry.
    private func membersByName(chat: Int64, _ db: Database) throws -> [String: Int64] {
        if let m = memberNames[chat] { return m }
        var m: [String: Int64] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT id, displayName, localAlias FROM member WHERE chatId = ?", arguments: [chat])
        {
            let id: Int64 = row["id"]
            for n in [row["displayName"] as String, row["localAlias"] as String] where !n.isEmpty {
                m[TextNormalizer.normalize(n)] = m[TextNormalizer.normalize(n)] ?? id
            }
        }
        memberNames[chat] = m
        return m
    }

    // MARK: - Items

    private func write(_ prepared: PreparedItem, _ db: Database, fts: inout [FTSOp]) throws {
        let item = prepared.item
        guard let chat = try chatId(item.chatSourceId, db) else {
            summary.itemsSkipped += 1
            issues.append("item \(item.sourceId) of unknown chat \(item.chatSourceId) skipped")
            return
        }
        // Sender.
        var member: Int64? = nil
        if let m = item.memberSourceId, !m.isEmpty {
            member = try memberId(chat: chat, sourceId: m, name: item.senderName, db)
        } else if let name = item.senderName, !name.isEmpty {
            member = try memberId(chat: chat, sourceId: "name:" + name, name: name, db)
        }
        let analyzed = prepared.analyzed

        // Mentions: by the item's map, else by member name.
        var mentionRows: [(name: String, member: Int64?, isUser: Bool)] = []
        var seenMention = Set<String>()
        for name in analyzed.mentionNames + item.mentions.keys.sorted() where seenMention.insert(name).inserted {
            var target: Int64? = nil
            var isUser = false
            if let t = item.mentions[name] {
                isUser = t.isUserMention
                if let s = t.memberSourceId, !s.isEmpty {
                    target = try memberId(chat: chat, sourceId: s, name: name, db)
                }
            }
            if target == nil { target = try membersByName(chat: chat, db)[TextNormalizer.normalize(name)] }
            if let t = target, t == userMember[chat] { isUser = true }
            mentionRows.append((name, target, isUser))
        }

        var flags = prepared.flags
        if mentionRows.contains(where: \.isUser) { flags.insert(.mentionsUser) }

        var tags = IndexTerms.all + " " + IndexTerms.chat(chat) + " " + IndexTerms.content(item.content.type)
        if flags.contains(.hasLink) { tags += " " + IndexTerms.link }
        if flags.contains(.deleted) { tags += " " + IndexTerms.deleted }
        if flags.contains(.unread) { tags += " " + IndexTerms.unread }
        if flags.contains(.pinned) { tags += " " + IndexTerms.pinned }
        if item.direction == .snd { tags += " " + IndexTerms.fromMe }
        if let member { tags += " " + IndexTerms.from(member: member) }
        if flags.contains(.mentionsUser) { tags += " " + IndexTerms.mentionsMe }
        for m in mentionRows { if let id = m.member { tags += " " + IndexTerms.mentions(member: id) } }

        var h = prepared.contentHash
        h.combine(member ?? -1)
        h.combine(tags)
        h.combine(flags.rawValue)
        let hash = h.signed
        let contentType = item.content.type.code

        // Insert first; an existing (chat, source id) is found by the conflict.
        var id = try allocateId(for: item.timestamp, db)
        var inserted = false
        var pos: Int64 = 0
        while true {
            // Fetched on each attempt: GRDB drops a statement that failed from its cache, and
            // a failed statement cannot be reset for reuse.
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO item(id, chatId, sourceId, ts, dir, memberId, contentType, text, extra, tags, flags, sourceText,
                                     fileName, fileSize, previewUri, previewTitle, previewDescription, duration, reason,
                                     quoteSourceId, quoteText, reactions, status, contentHash, raw, pos,
                                     filePath, moreFiles, wallClock)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(chatId, sourceId) DO NOTHING
                    """)
            do {
                pos = try position(ts: item.timestamp.milliseconds, id: id, chat: chat, db)
                insert.setUncheckedArguments([
                    id, chat, item.sourceId, item.timestamp.milliseconds, item.direction.code, member, contentType,
                    analyzed.displayText, prepared.extra, tags, flags.rawValue, prepared.sourceText, item.file?.name,
                    item.file?.size, item.content.preview?.uri, item.content.preview?.title,
                    item.content.preview?.description, item.content.duration, item.content.reason,
                    item.quote?.itemSourceId, item.quote?.text, prepared.reactions, item.status?.rawValue, hash,
                    item.raw,
                    pos, item.file?.path, prepared.moreFiles, item.wallClock,
                ])
                try insert.execute()
                inserted = db.changesCount > 0
                break
            } catch let e as DatabaseError where e.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                // The time slot overflowed into this id: take the first free one after it.
                id = try firstFreeId(from: id, db)
                nextSeq[slotBase(item.timestamp)] = id + 1
            }
        }
        if inserted {
            if let member, item.direction != .event {
                memberLastTs[member] = max(memberLastTs[member] ?? .min, item.timestamp.milliseconds)
            }
            placed(id: id, ts: item.timestamp.milliseconds, pos: pos, chat: chat)
            summary.itemsAdded += 1
            aggregates[chat, default: ChatAggregateDelta()].add(
                flags: flags.rawValue, contentType: contentType, sign: 1)
            counters.add(flags: flags.rawValue, text: analyzed.displayText, sign: 1)
            pendingInsert[id] = fts.count
            fts.append(
                FTSOp(
                    rowid: id, isDelete: false, text: analyzed.displayText, extra: prepared.extra, tags: tags,
                    textTokens: prepared.textTokens, extraTokens: prepared.extraTokens))
        } else {
            let lookup = try db.cachedStatement(
                sql:
                    "SELECT id, contentHash, text, extra, tags, flags, contentType, ts FROM item WHERE chatId = ? AND sourceId = ?"
            )
            guard let old = try Row.fetchOne(lookup, arguments: [chat, item.sourceId]) else { return }
            id = old["id"]
            if (old["contentHash"] as Int64) == hash {
                summary.itemsUnchanged += 1
                return
            }
            summary.itemsUpdated += 1
            aggregates[chat, default: ChatAggregateDelta()].add(
                flags: old["flags"], contentType: old["contentType"], sign: -1)
            aggregates[chat, default: ChatAggregateDelta()].add(
                flags: flags.rawValue, contentType: contentType, sign: 1)
            counters.add(flags: old["flags"], text: old["text"], sign: -1)
            counters.add(flags: flags.rawValue, text: analyzed.displayText, sign: 1)
            let newRow = FTSOp(
                rowid: id, isDelete: false, text: analyzed.displayText, extra: prepared.extra, tags: tags,
                textTokens: prepared.textTokens, extraTokens: prepared.extraTokens)
            if let k = pendingInsert[id] {
                // Indexed by this batch, not yet in the FTS index: index the new version instead.
                fts[k] = newRow
            } else {
                fts.append(FTSOp(rowid: id, isDelete: true, text: old["text"], extra: old["extra"], tags: old["tags"]))
                pendingInsert[id] = fts.count
                fts.append(newRow)
            }
            let update = try db.cachedStatement(
                sql: """
                    UPDATE item SET ts = ?, dir = ?, memberId = ?, contentType = ?, text = ?, extra = ?, tags = ?, flags = ?,
                        sourceText = ?, fileName = ?, fileSize = ?, previewUri = ?, previewTitle = ?, previewDescription = ?,
                        duration = ?, reason = ?, quoteSourceId = ?, quoteText = ?, reactions = ?, status = ?,
                        contentHash = ?, raw = ?, filePath = ?, moreFiles = ?, wallClock = ?
                    WHERE id = ?
                    """)
            update.setUncheckedArguments([
                item.timestamp.milliseconds, item.direction.code, member, contentType, analyzed.displayText,
                prepared.extra, tags, flags.rawValue, prepared.sourceText, item.file?.name, item.file?.size,
                item.content.preview?.uri, item.content.preview?.title, item.content.preview?.description,
                item.content.duration, item.content.reason, item.quote?.itemSourceId, item.quote?.text,
                prepared.reactions, item.status?.rawValue, hash, item.raw, item.file?.path, prepared.moreFiles,
                item.wallClock, id,
            ])
            try update.execute()
            if (old["ts"] as Int64) != item.timestamp.milliseconds { needsRenumber.insert(chat) }
            try db.cachedStatement(sql: "DELETE FROM itemSpan WHERE itemId = ?").execute(arguments: [id])
            counters.spans -= Int64(db.changesCount)
            try db.cachedStatement(sql: "DELETE FROM itemMention WHERE itemId = ?").execute(arguments: [id])
            counters.mentions -= Int64(db.changesCount)
        }
        if !analyzed.spans.isEmpty {
            let span = try db.cachedStatement(
                sql: "INSERT INTO itemSpan(itemId, seq, start, \"end\", type, format) VALUES (?, ?, ?, ?, ?, ?)")
            for (k, s) in analyzed.spans.enumerated() {
                span.setUncheckedArguments([id, k, s.start, s.end, s.format.typeName, FormatCoding.json(s.format)])
                try span.execute()
            }
            counters.spans += Int64(analyzed.spans.count)
        }
        if !mentionRows.isEmpty {
            let mention = try db.cachedStatement(
                sql:
                    "INSERT INTO itemMention(itemId, name, memberId, isUser) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
            )
            for m in mentionRows {
                mention.setUncheckedArguments([id, m.name, m.member, m.isUser])
                try mention.execute()
                counters.mentions += Int64(db.changesCount)
            }
        }
    }

    /// The position a new item takes: the next one when it comes after the chat's newest item
    /// (the usual case: exports are in time order), else 0 and the chat is renumbered at the
    /// end of the batch (see ``placed(id:ts:pos:chat:)``).
    private func position(ts: Int64, id: Int64, chat: Int64, _ db: Database) throws -> Int64 {
        if chatTail[chat] == nil {
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT ts, id, pos FROM item WHERE chatId = ? ORDER BY ts DESC, id DESC LIMIT 1"),
                arguments: [chat])
            chatTail[chat] = row.map { (ts: $0[0], id: $0[1], pos: $0[2]) } ?? (ts: Int64.min, id: Int64.min, pos: 0)
        }
        guard let t = chatTail[chat], (ts, id) > (t.ts, t.id) else { return 0 }
        return t.pos + 1
    }

    /// Records a new item's position (0: out of order).
    private func placed(id: Int64, ts: Int64, pos: Int64, chat: Int64) {
        if pos > 0 { chatTail[chat] = (ts, id, pos) } else { needsRenumber.insert(chat) }
    }

    /// Renumbers the positions of the chats that received items out of order.
    private func renumberPositions(_ db: Database) throws {
        guard !needsRenumber.isEmpty else { return }
        let renumber = try db.cachedStatement(
            sql: """
                UPDATE item SET pos = r.n
                FROM (SELECT id, row_number() OVER (ORDER BY ts, id) AS n FROM item WHERE chatId = ?) AS r
                WHERE item.id = r.id AND item.pos <> r.n
                """)
        for chat in needsRenumber {
            try renumber.execute(arguments: [chat])
            chatTail[chat] = nil
        }
        needsRenumber.removeAll()
    }

    private func slotBase(_ ts: Timestamp) -> Int64 { max(ts.milliseconds, 0) &* 1024 }

    private func allocateId(for ts: Timestamp, _ db: Database) throws -> Int64 {
        let base = slotBase(ts)
        if let next = nextSeq[base] {
            nextSeq[base] = next + 1
            return next
        }
        var next = base
        // Into an archive that started empty, a slot no earlier batch used needs no lookup.
        if !startedEmpty || usedSlots.mayContain(base) {
            if let maxId = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT max(id) FROM item WHERE id BETWEEN ? AND ?"),
                arguments: [base, base + 1023])
            {
                next = maxId + 1
            }
        }
        if startedEmpty { usedSlots.insert(base) }
        // A full slot (more than 1024 items in one millisecond) continues after the run of
        // ids that follows it, which may hold the next milliseconds' items.
        if next > base + 1023 { next = try firstFreeId(from: next, db) }
        nextSeq[base] = next + 1
        return next
    }

    /// The first id at or after `start` that no committed or written item holds.
    ///
    /// - Complexity: one rowid lookup per id of the run of taken ids that begins at `start`.
    private func firstFreeId(from start: Int64, _ db: Database) throws -> Int64 {
        let sql = """
            SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM item WHERE id = ?1) THEN ?1 ELSE
                (SELECT i.id + 1 FROM item i WHERE i.id >= ?1 AND NOT EXISTS (SELECT 1 FROM item j WHERE j.id = i.id + 1)
                 ORDER BY i.id LIMIT 1) END
            """
        return try Int64.fetchOne(db.cachedStatement(sql: sql), arguments: [start]) ?? start
    }

    /// Applies this batch's counter changes; the last item comes from the (chat, ts, id) index.
    private func updateChatAggregates(_ db: Database) throws {
        let update = try db.cachedStatement(
            sql: """
                UPDATE chat SET
                    itemCount = itemCount + :items,
                    unreadCount = unreadCount + :unread,
                    unreadMentions = unreadMentions + :mentions,
                    reportCount = reportCount + :reports,
                    lastItemId = (SELECT id FROM item WHERE chatId = :c ORDER BY ts DESC, id DESC LIMIT 1),
                    lastTs = (SELECT ts FROM item WHERE chatId = :c ORDER BY ts DESC, id DESC LIMIT 1)
                WHERE id = :c
                """)
        for (chat, d) in aggregates {
            update.setUncheckedArguments([
                "c": chat, "items": d.items, "unread": d.unread, "mentions": d.unreadMentions, "reports": d.reports,
            ])
            try update.execute()
        }
        aggregates.removeAll()
        let active = try db.cachedStatement(
            sql: "UPDATE member SET lastTs = max(coalesce(lastTs, ?2), ?2) WHERE id = ?1")
        for (member, ts) in memberLastTs { try active.execute(arguments: [member, ts]) }
        memberLastTs.removeAll()
    }

}

/// A set of 64-bit keys that may answer "maybe" for keys never inserted (one hash, 2^26 bits).
struct SlotFilter {
    private var bits = [UInt64](repeating: 0, count: 1 << 20)

    private func position(_ key: Int64) -> (Int, UInt64) {
        var h = UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        let bit = Int(h & ((1 << 26) - 1))
        return (bit >> 6, 1 << UInt64(bit & 63))
    }

    mutating func insert(_ key: Int64) {
        let (word, mask) = position(key)
        bits[word] |= mask
    }

    func mayContain(_ key: Int64) -> Bool {
        let (word, mask) = position(key)
        return bits[word] & mask != 0
    }
}
