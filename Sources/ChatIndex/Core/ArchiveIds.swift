import GRDB

/// How an archive turns an item's time into its archive id.
///
/// An item's id is the first id of its time's *slot* plus a counter for items that share the
/// slot, where the slot is its time (negative times count as zero) cut to the archive's unit
/// (ChatIndex's "The archive's layout"). The ``Scale`` is fixed for an archive's life: ids of one
/// archive are compared with each other and with times converted by the same scale (`after:`,
/// `before:`, histograms, the recency of relevance order).
///
/// - Archives made before format 12 give each millisecond a slot of 1,024 ids (``Scale/legacy``).
/// - Formats 12 to 21 give each millisecond one id (``Scale/milliseconds``), `meta.idScale = 1`.
/// - Since format 22 a new archive gives each second one id (``Scale/seconds``),
///   `meta.idSlotMilliseconds = 1000`.
///
/// Why coarser: FTS5 stores each posting's rowid as a varint of its difference to the previous
/// one, and between two messages that hold a word lie hours, so each step down in the ids a
/// second takes makes the time-ordered index smaller (<doc:ArchiveLayout>, <doc:WritePerformance>).
package enum ArchiveIds {
    /// The `meta` key that records the ids a slot holds (absent: 1,024, ``Scale/legacy``).
    static let metaKey = "idScale"
    /// The `meta` key that records the milliseconds a slot spans (absent: one).
    static let slotMetaKey = "idSlotMilliseconds"
    /// The ids a millisecond took in archives made before format 12.
    package static let legacyScale: Int64 = 1024
    /// The ids a millisecond took in archives made by formats 12 to 21 (``Scale/milliseconds``).
    package static let scale: Int64 = 1

    /// How time becomes ids in one archive: a slot of ``idsPerSlot`` ids every
    /// ``millisecondsPerSlot`` milliseconds.
    package struct Scale: Sendable, Equatable {
        /// Ids each slot holds before its items spill into the next slot's.
        package let idsPerSlot: Int64
        /// Milliseconds of time each slot spans.
        package let millisecondsPerSlot: Int64

        /// Archives made before format 12: 1,024 ids a millisecond.
        package static let legacy = Scale(idsPerSlot: legacyScale, millisecondsPerSlot: 1)
        /// Formats 12 to 21: an id a millisecond.
        package static let milliseconds = Scale(idsPerSlot: scale, millisecondsPerSlot: 1)
        /// Since format 22: an id a second.
        package static let seconds = Scale(idsPerSlot: 1, millisecondsPerSlot: 1000)

        /// The first id of the slot of time `milliseconds` (negative times count as zero).
        package func slotBase(milliseconds: Int64) -> Int64 {
            max(milliseconds, 0) / millisecondsPerSlot &* idsPerSlot
        }

        /// The first millisecond of the slot that id `id` lies in: an item's time is at or after
        /// it unless the item's own slot was full. (Of a count of ids: the time they span.)
        package func milliseconds(ofId id: Int64) -> Int64 {
            id / idsPerSlot &* millisecondsPerSlot
        }

        /// The first millisecond whose slot starts at or after id `id`: every item at or after
        /// it has an id of at least `id`.
        package func firstMillisecond(atOrAfterId id: Int64) -> Int64 {
            (id / idsPerSlot + (id % idsPerSlot == 0 ? 0 : 1)) &* millisecondsPerSlot
        }

        /// Ids a millisecond of time takes on average.
        package var idsPerMillisecond: Double { Double(idsPerSlot) / Double(millisecondsPerSlot) }
    }

    /// The archive's scale.
    package static func scale(_ db: Database) throws -> Scale {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT (SELECT value FROM meta WHERE key = ?), (SELECT value FROM meta WHERE key = ?)"),
            arguments: [metaKey, slotMetaKey])
        func value(_ index: Int) -> Int64? {
            guard let stored = row?[index] as String?, let value = Int64(stored), value >= 1 else { return nil }
            return value
        }
        return Scale(idsPerSlot: value(0) ?? legacyScale, millisecondsPerSlot: value(1) ?? 1)
    }
}
