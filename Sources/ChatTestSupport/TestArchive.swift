import ChatArchive
import ChatIndex
import Foundation
import GRDB

/// Helpers for tests: temporary archives built with the real migrations and tokenizer.
package enum TestArchive {
    /// A fresh path in a private temporary folder, removed when the test process exits
    /// (see ``TestTemporary``).
    package static func temporaryPath(_ name: String = "archive.sqlite") -> String {
        TestTemporary.folder("archive") + "/" + name
    }

    /// Writes `text` to a temporary file and returns its path.
    package static func writeFile(_ text: String, name: String = "export.jsonl") throws -> String {
        let path = temporaryPath(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A new archive with `jsonl` ingested; with `millisecondIds`, one whose ids and index of
    /// items by time are those of formats 12 to 21 (an id a millisecond, the index with the id).
    package static func make(jsonl: String, millisecondIds: Bool = false) throws -> (Archive, IngestReport) {
        let archive = try Archive(path: temporaryPath())
        if millisecondIds { try useMillisecondIds(archive) }
        let report = try archive.ingestSync([try writeFile(jsonl)])
        return (archive, report)
    }

    /// Turns a new, empty archive into one that numbers its items as formats 12 to 21 did.
    package static func useMillisecondIds(_ archive: Archive) throws {
        try archive.database.writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM meta WHERE key = 'idSlotMilliseconds';
                    DROP INDEX item_chat_ts; CREATE INDEX item_chat_ts ON item(chatId, ts, id);
                    """)
        }
    }

    /// A GRDB queue on an archive file that opens it as the library does, through the page
    /// checksums' VFS: a test that changes an archive behind the library's back must write
    /// pages whose checksums match, or the archive reads as damaged afterwards.
    package static func rawQueue(_ path: String, configuration: Configuration = Configuration()) throws
        -> DatabaseQueue
    {
        try ArchivePages.register()
        return try DatabaseQueue(path: ArchivePages.uri(path), configuration: configuration)
    }

    /// The repository's `Corpus/` folder.
    package static var corpusPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Corpus").path
    }

    /// The repository root.
    package static var packagePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}

/// JSON Lines builders for test fixtures.
package enum Lines {
    /// A `chat` record line with the given fields.
    package static func chat(
        _ id: String, type: String = "group", name: String? = nil, fullName: String = "", alias: String = "",
        favorite: Bool = false, notifications: String = "all", unreadChat: Bool = false, business: String? = nil,
        tags: [String] = []
    ) -> String {
        let b = business.map { "\"\($0)\"" } ?? "null"
        let t = tags.map { "\"\($0)\"" }.joined(separator: ",")
        return """
            {"kind":"chat","chatId":"\(id)","type":"\(type)","displayName":"\(name ?? id)","fullName":"\(fullName)","localAlias":"\(alias)","favorite":\(favorite),"notifications":"\(notifications)","unreadChat":\(unreadChat),"business":\(b),"tags":[\(t)]}
            """
    }

    /// A `member` record line.
    package static func member(_ chat: String, _ id: String, _ name: String, isUser: Bool = false) -> String {
        """
        {"kind":"member","chatId":"\(chat)","memberId":"\(id)","displayName":"\(name)","fullName":"","localAlias":"","isUser":\(isUser)}
        """
    }

    /// An `item` record line; `extra` is appended raw inside the object (`"key":value,…`).
    package static func item(
        _ chat: String, _ id: String, ts: String, text: String, dir: String = "rcv", member: String? = nil,
        type: String = "text", unread: Bool = false, deleted: Bool = false, pinned: Bool = false, extra: String = ""
    ) -> String {
        var s = "{\"kind\":\"item\",\"chatId\":\"\(chat)\",\"id\":\"\(id)\",\"ts\":\"\(ts)\",\"dir\":\"\(dir)\","
        if let member { s += "\"memberId\":\"\(member)\"," }
        var t = ""
        JSONValue.writeString(text, to: &t)
        s +=
            "\"content\":{\"type\":\"\(type)\",\"text\":\(t)},\"unread\":\(unread),\"deleted\":\(deleted),\"pinned\":\(pinned)"
        if !extra.isEmpty { s += "," + extra }
        return s + "}"
    }
}
