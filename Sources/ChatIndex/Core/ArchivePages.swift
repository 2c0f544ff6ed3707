import CChatPages
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checksum on every page of an archive file (<doc:PageChecksums>): SQLite reserves 8 bytes
/// at the end of each page, and the `chatpages` VFS of `CChatPages` writes a checksum there with
/// every page and verifies it whenever a page is read, from the file or from its write-ahead log.
/// A page that does not match is SQLite's corruption error, so it reaches the user as a damaged
/// archive, never as a wrong answer.
///
/// Every connection to an archive file opens through the VFS (``uri(_:_:)``); it is never made
/// the process's default, so an app's other databases are not touched. A file whose pages
/// reserve no checksum (an archive made before them) passes through unchanged.
///
/// The only Swift file that calls `CChatPages`.
package enum ArchivePages {
    /// The VFS's name, as `file:` URIs select it.
    package static let vfsName = "chatpages"

    /// The bytes each page reserves for its checksum.
    package static let reservedBytes = Int(CCHATPAGES_RESERVE)

    private static let registration: Int32 = cchatpages_register()

    /// Turns off SQLite's memory statistics for this process, which cost every SQLite allocation
    /// a process-wide mutex (<doc:WritePerformance>); true when SQLite took it. It must come
    /// before the process's first use of SQLite, so only a program's `main` calls it
    /// (`Archive.prepareProgram()`): a library leaves process-wide settings to its app.
    @discardableResult
    package static func turnOffMemoryStatistics() -> Bool { cchatpages_memory_statistics_off() == 0 }

    /// Registers the VFS (once per process); throws when SQLite refuses it.
    package static func register() throws {
        guard registration == 0 else {
            throw ArchiveError(.io, "cannot set up the page checksums (SQLite code \(registration))")
        }
    }

    /// `path` as an SQLite URI opening through the checksum VFS, with `parameters`
    /// (`mode=ro`, `immutable=1`) added.
    package static func uri(_ path: String, _ parameters: [String] = []) -> String {
        // An in-memory archive's helpers (an ingest's checkpointer) open no file.
        guard path != ":memory:" else { return path }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var escaped = ""
        for ch in absolute.unicodeScalars {
            switch ch {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(ch)
            }
        }
        return "file:" + escaped + "?" + (parameters + ["vfs=\(vfsName)"]).joined(separator: "&")
    }

    /// Makes the pages of the database on `db` reserve room for a checksum: at once when it has
    /// no table yet, else from its next `VACUUM`.
    package static func reserve(_ db: Database) throws {
        guard let handle = db.sqliteConnection else { throw ArchiveError("no SQLite connection") }
        guard cchatpages_set_reserve(UnsafeMutableRawPointer(handle), Int32(reservedBytes)) >= 0 else {
            throw ArchiveError(.io, "cannot reserve room for page checksums")
        }
    }

    /// Seals every whole page `db` writes while `body` runs, whatever the file's header says:
    /// the `VACUUM` that gives an archive its checksums may write pages before the page 1 that
    /// reserves their room.
    package static func sealingWrites<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard let handle = db.sqliteConnection else { throw ArchiveError("no SQLite connection") }
        let raw = UnsafeMutableRawPointer(handle)
        let rc = cchatpages_set_sealing(raw, 1)
        guard rc == 0 else { throw ArchiveError(.io, "cannot seal the archive's pages (SQLite code \(rc))") }
        defer { _ = cchatpages_set_sealing(raw, 0) }
        return try body()
    }

    /// Whether the archive file at `path` carries page checksums (its header reserves 8 bytes
    /// per page); nil when it cannot be read.
    package static func hasChecksums(_ path: String) -> Bool? {
        guard let (head, size) = readHead(path, 100), size >= 100,
            head.starts(with: Array("SQLite format 3\0".utf8))
        else { return nil }
        return Int(head[20]) == reservedBytes
    }

    /// The first `count` bytes of the file at `path` (zeros past its end) and its size; nil
    /// when it cannot be opened or read. Read through SQLite's own file layer, never with a
    /// descriptor of ours: closing one would drop every POSIX lock this process's connections
    /// hold on the file, and another program could then delete the log they write to.
    package static func readHead(_ path: String, _ count: Int) -> ([UInt8], Int64)? {
        var head = [UInt8](repeating: 0, count: count)
        let size = head.withUnsafeMutableBufferPointer { cchatpages_read_head(path, $0.baseAddress, Int32(count)) }
        return size < 0 ? nil : (head, size)
    }

    /// Whether readers map the pages of checksummed files (the default: verified at their first
    /// fetch in each read transaction) or read them into their caches (verified once per load);
    /// process-wide, for the bench and tests.
    package static func mapsPages(_ on: Bool) { cchatpages_set_mapping(on ? 1 : 0) }

    /// The pages whose checksum did not match, in this process so far.
    package static var mismatches: Int64 { cchatpages_mismatches() }

    /// Whether `page` (a whole page, its checksum last) holds a matching checksum.
    package static func verify(_ page: [UInt8]) -> Bool {
        page.withUnsafeBufferPointer { cchatpages_verify($0.baseAddress, Int64($0.count)) == 1 }
    }
}
