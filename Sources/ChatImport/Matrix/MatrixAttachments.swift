import ChatModel

/// Finds the file Element's exporter wrote for a media event.
///
/// The JSON never names the file. The exporter writes `<dir>/<body minus extension>-<date>
/// -<time><extension>` beside `export.json`: `images`, `videos`, `audio` or `files` by
/// msgtype (`stickers` for stickers), the extension taken from `body` (`.png` for stickers,
/// `.ogg` for voice notes), the date and time in the exporter's locale and zone with `/` and
/// `:` written `-`. A file is matched by folder, `<stem>-` prefix and extension; among several,
/// one whose name holds the event's minutes and seconds (`-MM-SS`, the same in nearly every
/// zone) is preferred, then the first in name order not taken yet.
struct MatrixAttachments {
    /// The folder of `export.json` inside the container (`""` at its root).
    let root: String
    /// Media folder name → the entries in it (paths relative to the container), in name order.
    private var folders: [String: [String]] = [:]
    private var taken: Set<String> = []

    static let folderNames = ["images", "videos", "audio", "stickers", "files"]

    init(container: any ExportContainer, exportEntry: String) {
        let parts = exportEntry.split(separator: "/", omittingEmptySubsequences: false)
        root = parts.dropLast().joined(separator: "/")
        let prefix = root.isEmpty ? "" : root + "/"
        for name in container.entryNames where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let slash = rest.firstIndex(of: "/") else { continue }
            let folder = String(rest[..<slash])
            if Self.folderNames.contains(folder) { folders[folder, default: []].append(name) }
        }
    }

    /// Whether the export has any media folder (a zip or folder exported with attachments).
    var hasMedia: Bool { !folders.isEmpty }

    /// The entry written for a media event, or nil when the export does not hold it.
    mutating func match(folder: String, body: String, forcedExtension: String?, timestamp: Timestamp?) -> String? {
        guard let entries = folders[folder] else { return nil }
        var (stem, ext) = Self.split(body)
        if let forcedExtension { ext = forcedExtension }
        let head = (root.isEmpty ? "" : root + "/") + folder + "/" + stem + "-"
        let headBytes = Array(head.utf8)
        let extBytes = Array(ext.utf8)
        // Compared as bytes: `hasPrefix` compares characters, which may straddle the `-`.
        let candidates = entries.filter {
            let b = Array($0.utf8)
            return b.count > headBytes.count + extBytes.count && b.starts(with: headBytes)
                && b.suffix(extBytes.count).elementsEqual(extBytes)
        }
        guard !candidates.isEmpty else { return nil }
        var best: String?
        if let timestamp {
            let c = timestamp.components
            let clock = "-" + Self.pad(c.minute) + "-" + Self.pad(c.second)
            best = candidates.first {
                !taken.contains($0) && Self.middle(of: $0, head: headBytes.count, ext: extBytes.count).contains(clock)
            }
        }
        if best == nil { best = candidates.first { !taken.contains($0) } }
        if let best { taken.insert(best) }
        return best
    }

    /// `body` split as the exporter splits it: at its last `.` (the extension keeps the dot).
    static func split(_ body: String) -> (stem: String, ext: String) {
        guard let dot = body.lastIndex(of: ".") else { return (body, "") }
        return (String(body[..<dot]), String(body[dot...]))
    }

    private static func middle(of name: String, head: Int, ext: Int) -> String {
        let b = Array(name.utf8)
        return String(decoding: b[head..<(b.count - ext)], as: UTF8.self)
    }

    private static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
}
