import ChatModel
import ChatText
import GRDB

/// Integrity checks and repairs of an archive: SQLite's, FTS5's and the archive's own.
package enum ArchiveMaintenance {
    /// One problem `check` found: what it is, in words, and whether `--repair` can fix it.
    struct Problem {
        enum Kind { case sqliteIndex, fullText, vocabulary, counters, totals, chatNames, memberNames, stored }
        var kind: Kind
        var message: String
        /// Rebuilt from the stored items by ``repair(_:)``.
        var isRepairable: Bool { kind != .stored }
    }

    /// Runs SQLite's integrity check, FTS5's, and the archive's own consistency checks.
    /// Returns the problems found, in words (empty when healthy). Never changes the archive.
    ///
    /// `isCancelled` is asked between its steps; once it says yes, the check throws
    /// `CancellationError`.
    package static func check(_ database: ArchiveDatabase, isCancelled: () -> Bool = { false }) throws -> [String] {
        try problems(database, isCancelled: isCancelled).map(\.message)
    }

    static func problems(_ database: ArchiveDatabase, isCancelled: () -> Bool = { false }) throws -> [Problem] {
        var problems: [Problem] = []
        if isCancelled() { throw CancellationError() }
        // FTS5's integrity check is an INSERT statement (that changes nothing): it needs a
        // connection that may write, which read-only media cannot give.
        try database.withIntegrityConnection { db, canRunFTSChecks in
            // 1. The file's structure: pages, b-trees, and every table's indexes.
            do {
                let rows = try String.fetchAll(db, sql: "PRAGMA integrity_check(100)")
                if rows != ["ok"] {
                    let indexes = Set(
                        try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'index'"))
                    var damagedIndexes: [String: [String]] = [:]
                    var other: [String] = []
                    for row in rows {
                        if let name = indexes.first(where: {
                            row.hasSuffix("index " + $0) || row.contains("index " + $0 + " ")
                        }) {
                            damagedIndexes[name, default: []].append(row)
                        } else {
                            other.append(row)
                        }
                    }
                    for (name, details) in damagedIndexes.sorted(by: { $0.key < $1.key }) {
                        problems.append(
                            Problem(
                                kind: .sqliteIndex,
                                message:
                                    "the database index \(name) does not match its table (\(details.count) problem\(details.count == 1 ? "" : "s"), e.g. \"\(details[0])\"); \(repairHint)"
                            ))
                    }
                    if !other.isEmpty {
                        let shown = other.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
                        problems.append(
                            Problem(
                                kind: .stored,
                                message:
                                    "the archive file is damaged: SQLite's integrity check reports \(other.count) problem\(other.count == 1 ? "" : "s") (\(shown)\(other.count > 5 ? ", …" : "")); restore it from a backup, or ingest your exports again into a new archive"
                            ))
                    }
                }
            } catch let e as DatabaseError {
                let trees = database.hasPageChecksums == true ? damagedTrees(db) : []
                problems.append(
                    trees.isEmpty
                        ? damaged("SQLite cannot finish its integrity check", e)
                        : damaged(
                            "pages of \(trees.prefix(5).joined(separator: ", "))\(trees.count > 5 ? ", …" : "") do not match their checksums",
                            e))
                return
            }
            if isCancelled() { throw CancellationError() }
            do {
                try checkIndexes(db, ftsChecks: canRunFTSChecks, into: &problems)
            } catch let e as DatabaseError where !problems.contains(where: { $0.kind == .stored }) {
                problems.append(damaged("SQLite cannot read it", e))
            } catch is DatabaseError {
                // Already reported as damage to the file.
            }
        }
        return problems
    }

    /// The tables and indexes with a page SQLite cannot read (a checksum that does not match),
    /// each walked on its own by `dbstat`.
    private static func damagedTrees(_ db: Database) -> [String] {
        let names =
            ["sqlite_schema"]
            + ((try? String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE rootpage > 0 ORDER BY name")) ?? [])
        return names.filter { name in
            do {
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM dbstat WHERE name = ?", arguments: [name])
                return false
            } catch let e as DatabaseError {
                return e.resultCode == .SQLITE_CORRUPT
            } catch {
                return false
            }
        }
    }

    private static func damaged(_ what: String, _ e: DatabaseError) -> Problem {
        Problem(
            kind: .stored,
            message:
                "the archive file is damaged: \(what) (\(e.message ?? e.description)); restore it from a backup, or ingest your exports again into a new archive"
        )
    }

    private static let repairHint = "a repair rebuilds it from the stored items"

    /// The archive's own checks: its indexes against its items.
    private static func checkIndexes(_ db: Database, ftsChecks: Bool, into problems: inout [Problem]) throws {
        let items = try checkFullText(db, ftsChecks: ftsChecks, into: &problems)
        try checkVocabulary(db, ftsChecks: ftsChecks, items: items, into: &problems)
        try checkIndexVersion(db, into: &problems)
        try checkStoredItems(db, into: &problems)
        try checkNameIndexes(db, ftsChecks: ftsChecks, into: &problems)
        try checkCounters(db, into: &problems)
        try checkTotals(db, into: &problems)
    }

    /// 2. The full-text indexes (all chats, and one chat's), against the stored items; returns
    /// how many items are stored.
    private static func checkFullText(_ db: Database, ftsChecks: Bool, into problems: inout [Problem]) throws -> Int {
        do {
            if ftsChecks { try db.execute(sql: "INSERT INTO itemFts(itemFts, rank) VALUES('integrity-check', 1)") }
        } catch let e as DatabaseError {
            problems.append(
                Problem(
                    kind: .fullText,
                    message:
                        "the full-text search index is damaged or does not match the stored items (SQLite: \(e.message ?? e.description)); searches may miss items or fail; \(repairHint)"
                ))
        }
        let items = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
        if let indexed = try? Int.fetchOne(
            db, sql: "SELECT count(*) FROM itemFts WHERE itemFts MATCH '{tags}: \(IndexTerms.all)'"),
            indexed != items
        {
            let detail =
                indexed < items
                ? "\(items - indexed) stored item\(items - indexed == 1 ? " is" : "s are") missing from it and cannot be found by search"
                : "\(indexed - items) entr\(indexed - items == 1 ? "y points" : "ies point") at items that are not stored"
            problems.append(
                Problem(
                    kind: .fullText,
                    message:
                        "the full-text search index has \(indexed) entries for \(items) stored items: \(detail); \(repairHint)"
                ))
        }
        // The chat-keyed index (searches in one chat): one row per keyed item.
        if try ChatKeys.exists(db) {
            let keyedItems = try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE chatKey IS NOT NULL") ?? 0
            let rows = try? Int.fetchOne(
                db, sql: "SELECT count(*) FROM itemChatFts WHERE itemChatFts MATCH ?",
                arguments: [try ChatKeys.everyRowMatch(db)])
            if let rows, rows != keyedItems {
                problems.append(
                    Problem(
                        kind: .fullText,
                        message:
                            "the index of searches in one chat has \(rows) entries for \(keyedItems) items: searches in a chat may miss items; \(repairHint)"
                    ))
            }
        }
        return items
    }

    /// 3. The vocabulary behind infix and prefix search.
    private static func checkVocabulary(_ db: Database, ftsChecks: Bool, items: Int, into problems: inout [Problem])
        throws
    {
        do {
            if ftsChecks { try db.execute(sql: "INSERT INTO termGram(termGram, rank) VALUES('integrity-check', 1)") }
            let terms = try Int.fetchOne(db, sql: "SELECT count(*) FROM term") ?? 0
            if terms == 0 && items > 0 {
                problems.append(
                    Problem(
                        kind: .vocabulary,
                        message:
                            "the word list for partial-word search is empty although \(items) items are stored; searches for parts of words find nothing; \(repairHint)"
                    ))
            }
        } catch let e as DatabaseError {
            problems.append(
                Problem(
                    kind: .vocabulary,
                    message:
                        "the word list for partial-word search is damaged (SQLite: \(e.message ?? e.description)); \(repairHint)"
                ))
        }
    }

    /// 4. Interrupted rebuilds and analyser versions.
    private static func checkIndexVersion(_ db: Database, into problems: inout [Problem]) throws {
        if try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'ftsStale'") == "1" {
            problems.append(
                Problem(
                    kind: .fullText,
                    message:
                        "the full-text search index is incomplete: an ingest or index rebuild was interrupted; \(repairHint) (so does opening the archive for writing)"
                ))
        } else if let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'analyzerVersion'")
            .flatMap({ Int($0) }),
            stored != Analyzer.version
        {
            problems.append(
                Problem(
                    kind: .fullText,
                    message:
                        "the full-text search index was built by text analyser version \(stored); this ChatArchive uses version \(Analyzer.version), so searches may miss items; \(repairHint)"
                ))
        }
    }

    /// 5. Stored data the indexes cannot fix.
    private static func checkStoredItems(_ db: Database, into problems: inout [Problem]) throws {
        let orphans =
            try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE chatId NOT IN (SELECT id FROM chat)") ?? 0
        if orphans > 0 {
            problems.append(
                Problem(
                    kind: .stored,
                    message:
                        "\(orphans) stored item\(orphans == 1 ? " belongs" : "s belong") to no chat; they cannot be listed; ingest their exports again"
                ))
        }
    }

    /// 6. The chat-list and mention-autocomplete name indexes, against the names.
    private static func checkNameIndexes(_ db: Database, ftsChecks: Bool, into problems: inout [Problem]) throws {
        // 6. The chat-list name index, against the chats' names.
        do {
            if ftsChecks {
                try db.execute(sql: "INSERT INTO chatNameGram(chatNameGram, rank) VALUES('integrity-check', 1)")
            }
            if let off = try Int.fetchOne(db, sql: chatNamesMismatchSQL), off != 0 {
                problems.append(
                    Problem(
                        kind: .chatNames,
                        message:
                            "the chat-name search index does not match the chats' names; chat-list searches may miss chats; a repair rebuilds it"
                    ))
            }
        } catch let e as DatabaseError {
            problems.append(
                Problem(
                    kind: .chatNames,
                    message:
                        "the chat-name search index is damaged (SQLite: \(e.message ?? e.description)); chat-list searches may miss chats or fail; a repair rebuilds it"
                ))
        }
        // 6b. The mention-autocomplete name index, against the members' names.
        do {
            if ftsChecks {
                try db.execute(sql: "INSERT INTO memberNameGram(memberNameGram, rank) VALUES('integrity-check', 1)")
            }
            let hasKeys = try Bool.fetchOne(db, sql: MemberKeys.existsSQL) == true
            if hasKeys && ftsChecks {
                try db.execute(sql: "INSERT INTO memberKeyGram(memberKeyGram, rank) VALUES('integrity-check', 1)")
            }
            let offKeys = hasKeys ? try Int.fetchOne(db, sql: MemberKeys.mismatchSQL) ?? 0 : 0
            let hasShort = try Bool.fetchOne(db, sql: MemberNameGrams.existsSQL) == true
            let missingShort = hasShort ? try Int.fetchOne(db, sql: MemberNameGrams.missingSQL) ?? 0 : 0
            let byChat = try Bool.fetchOne(db, sql: MemberGrams.byChatSQL) == true
            if let off = try Int.fetchOne(db, sql: MemberGrams.mismatchSQL(byChat: byChat)),
                off + offKeys + missingShort != 0
            {
                problems.append(
                    Problem(
                        kind: .memberNames,
                        message:
                            "the member-name index of mention autocomplete does not match the members' names; autocomplete may miss members; a repair rebuilds it"
                    ))
            }
        } catch let e as DatabaseError {
            problems.append(
                Problem(
                    kind: .memberNames,
                    message:
                        "the member-name index of mention autocomplete is damaged (SQLite: \(e.message ?? e.description)); autocomplete may miss members or fail; a repair rebuilds it"
                ))
        }
    }

    /// 7. The chat list's counters, against the items.
    private static func checkCounters(_ db: Database, into problems: inout [Problem]) throws {
        let bad = try Row.fetchAll(
            db,
            sql:
                "\(countersSQL) SELECT chat.sourceId, chat.itemCount, real.items FROM chat JOIN real ON real.id = chat.id \(counterMismatch) ORDER BY chat.id"
        )
        if let first = bad.first {
            let name: String = first[0]
            let stored: Int = first[1]
            let real: Int = first[2]
            problems.append(
                Problem(
                    kind: .counters,
                    message:
                        "\(bad.count) chat\(bad.count == 1 ? " has" : "s have") wrong counts in the chat list (items, unread, mentions, reports or last item; e.g. chat \"\(name)\" says \(stored) items and holds \(real)); a repair recounts them"
                ))
        }
        if let off = try Int.fetchOne(db, sql: positionsMismatchSQL), off > 0 {
            problems.append(
                Problem(
                    kind: .counters,
                    message:
                        "\(off) item\(off == 1 ? " has" : "s have") a wrong position in \(off == 1 ? "its" : "their") chat; counts of newer items in windows are off; `chat-archive check --repair` recounts them"
                ))
        }
    }

    /// 8. The archive-wide totals `stats` shows, against the stored rows.
    private static func checkTotals(_ db: Database, into problems: inout [Problem]) throws {
        if let stored = try ArchiveCounters.stored(db) {
            let actual = try ArchiveCounters.actual(db)
            let wrong = actual.keys.sorted().filter { stored[$0] != actual[$0] }
            if !wrong.isEmpty {
                let shown = wrong.map {
                    "\(ArchiveCounters.words($0)): \(stored[$0].map(String.init) ?? "none") stored, \(actual[$0] ?? 0) counted"
                }
                problems.append(
                    Problem(
                        kind: .totals,
                        message:
                            "the archive's totals shown by `stats` are wrong (\(shown.joined(separator: "; "))); `chat-archive check --repair` recounts them"
                    ))
            }
        }
    }

    /// Items whose stored position in their chat is not their rank by `(ts, id)` (navInfo counts from positions).
    private static let positionsMismatchSQL = """
        SELECT count(*) FROM (SELECT pos, row_number() OVER (PARTITION BY chatId ORDER BY ts, id) AS n FROM item) WHERE pos <> n
        """

    /// What the chat-list name indexes should hold for each chat (see migration v2 and
    /// `ChatNameGrams`).
    private static let chatNamesMismatchSQL = """
        SELECT (SELECT count(*) FROM chatNameGram WHERE rowid NOT IN (SELECT id FROM chat))
            + (SELECT count(*) FROM chat c LEFT JOIN chatNameGram g ON g.rowid = c.id
               WHERE g.rowid IS NULL OR g.name IS NOT c.nameKey OR g.translit IS NOT iif(c.translitKey = c.nameKey, '', c.translitKey))
            + (\(ChatNameGrams.mismatchSQL))
        """

    /// Per-chat counts computed from the items, as the writer keeps them.
    private static let countersSQL = """
        WITH real AS (
            SELECT chat.id AS id,
                count(item.id) AS items,
                coalesce(sum(\(ReadMark.unreadSQL(item: "item", chat: "chat"))), 0) AS unread,
                coalesce(sum(\(ItemFlags.sql("item.flags", set: [.unread, .mentionsUser], clear: .deleted)) AND (item.ts, item.id) > (chat.readTs, chat.readId)), 0) AS mentions,
                coalesce(sum(\(ItemFlags.sql("item.flags", clear: .deleted)) AND item.contentType = \(ContentType.report.code)), 0) AS reports,
                (SELECT i.id FROM item i WHERE i.chatId = chat.id ORDER BY i.ts DESC, i.id DESC LIMIT 1) AS lastItemId,
                (SELECT i.ts FROM item i WHERE i.chatId = chat.id ORDER BY i.ts DESC, i.id DESC LIMIT 1) AS lastTs
            FROM chat LEFT JOIN item ON item.chatId = chat.id GROUP BY chat.id)
        """
    private static let counterMismatch = """
        WHERE chat.itemCount IS NOT real.items OR chat.unreadCount IS NOT real.unread
            OR chat.unreadMentions IS NOT real.mentions OR chat.reportCount IS NOT real.reports
            OR chat.lastItemId IS NOT real.lastItemId OR chat.lastTs IS NOT real.lastTs
        """

    /// Rebuilds what can be rebuilt from the stored items — SQLite's indexes, the full-text
    /// index, the vocabulary, the chat list's counters — and never changes an item, member or
    /// chat's own fields. Returns the problems left (those only a backup or a new ingest fix).
    ///
    /// `isCancelled` is asked between its steps and between the transactions of a rebuild; once
    /// it says yes, the repair throws `CancellationError`, leaving what it committed (an index
    /// it did not finish stays marked for a rebuild, which the next writable open or repair does).
    package static func repair(
        _ database: ArchiveDatabase, progress: (@Sendable (Int64, Int64) -> Void)? = nil,
        isCancelled: () -> Bool = { false }
    ) throws -> [String] {
        let found = try problems(database, isCancelled: isCancelled)
        let kinds = Set(found.filter(\.isRepairable).map(\.kind))
        var failures: [String] = []
        // Damaged stored data can make a rebuild fail: each step is tried on its own.
        func attempt(_ what: String, _ body: () throws -> Void) throws {
            if isCancelled() { throw CancellationError() }
            do {
                try body()
            } catch let e as DatabaseError {
                failures.append(
                    "could not \(what): the archive file is damaged (SQLite: \(e.message ?? e.description)); restore it from a backup, or ingest your exports again into a new archive"
                )
            }
        }
        if kinds.contains(.sqliteIndex) {
            try attempt("rebuild the database indexes") {
                try database.writer.writeWithoutTransaction { db in try db.execute(sql: "REINDEX") }
            }
        }
        if kinds.contains(.fullText) || kinds.contains(.vocabulary) {
            try attempt("rebuild the full-text search index") {
                try database.rebuildIndexes(progress: progress, isCancelled: isCancelled)
            }
        }
        if kinds.contains(.chatNames) {
            try attempt("rebuild the chat-name search index") {
                try database.writer.write { db in
                    try db.execute(
                        sql: """
                            DELETE FROM chatNameGram;
                            INSERT INTO chatNameGram(rowid, name, translit)
                                SELECT id, nameKey, iif(translitKey = nameKey, '', translitKey) FROM chat;
                            \(ChatNameGrams.rebuildSQL)
                            """)
                }
            }
        }
        if kinds.contains(.memberNames) {
            try attempt("rebuild the member-name index") {
                try database.writer.write { db in
                    try db.execute(
                        sql: try Bool.fetchOne(db, sql: MemberGrams.byChatSQL) == true
                            ? MemberGrams.rebuildSQL
                            : """
                            DELETE FROM memberNameGram;
                            INSERT INTO memberNameGram(rowid, words, name) SELECT id, searchKey, nameKey FROM member;
                            """)
                    if try Bool.fetchOne(db, sql: MemberNameGrams.existsSQL) == true {
                        try db.execute(sql: MemberNameGrams.rebuildSQL)
                    }
                    if try Bool.fetchOne(db, sql: MemberKeys.existsSQL) == true {
                        try db.execute(sql: MemberKeys.rebuildSQL)
                    }
                }
            }
        }
        if kinds.contains(.totals) {
            try attempt("recount the archive's totals") {
                try database.writer.write { db in try ArchiveCounters.recount(db) }
            }
        }
        if kinds.contains(.counters) {
            try attempt("recount the chat list") {
                try database.writer.write { db in
                    try db.execute(
                        sql: """
                            \(countersSQL)
                            UPDATE chat SET itemCount = real.items, unreadCount = real.unread, unreadMentions = real.mentions,
                                reportCount = real.reports, lastItemId = real.lastItemId, lastTs = real.lastTs
                            FROM real WHERE real.id = chat.id;
                            UPDATE item SET pos = r.n
                            FROM (SELECT id, row_number() OVER (PARTITION BY chatId ORDER BY ts, id) AS n FROM item) AS r
                            WHERE item.id = r.id AND item.pos <> r.n;
                            """)
                }
            }
        }
        return failures + (try check(database, isCancelled: isCancelled))
    }
}
