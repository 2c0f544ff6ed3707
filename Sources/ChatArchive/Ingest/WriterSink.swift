import ChatImport
import ChatIndex
import ChatModel
import Foundation

/// Connects an importer to the archive writer: records go to the writer, bad records to
/// the report (stopping in strict mode), progress to the caller, cancellation to the importer.
final class WriterSink: ImportSink {
    struct Cancelled: Error {}
    struct StrictStop: Error { var issue: ImportIssue }

    let writer: ArchiveWriter
    let strict: Bool
    let isCancelled: @Sendable () -> Bool
    let onProgress: (@Sendable (IngestProgress) -> Void)?
    var file = ""
    /// The export being read, to make attachment paths relative to its root.
    var roots: AttachmentRoots? = nil
    var itemsRead = 0
    var issues: [ImportIssue] = []
    var exports: [IngestedExport] = []
    var skippedFiles: [SkippedFile] = []
    private var lastReport = DispatchTime.now().uptimeNanoseconds

    init(
        writer: ArchiveWriter, strict: Bool, isCancelled: @escaping @Sendable () -> Bool,
        onProgress: (@Sendable (IngestProgress) -> Void)?
    ) {
        self.writer = writer
        self.strict = strict
        self.isCancelled = isCancelled
        self.onProgress = onProgress
    }

    func emit(_ record: ImportRecord) throws {
        switch record {
        case .chat(let c): try writer.add(c)
        case .member(let m): try writer.add(m)
        case .item(let i):
            itemsRead += 1
            if itemsRead & 1023 == 0, isCancelled() { throw Cancelled() }
            try writer.add(roots?.rooted(i) ?? i)
        }
    }

    func beginEntry(_ name: String) { roots?.entry = name }

    func report(_ issue: ImportIssue) throws {
        issues.append(issue)
        if strict { throw StrictStop(issue: issue) }
    }

    func progress(bytesRead: Int64, totalBytes: Int64?) {
        guard let onProgress else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastReport > 100_000_000 || (totalBytes.map { bytesRead >= $0 } ?? false) else { return }
        lastReport = now
        onProgress(
            IngestProgress(
                file: file, bytesRead: bytesRead, totalBytes: totalBytes, itemsRead: itemsRead, isIndexing: false))
    }
}
