import Dispatch
import Foundation
import GRDB
import GRDBSQLite

/// Copies the WAL back into the database on a thread of its own, so that the writer's commits
/// never stop for it (the writer's automatic checkpoint is off during an ingest). Passive
/// checkpoints run concurrently with writes.
final class Checkpointer: @unchecked Sendable {
    private let path: String
    private let queue = DispatchQueue(label: "chat-archive.checkpoint", qos: .utility)
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var running = false
    private var logFrames = 0
    private var connection: DatabaseQueue?

    init(path: String) { self.path = path }

    /// Frames in the WAL at the last checkpoint. A WAL written continuously is never fully
    /// copied back at the start of a transaction, so it never restarts: the writer checkpoints
    /// itself between batches when this grows too large (most frames are copied already).
    var walFrames: Int {
        lock.lock()
        defer { lock.unlock() }
        return logFrames
    }

    func walRestarted() {
        lock.lock()
        logFrames = 0
        lock.unlock()
    }

    /// WAL frames beyond which ``keepLogBounded(_:)`` has the log copied
    /// back: by a background pass while the writer goes on, or past ``waitFrameLimit`` by the
    /// writer itself.
    static let frameLimit = 8_192

    /// WAL frames (8 KiB pages, 256 MiB) beyond which ``keepLogBounded(_:)`` stops the writer
    /// until the log is copied back, so that its next transaction starts the log over.
    static let waitFrameLimit = 32_768

    /// Frames the writer's commits added to the log since it last started over (counted by
    /// ``pagesWritten(_:)``; touched on the writer's thread only).
    private var framesSinceRestart = 0

    /// Frames the writer's commits added to the log in all, as ``keepLogBounded(_:)`` counted
    /// them (``IngestTiming/logBytes``).
    private(set) var framesWritten = 0

    /// Pages the connection wrote (to the log: its commits' frames) since the last call.
    static func pagesWritten(_ db: Database) -> Int {
        var current: Int32 = 0
        var highwater: Int32 = 0
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_WRITE, &current, &highwater, 1)
        return Int(current)
    }

    /// Keeps the log within ``waitFrameLimit`` plus one transaction, and copies most of it back
    /// on the background thread. Called on the writer's connection between transactions: it
    /// counts the frames the writer's commits added since the log last started over. Past
    /// ``frameLimit`` it requests a background pass, which copies this transaction's frames
    /// while the writer writes the next one; past ``waitFrameLimit`` it waits for that pass
    /// (it holds the checkpoint lock), then copies the rest itself, so that the writer's next
    /// transaction starts the log over instead of growing it.
    ///
    /// The log starts over only at the start of a transaction that finds it copied whole, so some
    /// copy must stop the writer. With one limit for both, that was the writer's own copy after
    /// every batch of a big ingest (a batch writes more pages than the limit), with its `fsync`, on
    /// the writer's thread while the background thread had nothing left to do. When the background
    /// passes alone decided (on the frame count they saw, a batch or two late) and the writer never
    /// waited, a big ingest's log grew to several times the limit (<doc:WritePerformance>). A
    /// reader of another program that keeps an old snapshot open holds the log where it is until it
    /// ends.
    func keepLogBounded(_ writer: some DatabaseWriter) throws {
        try writer.writeWithoutTransaction { db in
            let frames = Self.pagesWritten(db)
            framesWritten += frames
            framesSinceRestart += frames
            guard framesSinceRestart > Self.frameLimit else { return }
            guard framesSinceRestart > Self.waitFrameLimit else {
                request()
                return
            }
            group.wait()
            let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
            if let row, (row[0] as Int) == 0, (row[1] as Int) == (row[2] as Int) { framesSinceRestart = 0 }
            walRestarted()
        }
    }

    /// Counts the frames written since the last count without copying the log (the end of an
    /// ingest, whose last writes follow its last ``keepLogBounded(_:)``).
    func countFrames(_ writer: some DatabaseWriter) {
        writer.writeWithoutTransaction { db in framesWritten += Self.pagesWritten(db) }
    }

    /// Log frames beyond which ``restartLogIfDue(_:)`` starts the log
    /// over. The writer's own checkpoint ends with an fsync of the file: with a much smaller
    /// limit that came every few upserts and set their p99.
    static let liveFrameLimit = 8_192

    /// For a writer whose transactions cannot wait (an app's live writes), called on the
    /// writer's connection just before a transaction: when no background pass is running and
    /// the last one saw more than ``liveFrameLimit`` frames, copies back the few frames written
    /// since that pass, so that the transaction starts the log over. Without it, a background
    /// pass never finds the log fully copied at the moment a write begins while writes keep
    /// coming, and the log grew for as long as an app wrote, making every page read look
    /// through a longer WAL index (<doc:ArchiveLayout>).
    func restartLogIfDue(_ db: Database) throws {
        lock.lock()
        let due = !running && logFrames > Self.liveFrameLimit
        lock.unlock()
        guard due else { return }
        try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
        walRestarted()
    }

    /// Log frames the live writes added since the last background pass was requested
    /// (touched on the writer's thread only).
    private var liveFramesPending = 0

    /// Frames live writes add to the log before they request a background pass: every few
    /// dozen single-message upserts. A pass after each upsert copied the same
    /// hot pages (the chat's row, counters, the full-text structure record) each time, with two
    /// `fsync`s, on the second of the machine's two cores.
    static let liveFramesPerPass = 256

    /// After a live write's commit, on the writer's connection: requests a background pass once
    /// ``liveFramesPerPass`` frames have accumulated (an idle archive requests one itself, so
    /// nothing stays uncopied for long).
    func liveWriteCommitted(_ db: Database) {
        liveFramesPending += Self.pagesWritten(db)
        guard liveFramesPending >= Self.liveFramesPerPass else { return }
        liveFramesPending = 0
        request()
    }

    /// Starts a passive checkpoint unless one is running.
    func request() {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return }
        running = true
        queue.async(group: group) { [self] in
            if connection == nil { connection = try? DatabaseQueue(path: ArchivePages.uri(path)) }
            let frames = try? connection?.writeWithoutTransaction { db in
                try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)").map { $0[1] as Int }
            }
            lock.lock()
            running = false
            if let frames = frames ?? nil { logFrames = frames }
            lock.unlock()
        }
    }

    /// Copies the whole log back and empties it, trying again for up to `seconds` while other
    /// programs read or write. A log left behind by the last writer costs every later program
    /// that opens the archive alone a read of all of it first (SQLite rebuilds the log's index
    /// from it): seconds per reader process after a big ingest, when readers of other
    /// processes were open as the ingest ended and its own close could not checkpoint.
    func truncateLog(within seconds: Double = 2) {
        group.wait()
        queue.sync {
            if connection == nil { connection = try? DatabaseQueue(path: ArchivePages.uri(path)) }
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                let busy = try? connection?.writeWithoutTransaction { db in
                    try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)").map { ($0[0] as Int) != 0 }
                }
                if busy == .some(.some(false)) { return }
                Thread.sleep(forTimeInterval: 0.05)
            } while Date() < deadline
        }
    }

    /// Waits for the running checkpoint and closes the connection.
    func finish() {
        group.wait()
        queue.sync {
            try? connection?.close()
            connection = nil
        }
    }
}
