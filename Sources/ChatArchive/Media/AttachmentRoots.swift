import ChatImport
import ChatModel
import Foundation

/// Attachment paths of one export made relative to the export's root.
///
/// A folder holding several exports of one format (two Telegram exports side by side, two
/// JSON Lines files with their media) is read as one export, while each attachment path is
/// relative to its own sub-export's folder: such a path is found under exactly one sub-folder
/// and is rewritten to start with it. Paths found at the root (the usual single export, or
/// formats whose paths are root-relative already) stay as they are; a path found under several
/// sub-folders takes the folder of the entry being read (when its importer says), else the one
/// the same chat's attachments came from, else it stays (no file rather than the wrong one).
final class AttachmentRoots {
    private let container: any ExportContainer
    private lazy var entries: Set<String> = Set(container.entryNames)
    /// For a path below some folder of the export, the folders it lies below (`a/b/p.png` is
    /// `p.png` under `a/b` and `b/p.png` under `a`).
    private lazy var folders: [String: [String]] = Self.folders(of: container.entryNames)
    /// The sub-folder each chat's attachments were found under.
    private var chatFolders: [String: String] = [:]
    /// The entry being read, when its importer says (its folder is the first choice).
    var entry: String? = nil

    init(container: any ExportContainer) { self.container = container }

    /// For each path below some folder of `entries` (paths relative to an export's root), the
    /// folders it lies below.
    static func folders(of entries: [String]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for entry in entries {
            var i = entry.startIndex
            while let slash = entry[i...].firstIndex(of: "/") {
                out[String(entry[entry.index(after: slash)...]), default: []].append(String(entry[..<slash]))
                i = entry.index(after: slash)
            }
        }
        return out
    }

    /// `item` with its attachment paths relative to the export's root.
    func rooted(_ item: Item) -> Item {
        guard item.file != nil || !item.moreFiles.isEmpty else { return item }
        var out = item
        if let f = item.file { out.file = rooted(f, chat: item.chatSourceId) }
        out.moreFiles = item.moreFiles.map { rooted($0, chat: item.chatSourceId) }
        return out
    }

    private func rooted(_ file: FileRef, chat: String) -> FileRef {
        guard let path = file.path, AttachmentPath.safeRelative(path) != nil else { return file }
        let decoded = path.removingPercentEncoding ?? path
        guard !entries.contains(path), !entries.contains(decoded) else { return file }
        let key = folders[path] != nil ? path : decoded
        guard let candidates = folders[key], !candidates.isEmpty else { return file }
        let folder: String
        let entryFolder = entry.flatMap { e in e.lastIndex(of: "/").map { String(e[..<$0]) } }
        if let entryFolder,
            let own = candidates.filter({ entryFolder == $0 || entryFolder.hasPrefix($0 + "/") })
                .max(by: { $0.count < $1.count })
        {
            folder = own
        } else if candidates.count == 1 {
            folder = candidates[0]
        } else if let known = chatFolders[chat], candidates.contains(known) {
            folder = known
        } else {
            return file
        }
        chatFolders[chat] = folder
        var out = file
        out.path = folder + "/" + key
        return out
    }
}
