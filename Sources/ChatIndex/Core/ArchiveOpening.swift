import CChatZstd
import ChatText
import Dispatch
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening an archive file: path checks, SQLite configuration, modes and migrations.
enum ArchiveOpening {
    /// How long a write waits for another program's write before giving up (an ingest's batch
    /// into a large archive, or a merge pass, can hold the write lock for seconds).
    package static let writeWaitSeconds: Double = 600
    /// How long a read-only connection waits in SQLite's rare busy cases (WAL recovery after a crash).
    static let readWaitSeconds: Double = 60

    /// An opened archive: its connections, how a read-only one is read, the damage its quick
    /// check found at open (then the connections only read), and whether that check still has
    /// to run before the first write (`checkDeferred`, see ``fullCheckAtOpenLimit``).
    typealias Opened = (
        writer: any DatabaseWriter, access: ReadOnlyAccess?, damage: ArchiveError?, checkDeferred: Bool
    )

    /// The biggest archive file whose quick check runs while it is opened for writing. The
    /// check reads the whole file, which for an archive of millions of messages takes seconds
    /// to tens of seconds (ChatArchive's ServingPerformance article), too long for an app to
    /// wait before its first read. A bigger archive is opened with the chat table's checks of
    /// a read-only open, and its quick check runs in the background; the first write waits
    /// for it (`ArchiveDatabase.verifyBeforeWriting()`), so a damaged archive is still never
    /// written to. An archive with page checksums skips that background check: its pages are
    /// verified as they are read (<doc:PageChecksums>).
    package static let fullCheckAtOpenLimit: Int64 = 64 << 20

    static func open(
        path: String, mode: ArchiveOpenMode, onWait: (@Sendable () -> Void)?, busyTimeout: Double = writeWaitSeconds,
        fullCheckLimit: Int64 = fullCheckAtOpenLimit, oneConnection: Bool = false, pageChecksums: Bool = true
    ) throws -> Opened {
        let found = try inspect(path, mode: mode)
        try ArchivePages.register()
        if mode == .readOnly {
            return try openReadOnly(path, oneConnection: oneConnection)
        }
        try checkWritable(path, exists: found != .missing)
        var config = configuration(readOnly: false)
        config.busyMode = .callback(WriteWait(onWait: onWait, giveUpAfter: busyTimeout).shouldRetry)
        if found == .missing {
            let dir = Self.folder(of: path)
            if dir != "." {
                try? FileManager.default.createDirectory(
                    atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            try createWhole(path, config: config, pageChecksums: pageChecksums)
        }
        // Setting up a new archive and migrating an old one happen under an exclusive lock on
        // its folder (flock, which SQLite's own locks ignore), so that two programs opening it
        // at once do not both try; the file's state is read again under it.
        let lock = try FileLock(path)
        defer { lock.release() }
        let state = try readHeader(path, mode: mode)
        var checkDeferred = false
        if state == .archive {
            // GRDB's pool writes at open (it makes sure the WAL is not empty): first, with a
            // reader, refuse what must stay untouched — a newer or foreign file, a damaged one.
            // A damaged archive is opened read-only: `check` can still say what is wrong, and
            // every read and write reports the damage.
            let damage: ArchiveError? = try ArchiveError.mapping(path: path, doing: "open") {
                let probe = try DatabaseQueue(path: uri(path, .walReader), configuration: configuration(readOnly: true))
                defer { try? probe.close() }
                // Outside a transaction: after SQLite met damage, a read transaction's COMMIT fails too.
                return try probe.inDatabase { db in
                    do {
                        let upToDate = try checkSchema(db, migrator: Migrations.make(), path: path) == .current
                        // A migration writes at once: it waits for no background check.
                        if upToDate && fileSize(path) > fullCheckLimit {
                            // Pages with checksums are verified as SQLite reads them, so a write
                            // that meets damage fails before it commits, and never builds on a
                            // damaged page: it waits for no whole-file check (<doc:PageChecksums>).
                            checkDeferred = ArchivePages.hasChecksums(path) != true
                            try checkChatPages(db, path: path)
                        } else {
                            try quickCheck(db, path: path)
                        }
                        return nil
                    } catch let e as ArchiveError where e.code == .corrupt {
                        return e
                    } catch let e as DatabaseError where e.resultCode == .SQLITE_CORRUPT {
                        return ArchiveError.database(e, path: path)
                    }
                }
            }
            if let damage {
                let opened = try openReadOnly(path)
                return (opened.writer, opened.access, damage, false)
            }
        }
        return try ArchiveError.mapping(path: path, doing: "open") {
            if state != .archive {
                // Page size, the checksums' room and the free pages' mode must be set before
                // the first table is created, and before WAL.
                let q = try DatabaseQueue(path: ArchivePages.uri(path), configuration: config)
                try q.writeWithoutTransaction { db in
                    if pageChecksums { try ArchivePages.reserve(db) }
                    try db.execute(sql: "\(Self.newFileSettingsSQL)")
                }
                try q.close()
            }
            let pool = try DatabasePool(path: ArchivePages.uri(path), configuration: config)
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            let migrator = Migrations.make()
            // Read first: an archive that is up to date is opened without taking the write lock.
            let upToDate = try pool.read { db in try checkSchema(db, migrator: migrator, path: path) } == .current
            if !upToDate { try migrator.migrate(pool) }
            return (pool, nil, nil, checkDeferred)
        }
    }

    /// The settings of a new archive's file: its page size, and free pages that can be given
    /// back to the file system (`auto_vacuum = INCREMENTAL`): the merges at the end of an ingest
    /// free the pages of the segments they merged, and
    /// ``ArchiveDatabase/releaseFreePages(between:)`` then moves the last pages into those
    /// holes and shortens the file (<doc:WritePerformance>). The page size comes first: the
    /// free pages' mode set before it, on a file with the checksums' room reserved, left an
    /// archive SQLite could not read.
    static let newFileSettingsSQL = "PRAGMA page_size = 8192; PRAGMA auto_vacuum = INCREMENTAL; VACUUM"

    /// Creates a new archive at `path` all at once: set up and migrated under a name of its
    /// own beside it, then linked to `path` only if nothing is there yet (another program may
    /// have created it meanwhile; it is then opened as it is). A program killed while creating
    /// leaves no half-made archive at `path`, only a `.creating-PID` file that the next
    /// creation in the folder removes.
    private static func createWhole(_ path: String, config: Configuration, pageChecksums: Bool) throws {
        removeAbandonedStaging(of: path)
        let staging = path + ".creating-\(getpid())"
        let fd = openFile(staging, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let err = errno
            throw ArchiveError(
                err == EACCES || err == EROFS || err == EPERM ? .readOnly : .io,
                "cannot create the archive \(path): \(String(cString: strerror(err)))")
        }
        close(fd)
        defer { removeStaging(staging) }
        try ArchiveError.mapping(path: path, doing: "create") {
            let queue = try DatabaseQueue(path: ArchivePages.uri(staging), configuration: config)
            // Page size, the checksums' room and the free pages' mode before the first table,
            // and before WAL.
            try queue.writeWithoutTransaction { db in
                if pageChecksums { try ArchivePages.reserve(db) }
                try db.execute(sql: "\(Self.newFileSettingsSQL); PRAGMA journal_mode = WAL")
            }
            try Migrations.make().migrate(queue)
            try queue.close()
        }
        if link(staging, path) != 0 {
            let err = errno
            // EEXIST: another program created it first. Without hard links (some file
            // systems), a rename, which only a creation in the same instant could race.
            guard err != EEXIST else { return }
            guard access(path, F_OK) != 0, rename(staging, path) == 0 else {
                throw ArchiveError(.io, "cannot create the archive \(path): \(String(cString: strerror(err)))")
            }
        }
    }

    private static func removeStaging(_ staging: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(staging + suffix) }
    }

    /// Removes what creations of `path` killed before they ended left beside it.
    private static func removeAbandonedStaging(of path: String) {
        let folder = Self.folder(of: path)
        let prefix = (path as NSString).lastPathComponent + ".creating-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return
        }
        for name in names where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(folder + "/" + name)
        }
    }

    static func openInMemory() throws -> any DatabaseWriter {
        try ArchiveError.mapping(path: ":memory:", doing: "open") {
            let queue = try DatabaseQueue(configuration: configuration(readOnly: false))
            try Migrations.make().migrate(queue)
            return queue
        }
    }

    /// Opens an existing archive read-only, in the access ``ReadOnlyAccess/choose(walExists:fileWritable:folderWritable:)``
    /// picks. A WAL reader that cannot set up its shared memory (a full disk) falls back to
    /// immutable when no log holds commits. With `oneConnection`, a single connection (reads
    /// then run one at a time) instead of a pool, whose writer connection a read-only archive
    /// never uses: a process that reads once (a CLI command) sets up one connection, not two.
    static func openReadOnly(_ path: String, forcing: ReadOnlyAccess? = nil, oneConnection: Bool = false) throws
        -> Opened
    {
        try ArchivePages.register()
        let folder = Self.folder(of: path)
        let wal = path + "-wal"
        let access =
            forcing
            ?? ReadOnlyAccess.choose(
                walExists: FileManager.default.fileExists(atPath: wal), fileWritable: Self.isWritable(path),
                folderWritable: Self.isWritable(folder))
        do {
            let config = configuration(readOnly: true, oneShot: oneConnection)
            let pool: any DatabaseWriter =
                oneConnection
                ? try DatabaseQueue(path: uri(path, access), configuration: config)
                : try DatabasePool(path: uri(path, access), configuration: config)
            let (upToDate, damage) = try pool.unsafeRead { db -> (Bool, ArchiveError?) in
                // Readable: only migrations that change nothing a reader reads are missing.
                let upToDate = try checkSchema(db, migrator: Migrations.make(), path: path) != .outdated
                do {
                    // A one-shot connection checks the cells of every page it loads instead.
                    if upToDate && !oneConnection { try checkChatPages(db, path: path) }
                    return (upToDate, nil)
                } catch let e as ArchiveError where e.code == .corrupt {
                    return (upToDate, e)
                }
            }
            guard upToDate else {
                throw ArchiveError(
                    .readOnly,
                    "the archive \(path) was written by an older ChatArchive and needs an upgrade of its format, which a read-only open does not make"
                )
            }
            return (pool, access, damage, false)
        } catch let e as DatabaseError where access == .walReader && forcing == nil && walIsEmpty(wal) && canFallBack(e)
        {
            return try openReadOnly(path, forcing: .immutable, oneConnection: oneConnection)
        } catch {
            throw ArchiveError.wrapping(error, path: path, doing: "open")
        }
    }

    private static func canFallBack(_ e: DatabaseError) -> Bool {
        [.SQLITE_IOERR, .SQLITE_FULL, .SQLITE_CANTOPEN, .SQLITE_READONLY].contains(e.resultCode)
    }

    private static func walIsEmpty(_ wal: String) -> Bool {
        var st = stat()
        return stat(wal, &st) != 0 || st.st_size == 0
    }

    /// `path` as an SQLite URI with the access's parameters, through the page checksums' VFS.
    static func uri(_ path: String, _ access: ReadOnlyAccess) -> String {
        ArchivePages.uri(path, [access == .immutable ? "immutable=1" : "mode=ro"])
    }

    /// What an archive's applied migrations allow.
    enum SchemaState {
        /// Every migration applied.
        case current
        /// Only migrations in `Migrations.readCompatible` missing: a reader reads it as it is,
        /// a writer migrates it first.
        case readable
        /// Older: readers would misread it, so a read-only open refuses it.
        case outdated
    }

    /// Refuses an archive a newer ChatArchive migrated, and any SQLite file that is not an
    /// archive; returns what its applied migrations allow.
    private static func checkSchema(_ db: Database, migrator: DatabaseMigrator, path: String) throws -> SchemaState {
        // Plain statements: GRDB's `tableExists` and the migrator's own checks load GRDB's
        // schema cache and build sets, a noticeable part of a one-query CLI process.
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('grdb_migrations', 'meta')")
        let applied =
            tables.contains("grdb_migrations")
            ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
        let known = migrator.migrations
        let unknown = applied.filter { !known.contains($0) }
        if !unknown.isEmpty {
            throw ArchiveError(
                .newerVersion,
                "the archive \(path) has format \(unknown.sorted().joined(separator: ", ")), written by a newer ChatArchive; this one knows formats up to \(known.last ?? "v1"); it was left untouched"
            )
        }
        if tables.contains("meta"),
            let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'analyzerVersion'").flatMap({
                Int($0)
            }),
            stored > Analyzer.version
        {
            throw newerAnalyzer(path, stored)
        }
        // Every registered migration applied (and, from above, no other).
        let missing = known.filter { !applied.contains($0) }
        if missing.isEmpty { return .current }
        if !applied.isEmpty && missing.allSatisfy(Migrations.readCompatible.contains) { return .readable }
        if applied.isEmpty,
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'") ?? 0 > 0
        {
            throw ArchiveError(
                .notAnArchive, "\(path) is not a chat-archive file (an SQLite database of another program)")
        }
        return .outdated
    }

    /// Refuses to open for writing an archive whose file or folder cannot be written (SQLite
    /// would fail later with a vaguer error): a WAL archive needs its `-wal` and `-shm` files
    /// beside it.
    private static func checkWritable(_ path: String, exists: Bool) throws {
        for (target, what) in [(exists ? path : nil, "file"), (Self.folder(of: path), "folder")] {
            guard let target, access(target, F_OK) == 0, access(target, W_OK) != 0 else { continue }
            let err = errno
            let why =
                err == EROFS
                ? "it is on a read-only disk" : "its \(what) is read-only (\(String(cString: strerror(err))))"
            throw ArchiveError(.readOnly, "cannot write to the archive \(path): \(why)")
        }
    }

    /// The refusal of an index built by a newer analyser: this version would tokenize queries
    /// differently, and rebuilding it downwards would undo the newer program's work.
    static func newerAnalyzer(_ path: String, _ stored: Int) -> ArchiveError {
        ArchiveError(
            .newerVersion,
            "the archive \(path) was indexed by text analyser version \(stored), newer than this ChatArchive's version \(Analyzer.version); it was left untouched"
        )
    }

    /// Runs SQLite's quick check (every page and b-tree, without matching indexes to tables)
    /// and refuses a damaged archive.
    ///
    /// - Complexity: reads the whole file once.
    static func quickCheck(_ db: Database, path: String) throws {
        let rows: [String]
        do {
            rows = try String.fetchAll(db, sql: "PRAGMA quick_check(3)")
        } catch let e as DatabaseError where e.resultCode == .SQLITE_CORRUPT || e.resultCode == .SQLITE_NOTADB {
            throw ArchiveError.database(e, path: path)
        }
        guard rows != ["ok"] else { return }
        let first = rows.lazy.flatMap { $0.split(separator: "\n") }.first { !$0.hasPrefix("***") }.map(String.init)
        throw ArchiveError(
            .corrupt,
            "the archive \(path) is damaged (SQLite's quick check: \(first ?? "no answer")), so nothing was written to it"
        )
    }

    /// Reads every page of the chat table and of its indexes with SQLite's cell checks on (each
    /// cell of a page must lie inside it): the chat list reads them all, and a damaged page there
    /// could otherwise answer with wrong names or missing chats instead of an error. A damaged
    /// item page makes SQLite's own reads fail, so items are not walked. `PRAGMA
    /// quick_check('chat')` did this job for read-only opens at several times the cost of these
    /// counts, in every CLI process. Left on for every read, the cell checks would slow every
    /// query markedly, since mapped pages are checked on every access;
    /// a one-shot connection, which does not map the file, keeps them on instead of walking
    /// (``configuration(readOnly:oneShot:)``).
    static func checkChatPages(_ db: Database, path: String) throws {
        try db.execute(sql: "PRAGMA cell_size_check = ON")
        defer { try? db.execute(sql: "PRAGMA cell_size_check = OFF") }
        do {
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM chat NOT INDEXED")
            let indexes = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'chat'")
            for index in indexes {
                let quoted = "\"" + index.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                do {
                    _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM chat INDEXED BY \(quoted)")
                } catch let e as DatabaseError where e.resultCode == .SQLITE_ERROR {
                    continue  // an index no count can use (a partial one)
                }
            }
        } catch let e as DatabaseError where e.resultCode == .SQLITE_CORRUPT || e.resultCode == .SQLITE_NOTADB {
            throw ArchiveError.database(e, path: path)
        }
    }

    /// What the path holds.
    enum PathState { case missing, empty, archive }

    /// The folder holding `path`: `.` for a bare name, `/` for a name at the root.
    ///
    /// Not `NSString.deletingLastPathComponent`, whose Linux Foundation stops the process on a
    /// path of one character (`--archive A`).
    static func folder(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        var end = slash
        while end > 0, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Checks the path before SQLite or Foundation touch it: a folder, a dangling symbolic
    /// link, a missing file (unless created), or a file that is not SQLite each get one sentence.
    static func inspect(_ path: String, mode: ArchiveOpenMode) throws -> PathState {
        guard !path.isEmpty else { throw ArchiveError(.notFound, "no archive path was given") }
        var st = stat()
        if lstat(path, &st) != 0 {
            let err = errno
            if err == ENOENT || err == ENOTDIR {
                if mode != .create { throw ArchiveError(.notFound, "no archive at \(path)") }
                let parent = Self.folder(of: path)
                var pst = stat()
                if stat(parent, &pst) == 0, pst.st_mode & S_IFMT != S_IFDIR {
                    throw ArchiveError(.io, "cannot create the archive \(path): \(parent) is not a folder")
                }
                return .missing
            }
            throw ArchiveError(
                err == EACCES ? .readOnly : .io, "cannot open the archive \(path): \(String(cString: strerror(err)))")
        }
        if st.st_mode & S_IFMT == S_IFLNK {
            var target = stat()
            if stat(path, &target) != 0 {
                throw ArchiveError(
                    .notFound, "no archive at \(path): it is a symbolic link to a file that does not exist")
            }
            st = target
        }
        if st.st_mode & S_IFMT == S_IFDIR {
            throw ArchiveError(.notAnArchive, "\(path) is a folder, not an archive file")
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw ArchiveError(.notAnArchive, "\(path) is not a regular file, so it cannot be an archive")
        }
        return try readHeader(path, mode: mode)
    }

    /// Reads the first bytes (see `ArchivePages.readHead(_:_:)` for why not with POSIX calls).
    private static func readHeader(_ path: String, mode: ArchiveOpenMode) throws -> PathState {
        guard let (head, size) = ArchivePages.readHead(path, 16) else {
            // Only to say why: a file SQLite cannot open, no connection of ours holds a lock on.
            let err = access(path, R_OK) == 0 ? EIO : errno
            throw ArchiveError(
                err == EACCES || err == EPERM ? .readOnly : .io,
                "cannot read the archive \(path): \(String(cString: strerror(err)))")
        }
        if size == 0 {
            // An empty file becomes a new archive, unless it may only be read.
            if mode == .readOnly { throw ArchiveError(.notAnArchive, "\(path) is an empty file, not an archive") }
            return .empty
        }
        guard size >= 16, head.elementsEqual(Array("SQLite format 3\0".utf8)) else {
            throw ArchiveError(.notAnArchive, "\(path) is not a chat-archive file (not an SQLite database)")
        }
        return .archive
    }

    /// Each connection's page cache (KiB); an ingest's writer uses less (`BatchStore.ingestCacheKiB`).
    static let cacheKiB = 65_536

    /// The page cache (KiB) of a process that reads once (``configuration(readOnly:oneShot:)``).
    static let oneShotCacheKiB = 2_048

    /// - Parameter oneShot: for a process that reads once and exits (a CLI command): a small
    ///   page cache, no map of the file, and SQLite's cell checks on every page loaded (instead
    ///   of the chat table's walk at open). Its reads touch each page about once (the walk it
    ///   used to make alone read thousands of pages at 100,000 chats): every new page of a big
    ///   cache was a fresh allocation, and the thread's heap grew by an `mprotect` call for
    ///   nearly each one, which put most of such a process's time in the kernel; a map of the
    ///   file was slower than the small cache alone, its pages faulting in one at a time.
    static func configuration(readOnly: Bool, oneShot: Bool = false) -> Configuration {
        var config = Configuration()
        config.readonly = readOnly
        config.maximumReaderCount = 4
        // Readers wait in SQLite's rare busy cases (WAL recovery after a crash).
        if readOnly { config.busyMode = .timeout(readWaitSeconds) }
        config.prepareDatabase { db in
            guard let handle = db.sqliteConnection else { throw ArchiveError("no SQLite connection") }
            let rc = FTS5Registration.register(on: handle)
            guard rc == 0 else { throw ArchiveError("cannot register the chat tokenizer (SQLite code \(rc))") }
            let textRC = cchatzstd_register(UnsafeMutableRawPointer(handle))
            guard textRC == 0 else { throw ArchiveError("cannot register chat_text (SQLite code \(textRC))") }
            db.add(function: TextCheckFunction.make())
            try db.execute(
                sql:
                    "PRAGMA cache_size = -\(oneShot ? oneShotCacheKiB : cacheKiB); PRAGMA temp_store = MEMORY; PRAGMA secure_delete = OFF"
            )
            // Readers map the file (no copy into each connection's cache; the OS shares the
            // pages); with page checksums the VFS verifies a mapped page at its first fetch in
            // each read transaction (<doc:PageChecksums>). The writer does not map, so an
            // ingest's memory stays its own working set.
            if db.configuration.readonly && !oneShot { try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
            // A one-shot reader checks the cells of each page as it loads it (unmapped, a page
            // is checked once per load, not at every access): what it answers from is checked
            // as the walk over the chat table at a pool's open checks it, and the open does
            // not read the thousands of pages of that walk at 100,000 chats (a good part of a
            // `chat-archive search` process at that size).
            if db.configuration.readonly && oneShot { try db.execute(sql: "PRAGMA cell_size_check = ON") }
        }
        return config
    }
}

/// The writer's busy handler: waits for another program's write with short sleeps, tells the
/// caller once a wait has lasted a moment, and gives up after the open's busy timeout
/// (``ArchiveOpening/writeWaitSeconds`` unless the caller chose another).
private final class WriteWait: @unchecked Sendable {
    private let onWait: (@Sendable () -> Void)?
    private let giveUpAfter: Double
    private let lock = NSLock()
    private var started: UInt64 = 0
    private var told = false

    init(onWait: (@Sendable () -> Void)?, giveUpAfter: Double) {
        self.onWait = onWait
        self.giveUpAfter = giveUpAfter
    }

    func shouldRetry(_ tries: Int) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        let tell: Bool
        let elapsed: Double
        lock.lock()
        if tries == 0 {
            started = now
            told = false
        }
        elapsed = Double(now - started) / 1e9
        tell = !told && elapsed > 0.3
        if tell { told = true }
        lock.unlock()
        if elapsed > giveUpAfter { return false }
        if tell { onWait?() }
        usleep(tries < 20 ? 1_000 : 10_000)
        return true
    }
}

/// An exclusive `flock` on the folder that holds an archive, held while the archive is opened,
/// set up or migrated. Not on the archive itself: closing a descriptor of the archive would drop
/// the POSIX locks this process's connections hold on it (SQLite's), and another program could
/// then delete the log they write to. Programs opening other archives in the same folder wait
/// for the open too, which takes milliseconds unless a migration runs.
private final class FileLock {
    private var fd: Int32

    init(_ path: String) throws {
        let real = realpath(path, nil).map { p in
            defer { free(p) }
            return String(cString: p)
        }
        let folder = ArchiveOpening.folder(of: real ?? path)
        // A folder this process may not list: go on without (as where `flock` is not supported).
        fd = openFile(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { break }  // no lock support (some network file systems): go on without
        }
    }

    func release() {
        guard fd >= 0 else { return }
        _ = flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }
}

/// A flag set once, read from any thread.
final class VerifiedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// `open(2)` (a file-level function: `ArchiveOpening.open` would hide it).
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }

extension ArchiveOpening {
    /// Whether this process may write `path` (`access(2)`: false on a read-only mount too).
    static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// The size of the file at `path` in bytes (0 when it cannot be read).
    static func fileSize(_ path: String) -> Int64 {
        var st = stat()
        return stat(path, &st) == 0 ? Int64(st.st_size) : 0
    }
}
