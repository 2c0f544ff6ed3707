import ChatModel
import ChatText
import GRDB

/// What an ingest did, as CONTRACT.md §3 reports it.
public struct IngestSummary: Sendable, Hashable {
    public var chats = 0
    public var itemsAdded = 0
    public var itemsUpdated = 0
    public var itemsUnchanged = 0
    public var itemsSkipped = 0
    public init() {}
}

/// Writes chats, members and items into the archive in batched transactions.
///
/// - Items are upserted by `(chat, source id)`: a new id is allocated once and never changes;
///   an item whose content hash is unchanged is left alone; a changed one is updated in place
///   (edits, deletions, read state).
/// - Archive ids follow time (`max(ts, 0) * 1024 + n`), so FTS5 rowid order is newest-first
///   order and keyset paging by rowid is paging by time.
/// - Full-text rows are written by the application in increasing rowid order per batch, never
///   through triggers (PERF.md). Into an empty archive the index is built once at the end by
///   FTS5's `rebuild` (marked stale meanwhile, so a crash leads to a rebuild on next open).
/// - Everything committed by an earlier batch stays committed whatever happens later.
public final class ArchiveWriter {
    private let database: ArchiveDatabase
    private let batchSize: Int
    private var pending: [Pending] = []
    private var pendingItems = 0
    private var chatIds: [String: Int64] = [:]
    private var memberIds: [MemberKey: Int64] = [:]
    private var memberNames: [Int64: [String: Int64]] = [:]
    private var userMember: [Int64: Int64] = [:]
    private var nextSeq: [Int64: Int64] = [:]
    private let bulkMode: Bool
    private var markedStale = false
    private var touchedChats = Set<Int64>()
    private var chatsSeen = Set<String>()
    /// Problems with individual records (unknown chat…), already counted as skipped.
    public private(set) var issues: [String] = []
    public private(set) var summary = IngestSummary()

    private enum Pending {
        case chat(Chat)
        case member(Member)
        case item(Item)
    }

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
    }

    public init(database: ArchiveDatabase, batchSize: Int = 20_000) throws {
        self.database = database
        self.batchSize = batchSize
        let count = try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
        bulkMode = count == 0
    }

    public func add(_ chat: Chat) throws {
        pending.append(.chat(chat))
        if chatsSeen.insert(chat.sourceId).inserted { summary.chats += 1 }
    }

    public func add(_ member: Member) throws { pending.append(.member(member)) }

    public func add(_ item: Item) throws {
        pending.append(.item(item))
        pendingItems += 1
        if pendingItems >= batchSize { try flush() }
    }

    /// Commits everything buffered in one transaction.
    public func flush() throws {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        pendingItems = 0
        try database.writer.write { db in
            if bulkMode && !markedStale {
                try ArchiveDatabase.setMeta(db, "ftsStale", "1")
            }
            var fts: [FTSOp] = []
            if !bulkMode { TermVocabulary.begin() }
            defer { if !bulkMode { TermVocabulary.end() } }
            for record in batch {
                switch record {
                case .chat(let c): try write(c, db)
                case .member(let m): try write(m, db)
                case .item(let i): try write(i, db, fts: &fts)
                }
            }
            if !fts.isEmpty {
                fts.sort { ($0.rowid, $0.isDelete ? 0 : 1) < ($1.rowid, $1.isDelete ? 0 : 1) }
                let insert = try db.cachedStatement(sql: "INSERT INTO itemFts(rowid, text, extra, tags) VALUES (?, ?, ?, ?)")
                let delete = try db.cachedStatement(
                    sql: "INSERT INTO itemFts(itemFts, rowid, text, extra, tags) VALUES ('delete', ?, ?, ?, ?)")
                for op in fts {
                    try (op.isDelete ? delete : insert).execute(arguments: [op.rowid, op.text, op.extra, op.tags])
                }
                try TermVocabulary.drain(into: db)
            }
            try updateChatAggregates(db)
        }
        markedStale = bulkMode
    }

    /// Flushes, builds the full-text index when it was deferred, and returns the summary.
    public func finish(rebuildProgress: (@Sendable (Int64, Int64) -> Void)? = nil) throws -> IngestSummary {
        try flush()
        if bulkMode && markedStale {
            try database.rebuildIndexes(progress: rebuildProgress)
        }
        return summary
    }

    // MARK: - Chats and members

    private func write(_ c: Chat, _ db: Database) throws {
        let nameKey = ChatNames.key(c.displayName, c.fullName, c.localAlias)
        let translit = ChatNames.transliterationKey(c.displayName, c.fullName, c.localAlias)
        let id = try Int64.fetchOne(
            db,
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
                """,
            arguments: [
                c.sourceId, c.source, c.type.rawValue, c.business?.rawValue, c.displayName, c.fullName, c.localAlias,
                nameKey, translit, c.isFavorite, c.notifications.rawValue, c.isMarkedUnread, c.draft,
            ])
        guard let id else { throw ArchiveError("could not store chat \(c.sourceId)") }
        chatIds[c.sourceId] = id
        try db.execute(sql: "DELETE FROM chatTag WHERE chatId = ?", arguments: [id])
        for tag in Set(c.tags) where !tag.isEmpty {
            try db.execute(sql: "INSERT INTO chatTag(chatId, tag) VALUES (?, ?)", arguments: [id, tag])
        }
        touchedChats.insert(id)
    }

    private func chatId(_ sourceId: String, _ db: Database) throws -> Int64? {
        if let id = chatIds[sourceId] { return id }
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM chat WHERE sourceId = ?", arguments: [sourceId])
        if let id { chatIds[sourceId] = id }
        return id
    }

    @discardableResult
    private func write(_ m: Member, _ db: Database) throws -> Int64? {
        guard let chat = try chatId(m.chatSourceId, db) else {
            issues.append("member \(m.sourceId) of unknown chat \(m.chatSourceId) skipped")
            return nil
        }
        let id = try Int64.fetchOne(
            db,
            sql: """
                INSERT INTO member(chatId, sourceId, displayName, fullName, localAlias, isUser, nameKey)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(chatId, sourceId) DO UPDATE SET
                    displayName = excluded.displayName, fullName = excluded.fullName,
                    localAlias = excluded.localAlias, isUser = excluded.isUser, nameKey = excluded.nameKey
                RETURNING id
                """,
            arguments: [
                chat, m.sourceId, m.displayName, m.fullName, m.localAlias, m.isUser,
                ChatNames.key(m.displayName, m.fullName, m.localAlias),
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
            sql: "INSERT INTO member(chatId, sourceId, displayName, fullName, localAlias, isUser, nameKey) VALUES (?, ?, ?, '', '', 0, ?) RETURNING id",
            arguments: [chat, sourceId, shown, ChatNames.key(shown, "", "")])
        memberIds[key] = id
        memberNames[chat] = nil
        return id
    }

    /// Member ids of a chat by normalised display name and alias, for mentions without a map entry.
    private func membersByName(chat: Int64, _ db: Database) throws -> [String: Int64] {
        if let m = memberNames[chat] { return m }
        var m: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, displayName, localAlias FROM member WHERE chatId = ?", arguments: [chat]) {
            let id: Int64 = row["id"]
            for n in [row["displayName"] as String, row["localAlias"] as String] where !n.isEmpty {
                m[TextNormalizer.normalize(n)] = m[TextNormalizer.normalize(n)] ?? id
            }
        }
        memberNames[chat] = m
        return m
    }

    // MARK: - Items

    private func write(_ item: Item, _ db: Database, fts: inout [FTSOp]) throws {
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
        let analyzed = ItemAnalyzer.analyze(item.content.text, markup: item.markup)

        // Mentions: by the item's map, else by member name.
        var mentionRows: [(name: String, member: Int64?, isUser: Bool)] = []
        var seenMention = Set<String>()
        for name in analyzed.mentionNames + item.mentions.keys.sorted() where seenMention.insert(name).inserted {
            var target: Int64? = nil
            var isUser = false
            if let t = item.mentions[name] {
                isUser = t.isUserMention
                if let s = t.memberSourceId, !s.isEmpty { target = try memberId(chat: chat, sourceId: s, name: name, db) }
            }
            if target == nil { target = try membersByName(chat: chat, db)[TextNormalizer.normalize(name)] }
            if let t = target, t == userMember[chat] { isUser = true }
            mentionRows.append((name, target, isUser))
        }

        var flags = ItemFlags()
        if item.isEdited { flags.insert(.edited) }
        if item.isDeleted { flags.insert(.deleted) }
        if item.isUnread { flags.insert(.unread) }
        if item.isPinned { flags.insert(.pinned) }
        if analyzed.hasLinkSpan || item.content.preview != nil { flags.insert(.hasLink) }
        if mentionRows.contains(where: \.isUser) { flags.insert(.mentionsUser) }

        var extraParts = analyzed.linkTargets
        if let p = item.content.preview { extraParts += [p.uri, p.title, p.description] }
        if let f = item.file { extraParts.append(f.name) }
        if let r = item.content.reason { extraParts.append(r) }
        let extra = extraParts.filter { !$0.isEmpty }.joined(separator: "\n")

        var tags = [IndexTerms.all, IndexTerms.chat(chat), IndexTerms.content(item.content.type)]
        if flags.contains(.hasLink) { tags.append(IndexTerms.link) }
        if flags.contains(.deleted) { tags.append(IndexTerms.deleted) }
        if flags.contains(.unread) { tags.append(IndexTerms.unread) }
        if flags.contains(.pinned) { tags.append(IndexTerms.pinned) }
        if item.direction == .snd { tags.append(IndexTerms.fromMe) }
        if let member { tags.append(IndexTerms.from(member: member)) }
        if flags.contains(.mentionsUser) { tags.append(IndexTerms.mentionsMe) }
        for m in mentionRows { if let id = m.member { tags.append(IndexTerms.mentions(member: id)) } }
        let tagText = tags.joined(separator: " ")

        let reactions = item.reactions.isEmpty ? nil : reactionsJSON(item.reactions)
        let sourceText = analyzed.displayText == item.content.text ? nil : item.content.text
        var h = StableHasher()
        h.combine(item.timestamp.milliseconds)
        h.combine(item.direction.code)
        h.combine(member ?? -1)
        h.combine(item.content.type.code)
        h.combine(item.content.text)
        h.combine(analyzed.displayText)
        h.combine(extra)
        h.combine(tagText)
        h.combine(flags.rawValue)
        h.combine(item.file?.name)
        h.combine(item.file?.size ?? -1)
        h.combine(Int64(item.content.duration ?? -1))
        h.combine(item.quote?.itemSourceId)
        h.combine(item.quote?.text)
        h.combine(reactions)
        h.combine(item.status?.rawValue)
        let hash = h.signed

        let values: [DatabaseValueConvertible?] = [
            item.timestamp.milliseconds, item.direction.code, member, item.content.type.code, analyzed.displayText,
            extra, tagText, flags.rawValue, sourceText, item.file?.name, item.file?.size, item.content.preview?.uri,
            item.content.preview?.title, item.content.preview?.description, item.content.duration, item.content.reason,
            item.quote?.itemSourceId, item.quote?.text, reactions, item.status?.rawValue, hash, item.raw,
        ]

        // Insert first; an existing (chat, source id) is found by the conflict.
        var id = try allocateId(for: item.timestamp, db)
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO item(id, chatId, sourceId, ts, dir, memberId, contentType, text, extra, tags, flags, sourceText,
                                 fileName, fileSize, previewUri, previewTitle, previewDescription, duration, reason,
                                 quoteSourceId, quoteText, reactions, status, contentHash, raw)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(chatId, sourceId) DO NOTHING
                """)
        var inserted = false
        while true {
            do {
                try insert.execute(arguments: StatementArguments([id, chat, item.sourceId] + values))
                inserted = db.changesCount > 0
                break
            } catch let e as DatabaseError where e.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                id += 1  // the time slot overflowed into this id: take the next one
                nextSeq[slotBase(item.timestamp)] = id + 1
            }
        }
        if inserted {
            summary.itemsAdded += 1
            if !bulkMode { fts.append(FTSOp(rowid: id, isDelete: false, text: analyzed.displayText, extra: extra, tags: tagText)) }
        } else {
            guard
                let old = try Row.fetchOne(
                    db, sql: "SELECT id, contentHash, text, extra, tags FROM item WHERE chatId = ? AND sourceId = ?",
                    arguments: [chat, item.sourceId])
            else { return }
            id = old["id"]
            if (old["contentHash"] as Int64) == hash {
                summary.itemsUnchanged += 1
                return
            }
            summary.itemsUpdated += 1
            if !bulkMode {
                fts.append(FTSOp(rowid: id, isDelete: true, text: old["text"], extra: old["extra"], tags: old["tags"]))
                fts.append(FTSOp(rowid: id, isDelete: false, text: analyzed.displayText, extra: extra, tags: tagText))
            }
            try db.execute(
                sql: """
                    UPDATE item SET ts = ?, dir = ?, memberId = ?, contentType = ?, text = ?, extra = ?, tags = ?, flags = ?,
                        sourceText = ?, fileName = ?, fileSize = ?, previewUri = ?, previewTitle = ?, previewDescription = ?,
                        duration = ?, reason = ?, quoteSourceId = ?, quoteText = ?, reactions = ?, status = ?,
                        contentHash = ?, raw = ?
                    WHERE id = ?
                    """, arguments: StatementArguments(values + [id]))
            try db.execute(sql: "DELETE FROM itemSpan WHERE itemId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM itemMention WHERE itemId = ?", arguments: [id])
        }
        touchedChats.insert(chat)
        if !analyzed.spans.isEmpty {
            let span = try db.cachedStatement(
                sql: "INSERT INTO itemSpan(itemId, seq, start, \"end\", type, format) VALUES (?, ?, ?, ?, ?, ?)")
            for (k, s) in analyzed.spans.enumerated() {
                try span.execute(arguments: [id, k, s.start, s.end, s.format.typeName, FormatCoding.json(s.format)])
            }
        }
        if !mentionRows.isEmpty {
            let mention = try db.cachedStatement(
                sql: "INSERT INTO itemMention(itemId, name, memberId, isUser) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
            for m in mentionRows { try mention.execute(arguments: [id, m.name, m.member, m.isUser]) }
        }
    }

    private func slotBase(_ ts: Timestamp) -> Int64 { max(ts.milliseconds, 0) &* 1024 }

    private func allocateId(for ts: Timestamp, _ db: Database) throws -> Int64 {
        let base = slotBase(ts)
        if let next = nextSeq[base] {
            nextSeq[base] = next + 1
            return next
        }
        var next = base
        if !bulkMode {
            if let maxId = try Int64.fetchOne(
                db, sql: "SELECT max(id) FROM item WHERE id BETWEEN ? AND ?", arguments: [base, base + 1023])
            {
                next = maxId + 1
            }
        }
        nextSeq[base] = next + 1
        return next
    }

    private func reactionsJSON(_ r: [Reaction]) -> String {
        var out = "["
        for (k, x) in r.enumerated() {
            if k > 0 { out += "," }
            out += "{\"emoji\":"
            JSONValue.writeString(x.emoji, to: &out)
            out += ",\"count\":\(x.count)}"
        }
        return out + "]"
    }

    private func updateChatAggregates(_ db: Database) throws {
        for chat in touchedChats {
            try db.execute(
                sql: """
                    UPDATE chat SET
                        itemCount = (SELECT count(*) FROM item WHERE chatId = :c),
                        unreadCount = (SELECT count(*) FROM item WHERE chatId = :c AND flags & 4 AND NOT flags & 2),
                        unreadMentions = (SELECT count(*) FROM item WHERE chatId = :c AND flags & 36 = 36 AND NOT flags & 2),
                        reportCount = (SELECT count(*) FROM item WHERE chatId = :c AND contentType = \(ContentType.report.code) AND NOT flags & 2),
                        lastItemId = (SELECT id FROM item WHERE chatId = :c ORDER BY ts DESC, id DESC LIMIT 1),
                        lastTs = (SELECT ts FROM item WHERE chatId = :c ORDER BY ts DESC, id DESC LIMIT 1)
                    WHERE id = :c
                    """, arguments: ["c": chat])
        }
        touchedChats.removeAll()
    }
}
