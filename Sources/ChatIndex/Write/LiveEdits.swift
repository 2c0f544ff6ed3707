import ChatModel
import ChatText
import GRDB

/// An app's edits of stored items and chats, each run in the caller's transaction: deletions,
/// read state, pins, reactions and chat settings. Chat counters (items, unread, mentions,
/// reports, last item) and item positions are kept exact; the full-text row of an item whose
/// filter tags change is rewritten in the same transaction.
///
/// Reading moves the chat's read mark (``ReadMark``) and rewrites no item: an item's `unread`
/// flag and index tag are then a superset of the unread items, and searches for `is:unread`
/// check the flags against the mark (see `CompiledQuery`), so that marking 10,000 items read
/// writes one chat row.
///
/// The vocabulary of infix search (`TermVocabulary`) only grows: a term of a deleted item
/// stays listed, and a query word expanding to it ORs one posting list that matches nothing.
/// Results stay exact; ``ArchiveDatabase/rebuildIndexes(progress:chunk:isCancelled:)`` drops such terms.
package enum LiveEdits {
    /// The archive id of a chat, by source id.
    package static func chatId(_ chat: String, _ db: Database) throws -> Int64 {
        guard
            let id = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM chat WHERE sourceId = ?"), arguments: [chat.storable])
        else {
            throw ArchiveError.unknownChat(chat)
        }
        return id
    }

    /// The source ids of the items of `chat` with these archive ids (what windows and search
    /// return), in the order given; throws for the first id the chat does not hold.
    package static func sourceIds(of ids: [Int64], chat: String, _ db: Database) throws -> [String] {
        let chatId = try chatId(chat, db)
        let lookup = try db.cachedStatement(sql: "SELECT sourceId FROM item WHERE id = ? AND chatId = ?")
        return try ids.map { id in
            guard let sourceId = try String.fetchOne(lookup, arguments: [id, chatId]) else {
                throw ArchiveError.unknownItem(id: id, chat: chat)
            }
            return sourceId
        }
    }

    /// What the edits need of a stored item.
    struct StoredItem {
        var id: Int64
        var ts: Int64
        var pos: Int64
        var flags: Int64
        var contentType: Int64
        var sentByMe: Bool
        var memberId: Int64?
        var text: String
        var extra: String
        var tags: String
        /// Its row in the chat-keyed index (``ChatKeys``), if it has one.
        var chatKey: Int64?
    }

    /// The stored items of `chat` with these source ids, in the order given (duplicates once);
    /// throws for the first id the chat does not hold.
    static func items(_ sourceIds: [String], chat: Int64, chatSource: String, _ db: Database) throws -> [StoredItem] {
        let lookup = try db.cachedStatement(
            sql:
                "SELECT id, ts, pos, flags, contentType, chat_text(text) AS text, extra, \(try StoredTags.of(db).wholeSQL) AS tags, chatKey, dir, memberId FROM item WHERE chatId = ? AND sourceId = ?"
        )
        // Flags as readers see them: an item the chat's read mark covers is read (and is
        // written back so when its flags change).
        let mark = try ReadMark.of(chat: chat, db)
        var out: [StoredItem] = []
        var seen = Set<String>()
        for s in sourceIds where seen.insert(s).inserted {
            guard let r = try Row.fetchOne(lookup, arguments: [chat, s.storable]) else {
                throw ArchiveError.unknownItem(sourceId: s, chat: chatSource)
            }
            let (ts, id): (Int64, Int64) = (r[1], r[0])
            out.append(
                StoredItem(
                    id: id, ts: ts, pos: r[2], flags: mark.effective(flags: r[3], ts: ts, id: id), contentType: r[4],
                    sentByMe: (r[9] as Int64) == ItemDirection.snd.code, memberId: r[10],
                    text: r[5], extra: r[6], tags: r[7], chatKey: r[8]))
        }
        return out
    }

    // MARK: - Deletion

    /// SimpleX's "marked deleted": the items stay in windows as placeholders (flag `deleted`),
    /// leave search results (unless deleted items are asked for) and the chat's counters.
    package static func markDeleted(chat: String, items sourceIds: [String], _ db: Database) throws {
        let chatId = try chatId(chat, db)
        let rows = try items(sourceIds, chat: chatId, chatSource: chat, db)
        try setFlags(rows.filter { $0.flags & ItemFlags.deleted.rawValue == 0 }, chat: chatId, db) {
            $0 | ItemFlags.deleted.rawValue
        }
    }

    /// Removes items: gone from windows, search and counters; later items move up one position each.
    package static func delete(chat: String, items sourceIds: [String], _ db: Database) throws {
        let chatId = try chatId(chat, db)
        let rows = try items(sourceIds, chat: chatId, chatSource: chat, db).sorted { $0.id < $1.id }
        guard !rows.isEmpty else { return }
        let ftsDelete = try db.cachedStatement(
            sql: "INSERT INTO itemFts(itemFts, rowid, text, extra, tags) VALUES ('delete', ?, ?, ?, ?)")
        let delete = try db.cachedStatement(sql: "DELETE FROM item WHERE id = ?")
        var delta = CounterDelta()
        var totals = ArchiveCounters.Delta()
        let spans = try db.cachedStatement(sql: "SELECT count(*) FROM itemSpan WHERE itemId = ?")
        let mentions = try db.cachedStatement(sql: "SELECT count(*) FROM itemMention WHERE itemId = ?")
        for r in rows {
            totals.spans -= try Int64.fetchOne(spans, arguments: [r.id]) ?? 0
            totals.mentions -= try Int64.fetchOne(mentions, arguments: [r.id]) ?? 0
            try ftsDelete.execute(arguments: [r.id, r.text, r.extra, r.tags])
            if let key = r.chatKey {
                try ChatKeys.deleteStatement(db).execute(arguments: [key, r.text, r.extra, r.tags])
            }
            try delete.execute(arguments: [r.id])
            delta.add(flags: r.flags, contentType: r.contentType, sign: -1)
            totals.add(flags: r.flags, text: r.text, sign: -1)
        }
        try totals.apply(db)
        guard let first = rows.min(by: { ($0.ts, $0.id) < ($1.ts, $1.id) }) else { return }
        try renumber(chat: chatId, after: (first.ts, first.id), from: first.pos - 1, db)
        try apply(delta, chat: chatId, db)
    }

    /// Removes a chat with its members, items, spans, mentions, tags and full-text rows.
    package static func delete(chat: String, _ db: Database) throws {
        let chatId = try chatId(chat, db)
        let ftsDelete = try db.cachedStatement(
            sql: "INSERT INTO itemFts(itemFts, rowid, text, extra, tags) VALUES ('delete', ?, ?, ?, ?)")
        // All rows first: the full-text deletes must not run while the cursor reads the items.
        let rows = try Row.fetchAll(
            db,
            sql:
                "SELECT id, chat_text(text) AS text, extra, \(try StoredTags.of(db).wholeSQL) AS tags, chatKey FROM item WHERE chatId = ? ORDER BY id",
            arguments: [chatId]
        )
        let keyedDelete = try ChatKeys.deleteStatement(db)
        for r in rows {
            try ftsDelete.execute(arguments: [r[0], r[1], r[2], r[3]])
            if let key = r[4] as Int64? { try keyedDelete.execute(arguments: [key, r[1], r[2], r[3]]) }
        }
        // The archive-wide counters lose what the chat held.
        let held = try Row.fetchOne(
            db,
            sql: """
                SELECT
                    (SELECT count(*) FROM item WHERE chatId = ?1 AND \(ItemFlags.sql(set: .deleted))),
                    (SELECT unreadCount FROM chat WHERE id = ?1),
                    (SELECT coalesce(sum(chat_text_bytes(text)), 0) FROM item WHERE chatId = ?1),
                    (SELECT count(*) FROM itemSpan WHERE itemId IN (SELECT id FROM item WHERE chatId = ?1)),
                    (SELECT count(*) FROM itemMention WHERE itemId IN (SELECT id FROM item WHERE chatId = ?1))
                """, arguments: [chatId])
        if let held {
            try ArchiveCounters.add(-(held[0] as Int64), to: ArchiveCounters.deletedItems, db)
            try ArchiveCounters.add(-(held[1] as Int64), to: ArchiveCounters.unreadItems, db)
            try ArchiveCounters.add(-(held[2] as Int64), to: ArchiveCounters.textBytes, db)
            try ArchiveCounters.add(-(held[3] as Int64), to: ArchiveCounters.spans, db)
            try ArchiveCounters.add(-(held[4] as Int64), to: ArchiveCounters.mentions, db)
        }
        // Items, spans, mentions, members and tags go by their foreign keys; the name index by
        // trigger; the members' keys are counted again without them.
        let keys = try Int64.fetchAll(
            db, sql: "SELECT DISTINCT keyId FROM member WHERE chatId = ? AND keyId IS NOT NULL", arguments: [chatId])
        try db.execute(sql: "DELETE FROM item WHERE chatId = ?", arguments: [chatId])
        try db.execute(sql: "DELETE FROM chat WHERE id = ?", arguments: [chatId])
        try MemberKeys.recount(Set(keys), db)
    }

    // MARK: - Read state

    /// Marks read every unread item of the chat up to `through` by `(ts, id)` (every one when
    /// `nil`), marked-deleted ones included (as in SimpleX, they count as unread until read).
    /// The chat's read mark moves (see ``ReadMark``): no item row is written.
    package static func markRead(chat: String, through item: String?, _ db: Database) throws {
        let chatId = try chatId(chat, db)
        let bound: ReadMark
        if let item {
            let r = try items([item], chat: chatId, chatSource: chat, db)[0]
            bound = ReadMark(ts: r.ts, id: r.id)
        } else {
            guard
                let newest = try Row.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT ts, id FROM item WHERE chatId = ? ORDER BY ts DESC, id DESC LIMIT 1"),
                    arguments: [chatId])
            else { return }
            bound = ReadMark(ts: newest[0], id: newest[1])
        }
        try ReadMark.advance(chat: chatId, through: bound, db)
    }

    /// Sets the chat's "marked unread" flag (SimpleX's `unreadChat`).
    package static func setMarkedUnread(chat: String, _ value: Bool, _ db: Database) throws {
        let chatId = try chatId(chat, db)
        try db.execute(sql: "UPDATE chat SET unreadChat = ? WHERE id = ?", arguments: [value, chatId])
    }

    // MARK: - Pins and reactions

    /// Pins or unpins items (the `is:pinned` filter follows).
    package static func setPinned(chat: String, items sourceIds: [String], _ pinned: Bool, _ db: Database) throws {
        let chatId = try chatId(chat, db)
        let rows = try items(sourceIds, chat: chatId, chatSource: chat, db)
        let bit = ItemFlags.pinned.rawValue
        try setFlags(rows.filter { ($0.flags & bit != 0) != pinned }, chat: chatId, db) {
            pinned ? $0 | bit : $0 & ~bit
        }
    }

    /// Replaces an item's reaction counts.
    package static func setReactions(chat: String, item: String, _ reactions: [Reaction], _ db: Database) throws {
        let chatId = try chatId(chat, db)
        let row = try items([item], chat: chatId, chatSource: chat, db)[0]
        let json = reactions.isEmpty ? nil : PreparedItem.reactionsJSON(reactions)
        try db.execute(sql: "UPDATE item SET reactions = ?, contentHash = 0 WHERE id = ?", arguments: [json, row.id])
    }

    // MARK: - Chat settings

    /// Changes of a chat's settings; `nil` fields are left as they are.
    package struct ChatSettings: Sendable {
        package var favorite: Bool?
        package var notifications: NotificationMode?
        package var tags: [String]?
        package var localAlias: String?
        /// `.some(nil)` clears the draft.
        package var draft: String??
        package init(
            favorite: Bool? = nil, notifications: NotificationMode? = nil, tags: [String]? = nil,
            localAlias: String? = nil,
            draft: String?? = nil
        ) {
            self.favorite = favorite
            self.notifications = notifications
            self.tags = tags
            self.localAlias = localAlias
            self.draft = draft
        }
    }

    /// Applies chat settings; a new alias updates the chat-list name index.
    package static func update(chat: String, _ s: ChatSettings, _ db: Database) throws {
        let chatId = try chatId(chat, db)
        if let f = s.favorite {
            try db.execute(sql: "UPDATE chat SET favorite = ? WHERE id = ?", arguments: [f, chatId])
        }
        if let n = s.notifications {
            try db.execute(sql: "UPDATE chat SET notifications = ? WHERE id = ?", arguments: [n.rawValue, chatId])
        }
        if let d = s.draft { try db.execute(sql: "UPDATE chat SET draft = ? WHERE id = ?", arguments: [d, chatId]) }
        if let tags = s.tags {
            try db.execute(sql: "DELETE FROM chatTag WHERE chatId = ?", arguments: [chatId])
            for tag in Set(tags) where !tag.isEmpty {
                try db.execute(sql: "INSERT INTO chatTag(chatId, tag) VALUES (?, ?)", arguments: [chatId, tag])
            }
        }
        if let alias = s.localAlias {
            guard
                let r = try Row.fetchOne(
                    db, sql: "SELECT displayName, fullName FROM chat WHERE id = ?", arguments: [chatId])
            else {
                return
            }
            let (display, full): (String, String) = (r[0], r[1])
            try db.execute(
                sql: "UPDATE chat SET localAlias = ?, nameKey = ?, translitKey = ? WHERE id = ?",
                arguments: [
                    alias, ChatNames.key(display, full, alias), ChatNames.transliterationKey(display, full, alias),
                    chatId,
                ])
        }
    }

    // MARK: - Internal

    /// Changes the flags of items, their index tags (`deleted`, `pinned`) and full-text rows,
    /// and the chat's counters.
    private static func setFlags(_ rows: [StoredItem], chat: Int64, _ db: Database, _ change: (Int64) -> Int64) throws {
        guard !rows.isEmpty else { return }
        let ftsDelete = try db.cachedStatement(
            sql: "INSERT INTO itemFts(itemFts, rowid, text, extra, tags) VALUES ('delete', ?, ?, ?, ?)")
        let ftsInsert = try db.cachedStatement(sql: "INSERT INTO itemFts(rowid, text, extra, tags) VALUES (?, ?, ?, ?)")
        let storedTags = try StoredTags.of(db)
        let update = try db.cachedStatement(sql: "UPDATE item SET flags = ?, tags = ?, contentHash = 0 WHERE id = ?")
        var delta = CounterDelta()
        var totals = ArchiveCounters.Delta()
        for r in rows.sorted(by: { $0.id < $1.id }) {
            let flags = change(r.flags)
            let tags = retagged(r.tags, flags: ItemFlags(rawValue: flags))
            delta.add(flags: r.flags, contentType: r.contentType, sign: -1)
            delta.add(flags: flags, contentType: r.contentType, sign: 1)
            totals.add(flags: r.flags, text: "", sign: -1)
            totals.add(flags: flags, text: "", sign: 1)
            if tags != r.tags {
                try ftsDelete.execute(arguments: [r.id, r.text, r.extra, r.tags])
                try ftsInsert.execute(arguments: [r.id, r.text, r.extra, tags])
                if let key = r.chatKey {
                    try ChatKeys.deleteStatement(db).execute(arguments: [key, r.text, r.extra, r.tags])
                    try ChatKeys.insertStatement(db).execute(arguments: [key, r.text, r.extra, tags])
                }
            }
            try update.execute(arguments: [
                flags,
                storedTags.stored(
                    tags, chat: chat, contentType: r.contentType, sentByMe: r.sentByMe, member: r.memberId),
                r.id,
            ])
        }
        try totals.apply(db)
        try apply(delta, chat: chat, db)
    }

    /// The tags with the `deleted` and `pinned` tokens as the flags say (the `unread` token is
    /// left: it may only overstate, and searches check the flags).
    static func retagged(_ tags: String, flags: ItemFlags) -> String {
        var tokens = tags.split(separator: " ").map(String.init).filter {
            $0 != IndexTerms.deleted && $0 != IndexTerms.pinned
        }
        if flags.contains(.deleted) { tokens.append(IndexTerms.deleted) }
        if flags.contains(.pinned) { tokens.append(IndexTerms.pinned) }
        return tokens.joined(separator: " ")
    }

    /// Renumbers the positions of a chat's items after `(ts, id)`, the first of them taking `base + 1`.
    static func renumber(chat: Int64, after anchor: (ts: Int64, id: Int64), from base: Int64, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE item SET pos = r.n
                FROM (SELECT id, ?4 + row_number() OVER (ORDER BY ts, id) AS n FROM item
                      WHERE chatId = ?1 AND (ts, id) > (?2, ?3)) AS r
                WHERE item.id = r.id AND item.pos <> r.n
                """
        ).execute(arguments: [chat, anchor.ts, anchor.id, base])
    }

    /// Counter changes, counted as the writer counts them.
    typealias CounterDelta = BatchStore.ChatAggregateDelta

    /// Applies counter changes and finds the chat's last item again by the (chat, ts, id) index.
    static func apply(_ d: CounterDelta, chat: Int64, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE chat SET
                    itemCount = itemCount + :items, unreadCount = unreadCount + :unread,
                    unreadMentions = unreadMentions + :mentions, reportCount = reportCount + :reports,
                    lastItemId = (SELECT id FROM item WHERE chatId = :c ORDER BY ts DESC, id DESC LIMIT 1),
                    lastTs = (SELECT ts FROM item WHERE chatId = :c ORDER BY ts DESC, id DESC LIMIT 1)
                WHERE id = :c
                """
        ).execute(arguments: [
            "c": chat, "items": d.items, "unread": d.unread, "mentions": d.unreadMentions, "reports": d.reports,
        ])
    }
}

extension ArchiveError {
    /// The error for an item, named by its source id, that the chat does not hold: one wording
    /// for live writes, the command line and the web API.
    package static func unknownItem(sourceId: String, chat: String) -> ArchiveError {
        ArchiveError(.unknownItem, "no item with source id \"\(sourceId)\" in chat \"\(chat)\"")
    }

    /// The error for an item, named by its archive id, that the chat does not hold.
    package static func unknownItem(id: Int64, chat: String) -> ArchiveError {
        ArchiveError(.unknownItem, "no item with id \(id) in chat \"\(chat)\"")
    }
}
