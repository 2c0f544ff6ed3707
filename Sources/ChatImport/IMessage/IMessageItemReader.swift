import ChatModel
import Foundation
import GRDB

/// Turns the `message` rows of an iMessage database into items, in time order: text (the
/// `text` column, else the `attributedBody` typedstream), sender, read state, attachments,
/// replies, edits and unsends, group events; tapback rows become reactions on their targets.
struct IMessageItemReader {
    let db: Database
    let schema: IMessageSchema
    let displayName: String
    /// Handle ROWIDs to addresses.
    let handles: [Int64: String]
    /// Chat ROWIDs to chat source ids.
    let chats: [Int64: String]
    let attachments: IMessageAttachments
    let sink: any ImportSink

    private var reactions: [String: [Reaction]] = [:]
    private var clock = ItemClock()
    private var emittedUnlinkedChat = false

    init(
        db: Database, schema: IMessageSchema, displayName: String, handles: [Int64: String], chats: [Int64: String],
        attachments: IMessageAttachments, sink: any ImportSink
    ) {
        self.db = db
        self.schema = schema
        self.displayName = displayName
        self.handles = handles
        self.chats = chats
        self.attachments = attachments
        self.sink = sink
    }

    /// Reads the tapbacks, then emits every other message once per chat that lists it.
    mutating func read() throws {
        reactions = IMessageTapbacks.reactions(try tapbackRows())
        let rows = try Row.fetchCursor(db, sql: messageQuery())
        while let row = try rows.next() {
            try sink.emit(.item(try item(row)))
        }
    }

    // MARK: Queries

    /// Messages joined to their chats (a message in two chats comes twice, one in none once),
    /// tapbacks left out, ordered by time whatever the unit of each `date`; messages without a
    /// date come last (they take the time of the message before them).
    private func messageQuery() -> String {
        let tapbackFilter =
            schema.has("message", "associated_message_type")
            ? "WHERE NOT (COALESCE(m.associated_message_type, 0) BETWEEN 2000 AND 2007"
                + " OR COALESCE(m.associated_message_type, 0) BETWEEN 3000 AND 3007)" : ""
        let date = schema.has("message", "date") ? "m.date" : "0"
        return """
            SELECT m.*, m.ROWID AS \(Column.rowId), j.chat_id AS \(Column.chatId)
            FROM message m LEFT JOIN chat_message_join j ON j.message_id = m.ROWID
            \(tapbackFilter)
            ORDER BY COALESCE(\(date), 0) = 0, CASE WHEN abs(\(date)) > 1e12 THEN \(date) / 1e9 ELSE \(date) END,
              m.ROWID, j.chat_id
            """
    }

    /// The names of the columns the query adds to `message.*`.
    private enum Column {
        static let rowId = "imessage_rowid_"
        static let chatId = "imessage_chat_id_"
    }

    private func tapbackRows() throws -> [IMessageTapbacks.Row] {
        let s = schema
        guard s.has("message", "associated_message_type"), s.has("message", "associated_message_guid") else {
            return []
        }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT m.ROWID AS rowid_, m.associated_message_guid, m.associated_message_type,
                  \(s.column("message", "m", "is_from_me")), \(s.column("message", "m", "handle_id")),
                  \(s.column("message", "m", "date")), \(s.column("message", "m", "associated_message_emoji"))
                FROM message m
                WHERE m.associated_message_type BETWEEN 2000 AND 2007 OR m.associated_message_type BETWEEN 3000 AND 3007
                """)
        var out: [IMessageTapbacks.Row] = []
        while let row = try rows.next() {
            guard let associated: String = row["associated_message_guid"], !associated.isEmpty else { continue }
            out.append(
                IMessageTapbacks.Row(
                    target: IMessageTapbacks.targetGuid(associated), type: row["associated_message_type"] ?? 0,
                    actor: sender(row) ?? "unknown", customEmoji: row["associated_message_emoji"],
                    time: AppleTime.timestamp(row["date"])?.milliseconds ?? 0, rowId: row["rowid_"] ?? 0))
        }
        return out
    }

    // MARK: Items

    private mutating func item(_ row: Row) throws -> Item {
        let rowId: Int64 = row[Column.rowId] ?? 0
        let location = SourceLocation(file: displayName, record: "message ROWID=\(rowId)")
        let chat = try chatSourceId(row[Column.chatId])
        var guid: String = row["guid"] ?? ""
        if guid.isEmpty {
            guid = "rowid-\(rowId)"
            try sink.report(
                .warning(location, "message without a guid; keyed by its ROWID, which a later copy may change"))
        }
        let (timestamp, isTimeUnknown) = try time(row, location)
        var item: Item
        if let itemType: Int64 = row["item_type"], itemType != 0 {
            item = event(row, itemType: itemType, chat: chat, guid: guid, timestamp: timestamp)
        } else {
            item = try message(row, rowId: rowId, chat: chat, guid: guid, timestamp: timestamp, location)
        }
        item.isTimeUnknown = isTimeUnknown
        item.raw = rawJSON(row)
        return item
    }

    private func message(
        _ row: Row, rowId: Int64, chat: String, guid: String, timestamp: Timestamp, _ location: SourceLocation
    ) throws -> Item {
        let isFromMe = flag(row["is_from_me"])
        let files = try attachmentRows(messageRowId: rowId)
        let body = bodyText(row)
        if body.isInvalid {
            try sink.report(.warning(location, "attributedBody holds invalid UTF-8, read as U+FFFD"))
        } else if body.isUndecodable {
            try sink.report(.warning(location, "attributedBody could not be decoded; the message has no text"))
        }
        let text = Self.displayText(body.text)
        let isDeleted =
            AppleTime.isSet(row["date_retracted"])
            || (AppleTime.isSet(row["date_edited"]) && text.isEmpty && files.isEmpty)
        var content = MessageContent(type: .text, text: isDeleted ? "" : text)
        if let first = files.first, !isDeleted {
            content.type = IMessageAttachments.contentType(first, isAudioMessage: flag(row["is_audio_message"]))
        }
        let refs = isDeleted ? [] : files.map(attachments.file)
        return Item(
            chatSourceId: chat, sourceId: guid, timestamp: timestamp, direction: isFromMe ? .snd : .rcv,
            memberSourceId: sender(row), senderName: isFromMe ? nil : sender(row), content: content, markup: .plain,
            quote: try quote(row), file: refs.first, reactions: reactions[guid] ?? [],
            isEdited: AppleTime.isSet(row["date_edited"]) && !isDeleted, isDeleted: isDeleted,
            isUnread: !isFromMe && isUnread(row), status: isFromMe ? status(row) : nil,
            moreFiles: Array(refs.dropFirst()))
    }

    private func event(_ row: Row, itemType: Int64, chat: String, guid: String, timestamp: Timestamp) -> Item {
        let isFromMe = flag(row["is_from_me"])
        let actor = isFromMe ? "You" : sender(row) ?? "Someone"
        let other = (row["other_handle"] as Int64?).flatMap { handles[$0] }
        let text = IMessageEventText.text(
            itemType: itemType, action: row["group_action_type"] ?? 0, actor: actor, other: other,
            title: row["group_title"])
        return Item(
            chatSourceId: chat, sourceId: guid, timestamp: timestamp, direction: .event,
            memberSourceId: sender(row), content: MessageContent(type: .event, text: text), markup: .plain,
            reactions: reactions[guid] ?? [])
    }

    // MARK: Fields

    /// The chat a row belongs to; a message in no chat goes to one chat of its own.
    private mutating func chatSourceId(_ chatRowId: Int64?) throws -> String {
        if let chatRowId, let chat = chats[chatRowId] { return chat }
        if !emittedUnlinkedChat {
            emittedUnlinkedChat = true
            let id = IMessageDatabaseReader.unlinkedChatId
            try sink.emit(
                .chat(
                    Chat(
                        sourceId: id, type: .direct, displayName: "Messages in no conversation",
                        source: IMessageImporter.formatName)))
            try sink.emit(
                .member(
                    Member(
                        chatSourceId: id, sourceId: IMessageDatabaseReader.userMemberId, displayName: "Me",
                        isUser: true)))
        }
        return IMessageDatabaseReader.unlinkedChatId
    }

    /// The sender's member id: `me` for the user, else the handle's address.
    private func sender(_ row: Row) -> String? {
        if flag(row["is_from_me"]) { return IMessageDatabaseReader.userMemberId }
        return (row["handle_id"] as Int64?).flatMap { handles[$0] }
    }

    /// The row's time, else the previous message's, flagged.
    private mutating func time(_ row: Row, _ location: SourceLocation) throws -> (Timestamp, Bool) {
        let date: DatabaseValue? = row["date"]
        return try clock.time(
            AppleTime.timestamp(row["date"]), start: Timestamp(milliseconds: AppleTime.epochMilliseconds),
            location: location, sink: sink,
            warning:
                "unreadable or implausible date \(date.map { "\($0)" } ?? "(none)"); using the previous message's time")
    }

    /// Received and not read: `is_read` 0, or no `date_read` where there is no `is_read`.
    private func isUnread(_ row: Row) -> Bool {
        if schema.has("message", "is_read") { return !flag(row["is_read"]) }
        if schema.has("message", "date_read") { return !AppleTime.isSet(row["date_read"]) }
        return false
    }

    /// A sent message's status: error, read (a `date_read`), delivered, or sent.
    private func status(_ row: Row) -> ItemStatus? {
        if let error: Int64 = row["error"], error != 0 { return .error }
        if AppleTime.isSet(row["date_read"]) { return .read }
        if flag(row["is_delivered"]) { return .delivered }
        return schema.has("message", "is_sent") || schema.has("message", "is_delivered") ? .sent : nil
    }

    // MARK: Text

    /// A message's text as stored: `text` when not empty, else the `attributedBody`'s.
    private func bodyText(_ row: Row) -> (text: String, isInvalid: Bool, isUndecodable: Bool) {
        if let text: String = row["text"], !text.isEmpty { return (text, false, false) }
        guard let blob: Data = row["attributedBody"], !blob.isEmpty else { return ("", false, false) }
        let bytes = Array(blob)
        guard let text = TypedStreamDecoder.text(bytes) else { return ("", false, true) }
        return (text, !TypedStreamDecoder.isValidText(bytes), false)
    }

    /// The text shown: without the U+FFFC that stands for each attachment, and without the
    /// spaces left around them.
    static func displayText(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{FFFC}") else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.filter { $0 != "\u{FFFC}" })
        return String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The message a reply answers (`thread_originator_guid`), with its text when the database
    /// holds it.
    private func quote(_ row: Row) throws -> Quote? {
        guard let target: String = row["thread_originator_guid"], !target.isEmpty else { return nil }
        let body = schema.has("message", "attributedBody") ? "attributedBody" : "NULL AS attributedBody"
        let statement = try db.cachedStatement(sql: "SELECT text, \(body) FROM message WHERE guid = ? LIMIT 1")
        let text = try Row.fetchOne(statement, arguments: [target]).map { Self.displayText(bodyText($0).text) }
        return Quote(itemSourceId: target, text: text ?? "")
    }

    // MARK: Attachments

    private func attachmentRows(messageRowId: Int64) throws -> [IMessageAttachments.Row] {
        let s = schema
        guard s.has("attachment"), s.has("message_attachment_join", "message_id"),
            s.has("message_attachment_join", "attachment_id")
        else { return [] }
        let statement = try db.cachedStatement(
            sql: """
                SELECT \(s.column("attachment", "a", "filename")), \(s.column("attachment", "a", "transfer_name")),
                  \(s.column("attachment", "a", "mime_type")), \(s.column("attachment", "a", "uti")),
                  \(s.column("attachment", "a", "total_bytes")), \(s.column("attachment", "a", "is_sticker"))
                FROM message_attachment_join j JOIN attachment a ON a.ROWID = j.attachment_id
                WHERE j.message_id = ? ORDER BY a.ROWID
                """)
        return try Row.fetchAll(statement, arguments: [messageRowId]).map { row in
            IMessageAttachments.Row(
                filename: row["filename"], transferName: row["transfer_name"], mimeType: row["mime_type"],
                uti: row["uti"], totalBytes: row["total_bytes"], isSticker: flag(row["is_sticker"]))
        }
    }

    // MARK: Raw record

    /// The `message` row as a JSON object, BLOBs in base64.
    private func rawJSON(_ row: Row) -> String {
        var members: [(String, JSONValue)] = []
        for (column, value) in row where column != Column.rowId && column != Column.chatId {
            switch value.storage {
            case .null: members.append((column, .null))
            case .int64(let v):
                // Nanosecond dates exceed a double's 53 bits: those stay exact as strings.
                members.append((column, abs(v) < 1 << 53 ? .number(Double(v)) : .string(String(v))))
            case .double(let v): members.append((column, .number(v)))
            case .string(let v): members.append((column, .string(v)))
            case .blob(let v): members.append((column, .string(SimplexJSON.base64(Array(v)))))
            }
        }
        return JSONValue.object(members).jsonText
    }

    /// SQLite Booleans: non-zero is true, NULL false.
    private func flag(_ value: DatabaseValue?) -> Bool {
        guard let value else { return false }
        switch value.storage {
        case .int64(let i): return i != 0
        case .double(let d): return d != 0
        default: return false
        }
    }
}
