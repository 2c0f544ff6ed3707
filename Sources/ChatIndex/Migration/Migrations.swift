import GRDB

/// The archive's schema, written once per version as SQL and never edited after release.
enum Migrations {
    /// Migrations that change nothing a reader reads (triggers only): an archive that lacks
    /// only these is read as it is by a read-only open (which cannot migrate), and migrated by
    /// the next program that writes.
    static let readCompatible: Set<String> = [
        "v8-chatNameShortFunction", "v9-nameRowsByWriter", "v10-chatKeyedIndex", "v11-itemFtsWithoutSizes",
        "v12-denseKeys", "v13-compressedText", "v14-compactChatKeys", "v15-memberNameShort",
        "v16-memberFoldedByChat", "v17-memberNameGramByChat", "v18-chatKeyLeafSize",
        "v19-chatKeysWithoutPositions", "v20-termGramWithoutSizes", "v21-tagsHeadFromColumns",
        "v22-secondIds", "v23-memberKeys",
    ]

    /// The items' time-ordered full-text index as format 11 creates it: without FTS5's
    /// `itemFts_docsize` table (`columnsize=0`). Its rows are keyed by item id, which follows
    /// time, while an ingest writes one chat after another, so every message wrote a random
    /// page of that table; relevance order passes each row's length to `chat_bm25` instead
    /// (MessageSearch). An index with the table (an archive made before format 11, until its
    /// next `rebuild`) answers every query the same way.
    package static let itemFtsSQL = """
        CREATE VIRTUAL TABLE itemFts USING fts5(
            text, extra, tags, content='item', content_rowid='id', tokenize='chat', columnsize=0)
        """

    /// The same index in an archive that compresses its text (format 13, ``TextCompression``):
    /// FTS5 reads an item's columns (to check the index, `check`) through the view `itemText`,
    /// which decompresses the text with `chat_text`.
    package static let itemFtsCompressedSQL = """
        CREATE VIRTUAL TABLE itemFts USING fts5(
            text, extra, tags, content='itemText', content_rowid='id', tokenize='chat', columnsize=0)
        """

    /// The view of the item table's full-text columns as text (format 13).
    static let itemTextViewSQL = "CREATE VIEW itemText AS SELECT id, chat_text(text) AS text, extra, tags FROM item"

    /// The same view with the whole tags from SQL `tags` over the item row (``StoredTags``).
    static func itemTextViewSQL(tags: String) -> String {
        "CREATE VIEW itemText AS SELECT id, chat_text(text) AS text, extra, \(tags) AS tags FROM item"
    }

    /// The `CREATE` statement of `itemFts` for this archive: read through `itemText` when the
    /// archive has that view.
    package static func itemFtsSQL(_ db: Database) throws -> String {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'itemText')")
            == true ? itemFtsCompressedSQL : itemFtsSQL
    }

    static func make() -> DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1", migrate: v1)
        m.registerMigration("v2", migrate: v2)
        m.registerMigration("v3-unreadIncludesDeleted", migrate: v3UnreadIncludesDeleted)
        m.registerMigration("v3-memberActivity", migrate: v3MemberActivity)
        m.registerMigration("v3-statsCounters", migrate: v3StatsCounters)
        m.registerMigration("v3-itemExport", migrate: v3ItemExport)
        m.registerMigration("v4-memberNameGram", migrate: v4MemberNameGram)
        m.registerMigration("v5-readMark", migrate: v5ReadMark)
        m.registerMigration("v6-countsBySource", migrate: v6CountsBySource)
        m.registerMigration("v6-chatNameShort", migrate: v6ChatNameShort)
        m.registerMigration("v7-dropChatLastTs", migrate: v7DropChatLastTs)
        m.registerMigration("v8-chatNameShortFunction", migrate: v8ChatNameShortFunction)
        m.registerMigration("v9-nameRowsByWriter", migrate: v9NameRowsByWriter)
        m.registerMigration("v10-chatKeyedIndex", migrate: v10ChatKeyedIndex)
        m.registerMigration("v11-itemFtsWithoutSizes", migrate: v11ItemFtsWithoutSizes)
        m.registerMigration("v12-denseKeys", migrate: v12DenseKeys)
        m.registerMigration("v13-compressedText", migrate: v13CompressedText)
        m.registerMigration("v14-compactChatKeys", migrate: v14CompactChatKeys)
        m.registerMigration("v15-memberNameShort", migrate: v15MemberNameShort)
        m.registerMigration("v16-memberFoldedByChat", migrate: v16MemberFoldedByChat)
        m.registerMigration("v17-memberNameGramByChat", migrate: v17MemberNameGramByChat)
        m.registerMigration("v18-chatKeyLeafSize", migrate: v18ChatKeyLeafSize)
        m.registerMigration("v19-chatKeysWithoutPositions", migrate: v19ChatKeysWithoutPositions)
        m.registerMigration("v20-termGramWithoutSizes", migrate: v20TermGramWithoutSizes)
        m.registerMigration("v21-tagsHeadFromColumns", migrate: v21TagsHeadFromColumns)
        m.registerMigration("v22-secondIds", migrate: v22SecondIds)
        m.registerMigration("v23-memberKeys", migrate: v23MemberKeys)
        return m
    }

    /// Migration `v1`: the first schema.
    private static func v1(_ db: Database) throws {
        try db.execute(sql: v1SQL)
    }

    /// The SQL of migration `v1`.
    private static let v1SQL = """
        CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE ingestSource (
            id INTEGER PRIMARY KEY, path TEXT NOT NULL, format TEXT NOT NULL, ingestedAt INTEGER NOT NULL,
            itemsAdded INTEGER NOT NULL, itemsUpdated INTEGER NOT NULL, itemsSkipped INTEGER NOT NULL);
        CREATE TABLE chat (
            id INTEGER PRIMARY KEY,
            sourceId TEXT NOT NULL UNIQUE,
            source TEXT NOT NULL,
            type TEXT NOT NULL,
            business TEXT,
            displayName TEXT NOT NULL,
            fullName TEXT NOT NULL,
            localAlias TEXT NOT NULL,
            nameKey TEXT NOT NULL,
            translitKey TEXT NOT NULL,
            favorite INTEGER NOT NULL,
            notifications TEXT NOT NULL,
            unreadChat INTEGER NOT NULL,
            draft TEXT,
            itemCount INTEGER NOT NULL DEFAULT 0,
            unreadCount INTEGER NOT NULL DEFAULT 0,
            unreadMentions INTEGER NOT NULL DEFAULT 0,
            reportCount INTEGER NOT NULL DEFAULT 0,
            lastItemId INTEGER,
            lastTs INTEGER);
        CREATE INDEX chat_lastTs ON chat(lastTs DESC, id DESC);
        -- Name search scans this narrow index instead of the chat rows.
        CREATE INDEX chat_names ON chat(nameKey, translitKey, lastTs);
        CREATE TABLE chatTag (
            chatId INTEGER NOT NULL REFERENCES chat(id) ON DELETE CASCADE,
            tag TEXT NOT NULL,
            PRIMARY KEY (chatId, tag)) WITHOUT ROWID;
        CREATE INDEX chatTag_tag ON chatTag(tag);
        CREATE TABLE member (
            id INTEGER PRIMARY KEY,
            chatId INTEGER NOT NULL REFERENCES chat(id) ON DELETE CASCADE,
            sourceId TEXT NOT NULL,
            displayName TEXT NOT NULL,
            fullName TEXT NOT NULL,
            localAlias TEXT NOT NULL,
            isUser INTEGER NOT NULL,
            nameKey TEXT NOT NULL,
            UNIQUE (chatId, sourceId));
        CREATE TABLE item (
            id INTEGER PRIMARY KEY,
            chatId INTEGER NOT NULL REFERENCES chat(id) ON DELETE CASCADE,
            sourceId TEXT NOT NULL,
            ts INTEGER NOT NULL,
            dir INTEGER NOT NULL,
            memberId INTEGER,
            contentType INTEGER NOT NULL,
            text TEXT NOT NULL,
            extra TEXT NOT NULL,
            tags TEXT NOT NULL,
            flags INTEGER NOT NULL,
            sourceText TEXT,
            fileName TEXT,
            fileSize INTEGER,
            filePath TEXT,
            -- Attachments after the first: JSON [{"name","size","path"}].
            moreFiles TEXT,
            -- The source's zone-less wall-clock time, for floating times.
            wallClock TEXT,
            previewUri TEXT,
            previewTitle TEXT,
            previewDescription TEXT,
            duration INTEGER,
            reason TEXT,
            quoteSourceId TEXT,
            quoteText TEXT,
            reactions TEXT,
            status TEXT,
            contentHash INTEGER NOT NULL,
            raw TEXT,
            -- 1-based position in the chat by (ts, id): navInfo counts in O(1).
            pos INTEGER NOT NULL DEFAULT 0,
            UNIQUE (chatId, sourceId));
        CREATE INDEX item_chat_ts ON item(chatId, ts, id);
        -- Unread, not deleted (flags & 6 = 4): the oldest unread item and navInfo's afterUnread.
        CREATE INDEX item_unread ON item(chatId, ts, id, flags) WHERE flags & 6 = 4;
        CREATE TABLE itemSpan (
            itemId INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            start INTEGER NOT NULL,
            "end" INTEGER NOT NULL,
            type TEXT NOT NULL,
            format TEXT NOT NULL,
            PRIMARY KEY (itemId, seq)) WITHOUT ROWID;
        CREATE TABLE itemMention (
            itemId INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            memberId INTEGER,
            isUser INTEGER NOT NULL,
            PRIMARY KEY (itemId, name)) WITHOUT ROWID;
        CREATE INDEX itemMention_member ON itemMention(memberId, itemId);
        CREATE VIRTUAL TABLE itemFts USING fts5(
            text, extra, tags, content='item', content_rowid='id', tokenize='chat');
        CREATE TABLE term (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
        CREATE VIRTUAL TABLE termGram USING fts5(term, content='', tokenize='trigram');
        """

    /// Migration `v2`.
    private static func v2(_ db: Database) throws {
        // Chat-list name search. A trigram index of the folded names (rowid = chat.id) finds
        // the chats whose names contain a query of 3 or more characters without testing every
        // name; triggers keep it in step with every writer of chat names, older builds
        // included. Shorter queries scan the names newest first and stop at a full page, so
        // the name index is ordered by activity instead of by name. `translit` is left empty
        // when the transliteration adds nothing to the name.
        try db.execute(
            sql: """
                DROP INDEX chat_names;
                CREATE INDEX chat_recentNames ON chat(lastTs DESC, id DESC, nameKey, translitKey);
                CREATE VIRTUAL TABLE chatNameGram USING fts5(
                    name, translit, tokenize='trigram case_sensitive 1', columnsize=0);
                INSERT INTO chatNameGram(rowid, name, translit)
                    SELECT id, nameKey, iif(translitKey = nameKey, '', translitKey) FROM chat;
                CREATE TRIGGER chat_nameGram_insert AFTER INSERT ON chat BEGIN
                    INSERT INTO chatNameGram(rowid, name, translit)
                        VALUES (new.id, new.nameKey, iif(new.translitKey = new.nameKey, '', new.translitKey));
                END;
                CREATE TRIGGER chat_nameGram_update AFTER UPDATE OF id, nameKey, translitKey ON chat
                WHEN old.id IS NOT new.id OR old.nameKey IS NOT new.nameKey OR old.translitKey IS NOT new.translitKey
                BEGIN
                    DELETE FROM chatNameGram WHERE rowid = old.id;
                    INSERT INTO chatNameGram(rowid, name, translit)
                        VALUES (new.id, new.nameKey, iif(new.translitKey = new.nameKey, '', new.translitKey));
                END;
                CREATE TRIGGER chat_nameGram_delete AFTER DELETE ON chat BEGIN
                    DELETE FROM chatNameGram WHERE rowid = old.id;
                END;
                """)
    }

    /// Migration `v3-unreadIncludesDeleted`.
    private static func v3UnreadIncludesDeleted(_ db: Database) throws {
        // Unread items count and open a chat whether or not they are marked deleted, as in
        // SimpleX: the partial index covers every unread item (flags & 4), and the chat
        // list's counters are recounted under that rule.
        try db.execute(
            sql: """
                DROP INDEX item_unread;
                CREATE INDEX item_unreadAll ON item(chatId, ts, id) WHERE flags & 4 = 4;
                UPDATE chat SET unreadCount = (SELECT count(*) FROM item WHERE item.chatId = chat.id AND item.flags & 4 = 4);
                """)
    }

    /// Migration `v3-memberActivity`.
    private static func v3MemberActivity(_ db: Database) throws {
        // Mention autocomplete: each member's folded name words (see MemberNames), whether
        // they left, and the time of their newest message, by which the list is ordered.
        try db.execute(
            sql: """
                ALTER TABLE member ADD COLUMN searchKey TEXT NOT NULL DEFAULT '';
                ALTER TABLE member ADD COLUMN hasLeft INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE member ADD COLUMN lastTs INTEGER;
                UPDATE member SET lastTs = (SELECT max(ts) FROM item WHERE item.memberId = member.id AND item.dir <> 2);
                -- Autocomplete walks a chat's members newest writer first, testing names in the index.
                CREATE INDEX member_recent ON member(chatId, lastTs DESC, isUser, hasLeft, searchKey, nameKey);
                """)
        let members = try Row.fetchAll(db, sql: "SELECT id, displayName, fullName, localAlias FROM member")
        let update = try db.makeStatement(sql: "UPDATE member SET searchKey = ? WHERE id = ?")
        for row in members {
            let key = MemberNames.searchKey(
                row["displayName"] as String, row["fullName"] as String, row["localAlias"] as String)
            try update.execute(arguments: [key, row["id"] as Int64])
        }
    }

    /// Migration `v3-statsCounters`.
    private static func v3StatsCounters(_ db: Database) throws {
        // Archive-wide counts for `stats` (``ArchiveCounters``), kept by the writer in each
        // batch's transaction instead of counted by scanning every item on each call.
        try db.execute(
            sql: """
                CREATE TABLE archiveCounter (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) WITHOUT ROWID;
                INSERT INTO archiveCounter(name, value)
                    SELECT 'deletedItems', count(*) FROM item WHERE flags & 2
                    UNION ALL SELECT 'unreadItems', count(*) FROM item WHERE flags & 4
                    UNION ALL SELECT 'spans', count(*) FROM itemSpan
                    UNION ALL SELECT 'mentions', count(*) FROM itemMention
                    UNION ALL SELECT 'textBytes', coalesce(sum(length(CAST(text AS BLOB))), 0) FROM item
                    UNION ALL SELECT 'terms', count(*) FROM term;
                """)
    }

    /// Migration `v3-itemExport`.
    private static func v3ItemExport(_ db: Database) throws {
        // Where attachments can be read back: each ingested export's location (an absolute
        // folder, or a zip file), and for each item with attachments the export it came from
        // (its latest, when ingested again from elsewhere). Attachment paths stay relative to
        // that root, in item.filePath and item.moreFiles.
        try db.execute(
            sql: """
                CREATE TABLE export (
                    id INTEGER PRIMARY KEY,
                    root TEXT NOT NULL,
                    isZip INTEGER NOT NULL,
                    UNIQUE (root, isZip));
                CREATE TABLE itemExport (
                    itemId INTEGER PRIMARY KEY REFERENCES item(id) ON DELETE CASCADE,
                    exportId INTEGER NOT NULL REFERENCES export(id));
                """)
    }

    /// Migration `v4-memberNameGram`.
    private static func v4MemberNameGram(_ db: Database) throws {
        // Mention autocomplete without walking every member of a big group: a trigram index
        // of each member's folded name words and whole folded name (rowid = member.id) finds
        // the members whose names contain a query of 3 or more characters; triggers keep it
        // in step with every writer of members. Shorter queries walk member_recent, newest
        // writer first, and stop at a page.
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE memberNameGram USING fts5(
                    words, name, tokenize='trigram case_sensitive 1', columnsize=0);
                INSERT INTO memberNameGram(rowid, words, name) SELECT id, searchKey, nameKey FROM member;
                CREATE TRIGGER member_nameGram_insert AFTER INSERT ON member BEGIN
                    INSERT INTO memberNameGram(rowid, words, name) VALUES (new.id, new.searchKey, new.nameKey);
                END;
                CREATE TRIGGER member_nameGram_update AFTER UPDATE OF id, searchKey, nameKey ON member
                WHEN old.id IS NOT new.id OR old.searchKey IS NOT new.searchKey OR old.nameKey IS NOT new.nameKey
                BEGIN
                    DELETE FROM memberNameGram WHERE rowid = old.id;
                    INSERT INTO memberNameGram(rowid, words, name) VALUES (new.id, new.searchKey, new.nameKey);
                END;
                CREATE TRIGGER member_nameGram_delete AFTER DELETE ON member BEGIN
                    DELETE FROM memberNameGram WHERE rowid = old.id;
                END;
                """)
    }

    /// Migration `v5-readMark`.
    private static func v5ReadMark(_ db: Database) throws {
        // Marking read moves a per-chat mark instead of rewriting each item's flags (see
        // ReadMark): an item is unread when flagged and after its chat's mark. The second
        // partial index counts the unread mentions a move of the mark covers without
        // reading item rows.
        try db.execute(
            sql: """
                ALTER TABLE chat ADD COLUMN readTs INTEGER NOT NULL DEFAULT -9223372036854775808;
                ALTER TABLE chat ADD COLUMN readId INTEGER NOT NULL DEFAULT -9223372036854775808;
                CREATE INDEX item_unreadMention ON item(chatId, ts, id) WHERE flags & 38 = 36;
                """)
    }

    /// Migration `v6-countsBySource`.
    private static func v6CountsBySource(_ db: Database) throws {
        // `stats` without scanning the chat list: the number of chats and members, and each
        // source's items (the sum of its chats' itemCount), kept in archiveCounter by
        // triggers, so that every writer of chats and members keeps them.
        let add = "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value"
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO archiveCounter(name, value)
                    SELECT '\(ArchiveCounters.chats)', count(*) FROM chat
                    UNION ALL SELECT '\(ArchiveCounters.members)', count(*) FROM member
                    UNION ALL SELECT '\(ArchiveCounters.itemsPrefix)' || source, sum(itemCount) FROM chat GROUP BY source;
                CREATE TRIGGER chat_counts_insert AFTER INSERT ON chat BEGIN
                    INSERT INTO archiveCounter(name, value)
                    VALUES ('\(ArchiveCounters.chats)', 1), ('\(ArchiveCounters.itemsPrefix)' || new.source, new.itemCount) \(add);
                END;
                CREATE TRIGGER chat_counts_update AFTER UPDATE OF itemCount ON chat
                WHEN old.itemCount IS NOT new.itemCount AND old.source IS new.source BEGIN
                    INSERT INTO archiveCounter(name, value)
                    VALUES ('\(ArchiveCounters.itemsPrefix)' || new.source, new.itemCount - old.itemCount) \(add);
                END;
                CREATE TRIGGER chat_counts_source AFTER UPDATE OF source ON chat
                WHEN old.source IS NOT new.source BEGIN
                    INSERT INTO archiveCounter(name, value)
                    VALUES ('\(ArchiveCounters.itemsPrefix)' || old.source, -old.itemCount),
                           ('\(ArchiveCounters.itemsPrefix)' || new.source, new.itemCount) \(add);
                END;
                CREATE TRIGGER chat_counts_delete AFTER DELETE ON chat BEGIN
                    INSERT INTO archiveCounter(name, value)
                    VALUES ('\(ArchiveCounters.chats)', -1), ('\(ArchiveCounters.itemsPrefix)' || old.source, -old.itemCount) \(add);
                END;
                CREATE TRIGGER member_counts_insert AFTER INSERT ON member BEGIN
                    INSERT INTO archiveCounter(name, value) VALUES ('\(ArchiveCounters.members)', 1) \(add);
                END;
                CREATE TRIGGER member_counts_delete AFTER DELETE ON member BEGIN
                    INSERT INTO archiveCounter(name, value) VALUES ('\(ArchiveCounters.members)', -1) \(add);
                END;
                """)
    }

    /// Migration `v6-chatNameShort`.
    private static func v6ChatNameShort(_ db: Database) throws {
        // Chat-list searches of one or two characters by an index of name pieces
        // (ChatNameGrams) instead of testing every chat's names.
        try db.execute(sql: ChatNameGrams.createSQL)
    }

    /// Migration `v7-dropChatLastTs`.
    private static func v7DropChatLastTs(_ db: Database) throws {
        // `chat_recentNames` starts with the same two columns: every query that used this
        // index uses that one, and each new message no longer updates both (one page of the
        // 13 a live upsert wrote).
        try db.execute(sql: "DROP INDEX IF EXISTS chat_lastTs")
    }

    /// Migration `v8-chatNameShortFunction`.
    private static func v8ChatNameShortFunction(_ db: Database) throws {
        // The pieces of chat names from a C function instead of SQL that numbered positions
        // with json_each (ChatNameGrams.functionTriggersSQL): the same rows, cheaper inserts.
        try db.execute(sql: ChatNameGrams.functionTriggersSQL)
    }

    /// Migration `v9-nameRowsByWriter`.
    private static func v9NameRowsByWriter(_ db: Database) throws {
        // New chats' and members' rows of the name indexes are written by the writer at the
        // end of each transaction (BatchStore.writeNewNameRows), not by insert triggers, after
        // each of which FTS5 flushed a segment of its own.
        try db.execute(
            sql: "DROP TRIGGER IF EXISTS chat_nameGram_insert; DROP TRIGGER IF EXISTS member_nameGram_insert")
    }

    /// Migration `v10-chatKeyedIndex`.
    private static func v10ChatKeyedIndex(_ db: Database) throws {
        // A second full-text index whose rowids group each chat's items (ChatKeys): a search
        // in one chat no longer walks a word's posting list across the whole archive. The
        // chats of an archive made before it are keyed at the next writable open; until
        // then, and for a read-only open of such an archive, searches use `itemFts`.
        try db.execute(sql: ChatKeys.createSQL)
    }

    /// Migration `v11-itemFtsWithoutSizes`.
    private static func v11ItemFtsWithoutSizes(_ db: Database) throws {
        // A new archive's time-ordered index without its sizes table (``itemFtsSQL``). An
        // archive with items keeps the index it has (both kinds answer the same queries)
        // until `rebuild` creates it again.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") != true else { return }
        try db.execute(sql: "DROP TABLE itemFts; \(itemFtsSQL)")
    }

    /// Migration `v12-denseKeys`.
    private static func v12DenseKeys(_ db: Database) throws {
        // A new archive's ids in milliseconds instead of 1,024 slots a millisecond
        // (``ArchiveIds``), and its chat-keyed index without FTS5's sizes table
        // (``ChatKeys/ftsSQL``): smaller rowid differences in the time-ordered index, no
        // sizes table in the chat-keyed one. An archive with items keeps its ids and its
        // index.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") != true else { return }
        try ArchiveDatabase.setMeta(db, ArchiveIds.metaKey, String(ArchiveIds.scale))
        try db.execute(sql: "DROP TABLE itemChatFts; \(ChatKeys.ftsSQL)")
    }

    /// Migration `v13-compressedText`.
    private static func v13CompressedText(_ db: Database) throws {
        // A new archive may store its messages' text compressed with a dictionary trained
        // on them, once an ingest asks for it (TextCompression); readers read it through
        // `chat_text(text)`, which returns text stored as it is unchanged. An archive with
        // items keeps storing text as it is.
        try db.execute(sql: "CREATE TABLE textDictionary (id INTEGER PRIMARY KEY, dict BLOB NOT NULL)")
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") != true else { return }
        try ArchiveDatabase.setMeta(db, TextCompression.metaKey, "1")
        try db.execute(sql: "\(itemTextViewSQL); DROP TABLE itemFts; \(itemFtsCompressedSQL)")
    }

    /// Migration `v14-compactChatKeys`.
    private static func v14CompactChatKeys(_ db: Database) throws {
        // A new archive's chat keys 16 apart below `chat.id << 35` (``ChatKeys/Layout``):
        // a smaller chat-keyed index. An archive with items keeps the keys it has.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") != true else { return }
        let compact = ChatKeys.Layout.compact
        try ArchiveDatabase.setMeta(db, ChatKeys.Layout.metaKey, String(compact.placeBits))
    }

    /// Migration `v15-memberNameShort`.
    private static func v15MemberNameShort(_ db: Database) throws {
        // `from:` autocomplete across chats for one or two characters without testing every
        // member (MemberNameGrams). Read-compatible: a reader of an archive without it tests
        // the members as before.
        try db.execute(sql: MemberNameGrams.createSQL)
    }

    /// Migration `v16-memberFoldedByChat`.
    private static func v16MemberFoldedByChat(_ db: Database) throws {
        // A name's chats counted from the index alone (MemberNameGrams). Read-compatible: an
        // archive without it, opened read-only, answers the same queries from the index it has.
        try db.execute(sql: MemberNameGrams.foldedByChatSQL)
    }

    /// Migration `v17-memberNameGramByChat`.
    private static func v17MemberNameGramByChat(_ db: Database) throws {
        // Mention autocomplete in one chat intersects the chat with the fragment in FTS5
        // (MemberGrams). Read-compatible: a reader of an archive without the chat column
        // filters the archive's candidates by chat as before.
        try db.execute(sql: MemberGrams.createSQL)
    }

    /// Migration `v18-chatKeyLeafSize`.
    private static func v18ChatKeyLeafSize(_ db: Database) throws {
        // Smaller leaves for the chat-keyed index (``ChatKeys/leafSizeSQL``): a search in one
        // chat seeks into a word's list. Read-compatible: only the segments written from now
        // on have them, and readers read leaves of any size.
        try db.execute(sql: ChatKeys.leafSizeSQL)
    }

    /// Migration `v19-chatKeysWithoutPositions`.
    private static func v19ChatKeysWithoutPositions(_ db: Database) throws {
        // A new archive's chat-keyed index without positions (``ChatKeys/ftsWithoutPositionsSQL``):
        // less than half the size; searches in one chat check phrases on the candidates' text.
        // Read-compatible: an archive with items keeps its index, and `meta` says which kind
        // a reader has.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") != true else { return }
        try ArchiveDatabase.setMeta(db, ChatKeys.positionsMetaKey, "0")
        try db.execute(sql: "DROP TABLE itemChatFts; \(try ChatKeys.createIndexSQL(db))")
    }

    /// Migration `v20-termGramWithoutSizes`.
    private static func v20TermGramWithoutSizes(_ db: Database) throws {
        // A new archive's trigram index of the vocabulary without its sizes table
        // (``TermVocabulary/gramSQL``). Read-compatible: an archive with items keeps its index
        // (both kinds answer the same matches) until `rebuild` creates it again.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") != true else { return }
        try db.execute(sql: "DROP TABLE termGram; \(TermVocabulary.gramSQL)")
    }

    /// Migration `v21-tagsHeadFromColumns`.
    private static func v21TagsHeadFromColumns(_ db: Database) throws {
        // A new archive's items store their tags without the head that their chat and content
        // type spell (``StoredTags``), which the items index's view spells. Read-compatible:
        // searches never read the tags, an archive with items keeps its whole tags, and
        // `meta` says which way a writer has.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") != true else { return }
        try StoredTags.storeWithoutHead(db)
    }

    /// Migration `v22-secondIds`.
    private static func v22SecondIds(_ db: Database) throws {
        // A new archive's ids a second apart instead of a millisecond (``ArchiveIds``): smaller
        // rowid differences in the time-ordered index. Its index of a chat's items by time
        // without the id, which SQLite keeps after every key of an index anyway: the same
        // order, one copy of the id fewer. An archive with items keeps its ids and its index;
        // readers read its scale from `meta`, and both indexes order and seek alike.
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item)") != true else { return }
        try ArchiveDatabase.setMeta(db, ArchiveIds.slotMetaKey, "1000")
        try db.execute(sql: "DROP INDEX item_chat_ts; CREATE INDEX item_chat_ts ON item(chatId, ts)")
    }

    /// Migration `v23-memberKeys`.
    private static func v23MemberKeys(_ db: Database) throws {
        // `from:` autocomplete across chats reads the members' distinct keys (``MemberKeys``)
        // instead of every matching member, and the index of members newest writer first that
        // it walked goes. Read-compatible: a reader of an archive without the keys tests every
        // member.
        try db.execute(sql: MemberKeys.createSQL)
    }
}
