import ChatIndex
import Foundation
import GRDB

/// Counts and sizes of an archive.
public struct ArchiveStats: Sendable, Hashable {
    /// Number of chats.
    public var chats: Int
    /// Number of members across all chats.
    public var members: Int
    /// Number of items, deleted ones included.
    public var items: Int
    /// Number of items flagged deleted.
    public var deletedItems: Int
    /// Number of unread items.
    public var unreadItems: Int
    /// Number of formatted spans stored.
    public var spans: Int
    /// Number of mentions stored.
    public var mentions: Int
    /// Number of distinct indexed terms (the infix-search vocabulary).
    public var vocabularyTerms: Int
    /// Bytes of display text stored.
    public var textBytes: Int64
    /// Size of the archive file plus its WAL.
    public var fileBytes: Int64
    /// The analyser version the full-text index was built with.
    public var analyzerVersion: Int?
    /// The full-text index is incomplete and will be rebuilt on the next open for writing.
    public var indexIsStale: Bool
    /// Items per source format.
    public var itemsBySource: [String: Int]
    /// Past ingests: path, format, when.
    public var ingests: [(path: String, format: String, at: Int64)]

    /// Compares counts, file size and per-source counts (not the ingest history).
    public static func == (a: ArchiveStats, b: ArchiveStats) -> Bool {
        a.chats == b.chats && a.items == b.items && a.fileBytes == b.fileBytes && a.itemsBySource == b.itemsBySource
    }
    /// Hashes the item count, consistently with `==`.
    public func hash(into h: inout Hasher) { h.combine(items) }
}

/// Statistics and integrity checks.
enum ArchiveMaintenance {
    static func stats(_ database: ArchiveDatabase) throws -> ArchiveStats {
        try database.writer.read { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            var bySource: [String: Int] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT chat.source AS s, count(item.id) AS n FROM chat LEFT JOIN item ON item.chatId = chat.id GROUP BY chat.source")
            {
                bySource[row["s"]] = row["n"]
            }
            let ingests = try Row.fetchAll(db, sql: "SELECT path, format, ingestedAt FROM ingestSource ORDER BY id").map {
                (path: $0["path"] as String, format: $0["format"] as String, at: $0["ingestedAt"] as Int64)
            }
            let fm = FileManager.default
            func size(_ p: String) -> Int64 { ((try? fm.attributesOfItem(atPath: p))?[.size] as? NSNumber)?.int64Value ?? 0 }
            return ArchiveStats(
                chats: try count("SELECT count(*) FROM chat"), members: try count("SELECT count(*) FROM member"),
                items: try count("SELECT count(*) FROM item"), deletedItems: try count("SELECT count(*) FROM item WHERE flags & 2"),
                unreadItems: try count("SELECT count(*) FROM item WHERE flags & 4"),
                spans: try count("SELECT count(*) FROM itemSpan"), mentions: try count("SELECT count(*) FROM itemMention"),
                vocabularyTerms: try count("SELECT count(*) FROM term"),
                textBytes: try Int64.fetchOne(db, sql: "SELECT coalesce(sum(length(CAST(text AS BLOB))), 0) FROM item") ?? 0,
                fileBytes: size(database.path) + size(database.path + "-wal"),
                analyzerVersion: try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'analyzerVersion'").flatMap { Int($0) },
                indexIsStale: try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'ftsStale'") == "1",
                itemsBySource: bySource, ingests: ingests)
        }
    }

    /// Runs SQLite's integrity check, FTS5's, and the archive's own consistency checks.
    /// Returns the problems found, in words (empty when healthy).
    static func check(_ database: ArchiveDatabase) throws -> [String] {
        var problems: [String] = []
        // FTS5's integrity check is an INSERT statement: it needs the writer.
        try database.writer.writeWithoutTransaction { db in
            let rows = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if rows != ["ok"] {
                problems += rows.prefix(20).map { "database structure: \($0)" }
            }
            do {
                try db.execute(sql: "INSERT INTO itemFts(itemFts, rank) VALUES('integrity-check', 1)")
            } catch {
                problems.append("the full-text index does not match the stored items (run `chat-archive check --repair`)")
            }
            let orphans = try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE chatId NOT IN (SELECT id FROM chat)") ?? 0
            if orphans > 0 { problems.append("\(orphans) items belong to no chat") }
            let badCounts = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM chat WHERE itemCount != (SELECT count(*) FROM item WHERE item.chatId = chat.id)") ?? 0
            if badCounts > 0 { problems.append("\(badCounts) chats have stale item counts") }
            if try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'ftsStale'") == "1" {
                problems.append("the full-text index is incomplete (an ingest was interrupted); it is rebuilt when the archive is next opened for writing")
            }
        }
        return problems
    }
}
