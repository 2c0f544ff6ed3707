/// Progress of an ingest, reported a few times per second at most.
public struct IngestProgress: Sendable {
    /// The source being read.
    public var file: String
    /// Bytes of the current source read so far.
    public var bytesRead: Int64
    /// The current source's size, when known (for percent and ETA).
    public var totalBytes: Int64?
    /// Items read so far in this ingest, across sources.
    public var itemsRead: Int
    /// The full-text index is being built (after the items are stored).
    public var isIndexing: Bool
    /// The ingest waits for the check that a big archive gets before its first write (SQLite's
    /// quick check, which reads the whole file once per open; see ``Archive/init(path:mode:rebuildsStaleIndexes:rebuildProgress:onWait:)``).
    public var isChecking = false
}
