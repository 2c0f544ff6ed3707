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

extension ArchiveStats {
    /// Reads counters instead of scanning: the chats, members, items per source and the other
    /// totals come from ``ArchiveCounters`` (kept by the writer and by triggers, verified by
    /// `check`). An archive without them (opened read-only before migrating) is counted.
    /// - Complexity: O(1) rows read when the counters are there; no item is read.
    package static func read(_ database: ArchiveDatabase) throws -> ArchiveStats {
        try database.writer.read { db in
            let stored = try ArchiveCounters.stored(db)
            let totals =
                if let stored, stored[ArchiveCounters.chats] != nil { stored } else { try ArchiveCounters.actual(db) }
            func total(_ name: String) -> Int { Int(totals[name] ?? 0) }
            var bySource: [String: Int] = [:]
            for (name, value) in totals where name.hasPrefix(ArchiveCounters.itemsPrefix) && value != 0 {
                bySource[String(name.dropFirst(ArchiveCounters.itemsPrefix.count))] = Int(value)
            }
            let ingests = try ExportRecords.ingests(db)
            let fm = FileManager.default
            func size(_ p: String) -> Int64 {
                ((try? fm.attributesOfItem(atPath: p))?[.size] as? NSNumber)?.int64Value ?? 0
            }
            return ArchiveStats(
                chats: total(ArchiveCounters.chats), members: total(ArchiveCounters.members),
                items: bySource.values.reduce(0, +), deletedItems: total(ArchiveCounters.deletedItems),
                unreadItems: total(ArchiveCounters.unreadItems),
                spans: total(ArchiveCounters.spans), mentions: total(ArchiveCounters.mentions),
                vocabularyTerms: total(ArchiveCounters.terms),
                textBytes: totals[ArchiveCounters.textBytes] ?? 0,
                fileBytes: size(database.path) + size(database.path + "-wal"),
                analyzerVersion: try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'analyzerVersion'")
                    .flatMap { Int($0) },
                indexIsStale: try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'ftsStale'") == "1",
                itemsBySource: bySource, ingests: ingests)
        }
    }
}
