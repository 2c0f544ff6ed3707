/// How an archive is opened.
public enum ArchiveOpenMode: Sendable, Hashable {
    /// Opens the archive, creating it (mode 0600, its folders 0700) when missing.
    case create
    /// Opens an existing archive to read and write it; a missing one is ``ArchiveError/Code/notFound``.
    case readWrite
    /// Opens an existing archive only to read it: never creates, never writes, works on a
    /// read-only file, folder or disk.
    case readOnly
}
