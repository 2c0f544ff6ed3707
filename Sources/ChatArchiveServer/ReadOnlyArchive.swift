import ChatArchive
import Foundation

/// Opens the archive at `path` for the server, which only reads: never created, never written
/// (read-only media included), and a missing file is an error.
package func openArchiveForReading(path: String) throws -> Archive {
    try Archive(path: path, mode: .readOnly)
}
