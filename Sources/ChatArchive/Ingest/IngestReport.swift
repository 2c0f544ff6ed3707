import ChatImport
import ChatIndex

/// The result of an ingest, as <doc:JSONOutput> describes it.
public struct IngestReport: Sendable, Hashable {
    /// Chats read from the sources, each counted once.
    public var chats = 0
    /// Items new to the archive.
    public var itemsAdded = 0
    /// Items already archived whose content or flags changed.
    public var itemsUpdated = 0
    /// Items already archived exactly as read.
    public var itemsUnchanged = 0
    /// Items left out: bad records the importers skipped (`ImportIssue.Severity.skipped`,
    /// by their `ImportIssue.count`) and items the archive could not place. Warnings (records
    /// kept) and stopped files do not count here.
    public var itemsSkipped = 0
    /// Problems that kept their record (U+FFFD, a repeated id, the previous item's time…).
    public var warnings = 0
    /// Files, zip entries or sources that stopped early (truncated JSON, binary data…) or
    /// could not be read at all; what they held before the problem is kept.
    public var filesStopped = 0
    /// Every problem, with file and line or byte offset, and its severity.
    public var errors: [ImportIssue] = []
    /// The run stopped early (`--strict`, cancellation, or a fatal error in one source).
    public var stoppedEarly = false
    /// The run was cancelled (Ctrl-C, SIGTERM, task cancellation): every batch committed
    /// before it stays, and running the same ingest again resumes it.
    public var interrupted = false
    /// The exports read, in the order they were read (a folder may hold several).
    public var exports: [IngestedExport] = []
    /// Files and folders in the given paths that hold no export, with why.
    public var skippedFiles: [SkippedFile] = []
    /// Where the ingest's time went (the bench reports it; no output shows it).
    package var timing = IngestTiming()
    /// An empty report.
    public init() {}
}

/// One export an ingest read: what it was read as, and what in it was left out.
public struct IngestedExport: Sendable, Hashable {
    /// The export: a file, a folder or a zip.
    public var path: String
    /// The format it was read as, by its `--format` name.
    public var format: String
    /// How many of its files were read.
    public var filesRead: Int
    /// Items read from it (added, updated or unchanged).
    public var itemsRead: Int
    /// Files in it that were not read, with why.
    public var skipped: [SkippedFile]
}

/// A file or folder an ingest did not read, and why.
public struct SkippedFile: Sendable, Hashable {
    /// The file or folder.
    public var path: String
    /// Why it was not read.
    public var reason: String
    /// Whether it is plainly not a chat export (a README, a script, an export's own metadata),
    /// as against one the user must act on (an HTML export, an encrypted download).
    public var isNotAnExport: Bool
    /// How many files this entry stands for: 1, or more for the one entry that stands for the
    /// files of an export past those listed.
    public var fileCount: Int

    /// A skipped file or folder.
    public init(path: String, reason: String, isNotAnExport: Bool = false, fileCount: Int = 1) {
        self.path = path
        self.reason = reason
        self.isNotAnExport = isNotAnExport
        self.fileCount = fileCount
    }
}
