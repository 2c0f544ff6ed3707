import ChatModel
import Foundation

/// Where a Signal plaintext export keeps an attachment: `files/<hh>/<n>[.<ext>]` beside the
/// `signal-backup-*` folder, `n` being the hex SHA-256 of the raw `plaintextHash` bytes
/// followed by the raw `localKey` bytes, `hh` its first two digits, and `ext` the file name's
/// extension, else one derived from the content type. Attachments without a `localKey`, or
/// whose file the container does not hold, keep their name and size only.
struct SignalFileLocator {
    /// The folders (relative to the container, `""` for its root) where `files/` may be:
    /// beside the folder holding `main.jsonl`, then inside it.
    let bases: [String]
    /// Every entry of the container, to find which base holds a file.
    let entries: Set<String>

    init(mainEntry: String, entries: [String]) {
        let parts = mainEntry.split(separator: "/").dropLast()
        let folder = parts.joined(separator: "/")
        let parent = parts.dropLast().joined(separator: "/")
        bases = parts.isEmpty ? [""] : [parent, folder]
        self.entries = Set(entries.filter { $0.contains("files/") })
    }

    /// The file reference of a `FilePointer`.
    func file(_ pointer: JSONValue?) -> FileRef? {
        guard let pointer else { return nil }
        let locator = pointer["locatorInfo"]
        let contentType = pointer["contentType"]?.stringValue ?? ""
        var name = pointer["fileName"]?.stringValue ?? ""
        let ext = Self.fileExtension(name: name, contentType: contentType)
        if name.isEmpty { name = ext.isEmpty ? "attachment" : "attachment." + ext }
        let size = JSONField.int(locator?["size"])
        return FileRef(name: name, size: size, path: path(locator: locator, ext: ext))
    }

    private func path(locator: JSONValue?, ext: String) -> String? {
        guard let hash = locator?["plaintextHash"]?.stringValue.flatMap(SignalRecipients.bytes),
            let key = locator?["localKey"]?.stringValue.flatMap(SignalRecipients.bytes), !hash.isEmpty, !key.isEmpty
        else { return nil }
        let n = SHA256Digest.hex(hash + key)
        let relative = "files/" + n.prefix(2) + "/" + n + (ext.isEmpty ? "" : "." + ext)
        let candidates = bases.map { $0.isEmpty ? relative : $0 + "/" + relative }
        // A file missing from the container (an export without media, or main.jsonl given on
        // its own) has no path a viewer could open.
        return candidates.first(where: entries.contains)
    }

    /// The extension of `name`, else one from the content type (`image/jpeg` → `jpeg`,
    /// `text/x-signal-plain` → `txt`, `application/x-foo` → `foo`), lower-case ASCII only.
    static func fileExtension(name: String, contentType: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        if let dot = base.lastIndex(of: "."), dot != base.startIndex {
            let ext = base[base.index(after: dot)...]
            if !ext.isEmpty, ext.utf8.count <= 16, ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                return ext.lowercased()
            }
        }
        let type =
            contentType.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if type == "text/x-signal-plain" { return "txt" }
        guard let slash = type.firstIndex(of: "/") else { return "" }
        var sub = type[type.index(after: slash)...]
        if sub.hasPrefix("x-") { sub = sub.dropFirst(2) }
        guard !sub.isEmpty, sub.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return "" }
        return String(sub)
    }

    /// The content type an attachment gives its message.
    static func contentType(of attachment: JSONValue) -> ChatModel.ContentType {
        let flag = attachment["flag"]?.stringValue ?? ""
        if flag == "VOICE_MESSAGE" || flag == "1" { return .voice }
        if flag == "GIF" || flag == "3" { return .image }
        let type = attachment["pointer"]?["contentType"]?.stringValue?.lowercased() ?? ""
        if type.hasPrefix("image/") { return .image }
        if type.hasPrefix("video/") { return .video }
        return .file
    }
}
