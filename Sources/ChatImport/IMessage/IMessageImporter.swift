import ChatModel
import Foundation

/// Imports iMessage databases: `chat.db` from a Mac's `~/Library/Messages` (with its
/// `chat.db-wal`, and the `Attachments` folder beside it when copied) and `sms.db` from an
/// unencrypted iPhone backup.
///
/// The user's files are never opened for writing: each database is copied, with its `-wal`,
/// into a private temporary folder and read there, read-only but not immutable, so that the
/// messages still in the write-ahead log are read too.
package struct IMessageImporter: Sendable {
    /// The format's name as `--format` takes it.
    package static let formatName = "imessage"

    /// How the format is described in "Tried: …" errors.
    package static let formatDescription =
        "iMessage (chat.db or sms.db: a SQLite database with message, chat, handle and chat_message_join tables)"

    /// The name of `sms.db` in an iPhone backup (the SHA-1 of `HomeDomain-Library/SMS/sms.db`),
    /// in the backup's folder `3d`.
    static let backupDatabaseName = "3d0d7e5fb2ce288813306e4d4636395e047a3d28"

    /// The files SQLite keeps beside a database.
    static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// Makes an importer.
    package init() {}

    /// Reads the given databases of `container` (their side files, when listed, are skipped).
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        for entry in entries where !Self.isSideFile(entry) {
            try readDatabase(container, entry, into: sink)
        }
    }

    /// Whether an entry is a `-wal`, `-shm` or `-journal` file.
    static func isSideFile(_ name: String) -> Bool {
        sideFileSuffixes.contains { name.hasSuffix($0) }
    }

    private func readDatabase(_ container: any ExportContainer, _ name: String, into sink: any ImportSink) throws {
        let display = container.displayName(of: name)
        let head = try container.prefix(of: name, limit: SimplexImporter.sqliteMagic.count)
        guard head == SimplexImporter.sqliteMagic else {
            throw ImportError(
                "\(display) is not a SQLite database, so it cannot be read as iMessage: the sms.db of an encrypted "
                    + "iPhone backup is encrypted (make an unencrypted backup), and a damaged copy should be copied "
                    + "again from ~/Library/Messages/chat.db")
        }
        let temp = try PrivateTempFile()
        defer { temp.remove() }
        try copy(container, name, into: temp)
        if container.entryNames.contains(name + "-wal") {
            try copySideFile(container, name + "-wal", to: temp.path + "-wal")
        }
        let attachments = IMessageAttachments(databaseEntry: name, entries: container.entryNames)
        try IMessageDatabaseReader(path: temp.path, displayName: display, attachments: attachments).read(into: sink)
    }

    private func copy(_ container: any ExportContainer, _ name: String, into temp: PrivateTempFile) throws {
        let stream = try container.open(name)
        while true {
            let chunk = try stream.read(maxLength: 1 << 20)
            if chunk.isEmpty { break }
            try temp.write(chunk)
        }
        try temp.close()
    }

    /// Copies a `-wal` beside the private copy, readable by the owner only.
    private func copySideFile(_ container: any ExportContainer, _ name: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw ImportError("cannot copy \(container.displayName(of: name)) to a private temporary file")
        }
        defer { try? handle.close() }
        let stream = try container.open(name)
        while true {
            let chunk = try stream.read(maxLength: 1 << 20)
            if chunk.isEmpty { break }
            try handle.write(contentsOf: chunk)
        }
    }
}
