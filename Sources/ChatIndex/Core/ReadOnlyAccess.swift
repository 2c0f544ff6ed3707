/// How a read-only archive is read.
package enum ReadOnlyAccess: Sendable, Hashable {
    /// SQLite's read-only mode (`mode=ro`): a WAL reader that sees other programs' commits.
    case walReader
    /// SQLite's immutable mode (`immutable=1`): no locks, no `-wal` or `-shm` file, for a file
    /// nobody can write (read-only file, folder or disk, or a full disk).
    case immutable

    /// The access for an archive file: immutable only when no program can be writing it (no
    /// write-ahead log exists, and neither the file nor its folder can be written, so none can
    /// be created); otherwise a WAL reader, which must see what the log holds.
    package static func choose(walExists: Bool, fileWritable: Bool, folderWritable: Bool) -> ReadOnlyAccess {
        if walExists { return .walReader }
        return fileWritable && folderWritable ? .walReader : .immutable
    }
}
