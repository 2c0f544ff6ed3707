import ChatImport
import ChatIndex
import ChatModel
import Foundation

/// An item's attachment found in the export it came from, ready to be read.
package struct Attachment {
    /// The file name the export gave it.
    package var name: String
    /// The media type, from the name's extension (`application/octet-stream` when unknown).
    package var contentType: String
    /// The number of bytes, when known.
    package var size: Int64?
    /// The bytes, read sequentially.
    package var stream: any ByteStream
    /// The file itself, when the export is a folder (`nil` inside a zip).
    package var fileURL: URL? = nil

    /// Images, videos and audio: shown in the page; everything else is downloaded.
    package var isInline: Bool {
        contentType.hasPrefix("image/") || contentType.hasPrefix("video/") || contentType.hasPrefix("audio/")
    }
}

extension Archive {
    /// The `index`-th attachment of the item (0: the first), read from the folder or zip of the
    /// export it came from; `nil` when the item has no such attachment, the export did not hold
    /// the file, the file has moved since, or its recorded path leads out of the export.
    package func attachment(item: Int64, index: Int) async throws -> Attachment? {
        guard let found = try await ExportRecords.file(item: item, index: index, in: database) else { return nil }
        guard let relative = AttachmentPath.safeRelative(found.path) else { return nil }
        let type = MediaType.of(found.name.isEmpty ? relative : found.name)
        if found.isZip {
            guard let zip = try? ZipContainer(path: found.root), zip.entryNames.contains(relative),
                let stream = try? zip.open(relative)
            else { return nil }
            return Attachment(name: found.name, contentType: type, size: zip.size(of: relative), stream: stream)
        }
        guard let file = AttachmentPath.resolve(relative, inFolder: found.root),
            let stream = try? FileByteStream(path: file)
        else {
            return nil
        }
        return Attachment(
            name: found.name, contentType: type, size: stream.totalBytes, stream: stream,
            fileURL: URL(fileURLWithPath: file))
    }

    /// What an item's `index`-th attachment is (0: the first, `ArchivedItem/file`; then
    /// `ArchivedItem/moreFiles`) and where it lies, found in the folder or zip of the export it
    /// came from: `nil` when the item has no such attachment, the export did not hold the file,
    /// the file has moved since, or its recorded path leads out of the export. The archive
    /// finds the file from the item alone: no caller names a path.
    public func attachmentInfo(item: Int64, index: Int = 0) async throws -> AttachmentInfo? {
        try await ArchiveError.mapping(path: database.path) {
            try await attachment(item: item, index: index).map(AttachmentInfo.init)
        }
    }

    /// The bytes of an item's `index`-th attachment (as ``attachmentInfo(item:index:)`` finds it),
    /// or `nil` when there is none; reads the whole file into memory, so check
    /// `AttachmentInfo/size` first, or read `AttachmentInfo/fileURL` where there is one.
    public func attachmentData(item: Int64, index: Int = 0) async throws -> Data? {
        guard
            let found = try await ArchiveError.mapping(
                path: database.path, { try await attachment(item: item, index: index) })
        else { return nil }
        var data = Data()
        // A size recorded in a zip is not trusted beyond a first reservation.
        if let size = found.size, size > 0 { data.reserveCapacity(Int(min(size, 1 << 26))) }
        do {
            while true {
                let chunk = try found.stream.read(maxLength: 1 << 20)
                if chunk.isEmpty { break }
                data.append(contentsOf: chunk)
            }
        } catch {
            throw ArchiveError(.io, "cannot read the attachment of item \(item): \(error)")
        }
        return data
    }
}

/// An item's attachment as its export holds it: name, media type, size, and the file itself
/// when the export is a folder.
public struct AttachmentInfo: Sendable, Hashable {
    /// The file name the export gave it.
    public var name: String
    /// The media type, from the name's extension (`application/octet-stream` when unknown).
    public var contentType: String
    /// The number of bytes, when known.
    public var size: Int64?
    /// The file in the export's folder, to hand to a player or a viewer; `nil` when it lies in a
    /// zip (read it with `Archive/attachmentData(item:index:)`).
    public var fileURL: URL?

    init(_ attachment: Attachment) {
        name = attachment.name
        contentType = attachment.contentType
        size = attachment.size
        fileURL = attachment.fileURL
    }
}

/// Keeps attachment paths inside their export.
package enum AttachmentPath {
    /// The path as `/`-separated components relative to the export root, or `nil` when it is
    /// absolute, a URL, empty, or has `.`/`..` components before or after percent-decoding.
    package static func safeRelative(_ path: String) -> String? {
        guard !path.isEmpty, !path.contains("\0"), !path.contains("\\"), !path.hasPrefix("/"), !path.contains("://")
        else {
            return nil
        }
        let decoded = path.removingPercentEncoding ?? path
        for candidate in [path, decoded] {
            if candidate.hasPrefix("/") || candidate.contains("\0") || candidate.contains("\\") { return nil }
            let parts = candidate.split(separator: "/", omittingEmptySubsequences: false)
            if parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) { return nil }
        }
        return path
    }

    /// The real path of `relative` inside `root`, symbolic links resolved, or `nil` when it is
    /// missing, not a regular file, or lies outside `root`.
    package static func resolve(_ relative: String, inFolder root: String) -> String? {
        let realRoot = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        let target = URL(fileURLWithPath: realRoot + "/" + relative).standardizedFileURL.resolvingSymlinksInPath().path
        guard target.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") else { return nil }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isDir), !isDir.boolValue else { return nil }
        return target
    }
}

/// Media types by file extension, for the attachments an export carries.
package enum MediaType {
    package static func of(_ name: String) -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        switch ext {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "heic": return "image/heic"
        case "bmp": return "image/bmp"
        case "mp4", "m4v": return "video/mp4"
        case "mov": return "video/quicktime"
        case "webm": return "video/webm"
        case "mkv": return "video/x-matroska"
        case "ogg", "oga", "opus": return "audio/ogg"
        case "mp3": return "audio/mpeg"
        case "m4a", "aac": return "audio/mp4"
        case "wav": return "audio/wav"
        case "pdf": return "application/pdf"
        case "txt": return "text/plain; charset=utf-8"
        case "zip": return "application/zip"
        // SVG and HTML can carry script: never shown, always downloaded as bytes.
        default: return "application/octet-stream"
        }
    }
}
