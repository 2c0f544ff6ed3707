import ChatModel

/// Attachments of iMessage messages: name, size and content type from the `attachment` row,
/// and the file's path in the export when the export holds it.
///
/// `filename` is where the Mac or iPhone kept the file,
/// `~/Library/Messages/Attachments/ab/12/<GUID>/IMG_0001.HEIC` (iOS: `~/Library/SMS/…`). The
/// part from `Attachments/` on is looked for beside the database in the container (the
/// database sits in `~/Library/Messages`, its attachments in the `Attachments` folder beside
/// it). In an iPhone backup, whose database is `3d/3d0d7e5f…`, a file
/// `~/Library/SMS/Attachments/…` is stored as `<h2>/<sha1>` at the backup's root, `sha1` being
/// the SHA-1 of `MediaDomain-Library/SMS/Attachments/…` and `h2` its first two digits. A file
/// the container does not hold (not copied, offloaded to iCloud) keeps its name and size only.
struct IMessageAttachments {
    /// The folder of the database entry in the container (`""` for its root).
    let base: String
    /// The root of the iPhone backup holding the database, when it is one.
    let backupRoot: String?
    /// The container's entries.
    let entries: Set<String>

    init(databaseEntry: String, entries: [String]) {
        let parts = databaseEntry.split(separator: "/").map(String.init)
        base = parts.dropLast().joined(separator: "/")
        let isBackup = parts.suffix(2) == ["3d", IMessageImporter.backupDatabaseName]
        backupRoot = isBackup ? parts.dropLast(2).joined(separator: "/") : nil
        self.entries = Set(entries)
    }

    /// One attachment row's fields.
    struct Row {
        var filename: String?
        var transferName: String?
        var mimeType: String?
        var uti: String?
        var totalBytes: Int64?
        var isSticker: Bool
    }

    /// The file reference of an attachment.
    func file(_ row: Row) -> FileRef {
        let stored = row.filename ?? ""
        var name = row.transferName ?? ""
        if name.isEmpty { name = stored.split(separator: "/").last.map(String.init) ?? "" }
        if name.isEmpty { name = "attachment" }
        let size = row.totalBytes.flatMap { $0 > 0 ? $0 : nil }
        return FileRef(name: name, size: size, path: path(stored))
    }

    /// The container entry of a stored file name, when the container holds it.
    func path(_ stored: String) -> String? {
        if let backupRoot { return backupPath(stored, root: backupRoot) }
        let parts = stored.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let start = parts.lastIndex(of: "Attachments") else { return nil }
        let relative = parts[start...]
        guard relative.count > 1, !relative.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            return nil
        }
        let joined = relative.joined(separator: "/")
        let candidate = base.isEmpty ? joined : base + "/" + joined
        return entries.contains(candidate) ? candidate : nil
    }

    /// The hashed entry of a file in an iPhone backup, when the backup holds it.
    private func backupPath(_ stored: String, root: String) -> String? {
        var relative = Substring(stored)
        for prefix in ["~/", "/var/mobile/", "/private/var/mobile/"] where relative.hasPrefix(prefix) {
            relative = relative.dropFirst(prefix.count)
        }
        guard relative.hasPrefix("Library/") else { return nil }
        let hash = SHA1Digest.hex(Array(("MediaDomain-" + relative).utf8))
        let name = hash.prefix(2) + "/" + hash
        let candidate = root.isEmpty ? name : root + "/" + name
        return entries.contains(candidate) ? candidate : nil
    }

    /// The content type a message's first attachment gives it: voice for audio messages and
    /// `.caf` files, image for images and stickers, video, else file.
    static func contentType(_ row: Row, isAudioMessage: Bool) -> ContentType {
        let mime = (row.mimeType ?? "").lowercased()
        let name = (row.transferName ?? row.filename ?? "").lowercased()
        if isAudioMessage || name.hasSuffix(".caf") || mime == "audio/x-caf" { return .voice }
        if row.isSticker || mime.hasPrefix("image/") { return .image }
        if mime.hasPrefix("video/") { return .video }
        let uti = (row.uti ?? "").lowercased()
        if uti == "public.jpeg" || uti == "public.png" || uti == "public.heic" { return .image }
        if uti == "com.apple.quicktime-movie" || uti == "public.mpeg-4" { return .video }
        return .file
    }
}
