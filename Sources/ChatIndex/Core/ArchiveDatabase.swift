import ChatModel
import ChatText
import Foundation
import GRDB

/// The archive file: one SQLite database in WAL mode, its schema, and the analyser that
/// indexed it.
///
/// Opening an archive registers the `chat` FTS5 tokenizer on every connection, runs pending
/// migrations, and rebuilds the full-text indexes from stored display text when the archive
/// was built by another analyser version (never re-importing). A read-only open does none of
/// the writing: it reads the archive as it is, or refuses it with an ``ArchiveError``.
package final class ArchiveDatabase: Sendable {
    /// The connections: on disk a pool (one writer, concurrent readers), in memory (and for a
    /// read-only process that reads once) a queue.
    package let writer: any DatabaseWriter
    /// The path of the archive file (`:memory:` for an in-memory archive).
    package let path: String
    /// How the archive was opened.
    package let mode: ArchiveOpenMode
    /// How a read-only archive is read (nil in the other modes).
    package let readOnlyAccess: ReadOnlyAccess?
    /// The damage SQLite's quick check found at open: reads and writes then throw it (only
    /// `ArchiveMaintenance`'s check reads on, to say what is wrong), and the connections only read.
    package let damage: ArchiveError?
    /// Set once the archive passed its quick check before a first write.
    private let verifiedForWriting = VerifiedFlag()
    /// The quick check of a big archive, running in the background since it was opened
    /// (`nil` when it ran at open, or runs at the first write).
    private let backgroundCheck: BackgroundCheck?
    /// Copies the log of live writes back into the file on a thread of its own (`nil` in
    /// memory and read-only): see ``liveWrite(_:)``.
    private let liveCheckpointer: Checkpointer?
    /// The store of live upserts, with its id caches (see ``LiveStoreSlot``).
    package let liveStore = LiveStoreSlot()
    /// Merges the full-text segments live writes leave, once they pause (see `IdleMerger`).
    let idleMerger = IdleMerger()
    /// The `floor` of ``FullTextStructure/tiered(ratio:floor:since:)`` for this archive's merges
    /// (tests set it to 0 to see the ratio at work on small archives; set before writing).
    nonisolated(unsafe) package var smallSegmentPages = FullTextStructure.smallSegmentPages
    /// Tells observations of writes by other connections (`nil` in memory, and for a read-only
    /// archive read as immutable, which nothing changes).
    let otherWriters: OtherWriters?

    /// Opens or creates the archive at `path` (created readable by its owner only).
    ///
    /// - Parameters:
    ///   - path: the archive file; in ``ArchiveOpenMode/create`` mode missing folders are created (mode 0700).
    ///   - mode: create when missing (the default), open an existing archive to read and write, or
    ///     only to read.
    ///   - rebuildsStaleIndexes: rebuild the full-text indexes now when they were built by another
    ///     analyser version or an earlier rebuild was interrupted. `chat-archive check` opens
    ///     with `false`, so that it reports what it finds instead of mending it silently. A
    ///     read-only open never rebuilds.
    ///   - rebuildProgress: called with (done, total) while indexes are rebuilt.
    ///   - onWait: called when a write has waited a moment for another program's write to end
    ///     (and again on each later wait); the write then proceeds when the other one commits.
    ///   - busyTimeout: how many seconds a write waits for another program's write before it
    ///     throws `ArchiveError/Code/busy` (the command line's patience by default).
    ///   - isCancelled: asked between the transactions of an index rebuild; once it says yes,
    ///     the open throws `CancellationError` (the rebuild starts over at the next open).
    ///   - fullCheckLimit: the biggest file whose quick check runs at open (tests lower it);
    ///     see `ArchiveOpening.fullCheckAtOpenLimit`.
    ///   - oneConnection: read-only only: one connection instead of a pool, for a process that
    ///     reads once (reads then run one at a time).
    ///   - pageChecksums: whether a new archive carries page checksums (<doc:PageChecksums>);
    ///     only the bench's baseline and tests of older archives make one without.
    package init(
        path: String, mode: ArchiveOpenMode = .create, rebuildsStaleIndexes: Bool = true,
        rebuildProgress: (@Sendable (Int64, Int64) -> Void)? = nil, onWait: (@Sendable () -> Void)? = nil,
        busyTimeout: Double = ArchiveOpening.writeWaitSeconds, isCancelled: @Sendable () -> Bool = { false },
        fullCheckLimit: Int64 = ArchiveOpening.fullCheckAtOpenLimit, oneConnection: Bool = false,
        pageChecksums: Bool = true
    ) throws {
        self.path = path
        self.mode = mode
        liveCheckpointer = mode == .readOnly ? nil : Checkpointer(path: path)
        let opened = try ArchiveOpening.open(
            path: path, mode: mode, onWait: onWait, busyTimeout: busyTimeout, fullCheckLimit: fullCheckLimit,
            oneConnection: oneConnection,
            pageChecksums: pageChecksums)
        writer = opened.writer
        readOnlyAccess = opened.access
        damage = opened.damage
        otherWriters = opened.access == .immutable ? nil : OtherWriters(path: path)
        if opened.checkDeferred {
            backgroundCheck = BackgroundCheck(writer: opened.writer, path: path)
        } else {
            backgroundCheck = nil
            // Opening for writing ran the quick check (a new archive needs none).
            if mode != .readOnly && damage == nil { verifiedForWriting.set() }
        }
        try ArchiveError.mapping(path: path, doing: "open") {
            if mode == .readOnly || damage != nil {
                try checkAnalyzerVersion()
            } else if rebuildsStaleIndexes {
                // A rebuild writes: after the check.
                if backgroundCheck != nil, try storedAnalyzerVersion() != Analyzer.version {
                    try verifyBeforeWriting()
                }
                try ensureAnalyzerVersion(progress: rebuildProgress, isCancelled: isCancelled)
            } else {
                try checkAnalyzerVersion()
            }
        }
    }

    /// A new, empty archive in memory, with the real schema and tokenizer (for tests and previews).
    package init(inMemory: Void) throws {
        path = ":memory:"
        mode = .create
        readOnlyAccess = nil
        damage = nil
        backgroundCheck = nil
        liveCheckpointer = nil
        otherWriters = nil
        writer = try ArchiveOpening.openInMemory()
        try ArchiveError.mapping(path: path, doing: "open") { try ensureAnalyzerVersion(progress: nil) }
    }

    /// Opens an existing archive read-only in the given access (tests compare both accesses
    /// on media where the choice would always fall on one).
    package init(readOnlyAt path: String, access: ReadOnlyAccess) throws {
        self.path = path
        mode = .readOnly
        liveCheckpointer = nil
        backgroundCheck = nil
        _ = try ArchiveOpening.inspect(path, mode: .readOnly)
        let opened = try ArchiveOpening.openReadOnly(path, forcing: access)
        writer = opened.writer
        readOnlyAccess = opened.access
        otherWriters = opened.access == .immutable ? nil : OtherWriters(path: path)
        damage = opened.damage
        try ArchiveError.mapping(path: path, doing: "open") { try checkAnalyzerVersion() }
    }

    /// Whether a first write would now wait for the background check of a big archive.
    package var isCheckingBeforeWriting: Bool {
        backgroundCheck != nil && !verifiedForWriting.isSet && !(backgroundCheck?.isFinished ?? true)
    }

    /// Checks once per open, before the first write, that SQLite's quick check passes, so that
    /// nothing is written into a damaged archive (a read transaction: it never blocks writers).
    ///
    /// - Complexity: O(file size): it reads every page of the archive once.
    package func verifyBeforeWriting() throws {
        if let damage {
            // Whichever read met the damage at open, a writer is told that nothing was written.
            let suffix = ", so nothing was written to it"
            guard !damage.message.hasSuffix(suffix) else { throw damage }
            throw ArchiveError(damage.code, damage.message + suffix, underlying: damage.underlying)
        }
        guard mode != .readOnly else {
            throw ArchiveError(.readOnly, "cannot write to the archive \(path): it was opened read-only")
        }
        guard path != ":memory:", !verifiedForWriting.isSet else { return }
        if let backgroundCheck {
            try backgroundCheck.wait()
        } else {
            try ArchiveError.mapping(path: path, doing: "check") {
                try writer.read { db in try ArchiveOpening.quickCheck(db, path: path) }
            }
        }
        verifiedForWriting.set()
    }

    /// The `async` form of ``verifyBeforeWriting()``: a first write waits for the background
    /// check of a big archive by suspending, so that no thread of the caller's pool is held.
    package func verifyBeforeWritingSuspending() async throws {
        if damage == nil, mode != .readOnly, !verifiedForWriting.isSet, let backgroundCheck {
            try await backgroundCheck.finished()
        }
        try verifyBeforeWriting()
    }

    /// Whether the archive's pages carry checksums (<doc:PageChecksums>); nil in memory.
    package var hasPageChecksums: Bool? { path == ":memory:" ? nil : ArchivePages.hasChecksums(path) }

    /// Gives an archive made before page checksums its checksums: a `VACUUM` that rewrites
    /// every page with 8 bytes reserved at its end, sealed as it is written, in one transaction
    /// (the archive is as it was if it is interrupted). Rows, their ids and the indexes are kept
    /// as they are. Returns false when the archive already has them.
    ///
    /// - Complexity: reads and writes the whole file once; the log holds a copy of it until the
    ///   checkpoint at the end, which other programs reading the archive may delay.
    package func addPageChecksums() throws -> Bool {
        guard hasPageChecksums == false else { return false }
        try verifyBeforeWriting()
        try ArchiveError.mapping(path: path, doing: "write to") {
            try writer.writeWithoutTransaction { db in
                try ArchivePages.reserve(db)
                try ArchivePages.sealingWrites(db) { try db.execute(sql: "VACUUM") }
                // New connections learn the reserve from the file's header: copy it there now.
                _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        return true
    }

    /// Runs one live write (an app's upsert, edit or mark) as one transaction whose commit never
    /// copies the log back into the file itself: the writer's automatic checkpoint is off, and
    /// a passive checkpoint runs on a thread of its own every `Checkpointer.liveFramesPerPass`
    /// frames of log and once writes pause (`Checkpointer.liveWriteCommitted(_:)`,
    /// `IdleMerger`). A commit that had to checkpoint the log itself, with an fsync, set the
    /// live writes' p99 (<doc:ArchiveLayout>); these take what the transaction takes. Before a transaction, once the
    /// background pass has copied more than `Checkpointer.liveFrameLimit` frames, the writer
    /// copies the rest itself so that the transaction starts the log over
    /// (`Checkpointer.restartLogIfDue(_:)`): the log stays near that size however long an app
    /// writes. (An ingest's writer does the same with its own checkpointer.)
    package func liveWrite(_ body: @escaping @Sendable (Database) throws -> Void) async throws {
        let checkpointer = liveCheckpointer
        let liveStore = self.liveStore
        let idleMerger = self.idleMerger
        try await writer.writeWithoutTransaction { db in
            if let checkpointer {
                // (Prepared once: parsing it took as long as a few of the upsert's statements.)
                try db.cachedStatement(sql: "PRAGMA wal_autocheckpoint = 0").execute()
                try checkpointer.restartLogIfDue(db)
            }
            let disablesAutomerge = idleMerger.mustDisableAutomerge
            do {
                try db.inTransaction(.immediate) {
                    if disablesAutomerge { try IdleMerger.disableAutomerge(db) }
                    try body(db)
                    return .commit
                }
            } catch {
                // Rolled back, perhaps at the commit: the caches may hold what was undone.
                // (Here, on the writer's queue, where the live store is only ever touched.)
                liveStore.forgetCaches()
                throw error
            }
            if disablesAutomerge { idleMerger.automergeDisabled() }
            checkpointer?.liveWriteCommitted(db)
        }
        idleMerger.wrote { [weak self] in (try? self?.mergeIdleSegments()) ?? false }
    }

    /// Stops merging in idle time (`true`), or lets it run again; for tests (`IdleMerger`).
    package func pauseIdleMerging(_ paused: Bool) { idleMerger.pause(paused) }

    /// One step of the merging that live writes leave for idle time (`IdleMerger`), as a
    /// transaction of its own. Returns whether it merged anything.
    @discardableResult
    package func mergeIdleSegments() throws -> Bool {
        let checkpointer = liveCheckpointer
        let liveStore = self.liveStore
        let merged = try writer.writeWithoutTransaction { db -> Bool in
            if let checkpointer { try checkpointer.restartLogIfDue(db) }
            var merged = false
            try db.inTransaction(.immediate) {
                merged = try liveStore.keepingCaches(db) { try IdleMerger.step(db) }
                return .commit
            }
            return merged
        }
        // Also after the last step, which found nothing to merge: the log of the writes before
        // the pause is copied back now.
        checkpointer?.request()
        return merged
    }

    /// Runs `body` on a connection that may run FTS5's integrity checks, which are `INSERT`
    /// commands that change nothing: the writer; for a read-only archive whose file can be
    /// written, a short-lived connection of its own; on read-only media a reader, and the body
    /// is told (`false`) to skip them.
    package func withIntegrityConnection<T>(_ body: (Database, _ canRunFTSChecks: Bool) throws -> T) throws -> T {
        if mode != .readOnly && damage == nil { return try writer.writeWithoutTransaction { db in try body(db, true) } }
        if readOnlyAccess == .walReader, ArchiveOpening.isWritable(path) {
            var config = ArchiveOpening.configuration(readOnly: false)
            config.busyMode = .timeout(ArchiveOpening.writeWaitSeconds)
            let queue = try DatabaseQueue(path: ArchivePages.uri(path), configuration: config)
            defer { try? queue.close() }
            return try queue.writeWithoutTransaction { db in try body(db, true) }
        }
        return try writer.read { db in try body(db, false) }
    }

    /// The analyser version the FTS indexes were built with.
    package func storedAnalyzerVersion() throws -> Int? {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'analyzerVersion'").flatMap { Int($0) }
        }
    }

    /// Refuses an index built by a newer analyser (see ``ArchiveOpening/newerAnalyzer(_:_:)``).
    private func checkAnalyzerVersion() throws {
        if let stored = try storedAnalyzerVersion(), stored > Analyzer.version {
            throw ArchiveOpening.newerAnalyzer(path, stored)
        }
    }

    private func ensureAnalyzerVersion(
        progress: (@Sendable (Int64, Int64) -> Void)?, isCancelled: () -> Bool = { false }
    ) throws {
        try checkAnalyzerVersion()
        let stored = try storedAnalyzerVersion()
        let stale = try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'ftsStale'") == "1"
        }
        if stored == Analyzer.version && !stale {
            try keyChatsIfPending(progress: progress)
            return
        }
        let count = try writer.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
        if count > 0 || stored != nil {
            try rebuildIndexes(progress: progress, isCancelled: isCancelled)
        } else {
            try writer.write { db in try ArchiveDatabase.setMeta(db, "analyzerVersion", String(Analyzer.version)) }
        }
    }

    /// Gives the chats of an archive made before format 10, and the chats whose keys ran out
    /// of room, their rows in the chat-keyed index (``ChatKeys``), when the archive says some
    /// need them.
    /// With `merging`, the index's segments are merged afterwards (an ingest merges its own).
    package func keyChatsIfPending(
        progress: (@Sendable (Int64, Int64) -> Void)? = nil, merging: Bool = true, chunk: Int = ChatKeys.keyingChunk
    ) throws {
        let pending = try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'chatKeysPending'") == "1"
        }
        guard pending else { return }
        if backgroundCheck != nil { try verifyBeforeWriting() }
        if !merging {
            try ChatKeys.keyChats(
                writer, chunk: chunk, progress: progress.map { p in { p($0, $1) } }, between: checkpointPassively)
            return
        }
        // FTS5 merges as it goes (one segment per transaction otherwise), then towards one segment.
        idleMerger.automergeMayBeOn()
        let earlier = try writer.write { db in
            try IdleMerger.enableAutomerge(db)
            return try FullTextStructure.segments(db)
        }
        let keyed = try ChatKeys.keyChats(
            writer, chunk: chunk, progress: progress.map { p in { p($0, $1) } }, between: checkpointPassively)
        try writer.write { db in try IdleMerger.disableAutomerge(db) }
        if keyed > 0 {
            try mergeFullTextSegments(maxPasses: max(4, keyed / 2_000), since: earlier, onPass: checkpointPassively)
        }
    }

    /// Rebuilds the full-text index and the term vocabulary from the stored display text.
    ///
    /// The index is emptied, then refilled in rowid order in transactions of `chunk` items
    /// (``ArchiveDatabase/rebuildChunk``), each followed by a passive checkpoint, so that the WAL
    /// stays near one chunk's pages (FTS5's own 'rebuild' is one statement, hence one transaction,
    /// which put the whole index of a big archive through the log). `ftsStale` stays set until the
    /// last chunk and the vocabulary are in, so an interrupted rebuild starts over at the next
    /// writable open. `isCancelled` is asked after each transaction: once it says yes, the rebuild
    /// throws `CancellationError` and leaves the index to that next rebuild.
    package func rebuildIndexes(
        progress: (@Sendable (Int64, Int64) -> Void)? = nil, chunk: Int = ArchiveDatabase.rebuildChunk,
        isCancelled: () -> Bool = { false }
    ) throws {
        let total = try writer.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
        progress?(0, total)
        idleMerger.automergeMayBeOn()
        try writer.write { db in
            try ArchiveDatabase.setMeta(db, "ftsStale", "1")
            // Both emptied by creating them again, as format 12 creates them (an older
            // archive's indexes lose their sizes tables here).
            try db.execute(sql: "DROP TABLE itemFts; \(try Migrations.itemFtsSQL(db))")
            try IdleMerger.enableAutomerge(db)
            if try ChatKeys.exists(db) {
                try db.execute(sql: "DROP TABLE itemChatFts; \(try ChatKeys.createIndexSQL(db))")
            }
        }
        try checkpointPassively()
        var after = Int64.min
        var done: Int64 = 0
        while true {
            let last = try writer.write { db -> Int64? in
                let last = try Int64.fetchOne(
                    db, sql: "SELECT max(id) FROM (SELECT id FROM item WHERE id > ? ORDER BY id LIMIT ?)",
                    arguments: [after, chunk])
                guard let last else { return nil }
                try db.execute(
                    sql: """
                        INSERT INTO itemFts(rowid, text, extra, tags)
                        SELECT id, chat_text(text), extra, \(try StoredTags.of(db).wholeSQL) FROM item WHERE id > ? AND id <= ? ORDER BY id
                        """,
                    arguments: [after, last])
                done += Int64(db.changesCount)
                return last
            }
            guard let last else { break }
            after = last
            progress?(min(done, total), total)
            try checkpointPassively()
            if isCancelled() { throw CancellationError() }
        }
        // The chat-keyed index: the same rows under the keys the items have, in key order.
        var afterKey = Int64.min
        while true {
            let last = try writer.write { db -> Int64? in
                guard try ChatKeys.exists(db) else { return nil }
                let last = try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT max(chatKey) FROM (SELECT chatKey FROM item
                        WHERE chatKey IS NOT NULL AND chatKey > ? ORDER BY chatKey LIMIT ?)
                        """,
                    arguments: [afterKey, chunk])
                guard let last else { return nil }
                try db.execute(
                    sql: """
                        INSERT INTO itemChatFts(rowid, text, extra, tags)
                        SELECT chatKey, chat_text(text), extra, \(try ChatKeys.tagsSQL(StoredTags.of(db).wholeSQL, db)) FROM item
                        WHERE chatKey IS NOT NULL AND chatKey > ? AND chatKey <= ? ORDER BY chatKey
                        """,
                    arguments: [afterKey, last])
                return last
            }
            guard let last else { break }
            afterKey = last
            try checkpointPassively()
            if isCancelled() { throw CancellationError() }
        }
        try writer.write { db in
            try TermVocabulary.rebuild(db)
            try ArchiveDatabase.setMeta(db, "analyzerVersion", String(Analyzer.version))
            try ArchiveDatabase.setMeta(db, "ftsStale", "0")
            try IdleMerger.disableAutomerge(db)
        }
        // Each chunk leaves a segment, and every term of a query is then looked up in each.
        try mergeFullTextSegments(
            maxPasses: max(4, total / 2_000), since: [:],
            onPass: {
                try checkpointPassively()
            })
        progress?(total, total)
    }

    /// How long a write waits for another program's write unless the open chose otherwise.
    package static var writeWaitSeconds: Double { ArchiveOpening.writeWaitSeconds }

    /// Items per transaction of ``rebuildIndexes(progress:chunk:isCancelled:)``.
    package static let rebuildChunk = 20_000

    /// Copies the log back into the file from the writer's connection, between transactions.
    private func checkpointPassively() throws {
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
    }

    /// Merges the full-text indexes' newest segments into one, so that each older segment is at
    /// least four times all newer ones together (``FullTextStructure/tiered(ratio:floor:since:)``):
    /// the segments written since `earlier` (an ingest's; a rebuild's: all), and older ones only
    /// as long as they are not much bigger. Each term of a query then costs a b-tree seek in
    /// each of a few segments instead of one per segment written, which makes an infix
    /// expansion several times faster (<doc:WritePerformance>), and an ingest into a big archive
    /// rewrites about what it added, not the whole index.
    ///
    /// The segments are first laid out on the levels that layout names; then FTS5 merges the
    /// one level that holds several segments, with its incremental 'merge' (500 pages per pass,
    /// never 'optimize', which <doc:WritePerformance> saw corrupt an index on SQLite 3.40.1 when
    /// repeated), until it is one segment. `onPass` runs after each pass (the ingest lets its
    /// checkpointer copy the WAL).
    ///
    /// Where that layout cannot be written (the record of SQLite 3.44 and later, whose segments
    /// carry more than this layout keeps) every level is merged towards one segment, for at most
    /// `maxPasses` passes.
    ///
    /// The pages the merges freed are then given back to the file system
    /// (``releaseFreePages(between:)``).
    package func mergeFullTextSegments(
        maxPasses: Int64, since earlier: [String: Set<FullTextStructure.Segment>]? = nil,
        progress: (@Sendable (Int64, Int64) -> Void)? = nil, onPass: () throws -> Void = {}
    ) throws {
        try mergeSegmentsInPasses(maxPasses: maxPasses, since: earlier, progress: progress, onPass: onPass)
        try releaseFreePages(between: onPass)
    }

    private func mergeSegmentsInPasses(
        maxPasses: Int64, since earlier: [String: Set<FullTextStructure.Segment>]?,
        progress: (@Sendable (Int64, Int64) -> Void)?, onPass: () throws -> Void
    ) throws {
        if let tiers = try layOutSegmentsInTiers(since: earlier) {
            guard tiers.pages > 0 else { return }
            let passes = Int64(tiers.pages / Self.mergePassPages + 2)
            try writer.write { db in try Self.setUserMerge(2, db) }
            defer { _ = try? writer.write { db in try Self.setUserMerge(nil, db) } }
            var pass: Int64 = 0
            while true {
                let worked = try writer.write { db in try FullTextSegments.merge(db, pages: Self.mergePassPages) }
                pass += 1
                progress?(min(pass, passes), passes)
                try onPass()
                // The layout is FTS5's own once its first pass kept it; else (another program laid
                // the segments out anew meanwhile) FTS5 merges what it has, as FTS5 would.
                if pass == 1, try !writer.read({ db in try tiers.areKept(db) }) { break }
                if !worked || pass > 2 * passes { break }
            }
            return
        }
        var pass: Int64 = 0
        while pass < maxPasses {
            let worked = try writer.write { db in try FullTextSegments.merge(db, pages: -Self.mergePassPages) }
            pass += 1
            progress?(pass, maxPasses)
            try onPass()
            if !worked { break }
        }
    }

    /// Pages one pass of ``mergeFullTextSegments(maxPasses:since:progress:onPass:)`` merges.
    static let mergePassPages = 500

    /// Most free pages one transaction of ``releaseFreePages(between:)`` gives back.
    static let releasePassPages = 2_000

    /// Shortens the file by its free pages, in transactions of `releasePassPages` pages with
    /// `between` after each (the ingest's checkpointer copies the log back there, so the log
    /// stays bounded): SQLite moves the last pages into the free ones and cuts the file after
    /// them. Only an archive created with `auto_vacuum = INCREMENTAL` can (every new archive
    /// since the version after 0.1.0: `ArchiveOpening.newFileSettingsSQL`); the others keep
    /// their free pages for their next writes, as before.
    package func releaseFreePages(between: () throws -> Void) throws {
        while true {
            let released = try writer.write { db -> Bool in
                guard try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2,
                    let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count"), free > 0
                else { return false }
                try db.execute(sql: "PRAGMA incremental_vacuum(\(min(free, Self.releasePassPages)))")
                return try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0 < free
            }
            guard released else { return }
            try between()
        }
    }

    /// Where each items index's segments were laid out by ``layOutSegmentsInTiers(since:)``.
    struct TierLayout {
        /// Pages the merge of the joined segments writes (the most of the indexes).
        var pages: Int
        /// Per index, the ids of the segments kept, by level.
        var kept: [String: [Int: UInt64]]
        /// Whether a record was written (FTS5's cached structure is then out of date).
        var changed = false

        /// Whether every kept segment is still on its level.
        func areKept(_ db: Database) throws -> Bool {
            for (table, levels) in kept {
                guard let s = try FullTextStructure.read(db, of: table) else { return false }
                for (level, id) in levels
                where level >= s.levels.count || !s.levels[level].segments.contains(where: { $0.id == id }) {
                    return false
                }
            }
            return true
        }
    }

    /// Lays out each items index's segments as ``FullTextStructure/tiered(ratio:floor:since:)``
    /// says, in one transaction; `nil` when it cannot.
    ///
    /// FTS5 caches an index's structure in each connection until another connection commits or
    /// a transaction FTS5 took part in rolls back; the writer's own update of the record is
    /// neither, so a transaction that changes a setting of each index and rolls back follows it,
    /// and FTS5 reads the new layout. (A connection of its own, opened and closed for the update,
    /// was the other way: its close broke another program's ingest running beside this one.)
    private func layOutSegmentsInTiers(since earlier: [String: Set<FullTextStructure.Segment>]?) throws
        -> TierLayout?
    {
        let tiers = try writer.write { db -> TierLayout? in
            var result = TierLayout(pages: 0, kept: [:])
            var writes: [(String, FullTextStructure)] = []
            for table in try IdleMerger.itemIndexes(db) {
                guard let now = try FullTextStructure.read(db, of: table) else { continue }
                guard let (layout, pages) = now.tiered(floor: smallSegmentPages, since: earlier.map { $0[table] ?? [] })
                else { return nil }
                result.pages = max(result.pages, pages)
                var kept: [Int: UInt64] = [:]
                for (k, level) in layout.levels.enumerated() where level.segments.count == 1 {
                    kept[k] = level.segments[0].id
                }
                result.kept[table] = kept
                if layout != now { writes.append((table, layout)) }
            }
            for (table, layout) in writes {
                try db.execute(
                    sql: "UPDATE \(table)_data SET block = ? WHERE id = ?",
                    arguments: [Data(layout.encoded), FullTextStructure.rowid])
            }
            result.changed = !writes.isEmpty
            return result
        }
        guard let tiers, tiers.changed else { return tiers }
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try Self.setUserMerge(2, db)
                return .rollback
            }
        }
        return tiers
    }

    /// Sets FTS5's `usermerge` of the items indexes (`nil`: back to FTS5's default): the fewest
    /// segments on a level that a positive 'merge' merges.
    static func setUserMerge(_ value: Int?, _ db: Database) throws {
        for table in try IdleMerger.itemIndexes(db) {
            try db.execute(
                sql: "INSERT INTO \(table)(\(table), rank) VALUES ('usermerge', ?)",
                arguments: [value ?? IdleMerger.defaultUserMerge])
        }
    }

    static func setMeta(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(
            sql: "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [key, value])
    }
}

/// SQLite's quick check of an archive, run on a thread of its own from the moment the archive
/// is opened for writing; ``wait()`` returns when it has passed and throws the damage it found.
final class BackgroundCheck: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: Result<Void, Error>?
    /// The tasks suspended in ``finished()``.
    private var waiters: [CheckedContinuation<Void, Error>] = []

    init(writer: any DatabaseWriter, path: String) {
        DispatchQueue.global(qos: .utility).async { [self] in
            let outcome = Result {
                try ArchiveError.mapping(path: path, doing: "check") {
                    try writer.read { db in try ArchiveOpening.quickCheck(db, path: path) }
                }
            }
            let waiting = lock.withLock {
                result = outcome
                defer { waiters = [] }
                return waiters
            }
            done.signal()
            for waiter in waiting { waiter.resume(with: outcome) }
        }
    }

    /// Suspends until the check has ended; throws what it found.
    func finished() async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, Error>) in
            let known: Result<Void, Error>? = lock.withLock {
                if result == nil { waiters.append(waiter) }
                return result
            }
            if let known { waiter.resume(with: known) }
        }
    }

    /// Whether the check has ended (passed or found damage).
    var isFinished: Bool { lock.withLock { result != nil } }

    /// Waits for the check; throws what it found.
    func wait() throws {
        let known = lock.withLock { result }
        if let known { return try known.get() }
        done.wait()
        done.signal()  // for the next waiter
        try lock.withLock { result }?.get()
    }
}
