import ChatModel
import Foundation
import GRDB

/// Reads an iMessage database (`chat.db`, `sms.db`) already copied to a private file, with its
/// `-wal` beside it: chats from `chat`, members from `handle`, then the messages.
///
/// Everything is keyed by Apple's ids, never by the file's ROWIDs: chats by `chat.guid`,
/// members by the handle's address (phone or e-mail), items by `message.guid`; so a later copy
/// of the database updates what an earlier one stored.
struct IMessageDatabaseReader {
    /// The copied database file.
    var path: String
    /// How the database is named in messages (`Messages/chat.db`).
    var displayName: String
    /// Where the attachments' files are in the container.
    var attachments: IMessageAttachments

    /// The member id of the archive's owner in every chat.
    static let userMemberId = "me"
    /// The chat that holds messages no chat lists.
    static let unlinkedChatId = IMessageImporter.formatName + ":unlinked"

    func read(into sink: any ImportSink) throws {
        let queue = try open()
        try queue.read { db in
            let schema = try IMessageSchema(db, displayName: displayName)
            let handles = try readHandles(db)
            let chats = try readChats(db, schema, handles: handles, sink)
            var messages = IMessageItemReader(
                db: db, schema: schema, displayName: displayName, handles: handles, chats: chats,
                attachments: attachments, sink: sink)
            try messages.read()
        }
    }

    /// Opens the copy read-only, not immutable: an immutable database ignores its `-wal`, which
    /// holds the latest messages.
    private func open() throws -> DatabaseQueue {
        var config = Configuration()
        config.readonly = true
        config.label = "imessage-import"
        do {
            return try DatabaseQueue(path: path, configuration: config)
        } catch {
            throw ImportError("\(displayName): cannot open the database: \(error)")
        }
    }

    /// Handle ROWIDs to their addresses (`+15550001`, `zoe@example.com`).
    private func readHandles(_ db: Database) throws -> [Int64: String] {
        var out: [Int64: String] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT ROWID AS rowid_, id FROM handle")
        while let row = try rows.next() {
            guard let rowId: Int64 = row["rowid_"], let id: String = row["id"], !id.isEmpty else { continue }
            out[rowId] = id
        }
        return out
    }

    /// Emits every chat with its members; returns chat ROWIDs to their source ids.
    private func readChats(_ db: Database, _ s: IMessageSchema, handles: [Int64: String], _ sink: any ImportSink)
        throws -> [Int64: String]
    {
        let members = try chatMembers(db, s, handles: handles)
        var out: [Int64: String] = [:]
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT c.ROWID AS rowid_, \(s.column("chat", "c", "guid")), \(s.column("chat", "c", "style")),
                  \(s.column("chat", "c", "chat_identifier")), \(s.column("chat", "c", "display_name"))
                FROM chat c ORDER BY c.ROWID
                """)
        for row in rows {
            let rowId: Int64 = row["rowid_"] ?? 0
            let guid: String = row["guid"] ?? ""
            let sourceId = IMessageImporter.formatName + ":" + (guid.isEmpty ? "chat-rowid-\(rowId)" : guid)
            let current = members.current[rowId] ?? []
            let chat = Chat(
                sourceId: sourceId, type: chatType(style: row["style"], guid: guid),
                displayName: chatName(row, members: current), source: IMessageImporter.formatName)
            try sink.emit(.chat(chat))
            try emitMembers(chat: sourceId, current: current, former: members.former[rowId] ?? [], sink)
            out[rowId] = sourceId
        }
        return out
    }

    /// Style 43 is a group and 45 a direct chat; the guid (`;+;` group, `;-;` direct) decides
    /// when the style is something else.
    private func chatType(style: Int64?, guid: String) -> ChatType {
        switch style {
        case 43: return .group
        case 45: return .direct
        default: return guid.contains(";+;") ? .group : .direct
        }
    }

    /// `display_name` when set, else the chat's members' addresses, else its identifier.
    private func chatName(_ row: Row, members: [String]) -> String {
        if let name: String = row["display_name"], !name.isEmpty { return name }
        if !members.isEmpty { return members.joined(separator: ", ") }
        return (row["chat_identifier"] as String?) ?? "iMessage"
    }

    private func emitMembers(chat: String, current: [String], former: [String], _ sink: any ImportSink) throws {
        try sink.emit(
            .member(Member(chatSourceId: chat, sourceId: Self.userMemberId, displayName: "Me", isUser: true)))
        for id in current {
            try sink.emit(.member(Member(chatSourceId: chat, sourceId: id, displayName: id)))
        }
        for id in former {
            try sink.emit(.member(Member(chatSourceId: chat, sourceId: id, displayName: id, hasLeft: true)))
        }
    }

    /// Per chat ROWID: the handles `chat_handle_join` lists, and the others that wrote in it
    /// or were named by its events (members who left).
    private func chatMembers(_ db: Database, _ s: IMessageSchema, handles: [Int64: String]) throws -> (
        current: [Int64: [String]], former: [Int64: [String]]
    ) {
        var current: [Int64: [String]] = [:]
        if s.has("chat_handle_join", "chat_id"), s.has("chat_handle_join", "handle_id") {
            let rows = try Row.fetchCursor(
                db, sql: "SELECT chat_id, handle_id FROM chat_handle_join ORDER BY chat_id, handle_id")
            while let row = try rows.next() {
                guard let chat: Int64 = row["chat_id"], let handle: Int64 = row["handle_id"],
                    let id = handles[handle], current[chat]?.contains(id) != true
                else { continue }
                current[chat, default: []].append(id)
            }
        }
        var former: [Int64: [String]] = [:]
        let parts = ["handle_id", "other_handle"].filter { s.has("message", $0) }.map { column in
            """
            SELECT j.chat_id AS chat_id, m.\(column) AS handle_id FROM message m
            JOIN chat_message_join j ON j.message_id = m.ROWID WHERE m.\(column) != 0
            """
        }
        guard !parts.isEmpty else { return (current, former) }
        let rows = try Row.fetchCursor(db, sql: parts.joined(separator: " UNION ") + " ORDER BY 1, 2")
        while let row = try rows.next() {
            guard let chat: Int64 = row["chat_id"], let handle: Int64 = row["handle_id"], let id = handles[handle],
                current[chat]?.contains(id) != true, former[chat]?.contains(id) != true
            else { continue }
            former[chat, default: []].append(id)
        }
        return (current, former)
    }
}
