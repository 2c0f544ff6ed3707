import Dispatch
import Foundation
import GRDB

/// Merges the full-text index's small segments while an app's live writes pause, instead of
/// inside them.
///
/// Each transaction that adds full-text rows leaves a new segment. FTS5's own merging (`automerge`)
/// runs inside the write that crosses its threshold: every 64 leaf pages written, it merges up to
/// 64 pages per level of the index, so while a merge of a big segment is in progress one upsert in
/// 64 takes many times longer than the others, which sets the p99 of live writes
/// (<doc:ArchiveLayout>). Live writes therefore run with `automerge` off (``disableAutomerge(_:)``;
/// FTS5 still merges a level that reaches 16 segments, its "crisis merge", so a long burst of
/// writes leaves at most 15 segments per level), and this merges what they leave in small steps
/// once no live write has come for ``idleDelay``: the same merges FTS5 would have made (a level
/// with 4 segments or more, a merge in progress first), 16 pages a step, each step a transaction of
/// its own, stopping as soon as a live write comes. A live write waits for at most one step.
final class IdleMerger: @unchecked Sendable {
    /// Seconds without a live write after which merging starts.
    static let idleDelay = 0.25
    /// Pages one step writes: small, since a live write that comes waits for the step in
    /// progress (<doc:ArchiveLayout>).
    static let pagesPerStep = 16

    private let lock = NSLock()
    /// Bumped by every live write; merging goes on only while it is unchanged.
    private var generation = 0
    /// When the last live write returned (`DispatchTime` nanoseconds).
    private var lastWrite: UInt64 = 0
    /// A timer is armed: later writes only move `lastWrite` (one timer at a time, not one
    /// per write: arming a dispatch timer for each upsert cost the writer's thread more than
    /// reading the clock).
    private var armed = false
    private let queue = DispatchQueue(label: "chat-archive.idle-merge", qos: .utility)
    /// Set once this archive's live writes have seen `automerge` off; cleared by an ingest or
    /// a rebuild, which turn it on for their duration.
    private var automergeOff = false

    /// Set by tests that count the segments live writes leave: a machine so loaded that one
    /// upsert outlasts ``idleDelay`` would otherwise merge them in between.
    private var paused = false

    /// Stops idle merging (`true`) or lets it run again.
    func pause(_ paused: Bool) { lock.withLock { self.paused = paused } }

    /// Whether a live write must check the `automerge` setting first.
    var mustDisableAutomerge: Bool { lock.withLock { !automergeOff } }

    /// After a live write committed with `automerge` off.
    func automergeDisabled() { lock.withLock { automergeOff = true } }

    /// Before an ingest or a rebuild turns `automerge` on.
    func automergeMayBeOn() { lock.withLock { automergeOff = false } }

    /// Notes a live write; once ``idleDelay`` passes without another, runs `step` (one merge
    /// step, returning whether it merged anything) again and again while it merges and no live
    /// write comes in between.
    func wrote(step: @escaping @Sendable () -> Bool) {
        let arm = lock.withLock {
            generation += 1
            lastWrite = DispatchTime.now().uptimeNanoseconds
            defer { armed = true }
            return !armed
        }
        if arm { fire(after: Self.idleDelay, step) }
    }

    private func fire(after seconds: Double, _ step: @escaping @Sendable () -> Bool) {
        queue.asyncAfter(deadline: .now() + seconds) { [self] in
            let now = DispatchTime.now().uptimeNanoseconds
            let (wait, start): (Double?, Int) = lock.withLock {
                let idle = Double(now &- lastWrite) / 1e9
                if idle < Self.idleDelay { return (Self.idleDelay - idle, generation) }
                armed = false
                return (nil, generation)
            }
            if let wait {
                fire(after: wait, step)
                return
            }
            while lock.withLock({ generation == start && !paused }) && step() {}
        }
    }

    /// The full-text indexes of items whose segments are merged: the items' index and the
    /// chat-keyed one (``ChatKeys``; absent from an archive older than format 10).
    static func itemIndexes(_ db: Database) throws -> [String] {
        try ChatKeys.exists(db) ? ["itemFts", "itemChatFts"] : ["itemFts"]
    }

    /// The `automerge` setting of a full-text index (FTS5's default, 4, when unset).
    static func automerge(_ db: Database, of table: String = "itemFts") throws -> Int {
        try Int.fetchOne(db, sql: "SELECT v FROM \(table)_config WHERE k = 'automerge'") ?? 4
    }

    /// Turns FTS5's merging inside writes off for the items' indexes, where it is on (a setting
    /// stored in the archive, for every connection).
    ///
    /// An ingest's ``bulkCrisisMerge`` goes back to FTS5's default with it.
    /// So does the `usermerge` of an ingest's last merge (2), which a killed ingest leaves set.
    static func disableAutomerge(_ db: Database) throws {
        for table in try itemIndexes(db) {
            if try automerge(db, of: table) != 0 {
                try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('automerge', 0)")
                try db.execute(
                    sql: "INSERT INTO \(table)(\(table), rank) VALUES ('crisismerge', \(defaultCrisisMerge))")
            }
            let userMerge = try Int.fetchOne(db, sql: "SELECT v FROM \(table)_config WHERE k = 'usermerge'")
            if let userMerge, userMerge != defaultUserMerge {
                try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('usermerge', \(defaultUserMerge))")
            }
        }
    }

    /// FTS5's default `usermerge`: the fewest segments of a level that a positive 'merge'
    /// (``step(_:)``) merges.
    static let defaultUserMerge = 4

    /// Turns FTS5's merging inside writes back on for an ingest or a rebuild, whose big
    /// transactions it keeps at a few segments per level, at ``bulkAutomerge`` segments a merge.
    ///
    /// It also sets FTS5's `hashsize` to ``bulkHashSize``: the pending rows a transaction holds
    /// before FTS5 writes them out as a segment (FTS5's default is half of it, so a batch of
    /// 10,000 messages made several segments per index, each merged again later).
    static func enableAutomerge(_ db: Database) throws {
        for table in try itemIndexes(db) {
            if try automerge(db, of: table) != bulkAutomerge {
                try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('automerge', \(bulkAutomerge))")
                try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('crisismerge', \(bulkCrisisMerge))")
            }
            let hashSize = try Int.fetchOne(db, sql: "SELECT v FROM \(table)_config WHERE k = 'hashsize'")
            if hashSize != bulkHashSize {
                try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('hashsize', \(bulkHashSize))")
            }
        }
    }

    /// FTS5's `automerge` for ingests and rebuilds: a level is merged once it holds this many
    /// segments (FTS5's default is 4, its maximum 16). Each row is rewritten once per level, and
    /// 16 segments a merge make half the levels of 4, so ingests and rebuilds write less and
    /// finish sooner (<doc:WritePerformance>). The index ends merged to one segment either
    /// way. Readers during an ingest meet up to 15 segments a level instead of 3, which costs
    /// their p99 a little.
    static let bulkAutomerge = 16

    /// FTS5's `crisismerge` beside ``bulkAutomerge``: a level that reaches it is merged whole in
    /// one write. At its default, 16, every level that reached 16 segments was merged whole
    /// inside one batch's transaction instead of step by step, which sent a big ingest's
    /// write-ahead log far past its bound (<doc:WritePerformance>).
    static let bulkCrisisMerge = 64

    /// FTS5's default `crisismerge`, which live writes keep.
    static let defaultCrisisMerge = 16

    /// FTS5's `hashsize` for ingests and rebuilds (bytes): twice FTS5's default. A bigger one
    /// writes fewer segments per batch and holds more memory; this one keeps the biggest
    /// ingest within its memory target (<doc:WritePerformance>).
    static let bulkHashSize = 2 << 20

    /// One merge step in the caller's transaction: merges only a level of 4 or more segments,
    /// or continues a merge in progress. Returns whether it merged anything.
    static func step(_ db: Database) throws -> Bool {
        try FullTextSegments.merge(db, pages: pagesPerStep)
    }
}
