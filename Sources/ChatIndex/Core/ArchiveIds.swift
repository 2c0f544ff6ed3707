import GRDB

/// How an archive turns an item's time into its archive id.
///
/// An item's id is `max(ms, 0) × scale` plus a counter for items that share a slot, where
/// `ms` is its time in milliseconds (ChatIndex's "The archive's layout"). Archives made before
/// format 12 use a scale of 1,024 (``legacyScale``); new archives 1 (``scale``), recorded as
/// `meta.idScale`. The scale is fixed for an archive's life: ids of one archive are compared
/// with each other and with times converted by the same scale (`after:`, `before:`, the
/// recency of relevance order).
///
/// Why 1: FTS5 stores each posting's rowid as a varint of its difference to the previous one,
/// and a word found in every tenth message of an archive that spans years is, at 1,024 per
/// millisecond, tens of billions apart: 5 bytes a posting instead of 3, which made the
/// time-ordered index a fifth bigger (<doc:ArchiveLayout>).
package enum ArchiveIds {
    /// The `meta` key that records the scale (absent: ``legacyScale``).
    static let metaKey = "idScale"
    /// The scale of archives made before format 12.
    package static let legacyScale: Int64 = 1024
    /// The scale new archives take.
    package static let scale: Int64 = 1

    /// The archive's scale.
    package static func scale(_ db: Database) throws -> Int64 {
        let stored = try String.fetchOne(
            db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [metaKey])
        guard let stored, let value = Int64(stored), value >= 1 else { return legacyScale }
        return value
    }

    /// The first id of the slot of time `milliseconds` (negative times count as zero).
    package static func slotBase(milliseconds: Int64, scale: Int64) -> Int64 {
        max(milliseconds, 0) &* scale
    }
}
