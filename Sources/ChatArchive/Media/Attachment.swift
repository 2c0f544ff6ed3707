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
        return Attachment(name: found.name, contentType: type, size: stream.totalBytes, stream: stream)
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
