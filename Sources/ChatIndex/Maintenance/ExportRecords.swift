import ChatModel
import Foundation
import GRDB

/// The archive's record of where its items came from: the exports read (`export`: a folder or
/// a zip, so that attachments can be read back later) and each ingest's sources
/// (`ingestSource`: what `stats` lists).
package enum ExportRecords {
    /// The id of the export at `root` (a folder, or a zip file with `isZip`), recorded when new.
    package static func export(root: String, isZip: Bool, in database: ArchiveDatabase) throws -> Int64? {
        try database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO export(root, isZip) VALUES (?, ?) ON CONFLICT DO NOTHING", arguments: [root, isZip])
            return try Int64.fetchOne(
                db, sql: "SELECT id FROM export WHERE root = ? AND isZip = ?", arguments: [root, isZip])
        }
    }

    /// The recorded exports: id, root (a folder, or a zip file) and whether it is a zip.
    package static func exports(in database: ArchiveDatabase) throws -> [(id: Int64, root: String, isZip: Bool)] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT id, root, isZip FROM export ORDER BY id").map {
                (id: $0[0], root: $0[1], isZip: $0[2])
            }
        }
    }

    /// The items recorded as coming from the export `id`, each with its chat and the path and
    /// size of its first file that has a path.
    package static func items(ofExport id: Int64, in database: ArchiveDatabase) throws -> [(
        item: Int64, chat: Int64, path: String, size: Int64?
    )] {
        try database.writer.read { db in
            var out: [(item: Int64, chat: Int64, path: String, size: Int64?)] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT item.id, item.chatId, item.filePath, item.fileSize, item.moreFiles
                    FROM itemExport JOIN item ON item.id = itemExport.itemId WHERE itemExport.exportId = ?
                    """, arguments: [id])
            while let r = try rows.next() {
                if let path: String = r[2] {
                    out.append((r[0], r[1], path, r[3]))
                } else if let more: String = r[4], let list = try? JSONParser.parse(Array(more.utf8)).arrayValue,
                    let file = list.first(where: { $0["path"]?.stringValue != nil }),
                    let path = file["path"]?.stringValue
                {
                    out.append((r[0], r[1], path, file["size"]?.numberValue.map { Int64($0) }))
                }
            }
            return out
        }
    }

    /// Records that these items' attachments lie in the export `id`, in one transaction.
    package static func move(items: [Int64], toExport id: Int64, in database: ArchiveDatabase) throws {
        try database.writer.write { db in
            let update = try db.makeStatement(sql: "UPDATE itemExport SET exportId = ? WHERE itemId = ?")
            for item in items { try update.execute(arguments: [id, item]) }
        }
    }

    /// One ingest's source: a path read, its format, and what the ingest did.
    package struct Source: Sendable {
        package var path: String
        package var format: String
        package var itemsAdded: Int
        package var itemsUpdated: Int
        package var itemsSkipped: Int

        package init(path: String, format: String, itemsAdded: Int, itemsUpdated: Int, itemsSkipped: Int) {
            self.path = path
            self.format = format
            self.itemsAdded = itemsAdded
            self.itemsUpdated = itemsUpdated
            self.itemsSkipped = itemsSkipped
        }
    }

    /// Records an ingest's sources, in one transaction, as ingested now.
    package static func recordIngest(_ sources: [Source], in database: ArchiveDatabase) throws {
        try database.writer.write { db in
            for s in sources {
                try db.execute(
                    sql:
                        "INSERT INTO ingestSource(path, format, ingestedAt, itemsAdded, itemsUpdated, itemsSkipped) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        s.path, s.format, Int64(Date().timeIntervalSince1970 * 1000), s.itemsAdded, s.itemsUpdated,
                        s.itemsSkipped,
                    ])
            }
        }
    }

    /// The past ingests' sources, oldest first: path, format, when (ms since 1970).
    static func ingests(_ db: Database) throws -> [(path: String, format: String, at: Int64)] {
        try Row.fetchAll(db, sql: "SELECT path, format, ingestedAt FROM ingestSource ORDER BY id").map {
            (path: $0["path"] as String, format: $0["format"] as String, at: $0["ingestedAt"] as Int64)
        }
    }

    /// One of an item's files as its export recorded it.
    package struct StoredFile: Sendable {
        /// The file name the export gave it.
        package var name: String
        /// The number of bytes, when known.
        package var size: Int64?
        /// Its path inside the export (unchecked: see `AttachmentPath`).
        package var path: String
        /// The export's folder, or its zip file.
        package var root: String
        /// Whether `root` is a zip file.
        package var isZip: Bool
    }

    /// The `index`-th file of the item (0: the first) with the export it lies in; `nil` when the
    /// item has no such file, no recorded path for it, or no recorded export.
    package static func file(item: Int64, index: Int, in database: ArchiveDatabase) async throws -> StoredFile? {
        guard index >= 0 else { return nil }
        return try await database.writer.read { db -> StoredFile? in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT item.fileName, item.fileSize, item.filePath, item.moreFiles, export.root, export.isZip
                        FROM item JOIN itemExport ON itemExport.itemId = item.id JOIN export ON export.id = itemExport.exportId
                        WHERE item.id = ?
                        """, arguments: [item])
            else { return nil }
            var files: [(name: String, size: Int64?, path: String?)] = []
            if let name: String = row[0] { files.append((name, row[1], row[2])) }
            if let more: String = row[3], let v = try? JSONParser.parse(Array(more.utf8)), let array = v.arrayValue {
                for f in array {
                    guard let name = f["name"]?.stringValue else { continue }
                    files.append((name, f["size"]?.numberValue.map { Int64($0) }, f["path"]?.stringValue))
                }
            }
            guard index < files.count, let path = files[index].path else { return nil }
            return StoredFile(name: files[index].name, size: files[index].size, path: path, root: row[4], isZip: row[5])
        }
    }
}
