import ChatImport
import ChatIndex

/// The result of an ingest (CONTRACT.md §3).
public struct IngestReport: Sendable, Hashable {
    public var chats = 0
    public var itemsAdded = 0
    public var itemsUpdated = 0
    public var itemsUnchanged = 0
    public var itemsSkipped = 0
    /// Every bad record, with file and line or byte offset.
    public var errors: [ImportIssue] = []
    /// The run stopped early (`--strict`, cancellation, or a fatal error in one source).
    public var stoppedEarly = false
    public init() {}
}

/// Progress of an ingest, reported a few times per second at most.
public struct IngestProgress: Sendable {
    /// The source being read.
    public var file: String
    public var bytesRead: Int64
    public var totalBytes: Int64?
    public var itemsRead: Int
    /// The full-text index is being built (after the items are stored).
    public var isIndexing: Bool
}

/// Options of an ingest.
public struct IngestOptions: Sendable {
    /// `auto` (sniffed by content) or a format name.
    public var format: String
    /// Stop at the first bad record.
    public var strict: Bool
    public var importOptions: ImportOptions
    public init(format: String = "auto", strict: Bool = false, importOptions: ImportOptions = ImportOptions()) {
        self.format = format
        self.strict = strict
        self.importOptions = importOptions
    }
}
