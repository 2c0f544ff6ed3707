import GRDB

/// The second full-text index, `itemChatFts`, whose rowids group each chat's items: a search
/// in one chat reads only that chat's part of a word's posting list.
///
/// The items' index (`itemFts`, rowid = archive id) answers a search in one chat by joining the
/// chat's token with the word, which walks both posting lists: a word frequent in a big archive but
/// rare in a big chat took tens of milliseconds (<doc:ArchiveLayout>). In `itemChatFts` an item's
/// rowid is its *chat key*, `chat.id << 35 | place` (`<< 43` in archives made before format 14: see
/// ``Layout``), so a chat is the rowid range ``Layout/range(of:)`` and FTS5 seeks straight into it.
/// Same columns, same text and tokens as `itemFts`.
///
/// Within a chat, keys follow archive ids (hence time), so newest first in the range is newest
/// first in the chat, the order of every other search. Keys are spaced the layout's `gap` (16)
/// apart:
/// an item older than the chat's newest takes a key between its neighbours, and when none is
/// left the writer spreads the keys around it. A chat's `keyed` column says whether its keys
/// can be trusted:
/// - `1`: every item has a key (`item.chatKey`) and a row in `itemChatFts`, in id order;
/// - `0`: no item has a key or a row (a chat of an older archive, one where a new item's
///   neighbours in id lay far from its neighbours in time, after an edit moved a time, or one
///   with an id beyond ``maxChatId``): searches use `itemFts`;
/// - `2`: being keyed by ``keyChats(_:chunk:progress:between:)``: items with a key have their
///   row, the others none.
///
/// A chat leaves `1` only for `0` (`dropKeys(chat:_:)`), and returns to `1` by
/// ``keyChats(_:chunk:progress:between:)``, which an ingest runs at its end and a writable
/// open when `meta.chatKeysPending` is set.
package enum ChatKeys {
    /// Chats with a bigger id are never keyed (searches in them use `itemFts`).
    package static let maxChatId: Int64 = (1 << 20) - 1

    /// How an archive spaces its keys, fixed for its life: `meta.chatKeyBits` says which.
    package struct Layout: Sendable, Equatable {
        /// Bits of the key below the chat id.
        let placeBits: Int64
        /// Space between the keys of consecutive items written in order.
        let gap: Int64
        /// Most a late item's key moves past its predecessor's, so that a run of late items
        /// written oldest first (a member's messages delivered after others') keeps room.
        let lateStep: Int64
        /// The first key of a chat's first item: the middle of its range, leaving room both ways.
        var firstPlace: Int64 { 1 << (placeBits - 1) }

        /// The rowid range of a chat in `itemChatFts` (both ends inclusive).
        package func range(of chat: Int64) -> ClosedRange<Int64> {
            (chat << placeBits)...((chat << placeBits) | ((1 << placeBits) - 1))
        }

        /// Formats 10 to 13: keys 65,536 apart, `chat.id << 43 | place`.
        static let wide = Layout(placeBits: 43, gap: 1 << 16, lateStep: 256)
        /// Format 14: keys 16 apart, `chat.id << 35 | place` (2^30 items in order after a chat's
        /// first). FTS5 stores a rowid as the varint of its difference to the previous one in
        /// a posting list, so closer keys make a smaller index (<doc:ArchiveLayout>). Every key
        /// stays below 2^56, because SQLite 3.40's FTS5 misreads a doclist index backwards when
        /// a page of it starts with a 9-byte varint whose last byte has its top bit set: a
        /// search newest first then walked the posting list instead of seeking, many times
        /// slower in a mid-size chat of a big archive. Keys `chat.id << 43` are 9-byte varints
        /// from chat 8,192 on; keys
        /// 65,536 apart end in a zero byte, which is why the wide layout never met it.
        static let compact = Layout(placeBits: 35, gap: 16, lateStep: 2)

        package static let metaKey = "chatKeyBits"

        /// The archive's layout (one indexed lookup of `meta`).
        package static func of(_ db: Database) throws -> Layout {
            try with(
                bits: String.fetchOne(
                    db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [metaKey]))
        }

        /// The layout `meta.chatKeyBits` names (`nil`: an archive made before format 14).
        package static func with(bits: String?) -> Layout {
            bits == String(compact.placeBits) ? .compact : .wide
        }
    }

    /// The index as format 12 creates it: without FTS5's sizes table (`columnsize=0`), which
    /// only relevance order read and which `chat_bm25` does without (MessageSearch). An archive
    /// made before keeps the table until its next rebuild; both answer alike.
    static let ftsSQL = """
        CREATE VIRTUAL TABLE itemChatFts USING fts5(
            text, extra, tags, content='', tokenize='chat', columnsize=0)
        """

    /// The index as format 19 creates it: without positions (`detail=none`), which makes it
    /// less than half the size and an ingest faster (<doc:WritePerformance>). FTS5 then
    /// answers no phrase and no column filter, so its filter tokens are written under names
    /// of their own (``tagsSQL(_:_:)``, ``IndexTerms/verbatimKeyed(_:)``) and a search in one
    /// chat checks a phrase's order on the candidates' text (<doc:ArchiveLayout>,
    /// ``TextCheckFunction``).
    package static let ftsWithoutPositionsSQL = """
        CREATE VIRTUAL TABLE itemChatFts USING fts5(
            text, extra, tags, content='', tokenize='chat', columnsize=0, detail=none)
        """

    /// `meta` key whose value `0` says the index has no positions (format 19).
    package static let positionsMetaKey = "chatKeyPositions"

    /// Whether the archive's chat-keyed index has positions (every archive made before format 19).
    package static func hasPositions(_ db: Database) throws -> Bool {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [positionsMetaKey]) != "0"
    }

    /// The `CREATE` statement of the archive's kind of index.
    static func ftsSQL(_ db: Database) throws -> String {
        try hasPositions(db) ? ftsSQL : ftsWithoutPositionsSQL
    }

    /// The SQL value of the `tags` column for the index, from the SQL expression `expr` of
    /// an item's tags: as it is, or, in an index without positions, after the byte that makes
    /// the tokenizer write its words as filter tokens (`CCHATICU_TAGS_VALUE`).
    package static func tagsSQL(_ expr: String, _ db: Database) throws -> String {
        try hasPositions(db) ? expr : "(X'FF' || \(expr))"
    }

    /// The match of every row (each item's `all` filter token).
    package static func everyRowMatch(_ db: Database) throws -> String {
        try hasPositions(db) ? "{tags}: \(IndexTerms.all)" : quotedKeyed(IndexTerms.all)
    }

    /// A filter token of an index without positions, quoted for a match expression.
    package static func quotedKeyed(_ tag: String) -> String {
        "\"" + IndexTerms.verbatimKeyed(tag) + "\""
    }

    /// The statements that create the archive's kind of index, with its leaf size.
    static func createIndexSQL(_ db: Database) throws -> String {
        "\(try ftsSQL(db)); \(leafSizeSQL)"
    }

    /// Sets the index's leaf size: smaller than FTS5's default, so that a word whose list
    /// spans a few leaves gets a doclist index, and a search in one chat seeks into that list
    /// instead of reading it from its start (ChatSearch's SearchPerformance article, "Leaves
    /// of the chat-keyed index"). A setting of the table, written after each `CREATE`; FTS5
    /// applies it to the segments it writes from then on.
    package static let leafSizeSQL = "INSERT INTO itemChatFts(itemChatFts, rank) VALUES('pgsz', \(leafBytes))"
    /// The index's leaf size in bytes (FTS5's `pgsz`).
    package static let leafBytes = 1_000

    /// `CREATE` statements of the index, the key column and the chat's state.
    static let createSQL = """
        \(ftsSQL);
        ALTER TABLE item ADD COLUMN chatKey INTEGER;
        CREATE UNIQUE INDEX item_chatKey ON item(chatKey) WHERE chatKey IS NOT NULL;
        ALTER TABLE chat ADD COLUMN keyed INTEGER NOT NULL DEFAULT 0;
        INSERT INTO meta(key, value) VALUES ('chatKeysPending', '1')
            ON CONFLICT(key) DO UPDATE SET value = excluded.value;
        """

    /// Whether the archive has the chat-keyed index (format 10 and later).
    package static func exists(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'itemChatFts')")) ?? false
    }

    /// The insert statement of a row (rowid, text, extra, tags).
    static func insertStatement(_ db: Database) throws -> Statement {
        try db.cachedStatement(
            sql: "INSERT INTO itemChatFts(rowid, text, extra, tags) VALUES (?, ?, ?, \(try tagsSQL("?", db)))")
    }

    /// The delete statement of a row: the same four values it was inserted with.
    static func deleteStatement(_ db: Database) throws -> Statement {
        try db.cachedStatement(
            sql:
                "INSERT INTO itemChatFts(itemChatFts, rowid, text, extra, tags) VALUES ('delete', ?, ?, ?, \(try tagsSQL("?", db)))"
        )
    }

    // MARK: - Losing and gaining keys

    /// Removes a chat's rows and keys (state `0`) and marks the archive for ``keyChats(_:chunk:progress:between:)``.
    /// The chat's rows must hold what its items hold (the writer's queued rows written first).
    static func dropKeys(chat: Int64, _ db: Database) throws {
        let r = try Layout.of(db).range(of: chat)
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT chatKey, chat_text(text), extra, \(try StoredTags.of(db).wholeSQL) FROM item WHERE chatKey BETWEEN ? AND ? ORDER BY chatKey"
            ),
            arguments: [r.lowerBound, r.upperBound])
        let delete = try deleteStatement(db)
        for row in rows {
            try delete.execute(arguments: [row[0], row[1], row[2], row[3]])
        }
        try db.cachedStatement(sql: "UPDATE item SET chatKey = NULL WHERE chatKey BETWEEN ? AND ?")
            .execute(arguments: [r.lowerBound, r.upperBound])
        try db.cachedStatement(sql: "UPDATE chat SET keyed = 0 WHERE id = ?").execute(arguments: [chat])
        try ArchiveDatabase.setMeta(db, "chatKeysPending", "1")
    }

    /// Items keyed per transaction by ``keyChats(_:chunk:progress:between:)``.
    package static let keyingChunk = 20_000

    /// Gives every chat in state `0` or `2` its keys and rows, and clears
    /// `meta.chatKeysPending`; returns how many items it keyed. Chats of up to ``keyingChunk``
    /// items are keyed whole, several to a transaction of about that many items; a bigger chat
    /// in transactions of that many (see `key(chat:_:chunk:between:)`). `between` runs after each
    /// transaction (the archive checkpoints there).
    @discardableResult
    package static func keyChats(
        _ writer: any DatabaseWriter, chunk: Int = keyingChunk, progress: ((Int64, Int64) -> Void)? = nil,
        between: () throws -> Void = {}
    ) throws -> Int64 {
        let chats = try writer.read { db -> [(id: Int64, items: Int64)] in
            guard try exists(db) else { return [] }
            return try Row.fetchAll(
                db, sql: "SELECT id, itemCount FROM chat WHERE keyed <> 1 AND id <= ? ORDER BY id",
                arguments: [maxChatId]
            ).map { ($0[0], $0[1]) }
        }
        let total = chats.reduce(0) { $0 + $1.items }
        var done: Int64 = 0
        progress?(0, total)
        var small: [Int64] = []
        var smallItems: Int64 = 0
        func keySmall() throws {
            guard !small.isEmpty else { return }
            try writer.write { db in
                for chat in small { try keyWhole(chat: chat, db) }
            }
            try between()
            done += smallItems
            progress?(done, total)
            small.removeAll()
            smallItems = 0
        }
        for chat in chats {
            if chat.items > Int64(chunk) {
                try key(chat: chat.id, writer, chunk: chunk, between: between)
                done += chat.items
                progress?(done, total)
                continue
            }
            small.append(chat.id)
            smallItems += chat.items
            if smallItems >= Int64(chunk) { try keySmall() }
        }
        try keySmall()
        try writer.write { db in
            if try exists(db) { try ArchiveDatabase.setMeta(db, "chatKeysPending", "0") }
        }
        return total
    }

    /// The first key and the step for `count` items keyed at once: centred on the middle of the
    /// chat's range (room for as many later items before as after), the layout's gap apart or closer.
    static func centredKeys(count: Int64, chat: Int64, _ layout: Layout) -> (first: Int64, step: Int64) {
        let r = layout.range(of: chat)
        let step = min(layout.gap, (r.upperBound - r.lowerBound) / (count + 2))
        return (r.lowerBound + layout.firstPlace - (count / 2) * step, step)
    }

    /// Gives item `id` the key `key`: its row in the index (from the text, extra and tags it
    /// holds, whole as the archive's `tags` spells them) and its `chatKey`. Nothing when the
    /// item is gone.
    static func give(_ key: Int64, toItem id: Int64, tags: StoredTags, _ db: Database) throws {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT chat_text(text), extra, \(tags.wholeSQL) FROM item WHERE id = ?"),
                arguments: [id])
        else { return }
        try insertStatement(db).execute(arguments: [key, row[0], row[1], row[2]])
        try db.cachedStatement(sql: "UPDATE item SET chatKey = ? WHERE id = ?").execute(arguments: [key, id])
    }

    /// Keys a chat in the caller's transaction, all its items at once.
    static func keyWhole(chat: Int64, _ db: Database) throws {
        guard let state = try Int.fetchOne(db, sql: "SELECT keyed FROM chat WHERE id = ?", arguments: [chat]),
            state != 1
        else { return }
        if state == 2 { try dropKeys(chat: chat, db) }
        let ids = try Int64.fetchAll(
            db, sql: "SELECT id FROM item WHERE chatId = ? ORDER BY id", arguments: [chat])
        let (first, step) = centredKeys(count: Int64(ids.count), chat: chat, try Layout.of(db))
        guard step >= 2 else { return }
        let tags = try StoredTags.of(db)
        for (k, id) in ids.enumerated() {
            try give(first + Int64(k) * step, toItem: id, tags: tags, db)
        }
        try db.execute(sql: "UPDATE chat SET keyed = 1 WHERE id = ?", arguments: [chat])
    }

    /// Keys one chat in transactions of `size` items (see ``keyChats(_:chunk:progress:between:)``).
    static func key(chat: Int64, _ writer: any DatabaseWriter, chunk size: Int, between: () throws -> Void) throws {
        let (layout, tags) = try writer.read { db in (try Layout.of(db), try StoredTags.of(db)) }
        let r = layout.range(of: chat)
        for _ in 0..<4 {
            // The chat's items still without a key, in id order; they must all follow the keyed ones.
            let (ids, last) = try writer.write { db -> ([Int64], (id: Int64, key: Int64)?) in
                let state = try Int.fetchOne(db, sql: "SELECT keyed FROM chat WHERE id = ?", arguments: [chat])
                guard let state, state != 1 else { return ([], nil) }
                if state == 0 {
                    try db.execute(sql: "UPDATE chat SET keyed = 2 WHERE id = ?", arguments: [chat])
                }
                let last = try Row.fetchOne(
                    db, sql: "SELECT id, chatKey FROM item WHERE chatKey BETWEEN ? AND ? ORDER BY chatKey DESC LIMIT 1",
                    arguments: [r.lowerBound, r.upperBound]
                ).map { (id: $0[0] as Int64, key: $0[1] as Int64) }
                let ids = try Int64.fetchAll(
                    db, sql: "SELECT id FROM item WHERE chatId = ? AND chatKey IS NULL ORDER BY id", arguments: [chat])
                if let last, let first = ids.first, first < last.id {
                    try dropKeys(chat: chat, db)
                    return ([], (id: -1, key: -1))
                }
                if ids.isEmpty {
                    try db.execute(sql: "UPDATE chat SET keyed = 1 WHERE id = ?", arguments: [chat])
                }
                return (ids, last)
            }
            if let last, last.id == -1 { continue }  // dropped: start over
            if ids.isEmpty { return }
            let n = Int64(ids.count)
            let step: Int64
            var next: Int64
            if let last {
                step = min(layout.gap, (r.upperBound - last.key) / (n + 1))
                next = last.key + step
            } else {
                (next, step) = centredKeys(count: n, chat: chat, layout)
            }
            guard step >= 2 else {
                try writer.write { db in try dropKeys(chat: chat, db) }
                return
            }
            var start = 0
            while start < ids.count {
                let chunk = ids[start..<min(start + size, ids.count)]
                let fits = try writer.write { db -> Bool in
                    for id in chunk {
                        guard next <= r.upperBound else {
                            try dropKeys(chat: chat, db)
                            return false
                        }
                        try give(next, toItem: id, tags: tags, db)
                        next += step
                    }
                    return true
                }
                guard fits else { return }
                try between()
                start += size
            }
            // The next round finds the items written meanwhile, or sets the state to 1.
        }
    }
}
