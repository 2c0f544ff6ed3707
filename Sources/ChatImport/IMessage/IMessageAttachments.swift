import ChatModel

/// Attachments of iMessage messages: name, size and content type from the `attachment` row,
/// and the file's path in the export when the export holds it.
///
/// `filename` is where the Mac or iPhone kept the file,
/// `~/Library/Messages/Attachments/ab/12/<GUID>/IMG_0001.HEIC` (iOS: `~/Library/SMS/…`). The
/// part from `Attachments/` on is looked for beside the database in the container (the
/// database sits in `~/Library/Messages`, its attachments in the `Attachments` folder beside
/// it); a file the container does not hold (not copied, offloaded to iCloud) keeps its name
/// and size only.
struct IMessageAttachments {
    /// The folder of the database entry in the container (`""` for its root).
    let base: String
    /// The container's entries under an `Attachments` folder.
    let entries: Set<String>

    init(databaseEntry: String, entries: [String]) {
        base = databaseEntry.split(separator: "/").dropLast().joined(separator: "/")
        self.entries = Set(entries.filter { $0.hasPrefix("Attachments/") || $0.contains("/Attachments/") })
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
