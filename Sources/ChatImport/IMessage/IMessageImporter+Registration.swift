import Foundation
import GRDB

extension IMessageImporter: RegisteredImporter {
    /// The tables whose names identify an iMessage database.
    static let identifyingTables: Set<String> = ["message", "chat", "handle", "chat_message_join"]

    /// The iMessage databases of `container` (SQLite files whose schema has `message`, `chat`,
    /// `handle` and `chat_message_join`) and their `-wal`/`-shm` files, sorted.
    ///
    /// A database on disk is asked for its tables through an immutable, read-only connection, which
    /// neither locks nor writes the file. Inside a zip, the table definitions are looked for in the
    /// entry's first `schemaScanLimit` bytes (SQLite scatters its schema over the file's pages),
    /// and a SQLite entry named as the Messages app names its database is taken as one.
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        var found: [String] = []
        let names = Set(container.entryNames)
        // An iPhone backup holds far more files than are sniffed: its sms.db is looked up by name.
        let backupDatabases = container.entryNames.filter {
            $0 == "3d/" + backupDatabaseName || $0.hasSuffix("/3d/" + backupDatabaseName)
        }
        var candidates = Sniff.candidates(container)
        candidates += backupDatabases.filter { !candidates.contains($0) }
        for name in candidates where !isSideFile(name) {
            guard Sniff.prefix(container, name).starts(with: SimplexImporter.sqliteMagic),
                hasMessagesSchema(container, name)
            else { continue }
            found.append(name)
            found += sideFileSuffixes.map { name + $0 }.filter(names.contains)
        }
        if found.isEmpty, let manifest = encryptedBackupManifest(container) {
            throw ImportError(
                "\(container.displayName(of: manifest)): this iPhone backup is encrypted, so its messages cannot be "
                    + "read: make an unencrypted backup (Finder or iTunes: uncheck “Encrypt local backup”), then import it"
            )
        }
        return found.sorted()
    }

    /// The `Manifest.db` of an encrypted iPhone backup in `container` (a `Manifest.db` that is
    /// not SQLite, beside a `Manifest.plist`).
    static func encryptedBackupManifest(_ container: any ExportContainer) -> String? {
        let names = Set(container.entryNames)
        return container.entryNames.first { name in
            guard Sniff.baseName(name) == "Manifest.db" else { return false }
            let plist = String(name.dropLast("Manifest.db".count)) + "Manifest.plist"
            let head = (try? container.prefix(of: name, limit: SimplexImporter.sqliteMagic.count)) ?? []
            return names.contains(plist) && !head.isEmpty && head != SimplexImporter.sqliteMagic
        }
    }

    private static func hasMessagesSchema(_ container: any ExportContainer, _ name: String) -> Bool {
        let base = (container as? SniffingContainer)?.base ?? container
        if let folder = base as? FolderContainer, let tables = tables(atPath: folder.filePath(of: name)) {
            return identifyingTables.isSubset(of: tables)
        }
        if knownNames.contains(Sniff.baseName(name)) { return true }
        return definesTables((try? container.prefix(of: name, limit: schemaScanLimit)) ?? [])
    }

    /// The names the Messages app gives its database: `chat.db` on a Mac, `sms.db` on an
    /// iPhone, and its hashed name in an iPhone backup.
    static let knownNames: Set<String> = ["chat.db", "sms.db", backupDatabaseName]
    /// How much of a zipped database is searched for the table definitions.
    static let schemaScanLimit = 4 << 20

    /// The table names of the database at `path`, or `nil` when it cannot be opened.
    static func tables(atPath path: String) -> Set<String>? {
        var config = Configuration()
        config.readonly = true
        config.label = "imessage-sniff"
        guard let queue = try? DatabaseQueue(path: "file:\(uriPath(path))?immutable=1", configuration: config) else {
            return nil
        }
        let names = try? queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        return names.map { Set($0.map { $0.lowercased() }) }
    }

    /// Whether a database's bytes hold the definitions of the identifying tables.
    static func definesTables(_ prefix: [UInt8]) -> Bool {
        let text = String(decoding: prefix, as: UTF8.self)
        return identifyingTables.allSatisfy {
            text.contains("CREATE TABLE \($0) (") || text.contains("CREATE TABLE \($0)(")
        }
    }

    /// `path` percent-encoded for a `file:` URI.
    private static func uriPath(_ path: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-_.~")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
