import CChatZstd
import Foundation
import GRDB

/// A message's display text as the item table stores it: as it is, or compressed with the
/// archive's dictionary (`chat_text(text)` reads both; see ``TextCompression``).
enum StoredText {
    case text(String)
    case compressed([UInt8])

    /// The value to bind.
    var databaseValue: DatabaseValue {
        switch self {
        case .text(let s): s.databaseValue
        case .compressed(let b): Data(b).databaseValue
        }
    }
}

/// Compression of the item table's `text` column with a zstd dictionary trained on the
/// archive's own messages (format 13).
///
/// Chat messages are short: compressed one by one without a dictionary they barely shrink,
/// while a small dictionary trained on the archive's first messages halves them. It is the
/// user's choice (`IngestOptions.compressesText`, `ingest --compress-text`): the archive gets
/// smaller, and every page of hits costs a little more to read, enough to make a search for a
/// frequent word in a big or small chat no faster than SimpleX's `LIKE` scan
/// (<doc:ArchiveLayout>).
///
/// A new archive records `meta.textCompression = 1` (format 13; older archives never
/// compress). An ingest that asks for compression keeps the first ``defaultTrainingTexts``
/// texts it writes as they are, trains the dictionary on them at the end of that transaction
/// and stores it as row 1 of `textDictionary` (unless another writer stored one first: then it
/// takes that one). Once a dictionary is stored, every writer compresses every new text, live
/// writes included (which never train one themselves). A dictionary is never replaced or
/// removed, so every compressed text stays readable.
///
/// A stored form is one byte naming the dictionary, then a zstd frame without its magic
/// number, holding its content size (CChatZstd). A text is stored compressed only when that
/// is shorter.
package final class TextCompression {
    static let metaKey = "textCompression"
    /// The dictionary's size: a bigger one saved little more of the bench's text, and every
    /// connection that reads a compressed text loads the dictionary once.
    static let dictionaryBytes = 64 << 10
    /// zstd's level: its default, fast enough to compress each message as it is written.
    static let level: Int32 = 3
    /// The texts an ingest trains the dictionary on.
    package static let defaultTrainingTexts = 20_000
    /// Most bytes of texts kept for training (long messages reach it before their count).
    static let trainingBytes = 4 << 20
    /// The dictionary id of the one dictionary an archive has.
    static let dictionaryId: Int32 = 1

    /// Whether zstd's runtime library could be loaded (CChatZstd loads it at run time, so the
    /// build needs no zstd header).
    package static var isAvailable: Bool { cchatzstd_available() != 0 }

    /// The error of an ingest that asks for compression on a machine without zstd.
    package static let unavailableError = ArchiveError(
        .io,
        "cannot compress text: zstd's runtime library (libzstd.so.1) could not be loaded; install it (on Debian or Ubuntu, the package libzstd1) or ingest without compression"
    )

    /// Texts to collect before training; 0: never train (live writes use a stored dictionary only).
    private let trainingTexts: Int
    /// Whether the archive compresses (read at the first transaction).
    private var enabled: Bool?
    private var compressor: TextCompressor?
    /// The dictionary once loaded, for the ingest's reading thread (``readerCompressor()``).
    private let published = PublishedDictionary()
    private var samples: [UInt8] = []
    private var sampleSizes: [Int64] = []
    /// Trainings tried without a dictionary (too little text): collecting stops after a few.
    private var failedTrainings = 0
    /// Whether a dictionary may have been stored since the last lookup found none: after this
    /// writer stored one, or another writer committed (``othersCommitted()``). Spares each live
    /// write of an archive without a dictionary its lookup.
    private var mayHaveDictionary = true

    init(trainingTexts: Int) {
        self.trainingTexts = trainingTexts
    }

    /// Called at the start of each transaction: reads whether the archive compresses, and
    /// loads its dictionary once one is stored.
    func begin(_ db: Database) throws {
        if enabled == nil {
            enabled =
                try String.fetchOne(
                    db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [Self.metaKey]) == "1"
        }
        guard enabled == true, compressor == nil, mayHaveDictionary else { return }
        if let dict = try Data.fetchOne(
            db.cachedStatement(sql: "SELECT dict FROM textDictionary WHERE id = ?"), arguments: [Self.dictionaryId])
        {
            load(Array(dict))
        }
        mayHaveDictionary = false
    }

    /// Another writer committed since this one's last transaction: it may have stored a dictionary.
    func othersCommitted() { mayHaveDictionary = true }

    /// The stored form of `text`.
    func stored(_ text: String) -> StoredText {
        guard let compressor else {
            if enabled == true, trainingTexts > 0, failedTrainings < 3, !hasEnoughSamples {
                samples.append(contentsOf: text.utf8)
                sampleSizes.append(Int64(text.utf8.count))
            }
            return .text(text)
        }
        return compressor.stored(text)
    }

    /// A compressor of its own for the thread that prepares an ingest's items, once this
    /// writer has loaded the archive's dictionary (`nil` before): the texts it compresses
    /// arrive compressed, which takes that work off the writer's thread, the busier of the two
    /// (<doc:WritePerformance>). An archive has one dictionary, never replaced, so a text
    /// compressed with it on either thread is stored the same.
    func readerCompressor() -> TextCompressor? {
        published.dictionary.flatMap(TextCompressor.init)
    }

    /// Called before each transaction commits: trains the dictionary once enough texts are
    /// collected and stores it (unless another writer stored one first). It is loaded by the
    /// next transaction's ``begin(_:)``, from what is committed: a dictionary whose
    /// transaction rolled back never compresses a text.
    func end(_ db: Database) throws {
        guard enabled == true, compressor == nil, trainingTexts > 0, hasEnoughSamples else { return }
        // zstd's trainer wants several times the dictionary's size in samples.
        let capacity = min(Self.dictionaryBytes, max(1 << 10, samples.count / 8))
        var dict = [UInt8](repeating: 0, count: capacity)
        let size = dict.withUnsafeMutableBufferPointer { d in
            samples.withUnsafeBufferPointer { s in
                sampleSizes.withUnsafeBufferPointer { z in
                    cchatzstd_train(s.baseAddress, z.baseAddress, Int32(z.count), d.baseAddress, Int64(capacity))
                }
            }
        }
        samples = []
        sampleSizes = []
        guard size > 0 else {
            failedTrainings += 1
            return
        }
        dict.removeSubrange(Int(size)...)
        try db.cachedStatement(sql: "INSERT INTO textDictionary(id, dict) VALUES (?, ?) ON CONFLICT(id) DO NOTHING")
            .execute(arguments: [Self.dictionaryId, Data(dict)])
        mayHaveDictionary = true
    }

    private var hasEnoughSamples: Bool {
        sampleSizes.count >= trainingTexts || samples.count >= Self.trainingBytes
    }

    private func load(_ dict: [UInt8]) {
        compressor = TextCompressor(dict)
        if compressor != nil { published.dictionary = dict }
        samples = []
        sampleSizes = []
    }
}

/// A zstd compressor with an archive's dictionary: the one place a text's stored form is made.
/// Not for two threads at once; each thread that compresses has its own.
package final class TextCompressor {
    private let pointer: OpaquePointer

    /// `nil` when zstd refuses the dictionary or is missing.
    init?(_ dict: [UInt8]) {
        guard
            let p = dict.withUnsafeBufferPointer({
                cchatzstd_compressor_new(
                    TextCompression.dictionaryId, $0.baseAddress, Int64($0.count), TextCompression.level)
            })
        else { return nil }
        pointer = p
    }

    deinit { cchatzstd_compressor_free(pointer) }

    /// The stored form of `text`: compressed when that is shorter.
    func stored(_ text: String) -> StoredText {
        let original = text
        var text = text
        return text.withUTF8 { bytes -> StoredText in
            // Short texts never shrink: the id byte and the frame header cost 3 bytes or more.
            guard bytes.count > 8 else { return .text(original) }
            let bound = Int(cchatzstd_bound(Int64(bytes.count)))
            var out = [UInt8](repeating: 0, count: bound)
            let n = out.withUnsafeMutableBufferPointer {
                cchatzstd_compress(pointer, bytes.baseAddress, Int64(bytes.count), $0.baseAddress, Int64(bound))
            }
            guard n > 0, Int(n) < bytes.count else { return .text(original) }
            out.removeSubrange(Int(n)...)
            return .compressed(out)
        }
    }
}

/// The dictionary a writer loaded, handed to the thread that prepares its items.
private final class PublishedDictionary: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [UInt8]?

    var dictionary: [UInt8]? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
