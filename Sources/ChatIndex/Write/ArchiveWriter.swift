import ChatModel
import ChatText
import Dispatch
import Foundation
import GRDB

/// Writes chats, members and items into the archive in batched transactions.
///
/// - Items are upserted by `(chat, source id)`: a new id is allocated once and never changes;
///   an item whose content hash is unchanged is left alone; a changed one is updated in place
///   (edits, deletions, read state).
/// - Archive ids follow time (the first id of the time's slot plus `n`, see ``ArchiveIds``), so FTS5
///   rowid order is newest-first order and keyset paging by rowid is paging by time.
/// - Two cores, two stages: `add` analyses an item on the caller's thread (markdown, display
///   text, and the full-text tokens, through ChatText's `TokenizedDocument`), while the previous batch
///   is written on a writer thread, where the FTS5 tokenizer replays the prepared tokens.
/// - Full-text rows are written by the application in increasing rowid order per batch, never
///   through triggers (<doc:WritePerformance>), in the same transaction as their items: a batch is all in or
///   all out, whatever happens later.
package final class ArchiveWriter {
    private let database: ArchiveDatabase
    private let batchSize: Int
    private let store: BatchStore
    private var pending: [Pending] = []
    private var pendingItems = 0
    /// About the heap the pending items hold (``PreparedItem/byteCount``).
    private var pendingBytes = 0
    /// A batch is handed to the writer at `batchSize` items or at this many bytes of prepared
    /// items, whichever comes first (see ``batchByteLimit``).
    private let batchBytes: Int
    private var chatsSeen = Set<String>()
    private let queue = DispatchQueue(label: "chat-archive.writer", qos: .userInitiated)
    private let inFlight = DispatchGroup()
    private let checkpointer: Checkpointer
    /// The full-text segments before this ingest: its last merge joins every one written since.
    private let segmentsBefore: [String: Set<FullTextStructure.Segment>]
    /// Terms of the prepared items, drained into the vocabulary by each batch's transaction.
    private let terms: TermSet
    /// The `export` row the items added now come from (see ``setExport(_:)``).
    private var exportId: Int64?
    /// This thread's compressor, once the writer has the archive's dictionary
    /// (``TextCompression/readerCompressor()``).
    private var compressor: TextCompressor?
    /// Whether this thread compresses the texts of the batch it prepares (see ``flush()``).
    private var compressesHere: Bool
    /// Set by the caller: where texts are compressed, whatever the threads' load.
    private let pinnedCompression: Bool?

    /// How many of this writer's batches found that another writer had committed since its
    /// batch before (and so dropped its caches); for tests.
    package var otherWritersNoticed: Int {
        inFlight.wait()
        return store.otherWritersNoticed
    }

    /// Problems with individual records (unknown chat…), already counted as skipped.
    package var issues: [String] {
        inFlight.wait()
        return store.issues
    }

    /// What has been written so far (complete after ``finish(rebuildProgress:)``).
    package var summary: IngestSummary {
        inFlight.wait()
        var s = store.summary
        s.chats = chatsSeen.count
        return s
    }

    enum Pending {
        /// A chat with its name keys (transliteration is slow: it runs on the caller's thread).
        case chat(Chat, nameKey: String, translitKey: String)
        case member(Member, nameKey: String, searchKey: String)
        case item(PreparedItem)
    }

    /// The default bound of a batch's prepared items in bytes. Two batches are alive at once
    /// (one being prepared, one being written), and what a prepared item holds follows its
    /// script and length more than anything else: the bench's batches of 10,000 messages
    /// differ in size by more than two to one, those of its Japanese chats the biggest, where
    /// every character is a token. Without this bound the last batches of a big corpus
    /// (hundreds of small Japanese chats) raised the ingest's peak memory
    /// (<doc:WritePerformance>).
    package static let batchByteLimit = 20 << 20

    /// `termLimit`: how many terms the writer remembers as already offered to the vocabulary
    /// (`TermSet.init(limit:)`; tests make it small). `textTrainingTexts`: how many texts an
    /// archive without a compression dictionary stores as they are before training one on them
    /// (``TextCompression``; `nil` or 0: this writer trains none). `compressesWhileReading`:
    /// `nil` to compress texts on whichever thread is less busy, batch by batch (see
    /// ``flush()``); `true` or `false` to pin it to the caller's thread or the writer's.
    package init(
        database: ArchiveDatabase, batchSize: Int = 10_000, batchBytes: Int = batchByteLimit,
        termLimit: Int? = nil, textTrainingTexts: Int? = nil, compressesWhileReading: Bool? = nil
    ) throws {
        self.database = database
        pinnedCompression = compressesWhileReading
        compressesHere = compressesWhileReading ?? false
        self.batchSize = batchSize
        self.batchBytes = batchBytes
        terms = termLimit.map { TermSet(limit: $0) } ?? TermSet()
        let (count, segments) = try database.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0, try FullTextStructure.segments(db))
        }
        segmentsBefore = segments
        checkpointer = Checkpointer(path: database.path)
        // Its batches turn FTS5's merging inside writes back on (see `IdleMerger`).
        database.idleMerger.automergeMayBeOn()
        store = BatchStore(
            database: database, startedEmpty: count == 0, terms: terms, checkpointer: checkpointer,
            textTrainingTexts: textTrainingTexts ?? 0)
        askForCompressor()
    }

    /// Takes the writer's compressor once it has the archive's dictionary: asked once a batch,
    /// after the batch before is committed (the one that may have trained it).
    private func askForCompressor() {
        if compressesHere && compressor == nil { compressor = store.textCompression.readerCompressor() }
    }

    deinit {
        inFlight.wait()
        checkpointer.finish()
        try? store.restoreAutocheckpoint()
    }

    package func add(_ chat: Chat) throws {
        let chat = chat.storable
        pending.append(
            .chat(
                chat, nameKey: ChatNames.key(chat.displayName, chat.fullName, chat.localAlias),
                translitKey: ChatNames.transliterationKey(chat.displayName, chat.fullName, chat.localAlias)))
        chatsSeen.insert(chat.sourceId)
    }

    package func add(_ member: Member) throws {
        let member = member.storable
        pending.append(
            .member(
                member, nameKey: ChatNames.key(member.displayName, member.fullName, member.localAlias),
                searchKey: MemberNames.searchKey(member)))
    }

    package func add(_ item: Item) throws {
        let prepared = PreparedItem(item.storable, compressor: compressesHere ? compressor : nil)
        terms.add(prepared.textTokens)
        if let extra = prepared.extraTokens { terms.add(extra) }
        pendingBytes += prepared.byteCount
        pending.append(.item(prepared))
        pendingItems += 1
        if pendingItems >= batchSize || pendingBytes >= batchBytes { try flush() }
    }

    /// Hands everything buffered to the writer thread, to be committed in one transaction,
    /// after the batch before it. Throws the error of an earlier batch, if one failed.
    package func flush() throws {
        // The writer still busy with the batch before: it is the slower of the two threads,
        // so this thread compresses the next batch's texts itself; else it leaves them to the
        // writer (<doc:WritePerformance>).
        compressesHere = pinnedCompression ?? (inFlight.wait(timeout: .now()) == .timedOut)
        let waitStart = DispatchTime.now()
        try waitForWriter()
        waiting += Self.seconds(since: waitStart)
        askForCompressor()
        checkpointer.request()
        guard !pending.isEmpty else { return }
        let batch = Batch(records: pending, exportId: exportId)
        pending = []
        pendingItems = 0
        pendingBytes = 0
        let store = self.store
        queue.async(group: inFlight) { store.write(batch) }
    }

    /// Records the items added from now on, those with attachments, as coming from the export
    /// `id` (a row of the `export` table; `nil`: none), so that their files can be read back.
    package func setExport(_ id: Int64?) throws {
        try flush()
        exportId = id
    }

    /// Flushes, waits until everything is committed, and returns the summary.
    package func finish(rebuildProgress: (@Sendable (Int64, Int64) -> Void)? = nil) throws -> IngestSummary {
        try flush()
        try waitForWriter()
        let finishStart = DispatchTime.now()
        // Chats whose keys ran out of room during the ingest (items written far out of order).
        try database.keyChatsIfPending(merging: false)
        try database.writer.write { db in try IdleMerger.disableAutomerge(db) }
        try mergeSegments(progress: rebuildProgress)
        checkpointer.countFrames(database.writer)
        checkpointer.truncateLog()
        checkpointer.finish()
        try store.restoreAutocheckpoint()
        var summary = self.summary
        summary.timing.waiting = waiting
        summary.timing.finishing = Self.seconds(since: finishStart)
        let pageSize = try database.writer.read { db in try Int64.fetchOne(db, sql: "PRAGMA page_size") } ?? 0
        summary.timing.logBytes = Int64(checkpointer.framesWritten) * pageSize
        return summary
    }

    /// Seconds the caller's thread waited for the writer (``IngestTiming/waiting``).
    private var waiting = 0.0

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// Merges the full-text index segments this ingest created (see
    /// ``ArchiveDatabase/mergeFullTextSegments(maxPasses:since:progress:onPass:)``): what it
    /// wrote, with the older segments not much bigger than that.
    private func mergeSegments(progress: (@Sendable (Int64, Int64) -> Void)?) throws {
        let written = store.summary.itemsAdded + store.summary.itemsUpdated
        guard written > 0 else { return }
        try database.mergeFullTextSegments(
            maxPasses: Int64(max(4, written / 2_000)), since: segmentsBefore, progress: progress
        ) {
            checkpointer.request()
            try checkpointer.keepLogBounded(database.writer)
            // A pass's pages and buffers are freed on the writer's queue, whose arena glibc
            // otherwise keeps: a big ingest's resident memory grew during these passes.
            BatchStore.returnFreeMemory()
        }
    }

    private func waitForWriter() throws {
        inFlight.wait()
        if let e = store.failure {
            store.failure = nil
            throw e
        }
    }
}

/// A batch handed from the caller's thread to the writer thread (which alone touches it then).
struct Batch: @unchecked Sendable {
    var records: [ArchiveWriter.Pending]
    var exportId: Int64?
}
