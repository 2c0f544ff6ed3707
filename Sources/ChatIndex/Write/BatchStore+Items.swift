import ChatModel
import ChatText
import Foundation
import GRDB

// Items: upserted by (chat, source id), with their full-text rows, time-ordered ids and positions in their chat.
extension BatchStore {
    func write(_ prepared: PreparedItem, _ db: Database, fts: inout [FTSOp]) throws {
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
        let mentionRows = try mentions(of: prepared, chat: chat, db)

        var flags = prepared.flags
        if mentionRows.contains(where: \.isUser) { flags.insert(.mentionsUser) }
        let (tags, tagsAsStored) = self.tags(of: item, chat: chat, member: member, flags: flags, mentions: mentionRows)

        var h = prepared.contentHash
        h.combine(member ?? -1)
        h.combine(tags)
        h.combine(flags.rawValue)
        let row = ItemRow(
            prepared: prepared, chat: chat, member: member, flags: flags, tags: tags, tagsAsStored: tagsAsStored,
            hash: h.signed,
            storedText: prepared.storedText ?? textCompression.stored(analyzed.displayText))

        // Insert first; an existing (chat, source id) is found by the conflict.
        let mark = try readMark(chat, db)
        let id: Int64
        if let added = try insert(row, mark: mark, db) {
            id = added.id
            self.added(row, id: id, pos: added.pos, chatKey: added.chatKey, fts: &fts)
        } else {
            guard let updated = try update(row, mark: mark, db, fts: &fts) else { return }
            id = updated
        }
        try writeSpans(analyzed.spans, item: id, db)
        try writeMentions(mentionRows, item: id, db)
    }

    /// A mention of an item, with the member it names (when known) and whether that is the user.
    typealias MentionRow = (name: String, member: Int64?, isUser: Bool)

    /// What an item's row is made of, beside the prepared item.
    struct ItemRow {
        var prepared: PreparedItem
        var chat: Int64
        var member: Int64?
        var flags: ItemFlags
        var tags: String
        /// The tags as `item.tags` holds them (``StoredTags``).
        var tagsAsStored: String
        var hash: Int64
        var storedText: StoredText
        var item: Item { prepared.item }
        var contentType: Int64 { item.content.type.code }
    }

    /// The item's mentions: by the item's map, else by member name.
    private func mentions(of prepared: PreparedItem, chat: Int64, _ db: Database) throws -> [MentionRow] {
        let item = prepared.item
        let analyzed = prepared.analyzed
        var mentionRows: [MentionRow] = []
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
            if let t = target, t == (try userMemberId(chat, db)) { isUser = true }
            mentionRows.append((name, target, isUser))
        }
        return mentionRows
    }

    /// The item's index tags (its chat, content, flags, sender and mentioned members), whole and
    /// as `item.tags` stores them. In an archive that stores tags without the head its columns
    /// spell (``StoredTags``), the sender's tokens are part of that head; in an older one they
    /// follow the flags, as they always did there (an item's content hash covers its tags).
    private func tags(
        of item: Item, chat: Int64, member: Int64?, flags: ItemFlags, mentions mentionRows: [MentionRow]
    ) -> (whole: String, stored: String) {
        let senderFirst = storedTags.headTypes != nil
        let sentByMe = item.direction == .snd
        let head =
            senderFirst
            ? IndexTerms.head(chat: chat, type: item.content.type, sentByMe: sentByMe, member: member)
            : IndexTerms.head(chat: chat, type: item.content.type)
        var rest = ""
        if flags.contains(.hasLink) { rest += " " + IndexTerms.link }
        if flags.contains(.deleted) { rest += " " + IndexTerms.deleted }
        if flags.contains(.unread) { rest += " " + IndexTerms.unread }
        if flags.contains(.pinned) { rest += " " + IndexTerms.pinned }
        if !senderFirst { rest += IndexTerms.sender(sentByMe: sentByMe, member: member) }
        if flags.contains(.mentionsUser) { rest += " " + IndexTerms.mentionsMe }
        for m in mentionRows { if let id = m.member { rest += " " + IndexTerms.mentions(member: id) } }
        let whole = head + rest
        return (whole, storedTags.spellsHead(contentType: item.content.type.code) ? rest : whole)
    }

    /// Inserts the item's row at a free id of its time slot; nil when its (chat, source id)
    /// is already stored.
    private func insert(_ row: ItemRow, mark: ReadMark, _ db: Database) throws -> (
        id: Int64, pos: Int64, chatKey: Int64?
    )? {
        let item = row.item
        let prepared = row.prepared
        let (chat, member, flags, hash, contentType, storedText) = (
            row.chat, row.member, row.flags, row.hash, row.contentType, row.storedText
        )
        var id = try allocateId(for: item.timestamp, db)
        if flags.contains(.unread) && mark.covers(ts: item.timestamp.milliseconds, id: id) {
            try uncover(chat, db)
        }
        var inserted = false
        var pos: Int64 = 0
        var chatKey: Int64? = nil
        while true {
            // Looked up once per transaction (finding it in GRDB's cache hashes its text), and
            // again after a failure: GRDB drops a statement that failed from its cache, and a
            // failed statement cannot be reset for reuse.
            let insert =
                try itemInsert
                ?? db.cachedStatement(
                    sql: """
                        INSERT INTO item(id, chatId, sourceId, ts, dir, memberId, contentType, text, extra, tags, flags, sourceText,
                                         fileName, fileSize, previewUri, previewTitle, previewDescription, duration, reason,
                                         quoteSourceId, quoteText, reactions, status, contentHash, raw, pos,
                                         filePath, moreFiles, wallClock, chatKey)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(chatId, sourceId) DO NOTHING
                        """)
            itemInsert = insert
            do {
                pos = try position(ts: item.timestamp.milliseconds, id: id, chat: chat, db)
                chatKey = try proposeKey(chat: chat, id: id, ts: item.timestamp.milliseconds, db)
                try insert.execute { b in
                    b.bind(id)
                    b.bind(chat)
                    b.bind(item.sourceId)
                    b.bind(item.timestamp.milliseconds)
                    b.bind(item.direction.code)
                    b.bind(member)
                    b.bind(contentType)
                    b.bind(storedText)
                    b.bind(prepared.extra)
                    b.bind(row.tagsAsStored)
                    b.bind(flags.rawValue)
                    b.bind(prepared.sourceText)
                    b.bind(item.file?.name)
                    b.bind(item.file?.size)
                    b.bind(item.content.preview?.uri)
                    b.bind(item.content.preview?.title)
                    b.bind(item.content.preview?.description)
                    b.bind(item.content.duration)
                    b.bind(item.content.reason)
                    b.bind(item.quote?.itemSourceId)
                    b.bind(item.quote?.text)
                    b.bind(prepared.reactions)
                    b.bind(item.status?.rawValue)
                    b.bind(hash)
                    b.bind(item.raw)
                    b.bind(pos)
                    b.bind(item.file?.path)
                    b.bind(prepared.moreFiles)
                    b.bind(item.wallClock)
                    b.bind(chatKey)
                }
                inserted = db.changesCount > 0
                break
            } catch let e as DatabaseError where e.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                itemInsert = nil
                // The time slot overflowed into this id: take the first free one after it.
                id = try firstFreeId(from: id, db)
                nextSeq[try slotBase(item.timestamp, db).base] = id + 1
            }
        }
        return inserted ? (id, pos, chatKey) : nil
    }

    /// The bookkeeping of a new item: its member's activity, its place, its chat's counts and
    /// its full-text row.
    private func added(_ row: ItemRow, id: Int64, pos: Int64, chatKey: Int64?, fts: inout [FTSOp]) {
        let item = row.item
        let prepared = row.prepared
        let analyzed = prepared.analyzed
        let (chat, member, flags, tags, contentType) = (row.chat, row.member, row.flags, row.tags, row.contentType)
        if let member, item.direction != .event {
            memberLastTs[member] = max(memberLastTs[member] ?? .min, item.timestamp.milliseconds)
        }
        placed(id: id, ts: item.timestamp.milliseconds, pos: pos, chat: chat)
        noteKey(chatKey, id: id, chat: chat)
        summary.itemsAdded += 1
        aggregates[chat, default: ChatAggregateDelta()].add(
            flags: flags.rawValue, contentType: contentType, sign: 1)
        counters.add(flags: flags.rawValue, text: analyzed.displayText, sign: 1)
        pendingInsert[id] = fts.count
        fts.append(
            FTSOp(
                rowid: id, isDelete: false, text: analyzed.displayText, extra: prepared.extra, tags: tags,
                textTokens: prepared.textTokens, extraTokens: prepared.extraTokens, chatKey: chatKey))
    }

    /// Updates the stored row of the item's (chat, source id) when its content changed, and
    /// its counts and full-text row; its id, nil when nothing is to be written (unchanged).
    private func update(_ row: ItemRow, mark: ReadMark, _ db: Database, fts: inout [FTSOp]) throws -> Int64? {
        let item = row.item
        let prepared = row.prepared
        let analyzed = prepared.analyzed
        let (chat, member, flags, tags, hash, contentType, storedText) = (
            row.chat, row.member, row.flags, row.tags, row.hash, row.contentType, row.storedText
        )
        let lookup = try db.cachedStatement(
            sql:
                "SELECT id, contentHash, chat_text(text) AS text, extra, \(storedTags.wholeSQL) AS tags, flags, contentType, ts, chatKey FROM item WHERE chatId = ? AND sourceId = ?"
        )
        guard let old = try Row.fetchOne(lookup, arguments: [chat, item.sourceId]) else { return nil }
        let id: Int64 = old["id"]
        if (old["contentHash"] as Int64) == hash {
            summary.itemsUnchanged += 1
            return nil
        }
        summary.itemsUpdated += 1
        // The old version as readers saw it: read when the chat's mark covered it.
        let oldFlags = mark.effective(flags: old["flags"], ts: old["ts"], id: id)
        if flags.contains(.unread) && mark.covers(ts: item.timestamp.milliseconds, id: id) {
            try uncover(chat, db)
        }
        aggregates[chat, default: ChatAggregateDelta()].add(
            flags: oldFlags, contentType: old["contentType"], sign: -1)
        aggregates[chat, default: ChatAggregateDelta()].add(
            flags: flags.rawValue, contentType: contentType, sign: 1)
        counters.add(flags: oldFlags, text: old["text"], sign: -1)
        counters.add(flags: flags.rawValue, text: analyzed.displayText, sign: 1)
        let oldKey: Int64? = old["chatKey"]
        let newRow = FTSOp(
            rowid: id, isDelete: false, text: analyzed.displayText, extra: prepared.extra, tags: tags,
            textTokens: prepared.textTokens, extraTokens: prepared.extraTokens, chatKey: oldKey)
        if let k = pendingInsert[id] {
            // Indexed by this batch, not yet in the FTS index: index the new version instead.
            fts[k] = newRow
        } else {
            fts.append(
                FTSOp(
                    rowid: id, isDelete: true, text: old["text"], extra: old["extra"], tags: old["tags"],
                    chatKey: oldKey))
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
            item.timestamp.milliseconds, item.direction.code, member, contentType, storedText.databaseValue,
            prepared.extra,
            row.tagsAsStored,
            flags.rawValue,
            prepared.sourceText, item.file?.name, item.file?.size,
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
        return id
    }

    /// The item's formatted spans.
    private func writeSpans(_ spans: [Span], item id: Int64, _ db: Database) throws {
        if !spans.isEmpty {
            let span = try db.cachedStatement(
                sql: "INSERT INTO itemSpan(itemId, seq, start, \"end\", type, format) VALUES (?, ?, ?, ?, ?, ?)")
            for (k, s) in spans.enumerated() {
                try span.execute { b in
                    b.bind(id)
                    b.bind(k)
                    b.bind(s.start)
                    b.bind(s.end)
                    b.bind(s.format.typeName)
                    b.bind(FormatCoding.json(s.format))
                }
            }
            counters.spans += Int64(spans.count)
        }
    }

    /// The item's mentions.
    private func writeMentions(_ mentionRows: [MentionRow], item id: Int64, _ db: Database) throws {
        if !mentionRows.isEmpty {
            let mention = try db.cachedStatement(
                sql:
                    "INSERT INTO itemMention(itemId, name, memberId, isUser) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
            )
            for m in mentionRows {
                try mention.execute { b in
                    b.bind(id)
                    b.bind(m.name)
                    b.bind(m.member)
                    b.bind(m.isUser)
                }
                counters.mentions += Int64(db.changesCount)
            }
        }
    }

    /// The chat's read mark, looked up once per batch.
    private func readMark(_ chat: Int64, _ db: Database) throws -> ReadMark {
        if let m = readMarks[chat] { return m }
        let m = try ReadMark.of(chat: chat, db)
        readMarks[chat] = m
        return m
    }

    /// Applies the chat's read mark to the flags and removes it, before an unread item is
    /// written at or before it (a message that arrived late): flags alone are then the truth.
    private func uncover(_ chat: Int64, _ db: Database) throws {
        try ReadMark.materialize(chat: chat, db)
        readMarks[chat] = ReadMark.none
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
    func renumberPositions(_ db: Database) throws {
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

    /// The first id of a time's slot, by the archive's scale (``ArchiveIds``), read once.
    private func slotBase(_ ts: Timestamp, _ db: Database) throws -> (base: Int64, size: Int64) {
        let scale = try idScale ?? ArchiveIds.scale(db)
        idScale = scale
        return (scale.slotBase(milliseconds: ts.milliseconds), scale.idsPerSlot)
    }

    private func allocateId(for ts: Timestamp, _ db: Database) throws -> Int64 {
        let (base, size) = try slotBase(ts, db)
        if let next = nextSeq[base] {
            nextSeq[base] = next + 1
            return next
        }
        var next = base
        // Into an archive that started empty, a slot no earlier batch used needs no lookup.
        if !startedEmpty || usedSlots.mayContain(base) {
            if let maxId = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT max(id) FROM item WHERE id BETWEEN ? AND ?"),
                arguments: [base, base + size - 1])
            {
                next = maxId + 1
            }
        }
        if startedEmpty { usedSlots.insert(base) }
        // A full slot (more items in one slot than the ids it holds, one since format 12)
        // continues after the run of ids that follows it, which may hold the next slots'
        // items.
        if next > base + size - 1 { next = try firstFreeId(from: next, db) }
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
}
