import ChatImport
import ChatIndex
import Foundation

/// What ``Archive/repairAttachmentRoots()`` did: items whose attachments were recorded against a
/// folder of several exports, now recorded against the export inside it that holds their files.
public struct AttachmentRootRepair: Sendable, Hashable {
    /// Items moved from a folder to one export inside it.
    public struct Move: Sendable, Hashable {
        /// The folder the items were recorded against (the path an ingest was given).
        public var from: String
        /// The export folder inside it that holds their files.
        public var to: String
        /// How many items.
        public var items: Int
    }

    /// The moves, by folder and export path.
    public var moves: [Move] = []
    /// Items of such a folder whose file lies in no sub-folder of it, or in several that nothing
    /// tells apart: left as they were.
    public var itemsLeft = 0

    /// Nothing moved, nothing left.
    public init() {}

    /// How many items were moved in all.
    public var itemsMoved: Int { moves.reduce(0) { $0 + $1.items } }
}

extension Archive {
    /// Heals archives made by an ingest of a folder of exports before each export in it was
    /// recorded on its own: the archive recorded the folder as the items' export while their
    /// attachment paths are relative to their own export inside it, so none was found. Each item
    /// whose file is not where its record says is recorded against the sub-folder that holds it
    /// (where the next ingest of the folder would find it): the one sub-folder holding the path
    /// in a file of the size the export gave (when it gave one); among several, the one the
    /// chat's other files were found in; else it is left.
    ///
    /// Stored items are not changed, only the record of where their files lie. Folders that are
    /// gone, zips and items whose files are found are left as they are.
    ///
    /// - Complexity: reads the items recorded against each folder export; lists the files of a
    ///   folder only when one of its items' files is not found.
    public func repairAttachmentRoots() async throws -> AttachmentRootRepair {
        let database = self.database
        return try await Archive.offPool(path: database.path, doing: "repair") { _ in
            try Self.repairAttachmentRoots(database)
        }
    }

    static func repairAttachmentRoots(_ database: ArchiveDatabase) throws -> AttachmentRootRepair {
        var report = AttachmentRootRepair()
        for export in try ExportRecords.exports(in: database) where !export.isZip {
            let lost = try ExportRecords.items(ofExport: export.id, in: database).filter {
                AttachmentPath.safeRelative($0.path) != nil
                    && AttachmentPath.resolve($0.path, inFolder: export.root) == nil
            }
            guard !lost.isEmpty else { continue }
            guard let listing = try? FolderContainer(path: export.root), listing.isFolder else {
                report.itemsLeft += lost.count
                continue
            }
            let folders = AttachmentRoots.folders(of: listing.entryNames)
            var moved: [String: [Int64]] = [:]
            var chatFolder: [Int64: String] = [:]
            var undecided: [(item: Int64, chat: Int64, folders: [String])] = []
            for item in lost {
                var candidates = folders[item.path] ?? folders[item.path.removingPercentEncoding ?? item.path] ?? []
                if let size = item.size, size > 0 {
                    // A file of another size is another export's file of the same name: no file
                    // rather than the wrong one.
                    let key = folders[item.path] != nil ? item.path : item.path.removingPercentEncoding ?? item.path
                    candidates = candidates.filter { Self.size(of: export.root + "/" + $0 + "/" + key) == size }
                }
                if candidates.count == 1 {
                    moved[candidates[0], default: []].append(item.item)
                    chatFolder[item.chat] = candidates[0]
                } else if candidates.isEmpty {
                    report.itemsLeft += 1
                } else {
                    undecided.append((item.item, item.chat, candidates))
                }
            }
            for u in undecided {
                if let folder = chatFolder[u.chat], u.folders.contains(folder) {
                    moved[folder, default: []].append(u.item)
                } else {
                    report.itemsLeft += 1
                }
            }
            for (folder, items) in moved.sorted(by: { $0.key < $1.key }) {
                let path = export.root + "/" + folder
                guard let id = try IngestPipeline.recordExport(path, database: database) else {
                    report.itemsLeft += items.count
                    continue
                }
                try ExportRecords.move(items: items, toExport: id, in: database)
                report.moves.append(.init(from: export.root, to: path, items: items.count))
            }
        }
        return report
    }

    /// The size of the file at `path`, when there is one.
    private static func size(of path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }
}
