import ChatImport
import ChatIndex

/// Options of an ingest.
public struct IngestOptions: Sendable {
    /// `auto` (sniffed by content) or a format name.
    public var format: String
    /// Stop at the first problem of any severity (everything committed before it stays).
    public var strict: Bool
    /// Options passed to the importers (time zone, owner name, …).
    public var importOptions: ImportOptions
    /// Items per transaction (10k–100k is fastest: ChatIndex's WritePerformance). Readers see the archive as it was
    /// after a whole batch, never part of one; a crash keeps every committed batch.
    public var batchSize: Int
    /// Most bytes of analysed items per transaction (``defaultBatchBytes``): a batch ends at
    /// `batchSize` items or at this many bytes, whichever comes first, so that an ingest's memory
    /// does not depend on how long its messages are or how many tokens their script makes.
    public var batchBytes: Int
    /// Store the messages' text compressed with a dictionary trained on them
    /// (``compressesByDefault``: wherever zstd's runtime library loads). Only an archive made
    /// since format 13 compresses: its first such ingest stores its first 20,000 texts as they
    /// are, trains the dictionary on them, and from then on every writer, live writes included,
    /// stores new texts compressed. The archive gets smaller, and every page of hits a little
    /// slower to read, since each text is decompressed (ChatIndex's ArchiveLayout and
    /// WritePerformance articles). `true` where the library does not load makes the ingest throw.
    public var compressesText = IngestOptions.compressesByDefault
    /// Whether an ingest compresses text unless told otherwise: when zstd's runtime library
    /// (`libzstd.so.1`) loads, so that a machine without it ingests as before.
    public static var compressesByDefault: Bool { TextCompression.isAvailable }
    /// How many terms the writer remembers as already in the vocabulary (`nil`: its default;
    /// tests make it small to exercise the forgetting).
    package var termLimit: Int? = nil
    /// With ``compressesText``: how many texts the ingest stores as they are and then trains the
    /// compression dictionary on (`nil`: 20,000; tests make it small to compress small archives).
    package var textTrainingTexts: Int? = nil
    /// Where texts are compressed: `nil` on the thread that is less busy, batch by batch;
    /// `true` always on the reading thread, `false` always on the writer's (for tests).
    package var compressesWhileReading: Bool? = nil
    /// The default ``batchBytes``: the writer's own batch limit.
    public static let defaultBatchBytes = ArchiveWriter.batchByteLimit
    /// Makes options: format sniffed by content, bad records skipped.
    public init(
        format: String = "auto", strict: Bool = false, importOptions: ImportOptions = ImportOptions(),
        batchSize: Int = 10_000, batchBytes: Int = defaultBatchBytes,
        compressesText: Bool = IngestOptions.compressesByDefault
    ) {
        self.compressesText = compressesText
        self.format = format
        self.strict = strict
        self.importOptions = importOptions
        self.batchSize = max(1, batchSize)
        self.batchBytes = max(1, batchBytes)
    }
}
