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
/// let context = try await archive.items(in: page.hits[0].item.chatId, window: .around(page.hits[0].id, count: 25))
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
    ///     built them or a rebuild was interrupted (`false`: leave them for ``repair(onProgress:)``,
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
    /// SQLite's quick check, which reads the whole file once: for a small file here; a
    /// bigger one opens at once (its chat table checked as a read-only open checks it), the
    /// check runs in the background, and the first write waits for what is left of it and
    /// throws `ArchiveError/Code/corrupt` when it found damage. Reads do not wait.
    /// <doc:ServingPerformance> has what the open and the check take.
    /// - Throws: `ArchiveError` (`ArchiveError/Code/notFound`, `ArchiveError/Code/notAnArchive`,
    ///   `ArchiveError/Code/newerVersion`, `ArchiveError/Code/corrupt`…).
    ///
    /// An app opens with ``open(path:mode:busyTimeout:rebuildsStaleIndexes:onRebuildProgress:onWait:)``
    /// instead, which does this off the cooperative thread pool; this form is the command line's.
    public convenience init(
        path: String, mode: OpenMode = .create, rebuildsStaleIndexes: Bool = true,
        rebuildProgress: (@Sendable (Int64, Int64) -> Void)? = nil, onWait: (@Sendable () -> Void)? = nil
    ) throws {
        try self.init(
            path: path, mode: mode, busyTimeout: nil, rebuildsStaleIndexes: rebuildsStaleIndexes,
            rebuildProgress: rebuildProgress, onWait: onWait)
    }

    /// Opens the archive at `path` as ``init(path:mode:rebuildsStaleIndexes:rebuildProgress:onWait:)``
    /// does, with writes that wait at most `busyTimeout` for another program's write.
    ///
    /// - Parameters:
    ///   - path: the archive's file, as for the initialiser without `busyTimeout`.
    ///   - mode: whether a missing archive is created, and whether it may be written.
    ///   - busyTimeout: how long a write waits for another program writing to the archive
    ///     before it throws `ArchiveError/Code/busy`, which an app can offer as "try again";
    ///     `nil`: the command line's patience, enough for an ingest to wait for another one.
    ///   - isCancelled: asked between the transactions of an index rebuild; once it says yes,
    ///     the open throws `CancellationError` and the rebuild starts over at the next open.
    ///   - rebuildsStaleIndexes: whether an index marked stale is rebuilt before the open returns.
    ///   - rebuildProgress: called as such a rebuild goes (items indexed of all).
    ///   - onWait: called once when the open has to wait for another program.
    /// - Throws: `ArchiveError`, or `CancellationError`.
    public init(
        path: String, mode: OpenMode = .create, busyTimeout: Duration?, rebuildsStaleIndexes: Bool = true,
        rebuildProgress: (@Sendable (Int64, Int64) -> Void)? = nil, onWait: (@Sendable () -> Void)? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) throws {
        database = try ArchiveDatabase(
            path: path, mode: mode, rebuildsStaleIndexes: rebuildsStaleIndexes, rebuildProgress: rebuildProgress,
            onWait: onWait, busyTimeout: busyTimeout.map(Archive.seconds) ?? ArchiveDatabase.writeWaitSeconds,
            isCancelled: isCancelled)
    }

    /// Opens the archive at `path` (as ``init(path:mode:busyTimeout:rebuildsStaleIndexes:rebuildProgress:onWait:isCancelled:)``)
    /// on a thread of its own, so that an open that rebuilds the full-text indexes (minutes for
    /// a big archive: <doc:ServingPerformance>) holds no thread of the cooperative pool.
    ///
    /// ```swift
    /// let archive = try await Archive.open(
    ///     path: path, busyTimeout: .seconds(2),
    ///     onRebuildProgress: { progress in print("indexing \(progress.completed) of \(progress.total)") })
    /// ```
    ///
    /// Cancelling the task stops an index rebuild after its current transaction: the open then
    /// throws `CancellationError`, and the next writable open rebuilds the index again.
    /// - Throws: `ArchiveError`, or `CancellationError`.
    public static func open(
        path: String, mode: OpenMode = .create, busyTimeout: Duration? = nil, rebuildsStaleIndexes: Bool = true,
        onRebuildProgress: (@Sendable (MaintenanceProgress) -> Void)? = nil, onWait: (@Sendable () -> Void)? = nil
    ) async throws -> Archive {
        try await offPool(path: path, doing: "open") { isCancelled in
            if isCancelled() { throw CancellationError() }
            return try Archive(
                path: path, mode: mode, busyTimeout: busyTimeout, rebuildsStaleIndexes: rebuildsStaleIndexes,
                rebuildProgress: onRebuildProgress.map { report in
                    { @Sendable done, total in report(MaintenanceProgress(completed: done, total: total)) }
                },
                onWait: onWait, isCancelled: isCancelled)
        }
    }

    /// `duration` in seconds.
    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
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
    public static func inMemory() throws -> Archive {
        try ArchiveError.mapping(path: ":memory:", doing: "open") {
            Archive(database: try ArchiveDatabase(inMemory: ()))
        }
    }

    /// The default archive path: `$CHAT_ARCHIVE`, else `$XDG_DATA_HOME/chat-archive/archive.sqlite`
    /// (`~/.local/share/chat-archive/archive.sqlite`).
    public static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        if let p = env["CHAT_ARCHIVE"], !p.isEmpty { return p }
        let data = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return data + "/chat-archive/archive.sqlite"
    }

    // MARK: Ingest

    /// Imports exports (files, folders, zips) into the archive, on a thread of its own (it
    /// holds no thread of the cooperative pool).
    ///
    /// Bad records are reported and skipped (or stop the run when `options.strict`); everything
    /// committed before an error stays. Cancelling the task stops the reading at the next
    /// record: what was read is committed in whole batches and indexed, and the report says
    /// so (`IngestReport/interrupted`); ingesting the same exports again completes the archive.
    ///
    /// - Throws: `ArchiveError`: `ArchiveError/Code/unreadableExport` or
    ///   `ArchiveError/Code/notAnExport` when the only export given could not be read at all,
    ///   the archive's codes for the archive's failures.
    public func ingest(
        _ paths: [String], options: IngestOptions = IngestOptions(),
        progress: (@Sendable (IngestProgress) -> Void)? = nil
    ) async throws -> IngestReport {
        try await Archive.offPool(path: database.path, doing: "write to") { [self] isCancelled in
            try ingestSync(paths, options: options, isCancelled: isCancelled, progress: progress)
        }
    }

    /// The synchronous form of ``ingest(_:options:progress:)``: it runs on the calling thread
    /// (the command line's).
    public func ingestSync(
        _ paths: [String], options: IngestOptions = IngestOptions(),
        isCancelled: @escaping @Sendable () -> Bool = { false },
        progress: (@Sendable (IngestProgress) -> Void)? = nil
    ) throws -> IngestReport {
        do {
            if database.isCheckingBeforeWriting {
                progress?(
                    IngestProgress(
                        file: "", bytesRead: 0, totalBytes: nil, itemsRead: 0, isIndexing: false, isChecking: true))
            }
            try database.verifyBeforeWriting()
            return try IngestPipeline.run(
                paths, options: options, database: database, isCancelled: isCancelled, progress: progress)
        } catch {
            throw ArchiveError.atBoundary(error, path: database.path, doing: "write to")
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

    /// How many items a search matches per month or week (UTC): the same query language and
    /// options as ``search(_:options:)`` (its limit, cursor and order do not apply), counted from
    /// the full-text index without reading the items.
    ///
    /// A query with at most 4,096 matches is counted exactly; for one with more, the periods
    /// older than its newest 4,096 matches are estimated from samples unless `exact` is true
    /// (`SearchHistogram/estimate` says how; <doc:ServingPerformance> has what each costs).
    /// An empty query is the activity of the archive, or of `SearchOptions/chat`, over time.
    /// Throws only for an unknown chat (`ArchiveError/Code/unknownChat`).
    public func histogram(
        _ query: String, by period: HistogramPeriod, options: SearchOptions = SearchOptions(), exact: Bool = false
    ) async throws -> SearchHistogram {
        try await database.reading(ArchiveQuery.histogram(query, by: period, options: options, exact: exact))
    }

    /// How many items a search matches, and the place of one of them among them: the "k of N"
    /// of a search in one chat (`SearchOptions/chat`).
    ///
    /// ```swift
    /// let options = SearchOptions(chat: "g1")
    /// let page = try await archive.search("café", options: options)
    /// let count = try await archive.searchCount("café", options: options, positionOf: page.hits[0].item.id)
    /// print("\(count.position ?? 0) of \(count.total)")   // 1 of 37
    /// ```
    ///
    /// The count follows the options' chat, content filter and `includeDeleted`; their
    /// cursor, limit and order do not change it. The position is the item's place newest first
    /// (as `SearchOrder/newest` pages list the hits), from 1; `nil` when `item` is `nil`, does
    /// not match, or lies beyond `limit`.
    ///
    /// Counting stops past `limit` matches (`SearchCount/defaultLimit`, 1,000): a word
    /// frequent in a big chat then answers within the in-chat budget, as
    /// `SearchCount/total` `limit` with `SearchCount/isExact` false ("1,000+"). Pass `nil`
    /// to count every match.
    ///
    /// - Complexity: O(min(matches, `limit`)) in the chat searched (the index's postings only,
    ///   those newer than `item` twice); over all chats, the same in the archive.
    ///   <doc:ServingPerformance> has what it costs.
    /// - Throws: `ArchiveError` `.unknownChat` for an unknown chat; never for the query's text.
    public func searchCount(
        _ query: String, options: SearchOptions = SearchOptions(), positionOf item: Int64? = nil,
        limit: Int? = SearchCount.defaultLimit
    ) async throws -> SearchCount {
        try await database.reading(ArchiveQuery.searchCount(query, options: options, positionOf: item, limit: limit))
    }

    /// A window of a chat's items: the last ones, those around an item, before or after one, or
    /// at a date (`WindowRequest`), optionally only those of one content type or matching a search.
    public func items(
        in chat: String, window request: WindowRequest, content: ContentFilter? = nil, search: String? = nil
    ) async throws -> ItemWindow {
        try await database.reading(ArchiveQuery.items(chat: chat, request, content: content, search: search))
    }

    /// ``items(in:window:content:search:)`` under its 0.1.0 name.
    @available(*, deprecated, renamed: "items(in:window:content:search:)")
    public func items(chat: String, _ request: WindowRequest, content: ContentFilter? = nil, search: String? = nil)
        async throws
        -> ItemWindow
    {
        try await items(in: chat, window: request, content: content, search: search)
    }

    /// One page of a chat's shared media: its items that carry an image, a video, a file, a
    /// link or a voice message (by `kind`), newest first, deleted ones left out.
    ///
    /// Pass `nil` for the first page, then the previous page's `MediaPage/nextCursor`; each
    /// item opens in context with `items(in:window:)` and `.around(item.id, count:)`.
    ///
    /// ```swift
    /// let photos = try await archive.media(in: "g1", kind: .image, limit: 60)
    /// let more = try await archive.media(in: "g1", kind: .image, limit: 60, after: photos.nextCursor)
    /// ```
    ///
    /// - Throws: `ArchiveError` `.unknownChat` for an unknown chat, `.invalidCursor` for a
    ///   cursor no page returned.
    public func media(in chat: String, kind: MediaKind, limit: Int = 50, after cursor: String? = nil) async throws
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
        try await items(in: hit.item.chatId, window: .around(hit.id, count: count))
    }

    /// A quote jump: the window around the item that `item` quotes, in one call; `nil` when
    /// `item` quotes nothing or the archive does not hold the quoted item.
    public func context(ofQuoteIn item: ArchivedItem, count: Int = 25) async throws -> ItemWindow? {
        var quoted = item.quotedItemId
        if quoted == nil, let sourceId = item.quote?.itemSourceId {
            // The value may predate the quoted item's arrival: look it up now.
            quoted = try await itemId(chat: item.chatId, sourceId: sourceId)
        }
        guard let quoted else { return nil }
        return try await items(in: item.chatId, window: .around(quoted, count: count))
    }

    /// Prepares chat-list name search in every script, off the caller's path.
    ///
    /// A name query in another script than Latin (`Дми`, `東京`) is also matched through its
    /// Latin transliteration, and ICU builds each script's transliterator on its first use in a
    /// process, which costs far more than the search (<doc:ServingPerformance>). An app or server
    /// that lives long calls this once at launch, on a background thread: it builds them one
    /// script at a time, so its first name search in each script is as fast as the next.
    /// A search that comes meanwhile waits at most for one script's build.
    public static func prepareNameSearch() { TextNormalizer.warmTransliteration() }

    /// Parses SimpleX markdown (`nil` when nothing is formatted).
    public static func markdown(_ text: String) -> [FormattedText]? { SimplexMarkdown.parseMaybeMarkdownList(text) }

    // MARK: Maintenance

    /// Counts, sizes and index health.
    public func stats() async throws -> ArchiveStats {
        // Its reads are synchronous: run them off the cooperative threads, which concurrent async
        // reads (a web server's) need free to hand their connections back.
        let blocking = self.blocking
        return try await Archive.offPool(path: database.path, doing: "read") { _ in try blocking.stats() }
    }

    /// Full integrity check of the archive and its indexes: SQLite's, FTS5's, and the archive's
    /// own (index row counts, interrupted rebuilds, analyser version, chat-list counters).
    ///
    /// Returns every problem found, each in one sentence a user can act on (empty when healthy).
    /// Changes nothing. It runs on a thread of its own; cancelling the task stops it between
    /// its steps with `CancellationError`.
    ///
    /// - Complexity: reads the whole file.
    public func check() async throws -> [String] {
        let database = self.database
        return try await Archive.offPool(path: database.path, doing: "check") { isCancelled in
            try ArchiveMaintenance.check(database, isCancelled: isCancelled)
        }
    }

    /// Rebuilds what ``check()`` finds broken and can be rebuilt from the stored items: SQLite's
    /// indexes, the full-text index and its vocabulary, the chat list's counters; and records
    /// attachments ingested from a folder of exports against their own export
    /// (``repairAttachmentRoots()``, which says what it moved). Stored items, members and chats
    /// are never changed.
    ///
    /// Returns the problems left, which only a backup or a new ingest can fix (empty when healthy).
    /// It runs on a thread of its own; cancelling the task stops it after its current
    /// transaction with `CancellationError` (an index it had not finished stays marked for a
    /// rebuild, which the next writable open or repair does).
    ///
    /// - Parameter onProgress: called as the full-text index is rebuilt (items indexed of all).
    public func repair(onProgress: (@Sendable (MaintenanceProgress) -> Void)?) async throws -> [String] {
        // A damaged file is not written to: its problems are reported as they are (for a big
        // archive, the quick check that ran in the background since the open says whether).
        if database.damage != nil { return try await check() }
        do {
            try await database.verifyBeforeWritingSuspending()
        } catch ArchiveError.corrupt {
            return try await check()
        }
        let database = self.database
        return try await Archive.offPool(path: database.path, doing: "repair") { isCancelled in
            let left = try ArchiveMaintenance.repair(
                database,
                progress: onProgress.map { report in
                    { @Sendable done, total in report(MaintenanceProgress(completed: done, total: total)) }
                },
                isCancelled: isCancelled)
            _ = try Self.repairAttachmentRoots(database)
            return left
        }
    }

    /// ``repair(onProgress:)`` without progress reports.
    public func repair() async throws -> [String] { try await repair(onProgress: nil) }

    /// ``repair(onProgress:)`` with unlabelled (done, total) progress, as 0.1.0 named it (its
    /// default stays: a call without arguments is ``repair()``).
    @available(*, deprecated, renamed: "repair(onProgress:)")
    public func repair(progress: (@Sendable (Int64, Int64) -> Void)? = nil) async throws -> [String] {
        try await repair(onProgress: progress.map { report in { @Sendable p in report(p.completed, p.total) } })
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
        return try await Archive.offPool(path: database.path, doing: "write to") { _ in
            try database.addPageChecksums()
        }
    }
}

/// How far a long piece of maintenance has come: an index rebuild at open or in a repair.
public struct MaintenanceProgress: Sendable, Hashable {
    /// The units done so far (items indexed).
    public var completed: Int64
    /// The units in all.
    public var total: Int64

    /// Progress of `completed` units of `total`.
    public init(completed: Int64, total: Int64) {
        self.completed = completed
        self.total = total
    }
}

extension Archive {
    /// For this package's programs (`chat-archive`, its server, the bench), first thing in
    /// `main`, before any SQLite use: the SQLite settings that hold for the whole process, which
    /// a library inside an app leaves to the app (`ArchivePages.turnOffMemoryStatistics()`).
    package static func prepareProgram() { ArchivePages.turnOffMemoryStatistics() }
}
