import ChatArchive
import Foundation

/// Opens the archive at `path` for the server, which only reads: a missing file is an error,
/// never a new archive.
///
/// MERGE: switch to `Archive(path: path, mode: .readOnly)` once that mode exists; this is the
/// only place that opens the archive for `serve`.
package func openArchiveForReading(path: String) throws -> Archive {
    guard FileManager.default.fileExists(atPath: path) else {
        throw ArchiveError("no archive at \(path); run `chat-archive ingest` first")
    }
    return try Archive(path: path)
}
