import ChatImport
import ChatIndex
import ChatModel
import ChatSearch
import ChatText
import Foundation

/// A chat archive: one SQLite file holding chats, members, items and their full-text indexes.
///
/// ```swift
/// let archive = try Archive(path: "chats.sqlite")
/// let report = try await archive.ingest(["export.jsonl"])
/// let page = try await archive.search("café", options: SearchOptions(limit: 20))
/// for hit in page.hits { print(hit.item.chatId, hit.snippet) }
/// let context = try await archive.items(chat: page.hits[0].item.chatId, .around(page.hits[0].item.id, count: 25))
/// ```
///
/// All methods are safe to call from any task; reads run concurrently with an ingest and never
/// see half a batch.
public final class Archive: Sendable {
    /// The underlying database (for tools and tests).
    package let database: ArchiveDatabase

    /// How an archive is opened: `ArchiveOpenMode/create` (the default), `ArchiveOpenMode/readWrite`
    /// or `ArchiveOpenMode/readOnly`.
    public typealias OpenMode = ArchiveOpenMode

    /// Opens the archive at `path`; in the default mode it is created (mode 0600) when missing.
    ///
    /// - Parameters:
    ///   - path: the archive file; missing folders are created in `ArchiveOpenMode/create` mode.
    ///   - mode: `ArchiveOpenMode/create`, `ArchiveOpenMode/readWrite` (must exist) or
    ///     `ArchiveOpenMode/readOnly` (must exist; never creates, never writes).
    ///   - rebuildsStaleIndexes: rebuild the full-text indexes now if another analyser version
    ///     built them or a rebuild was interrupted (`false`: leave them for ``repair(progress:)``,
    ///     as `chat-archive check` does; a read-only archive is never rebuilt).
    ///   - rebuildProgress: called while indexes are rebuilt for a new analyser version, or
    ///     built once for an archive written before them (the index of searches in one chat,
    ///     minutes for a big archive: <doc:ServingPerformance>; until then such chats are
    ///     searched the old way).
    ///   - onWait: called when a write waits for another program writing to the same archive.
    ///
    /// Opening for writing makes sure that a damaged archive is never written to. Every page of
    /// an archive made by this version carries a checksum verified whenever it is read (see
    /// ``hasPageChecksums``), so a write that meets a damaged page fails and commits nothing, and
    /// the first write waits for no whole-file check. An older archive without checksums gets
    /// SQLite's quick check, which reads the whole file once: for a file up to 64 MiB here; a
    /// bigger one opens at once (its chat table checked as a read-only open checks it), the
    /// check runs in the background, and the first write waits for what is left of it and
    /// throws `ArchiveError/Code/corrupt` when it found damage. Reads do not wait.
    /// <doc:ServingPerformance> has what the open and the check take.
    /// - Throws: `ArchiveError` (`ArchiveError/Code/notFound`, `ArchiveError/Code/notAnArchive`,
    ///   `ArchiveError/Code/newerVersion`, `ArchiveError/Code/corrupt`…).
    public init(
        path: String, mode: OpenMode = .create, rebuildsStaleIndexes: Bool = true,
        rebuildProgress: (@Sendable (Int64, Int64) -> Void)? = nil, onWait: (@Sendable () -> Void)? = nil
    ) throws {
        database = try ArchiveDatabase(
            path: path, mode: mode, rebuildsStaleIndexes: rebuildsStaleIndexes, rebuildProgress: rebuildProgress,
            onWait: onWait)
    }

    private init(database: ArchiveDatabase) { self.database = database }

    /// Opens or creates the archive at `path`, a new one with or without page checksums (the
    /// bench's baseline, and tests of archives made before them).
    package init(path: String, pageChecksums: Bool) throws {
        database = try ArchiveDatabase(path: path, pageChecksums: pageChecksums)
    }

    /// Opens an existing archive read-only on one connection instead of a pool: for a process
    /// that makes one query and exits (the CLI's read commands), which then sets up one
    /// connection instead of two; reads run one at a time.
    package init(readingOnceAt path: String) throws {
        database = try ArchiveDatabase(path: path, mode: .readOnly, oneConnection: true)
    }

    /// A new, empty archive in memory with the real schema and tokenizer, for tests and previews.
    public static func inMemory() throws -> Archive { Archive(database: try ArchiveDatabase(inMemory: ())) }

    /// The default archive path: `$CHAT_ARCHIVE`, else `$XDG_DATA_HOME/chat-archive/archive.sqlite`
    /// (`~/.local/share/chat-archive/archive.sqlite`).
    public static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        if let p = env["CHAT_ARCHIVE"], !p.isEmpty { return p }
        let data = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return data + "/chat-archive/archive.sqlite"
    }

    // MARK: Ingest

    /// Imports exports (files, folders, zips) into the archive.
    ///
    /// Bad records are reported and skipped (or stop the run when `options.strict`); everything
    /// committed before an error stays. Cancelling the task stops at the next record; what was
    /// committed stays.
    public func ingest(
        _ paths: [String], options: IngestOptions = IngestOptions(),
        progress: (@Sendable (IngestProgress) -> Void)? = nil
    ) async throws -> IngestReport {
        let cancelFlag = CancelFlag()
        return try await withTaskCancellationHandler {
            try ingestSync(paths, options: options, isCancelled: { cancelFlag.isSet }, progress: progress)
        } onCancel: {
            cancelFlag.set()
        }
    }

    /// The synchronous form of ``ingest(_:options:progress:)``.
    public func ingestSync(
        _ paths: [String], options: IngestOptions = IngestOptions(),
        isCancelled: @escaping @Sendable () -> Bool = { false },
        progress: (@Sendable (IngestProgress) -> Void)? = nil
    ) throws -> IngestReport {
        try ArchiveError.mapping(path: database.path, doing: "write to") {
            if database.isCheckingBeforeWriting {
                progress?(
                    IngestProgress(
                        file: "", bytesRead: 0, totalBytes: nil, itemsRead: 0, isIndexing: false, isChecking: true))
            }
            try database.verifyBeforeWriting()
            return try IngestPipeline.run(
                paths, options: options, database: database, isCancelled: isCancelled, progress: progress)
        }
    }

    // MARK: Queries

    /// The chat list: name search and/or a filter tab, newest activity first.
    public func chats(matching query: String? = nil, filter: ChatFilter = .all, limit: Int = 100) async throws
        -> [ChatRow]
    {
        try await database.reading(ArchiveQuery.chats(matching: query, filter: filter, limit: limit))
    }

    /// How many chats each filter tab lists (the counts beside the chat list's tabs).
    public func chatFilterCounts() async throws -> ChatFilterCounts {
        try await database.reading(ArchiveQuery.chatFilterCounts)
    }

    /// Message search in one chat or all chats.
    public func search(_ query: String, options: SearchOptions = SearchOptions()) async throws -> SearchPage {
        try await database.reading(ArchiveQuery.search(query, options: options))
    }

    /// A window of a chat's items.
    public func items(chat: String, _ request: WindowRequest, content: ContentFilter? = nil, search: String? = nil)
        async throws
        -> ItemWindow
    {
        try await database.reading(ArchiveQuery.items(chat: chat, request, content: content, search: search))
    }

    /// One page of a chat's shared media: its items that carry an image, a video, a file, a
    /// link or a voice message (by `kind`), newest first, deleted ones left out.
    ///
    /// Pass `nil` for the first page, then the previous page's ``MediaPage/nextCursor``; each
    /// item opens in context with `items(chat:_:)` and `.around(item.id, count:)`.
    ///
    /// ```swift
    /// let photos = try await archive.media(chat: "g1", kind: .image, limit: 60)
    /// let more = try await archive.media(chat: "g1", kind: .image, limit: 60, after: photos.nextCursor)
    /// ```
    ///
    /// - Throws: `ArchiveError` `.unknownChat` for an unknown chat, `.invalidCursor` for a
    ///   cursor no page returned.
    public func media(chat: String, kind: MediaKind, limit: Int = 50, after cursor: String? = nil) async throws
        -> MediaPage
    {
        try await database.reading(ArchiveQuery.media(chat: chat, kind: kind, limit: limit, after: cursor))
    }

    /// The archive id of the item with source id `sourceId` in `chat`, or `nil` when the archive
    /// does not hold it: how a quote (`Quote/itemSourceId`) or a link to a message opens in
    /// context, with `.around(id, count:)`. Throws `ArchiveError` `.unknownChat` for an unknown chat.
    public func itemId(chat: String, sourceId: String) async throws -> Int64? {
        try await database.reading(ArchiveQuery.itemId(chat: chat, sourceId: sourceId))
    }

    /// Opens a search hit in its context: the window around it in its chat.
    public func context(of hit: SearchHit, count: Int = 25) async throws -> ItemWindow {
        try await items(chat: hit.item.chatId, .around(hit.item.id, count: count))
    }

    /// Parses SimpleX markdown (`nil` when nothing is formatted).
    public static func markdown(_ text: String) -> [FormattedText]? { SimplexMarkdown.parseMaybeMarkdownList(text) }

    // MARK: Maintenance

    /// Counts, sizes and index health.
    public func stats() async throws -> ArchiveStats {
        // Its reads are synchronous: run them off the cooperative threads, which concurrent async
        // reads (a web server's) need free to hand their connections back.
        let blocking = self.blocking
        return try await withCheckedThrowingContinuation { done in
            DispatchQueue.global(qos: .userInitiated).async { done.resume(with: Result { try blocking.stats() }) }
        }
    }

    /// Full integrity check of the archive and its indexes: SQLite's, FTS5's, and the archive's
    /// own (index row counts, interrupted rebuilds, analyser version, chat-list counters).
    ///
    /// Returns every problem found, each in one sentence a user can act on (empty when healthy).
    /// Changes nothing.
    public func check() async throws -> [String] {
        try ArchiveError.mapping(path: database.path) { try ArchiveMaintenance.check(database) }
    }

    /// Rebuilds what ``check()`` finds broken and can be rebuilt from the stored items: SQLite's
    /// indexes, the full-text index and its vocabulary, the chat list's counters; and records
    /// attachments ingested from a folder of exports against their own export
    /// (``repairAttachmentRoots()``, which says what it moved). Stored items, members and chats
    /// are never changed.
    ///
    /// Returns the problems left, which only a backup or a new ingest can fix (empty when healthy).
    public func repair(progress: (@Sendable (Int64, Int64) -> Void)? = nil) async throws -> [String] {
        // A damaged file is not written to: its problems are reported as they are (for a big
        // archive, the quick check that ran in the background since the open says whether).
        if database.damage != nil { return try await check() }
        do {
            try database.verifyBeforeWriting()
        } catch let e as ArchiveError where e.code == .corrupt {
            return try await check()
        }
        return try ArchiveError.mapping(path: database.path, doing: "repair") {
            let left = try ArchiveMaintenance.repair(database, progress: progress)
            _ = try Self.repairAttachmentRoots(database)
            return left
        }
    }

    /// Whether every page of the archive file carries a checksum, verified whenever it is read
    /// (ChatIndex's article "Page checksums"): true for every archive made since they exist, false for an older
    /// one until ``addPageChecksums()``; nil in memory, where there is nothing to protect.
    public var hasPageChecksums: Bool? { database.hasPageChecksums }

    /// Gives an archive made before page checksums its checksums: every page is rewritten once
    /// (a `VACUUM`, in one transaction), with its stored rows, ids and indexes kept as they are.
    /// Returns false when it had them already. Open the archive for writing first; a damaged
    /// archive is refused (`ArchiveError/Code/corrupt`) and left as it is.
    ///
    /// - Complexity: reads and writes the whole file once; the write-ahead log holds a copy of
    ///   it until the end.
    public func addPageChecksums() async throws -> Bool {
        if let damage = database.damage { throw damage }
        let database = self.database
        return try await withCheckedThrowingContinuation { done in
            DispatchQueue.global(qos: .userInitiated).async {
                done.resume(with: Result { try database.addPageChecksums() })
            }
        }
    }

}

/// A flag set once from another thread.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
