import ChatModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Imports SimpleX Chat: an "Export database" zip (plaintext `simplex_v1_chat.db`)
/// or app/CLI chat JSON: <doc:SimplexFormat>.
package struct SimplexImporter: Sendable {
    /// `simplex`.
    package static let formatName = "simplex"
    /// The name SimpleX shows for the notes chat.
    package static let notesName = "Private notes"
    /// The chat database entry of an export zip.
    package static let chatDatabaseName = "simplex_v1_chat.db"
    /// The agent database, which holds keys: never read.
    package static let agentDatabaseName = "simplex_v1_agent.db"

    /// Makes an importer.
    package init() {}

    /// The message for an encrypted chat database (<doc:SimplexFormat>), naming the export.
    package static func encryptedMessage(_ path: String) -> String {
        "\(path): simplex_v1_chat.db is encrypted with a passphrase. Only unencrypted SimpleX exports can be imported; "
            + "export an unencrypted database or decrypt it, then retry."
    }

    /// Reads the given entries of a container: chat databases and chat JSON files.
    package func read(_ container: any ExportContainer, entries: [String], into sink: any ImportSink) throws {
        for name in entries {
            let base = name.split(separator: "/").last.map(String.init) ?? name
            if base == SimplexImporter.agentDatabaseName { continue }
            let head = try container.prefix(of: name, limit: 16)
            if base == SimplexImporter.chatDatabaseName || head == SimplexImporter.sqliteMagic {
                try readDatabase(container, name, into: sink)
            } else {
                try readJSON(container, name, into: sink)
            }
        }
    }

    static let sqliteMagic: [UInt8] = Array("SQLite format 3\0".utf8)

    private func readDatabase(_ container: any ExportContainer, _ name: String, into sink: any ImportSink) throws {
        let stream = try container.open(name)
        var first = try stream.read(maxLength: 16)
        while first.count < 16 {
            let more = try stream.read(maxLength: 16 - first.count)
            if more.isEmpty { break }
            first += more
        }
        guard first == SimplexImporter.sqliteMagic else {
            throw ImportError(SimplexImporter.encryptedMessage(container.path))
        }
        let temp = try PrivateTempFile()
        defer { temp.remove() }
        try temp.write(first)
        while true {
            let chunk = try stream.read(maxLength: 1 << 20)
            if chunk.isEmpty { break }
            try temp.write(chunk)
        }
        try temp.close()
        try SimplexDatabaseReader(path: temp.path, displayName: container.displayName(of: name)).read(into: sink)
    }

    private func readJSON(_ container: any ExportContainer, _ name: String, into sink: any ImportSink) throws {
        let display = container.displayName(of: name)
        let bytes = try container.readAll(name)
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            try sink.report(.fatal(SourceLocation(file: display, byteOffset: Int64(error.offset)), error.message))
            return
        }
        try SimplexChatJSONReader(displayName: display).read(root, into: sink)
    }
}

/// A file only the owner can read, in a private temporary folder removed afterwards.
final class PrivateTempFile {
    let directory: String
    let path: String
    private var fd: Int32

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/chat-archive-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buf in buf.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else {
            throw ImportError("cannot create a private temporary folder: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        path = directory + "/chat.db"
        fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            rmdir(directory)
            throw ImportError("cannot create a private temporary file: \(String(cString: strerror(errno)))")
        }
    }

    func write(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { buf in
                Glibc.write(fd, buf.baseAddress.map { $0 + done }, bytes.count - done)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw ImportError("cannot write the temporary database: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    func close() throws {
        if fd >= 0 {
            let rc = Glibc.close(fd)
            fd = -1
            if rc != 0 { throw ImportError("cannot write the temporary database: \(String(cString: strerror(errno)))") }
        }
    }

    func remove() {
        if fd >= 0 {
            _ = Glibc.close(fd)
            fd = -1
        }
        unlink(path)
        // SQLite may leave side files next to the copy.
        for suffix in ["-journal", "-wal", "-shm"] { unlink(path + suffix) }
        rmdir(directory)
    }

    deinit { remove() }
}
