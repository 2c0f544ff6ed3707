import GRDB

/// Archive-wide counts kept in the `archiveCounter` table, so that `stats` reads a few rows
/// instead of scanning every item, span, mention and term.
///
/// The writer adds each batch's changes in the batch's transaction (``Delta``); the vocabulary
/// adds the terms it inserts. `check` recomputes them from the stored rows (``actualSQL``) and
/// `check --repair` stores the recomputed values.
///
/// - Complexity: reading them is O(1); recomputing them scans the items, spans, mentions and terms.
package enum ArchiveCounters {
    /// Items flagged deleted.
    package static let deletedItems = "deletedItems"
    /// Items flagged unread, deleted ones included.
    package static let unreadItems = "unreadItems"
    /// Rows of `itemSpan`.
    package static let spans = "spans"
    /// Rows of `itemMention`.
    package static let mentions = "mentions"
    /// UTF-8 bytes of the items' display text.
    package static let textBytes = "textBytes"
    /// Rows of `term` (the infix-search vocabulary).
    package static let terms = "terms"
    /// Rows of `chat` (kept by triggers on the chat table).
    package static let chats = "chats"
    /// Rows of `member` (kept by triggers on the member table).
    package static let members = "members"
    /// The start of each source's counter, `items:` + the source's format name: the sum of its
    /// chats' `itemCount` (kept by triggers on the chat table).
    package static let itemsPrefix = "items:"

    /// One row per counter, `(name, value)`, computed from the stored rows by full scans.
    package static let actualSQL = """
        SELECT '\(deletedItems)', count(*) FROM item WHERE \(ItemFlags.sql(set: .deleted))
        UNION ALL SELECT '\(unreadItems)', count(*) FROM item JOIN chat ON chat.id = item.chatId
            WHERE \(ReadMark.unreadSQL(item: "item", chat: "chat"))
        UNION ALL SELECT '\(spans)', count(*) FROM itemSpan
        UNION ALL SELECT '\(mentions)', count(*) FROM itemMention
        UNION ALL SELECT '\(textBytes)', coalesce(sum(chat_text_bytes(text)), 0) FROM item
        UNION ALL SELECT '\(terms)', count(*) FROM term
        UNION ALL SELECT '\(chats)', count(*) FROM chat
        UNION ALL SELECT '\(members)', count(*) FROM member
        UNION ALL SELECT '\(itemsPrefix)' || source, sum(itemCount) FROM chat GROUP BY source
        """

    /// Every counter computed from the stored rows, by name.
    package static func actual(_ db: Database) throws -> [String: Int64] {
        var values: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: actualSQL) { values[row[0]] = row[1] }
        return values
    }

    /// A counter's name in words, for messages.
    package static func words(_ name: String) -> String {
        switch name {
        case deletedItems: "deleted items"
        case unreadItems: "unread items"
        case spans: "formatted spans"
        case mentions: "mentions"
        case textBytes: "text bytes"
        case terms: "vocabulary terms"
        case chats: "chats"
        case members: "members"
        case let n where n.hasPrefix(itemsPrefix): "items from \(n.dropFirst(itemsPrefix.count))"
        default: name
        }
    }

    /// Replaces every counter with its value computed from the stored rows.
    package static func recount(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM archiveCounter;
                INSERT INTO archiveCounter(name, value) \(actualSQL);
                """)
    }

    /// The stored counters, by name; `nil` when the archive predates them (a read-only open of
    /// an archive not yet migrated).
    package static func stored(_ db: Database) throws -> [String: Int64]? {
        guard try db.tableExists("archiveCounter") else { return nil }
        var values: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, value FROM archiveCounter") {
            values[row[0]] = row[1]
        }
        return values
    }

    /// Adds `amount` to one counter.
    package static func add(_ amount: Int64, to name: String, _ db: Database) throws {
        guard amount != 0 else { return }
        try db.cachedStatement(
            sql:
                "INSERT INTO archiveCounter(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + excluded.value"
        ).execute(arguments: [name, amount])
    }

    /// Changes to the counters made by one batch of the writer.
    package struct Delta {
        var deletedItems: Int64 = 0
        var unreadItems: Int64 = 0
        var spans: Int64 = 0
        var mentions: Int64 = 0
        var textBytes: Int64 = 0

        package init() {}

        /// Counts an item stored (`sign` 1) or an old version replaced (`sign` -1).
        package mutating func add(flags: Int64, text: String, sign: Int64) {
            if flags & ItemFlags.deleted.rawValue != 0 { deletedItems += sign }
            if flags & ItemFlags.unread.rawValue != 0 { unreadItems += sign }
            textBytes += sign * Int64(text.utf8.count)
        }

        /// Adds the changes to the stored counters and starts over.
        package mutating func apply(_ db: Database) throws {
            try ArchiveCounters.add(deletedItems, to: ArchiveCounters.deletedItems, db)
            try ArchiveCounters.add(unreadItems, to: ArchiveCounters.unreadItems, db)
            try ArchiveCounters.add(spans, to: ArchiveCounters.spans, db)
            try ArchiveCounters.add(mentions, to: ArchiveCounters.mentions, db)
            try ArchiveCounters.add(textBytes, to: ArchiveCounters.textBytes, db)
            self = Delta()
        }
    }
}
