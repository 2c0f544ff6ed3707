import ChatModel
import ChatText
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// Errors opening or maintaining an archive.
public struct ArchiveError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The archive file: one SQLite database in WAL mode, its schema, and the analyser that
/// indexed it.
///
/// Opening an archive registers the `chat` FTS5 tokenizer on every connection, runs pending
/// migrations, and rebuilds the full-text indexes from stored display text when the archive
/// was built by another analyser version (never re-importing).
public final class ArchiveDatabase: Sendable {
    /// The connection pool: one writer, concurrent readers.
    public let writer: DatabasePool
    /// The path of the archive file.
    public let path: String

    /// Opens or creates the archive at `path` (created readable by its owner only).
    ///
    /// - Parameters:
    ///   - path: the archive file; missing folders are created (mode 0700).
    ///   - readOnly: open an existing archive for reading only; a missing one is an error.
    ///   - rebuildsStaleIndexes: rebuild the full-text indexes now when they were built by another
    ///     analyser version or an earlier rebuild was interrupted. `chat-archive check` opens
    ///     with `false`, so that it reports what it finds instead of mending it silently.
    ///   - rebuildProgress: called with (done, total) while indexes are rebuilt.
    public init(
        path: String, readOnly: Bool = false, rebuildsStaleIndexes: Bool = true,
        rebuildProgress: (@Sendable (Int64, Int64) -> Void)? = nil
    ) throws {
        self.path = path
        let fm = FileManager.default
        let exists = fm.fileExists(atPath: path)
        if !exists {
            guard !readOnly else { throw ArchiveError("no archive at \(path); run `chat-archive ingest` first") }
            let dir = (path as NSString).deletingLastPathComponent
            if !dir.isEmpty { try? fm.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) }
            let fd = open(path, O_CREAT | O_RDWR | O_EXCL, 0o600)
            guard fd >= 0 else {
                throw ArchiveError("cannot create the archive \(path): \(String(cString: strerror(errno)))")
            }
            close(fd)
        } else {
            try ArchiveDatabase.checkIsSQLite(path)
        }
        var config = Configuration()
        config.readonly = false
        config.maximumReaderCount = 4
        config.prepareDatabase { db in
            guard let handle = db.sqliteConnection else { throw ArchiveError("no SQLite connection") }
            let rc = FTS5Registration.register(on: handle)
            guard rc == 0 else { throw ArchiveError("cannot register the chat tokenizer (SQLite code \(rc))") }
            try db.execute(sql: "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; PRAGMA secure_delete = OFF")
            // Readers map the file (no copy into each connection's cache; the OS shares the
            // pages). The writer does not, so an ingest's memory stays its own working set.
            if db.configuration.readonly { try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
        }
        do {
            if !exists {
                // Page size must be set before the first table is created, and before WAL.
                let q = try DatabaseQueue(path: path, configuration: config)
                try q.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA page_size = 8192; VACUUM") }
                try q.close()
            }
            writer = try DatabasePool(path: path, configuration: config)
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            try Migrations.make().migrate(writer)
        } catch let e as DatabaseError {
            throw ArchiveError(Self.openFailure(path, e))
        }
        if rebuildsStaleIndexes { try ensureAnalyzerVersion(progress: rebuildProgress) }
    }

    /// Words an SQLite failure to open or migrate an archive for its user.
    static func openFailure(_ path: String, _ e: DatabaseError) -> String {
        let detail = e.message ?? e.description
        switch e.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return "the archive \(path) is damaged and cannot be opened (SQLite: \(detail)); restore it from a backup, or ingest your exports again into a new archive"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "the archive \(path) is busy: another chat-archive is writing to it; try again when it has finished"
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return "cannot open the archive \(path): permission denied or the folder is missing (SQLite: \(detail))"
        case .SQLITE_FULL:
            return "cannot open the archive \(path): the disk is full"
        default:
            return "cannot open the archive \(path): \(detail)"
        }
    }

    /// Refuses files that are not SQLite databases with a clear message.
    static func checkIsSQLite(_ path: String) throws {
        guard let h = FileHandle(forReadingAtPath: path) else {
            throw ArchiveError("cannot read the archive \(path)")
        }
        defer { try? h.close() }
        let head = h.readData(ofLength: 16)
        if head.isEmpty { return }  // an empty file becomes a new archive
        guard head.elementsEqual(Array("SQLite format 3\0".utf8)) else {
            throw ArchiveError("\(path) is not a chat-archive file (not an SQLite database)")
        }
    }

    /// The analyser version the FTS indexes were built with.
    public func storedAnalyzerVersion() throws -> Int? {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'analyzerVersion'").flatMap { Int($0) }
        }
    }

    private func ensureAnalyzerVersion(progress: (@Sendable (Int64, Int64) -> Void)?) throws {
        let stored = try storedAnalyzerVersion()
        let stale = try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'ftsStale'") == "1"
        }
        if stored == Analyzer.version && !stale { return }
        let count = try writer.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
        if count > 0 || stored != nil {
            try rebuildIndexes(progress: progress)
        } else {
            try writer.write { db in try ArchiveDatabase.setMeta(db, "analyzerVersion", String(Analyzer.version)) }
        }
    }

    /// Rebuilds the full-text index and the term vocabulary from the stored display text.
    public func rebuildIndexes(progress: (@Sendable (Int64, Int64) -> Void)? = nil) throws {
        let total = try writer.read { db in try Int64.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
        progress?(0, total)
        try writer.write { db in
            try ArchiveDatabase.setMeta(db, "ftsStale", "1")
        }
        try writer.write { db in
            try db.execute(sql: "INSERT INTO itemFts(itemFts) VALUES('rebuild')")
            try TermVocabulary.rebuild(db)
            try ArchiveDatabase.setMeta(db, "analyzerVersion", String(Analyzer.version))
            try ArchiveDatabase.setMeta(db, "ftsStale", "0")
        }
        // 'rebuild' leaves a segment per flush of its in-memory terms (12 at 1M messages, 21 at
        // 10M), and every term of a query is then looked up in each.
        try mergeFullTextSegments(maxPasses: max(4, total / 2_000))
        progress?(total, total)
    }

    /// Merges the full-text index's segments towards one with FTS5's incremental 'merge' over
    /// every level (`-500`: 500 pages per pass), never 'optimize', which <doc:WritePerformance> saw corrupt an
    /// index on SQLite 3.40.1 when repeated. Each term of a query then costs one b-tree seek
    /// instead of one per segment: at 1M messages a 26-term infix expansion took 0.87 ms over
    /// 12 segments and 0.20 ms over one. Stops when a pass finds nothing to merge, or after
    /// `maxPasses`; `onPass` runs after each (the ingest lets its checkpointer copy the WAL).
    public func mergeFullTextSegments(
        maxPasses: Int64, progress: (@Sendable (Int64, Int64) -> Void)? = nil, onPass: () -> Void = {}
    ) throws {
        var pass: Int64 = 0
        while pass < maxPasses {
            let worked = try writer.write { db -> Bool in
                let before = db.totalChangesCount
                try db.execute(sql: "INSERT INTO itemFts(itemFts, rank) VALUES ('merge', -500)")
                return db.totalChangesCount - before >= 2
            }
            pass += 1
            progress?(pass, maxPasses)
            onPass()
            if !worked { break }
        }
    }

    static func setMeta(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [key, value])
    }
}
