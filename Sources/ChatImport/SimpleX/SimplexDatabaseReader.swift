import ChatModel
import Foundation
import GRDB

/// Reads a plaintext `simplex_v1_chat.db` (<doc:SimplexFormat>), already extracted to a private file.
///
/// Only columns that `PRAGMA table_info` lists are used, so schema changes between SimpleX
/// releases degrade to missing fields, never to errors. Hidden profiles are skipped.
struct SimplexDatabaseReader {
    /// The extracted database file.
    var path: String
    /// How the database is named in messages (`x.zip!simplex_v1_chat.db`).
    var displayName: String

    func read(into sink: any ImportSink) throws {
        let queue = try open()
        try queue.read { db in
            let schema = try Schema(db, displayName: displayName)
            try readUsers(db, schema, sink)
        }
    }

    /// Opens the file read-only, as an immutable URI when this SQLite accepts URIs.
    private func open() throws -> DatabaseQueue {
        var config = Configuration()
        config.readonly = true
        config.label = "simplex-import"
        do {
            return try DatabaseQueue(path: "file:\(uriPath(path))?immutable=1", configuration: config)
        } catch {
            do {
                return try DatabaseQueue(path: path, configuration: config)
            } catch {
                throw ImportError("\(displayName): cannot open the database: \(error)")
            }
        }
    }

    /// `path` percent-encoded for a `file:` URI.
    private func uriPath(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(b >> 4)])
                out.unicodeScalars.append(hex[Int(b & 15)])
            }
        }
        return out
    }

    /// The tables and columns this database has.
    struct Schema {
        private var columns: [String: Set<String>] = [:]

        init(_ db: Database, displayName: String) throws {
            let version = (try? String.fetchOne(db, sql: "SELECT sqlite_version()")) ?? "?"
            let tables = [
                "users", "contacts", "contact_profiles", "groups", "group_profiles", "group_members", "note_folders",
                "chat_items", "files", "chat_item_mentions", "chat_item_reactions", "chat_tags", "chat_tags_chats",
            ]
            do {
                for t in tables where try db.tableExists(t) {
                    columns[t] = Set(try db.columns(in: t).map { $0.name.lowercased() })
                }
            } catch {
                let parts = version.split(separator: ".").compactMap { Int($0) }
                if parts.count >= 2, parts[0] == 3, parts[1] < 37 {
                    throw ImportError(
                        "\(displayName): this SimpleX database uses STRICT tables, which need SQLite 3.37 or newer; "
                            + "this system has SQLite \(version). Update SQLite and retry.")
                }
                throw ImportError("\(displayName): cannot read the database schema: \(error)")
            }
            guard columns["chat_items"] != nil else {
                throw ImportError("\(displayName): not a SimpleX chat database (it has no chat_items table)")
            }
            for t in ["users", "chat_items"]
            where columns[t]?.contains(t == "users" ? "user_id" : "chat_item_id") != true {
                throw ImportError("\(displayName): not a SimpleX chat database (\(t) lacks its id column)")
            }
        }

        func has(_ table: String) -> Bool { columns[table] != nil }
        func has(_ table: String, _ column: String) -> Bool { columns[table]?.contains(column) == true }

        /// `alias.column`, or `NULL AS column` when the table lacks it.
        func col(_ table: String, _ alias: String, _ column: String, as name: String? = nil) -> String {
            has(table, column) ? "\(alias).\(column) AS \(name ?? column)" : "NULL AS \(name ?? column)"
        }
    }

    // MARK: - Users and chats

    private func readUsers(_ db: Database, _ s: Schema, _ sink: any ImportSink) throws {
        let hiddenFilter = s.has("users", "view_pwd_hash") ? "WHERE view_pwd_hash IS NULL OR view_pwd_hash = ''" : ""
        let users = try Int64.fetchAll(db, sql: "SELECT user_id FROM users \(hiddenFilter) ORDER BY user_id")
        for userId in users {
            let tags = try readTags(db, s, userId: userId)
            try readContacts(db, s, userId: userId, tags: tags, sink)
            try readGroups(db, s, userId: userId, tags: tags, sink)
            try readNotes(db, s, userId: userId, sink)
        }
    }

    private struct Tags {
        var contacts: [Int64: [String]] = [:]
        var groups: [Int64: [String]] = [:]
    }

    private func readTags(_ db: Database, _ s: Schema, userId: Int64) throws -> Tags {
        var tags = Tags()
        guard s.has("chat_tags", "chat_tag_text"), s.has("chat_tags_chats", "chat_tag_id") else { return tags }
        let order = s.has("chat_tags", "tag_order") ? "t.tag_order, t.chat_tag_id" : "t.chat_tag_id"
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(s.col("chat_tags_chats", "tc", "contact_id")), \(s.col("chat_tags_chats", "tc", "group_id")), t.chat_tag_text
                FROM chat_tags_chats tc JOIN chat_tags t ON t.chat_tag_id = tc.chat_tag_id
                WHERE \(s.has("chat_tags", "user_id") ? "t.user_id = ?" : "?1 IS NOT NULL") ORDER BY \(order)
                """, arguments: [userId])
        while let row = try rows.next() {
            guard let text: String = row["chat_tag_text"] else { continue }
            if let c: Int64 = row["contact_id"] { tags.contacts[c, default: []].append(text) }
            if let g: Int64 = row["group_id"] { tags.groups[g, default: []].append(text) }
        }
        return tags
    }

    /// `enable_ntfs` (0 none, 1/NULL all, 2 mentions), or a `chat_settings` JSON's `enableNtfs`.
    private func notifications(_ row: Row) -> NotificationMode {
        if let settings: String = row["chat_settings"], let json = try? JSONParser.parse(Array(settings.utf8)),
            let mode = json["enableNtfs"]?.stringValue ?? SimplexJSON.tagged(json["enableNtfs"])?.tag
        {
            return NotificationMode(rawValue: mode) ?? .all
        }
        switch row["enable_ntfs"] as Int64? {
        case 0?: return .none
        case 2?: return .mentions
        default: return .all
        }
    }

    private func readContacts(_ db: Database, _ s: Schema, userId: Int64, tags: Tags, _ sink: any ImportSink) throws {
        guard s.has("contacts", "contact_id") else { return }
        let profileJoin = s.has("contact_profiles") && s.has("contacts", "contact_profile_id")
        let p = { (c: String) in profileJoin ? s.col("contact_profiles", "p", c) : "NULL AS \(c)" }
        let userFilter = s.has("contacts", "is_user") ? "AND COALESCE(c.is_user, 0) = 0" : ""
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT c.contact_id, \(s.col("contacts", "c", "local_display_name")), \(s.col("contacts", "c", "favorite")),
                  \(s.col("contacts", "c", "unread_chat")), \(s.col("contacts", "c", "enable_ntfs")),
                  \(s.col("contacts", "c", "chat_settings")),
                  \(p("display_name")), \(p("full_name")), \(p("local_alias"))
                FROM contacts c
                \(profileJoin ? "LEFT JOIN contact_profiles p ON p.contact_profile_id = c.contact_profile_id" : "")
                WHERE c.user_id = ? \(userFilter) ORDER BY c.contact_id
                """, arguments: [userId])
        for row in rows {
            let contactId: Int64 = row["contact_id"] ?? 0
            let chatSourceId = "simplex:\(userId):direct:\(contactId)"
            let name =
                (row["display_name"] as String?).flatMap { $0.isEmpty ? nil : $0 } ?? text(row, "local_display_name")
            let chat = Chat(
                sourceId: chatSourceId, type: .direct, displayName: name, fullName: text(row, "full_name"),
                localAlias: text(row, "local_alias"), isFavorite: flag(row["favorite"]),
                notifications: notifications(row),
                isMarkedUnread: flag(row["unread_chat"]), tags: tags.contacts[contactId] ?? [],
                source: SimplexImporter.formatName)
            try sink.emit(.chat(chat))
            let peer = "contact:\(contactId)"
            try sink.emit(
                .member(
                    Member(
                        chatSourceId: chatSourceId, sourceId: peer, displayName: name, fullName: chat.fullName,
                        localAlias: chat.localAlias)))
            var ctx = ChatContext(
                chatSourceId: chatSourceId, userId: userId, chatColumn: "contact_id", chatKey: contactId,
                orderColumn: "created_at")
            ctx.peerMemberId = peer
            try readItems(db, s, ctx, sink)
        }
    }

    private func readGroups(_ db: Database, _ s: Schema, userId: Int64, tags: Tags, _ sink: any ImportSink) throws {
        guard s.has("groups", "group_id") else { return }
        let profileJoin = s.has("group_profiles") && s.has("groups", "group_profile_id")
        let p = { (c: String) in profileJoin ? s.col("group_profiles", "gp", c) : "NULL AS \(c)" }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT g.group_id, \(s.col("groups", "g", "local_display_name")), \(s.col("groups", "g", "favorite")),
                  \(s.col("groups", "g", "unread_chat")), \(s.col("groups", "g", "enable_ntfs")),
                  \(s.col("groups", "g", "chat_settings")), \(s.col("groups", "g", "business_chat")),
                  \(s.col("groups", "g", "local_alias")), \(p("display_name")), \(p("full_name"))
                FROM groups g
                \(profileJoin ? "LEFT JOIN group_profiles gp ON gp.group_profile_id = g.group_profile_id" : "")
                WHERE g.user_id = ? ORDER BY g.group_id
                """, arguments: [userId])
        for row in rows {
            let groupId: Int64 = row["group_id"] ?? 0
            let chatSourceId = "simplex:\(userId):group:\(groupId)"
            let name =
                (row["display_name"] as String?).flatMap { $0.isEmpty ? nil : $0 } ?? text(row, "local_display_name")
            let chat = Chat(
                sourceId: chatSourceId, type: .group, displayName: name, fullName: text(row, "full_name"),
                localAlias: text(row, "local_alias"), isFavorite: flag(row["favorite"]),
                notifications: notifications(row),
                isMarkedUnread: flag(row["unread_chat"]),
                business: (row["business_chat"] as String?).flatMap(BusinessRole.init),
                tags: tags.groups[groupId] ?? [], source: SimplexImporter.formatName)
            try sink.emit(.chat(chat))
            var ctx = ChatContext(
                chatSourceId: chatSourceId, userId: userId, chatColumn: "group_id", chatKey: groupId,
                orderColumn: "item_ts")
            try readMembers(db, s, groupId: groupId, &ctx, sink)
            try readItems(db, s, ctx, sink)
        }
    }

    private func readMembers(
        _ db: Database, _ s: Schema, groupId: Int64, _ ctx: inout ChatContext, _ sink: any ImportSink
    ) throws {
        guard s.has("group_members", "group_member_id"), s.has("group_members", "group_id") else { return }
        let profileColumn: String? =
            switch (s.has("group_members", "member_profile_id"), s.has("group_members", "contact_profile_id")) {
            case (true, true): "COALESCE(m.member_profile_id, m.contact_profile_id)"
            case (true, false): "m.member_profile_id"
            case (false, true): "m.contact_profile_id"
            default: nil
            }
        let join = s.has("contact_profiles") ? profileColumn : nil
        let p = { (c: String) in join != nil ? s.col("contact_profiles", "p", c) : "NULL AS \(c)" }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT m.group_member_id, \(s.col("group_members", "m", "member_id")), \(s.col("group_members", "m", "member_category")),
                  \(s.col("group_members", "m", "local_display_name")), \(p("display_name")), \(p("full_name")), \(p("local_alias"))
                FROM group_members m
                \(join.map { "LEFT JOIN contact_profiles p ON p.contact_profile_id = \($0)" } ?? "")
                WHERE m.group_id = ? ORDER BY m.group_member_id
                """, arguments: [groupId])
        while let row = try rows.next() {
            let gmId: Int64 = row["group_member_id"] ?? 0
            let memberId = (row["member_id"] as Data?).map { SimplexJSON.base64url(Array($0)) } ?? "member:\(gmId)"
            let isUser = (row["member_category"] as String?) == "user"
            let name =
                (row["display_name"] as String?).flatMap { $0.isEmpty ? nil : $0 } ?? text(row, "local_display_name")
            ctx.memberIds[gmId] = memberId
            if isUser { ctx.ownMemberId = memberId }
            try sink.emit(
                .member(
                    Member(
                        chatSourceId: ctx.chatSourceId, sourceId: memberId, displayName: name,
                        fullName: text(row, "full_name"),
                        localAlias: text(row, "local_alias"), isUser: isUser)))
        }
    }

    private func readNotes(_ db: Database, _ s: Schema, userId: Int64, _ sink: any ImportSink) throws {
        guard s.has("note_folders", "note_folder_id"), s.has("chat_items", "note_folder_id") else { return }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT n.note_folder_id, \(s.col("note_folders", "n", "favorite")), \(s.col("note_folders", "n", "unread_chat"))
                FROM note_folders n WHERE n.user_id = ? ORDER BY n.note_folder_id
                """, arguments: [userId])
        for row in rows {
            let folderId: Int64 = row["note_folder_id"] ?? 0
            let chatSourceId = "simplex:\(userId):local:\(folderId)"
            try sink.emit(
                .chat(
                    Chat(
                        sourceId: chatSourceId, type: .local, displayName: SimplexImporter.notesName,
                        isFavorite: flag(row["favorite"]),
                        isMarkedUnread: flag(row["unread_chat"]), source: SimplexImporter.formatName)))
            let ctx = ChatContext(
                chatSourceId: chatSourceId, userId: userId, chatColumn: "note_folder_id", chatKey: folderId,
                orderColumn: "created_at")
            try readItems(db, s, ctx, sink)
        }
    }

    // MARK: - Items

    /// What items of one chat need to know about it.
    struct ChatContext {
        var chatSourceId: String
        var userId: Int64
        /// `contact_id`, `group_id` or `note_folder_id`.
        var chatColumn: String
        var chatKey: Int64
        /// How the app orders the chat: groups by `item_ts`, the rest by `created_at`.
        var orderColumn: String
        var memberIds: [Int64: String] = [:]
        var ownMemberId: String? = nil
        var peerMemberId: String? = nil
    }

    private func readItems(_ db: Database, _ s: Schema, _ ctx: ChatContext, _ sink: any ImportSink) throws {
        guard s.has("chat_items", ctx.chatColumn) else { return }
        let order =
            s.has("chat_items", ctx.orderColumn)
            ? ctx.orderColumn : (s.has("chat_items", "created_at") ? "created_at" : "chat_item_id")
        let userFilter = s.has("chat_items", "user_id") ? "ci.user_id = ? AND" : "?1 IS NOT NULL AND"
        let rows = try Row.fetchCursor(
            db,
            sql:
                "SELECT ci.* FROM chat_items ci WHERE \(userFilter) ci.\(ctx.chatColumn) = ? ORDER BY ci.\(order), ci.chat_item_id",
            arguments: [ctx.userId, ctx.chatKey])
        var previous = Timestamp(milliseconds: 0)
        while let row = try rows.next() {
            if let item = try makeItem(db, s, ctx, row, previous: previous, sink) {
                previous = item.timestamp
                try sink.emit(.item(item))
            }
        }
    }

    private func makeItem(
        _ db: Database, _ s: Schema, _ ctx: ChatContext, _ row: Row, previous: Timestamp, _ sink: any ImportSink
    ) throws -> Item? {
        let itemId: Int64 = row["chat_item_id"] ?? 0
        let location = SourceLocation(file: displayName, record: "chat_items chat_item_id=\(itemId)")
        let sent = flag(row["item_sent"])
        let itemText: String = row["item_text"] ?? ""

        var timestamp = previous
        var isTimeUnknown = false
        let tsText: String? = row["item_ts"] ?? row["created_at"]
        if let t = tsText.flatMap({ Timestamp.parse($0) }) {
            timestamp = t
        } else {
            isTimeUnknown = true
            try sink.report(
                .warning(
                    location, "unreadable time \(tsText.map { "'\($0)'" } ?? "(none)"); using the previous item's time")
            )
        }

        var direction: ItemDirection = sent ? .snd : .rcv
        var content = MessageContent(type: .unknown, text: itemText)
        var isDeleted = flag(row["item_deleted"])
        let contentText: String? = row["item_content"]
        let parsed = contentText.flatMap { try? JSONParser.parse(Array($0.utf8)) }
        if let (tag, body) = SimplexJSON.tagged(parsed) {
            switch tag {
            case "sndMsgContent", "rcvMsgContent":
                content = SimplexJSON.messageContent(body["msgContent"])
            case "chatBanner":
                return nil
            case "sndDeleted", "rcvDeleted", "sndModerated", "rcvModerated", "rcvBlocked":
                content = MessageContent(type: .text, text: itemText)
                isDeleted = true
            case "invalidJSON":
                content = MessageContent(type: .unknown, text: itemText)
            default:
                direction = .event
                content = MessageContent(type: .event, text: itemText)
            }
        } else {
            try sink.report(.warning(location, "item_content is missing or not valid JSON; keeping item_text"))
        }

        var memberId: String? = nil
        if ctx.chatColumn == "group_id" {
            if let gm: Int64 = row["group_member_id"] {
                memberId = ctx.memberIds[gm]
            } else if sent {
                memberId = ctx.ownMemberId
            }
        } else if !sent {
            memberId = ctx.peerMemberId
        }

        let statusText: String = row["item_status"] ?? ""
        let statusTag = String(statusText.split(separator: " ").first ?? "")
        let status = SimplexJSON.status(tag: statusTag)

        var quote: Quote? = nil
        if let quoted: String = row["quoted_content"], let q = try? JSONParser.parse(Array(quoted.utf8)) {
            var quotedId: String? = nil
            if let shared: Data = row["quoted_shared_msg_id"] {
                quotedId = try quotedItemId(db, s, ctx, shared)
            }
            quote = Quote(itemSourceId: quotedId, text: SimplexJSON.messageContent(q).text)
        } else if let shared: Data = row["quoted_shared_msg_id"] {
            if let quotedId = try quotedItemId(db, s, ctx, shared) { quote = Quote(itemSourceId: quotedId, text: "") }
        }

        return Item(
            chatSourceId: ctx.chatSourceId, sourceId: String(itemId), timestamp: timestamp, direction: direction,
            memberSourceId: memberId,
            content: content, markup: .simplex, mentions: try mentions(db, s, ctx, itemId), quote: quote,
            file: try file(db, s, itemId), reactions: try reactions(db, s, ctx, row["shared_msg_id"]),
            isEdited: flag(row["item_edited"]), isDeleted: isDeleted, isUnread: status.unread,
            status: sent ? status.status : nil,
            raw: rawJSON(row), isTimeUnknown: isTimeUnknown)
    }

    private func quotedItemId(_ db: Database, _ s: Schema, _ ctx: ChatContext, _ shared: Data) throws -> String? {
        guard s.has("chat_items", "shared_msg_id") else { return nil }
        let userFilter = s.has("chat_items", "user_id") ? "user_id = ? AND" : "?1 IS NOT NULL AND"
        let stmt = try db.cachedStatement(
            sql:
                "SELECT chat_item_id FROM chat_items WHERE \(userFilter) \(ctx.chatColumn) = ? AND shared_msg_id = ? LIMIT 1"
        )
        return try Int64.fetchOne(stmt, arguments: [ctx.userId, ctx.chatKey, shared]).map { String($0) }
    }

    private func mentions(_ db: Database, _ s: Schema, _ ctx: ChatContext, _ itemId: Int64) throws -> [String:
        MentionTarget]
    {
        guard s.has("chat_item_mentions", "chat_item_id"), s.has("chat_item_mentions", "display_name") else {
            return [:]
        }
        let stmt = try db.cachedStatement(
            sql:
                "SELECT display_name, \(s.col("chat_item_mentions", "m", "member_id")) FROM chat_item_mentions m WHERE m.chat_item_id = ?"
        )
        var out: [String: MentionTarget] = [:]
        let rows = try Row.fetchCursor(stmt, arguments: [itemId])
        while let row = try rows.next() {
            guard let name: String = row["display_name"] else { continue }
            let member = (row["member_id"] as Data?).map { SimplexJSON.base64url(Array($0)) }
            out[name] = MentionTarget(memberSourceId: member, isUserMention: member != nil && member == ctx.ownMemberId)
        }
        return out
    }

    private func file(_ db: Database, _ s: Schema, _ itemId: Int64) throws -> FileRef? {
        guard s.has("files", "chat_item_id"), s.has("files", "file_name") else { return nil }
        let stmt = try db.cachedStatement(
            sql: """
                SELECT file_name, \(s.col("files", "f", "file_size")), \(s.col("files", "f", "file_path")),
                       \(s.col("files", "f", "file_crypto_key"))
                FROM files f WHERE f.chat_item_id = ? ORDER BY f.rowid LIMIT 1
                """)
        guard let row = try Row.fetchOne(stmt, arguments: [itemId]), let name: String = row["file_name"] else {
            return nil
        }
        // The stored file, under simplex_v1_files/, unless it is encrypted on disk (name only then).
        var path: String? = nil
        if let stored: String = row["file_path"], !stored.isEmpty,
            (row["file_crypto_key"] as DatabaseValue?)?.isNull ?? true
        {
            path = JSONField.relativePath(stored).map {
                $0.hasPrefix("simplex_v1_files/") ? $0 : "simplex_v1_files/" + $0
            }
        }
        return FileRef(name: name, size: row["file_size"], path: path)
    }

    private func reactions(_ db: Database, _ s: Schema, _ ctx: ChatContext, _ shared: Data?) throws -> [Reaction] {
        guard let shared, s.has("chat_item_reactions", "shared_msg_id"), s.has("chat_item_reactions", "reaction"),
            s.has("chat_item_reactions", ctx.chatColumn)
        else { return [] }
        // `reaction_sent`: the row is the user's own reaction.
        let mine = s.has("chat_item_reactions", "reaction_sent") ? "MAX(reaction_sent)" : "0"
        let stmt = try db.cachedStatement(
            sql: """
                SELECT reaction, COUNT(*) AS n, \(mine) AS mine FROM chat_item_reactions
                WHERE \(ctx.chatColumn) = ? AND shared_msg_id = ? GROUP BY reaction ORDER BY MIN(rowid)
                """)
        var out: [Reaction] = []
        let rows = try Row.fetchCursor(stmt, arguments: [ctx.chatKey, shared])
        while let row = try rows.next() {
            let text: String = row["reaction"] ?? ""
            let json = try? JSONParser.parse(Array(text.utf8))
            guard let emoji = SimplexJSON.reactionEmoji(json) ?? (text.isEmpty ? nil : text) else { continue }
            out.append(Reaction(emoji: emoji, count: row["n"] ?? 0, isMine: (row["mine"] as Int64?) == 1))
        }
        return out
    }

    /// The row as a JSON object, BLOBs base64.
    private func rawJSON(_ row: Row) -> String {
        var members: [(String, JSONValue)] = []
        for (column, value) in row {
            switch value.storage {
            case .null: members.append((column, .null))
            case .int64(let v): members.append((column, .number(Double(v))))
            case .double(let v): members.append((column, .number(v)))
            case .string(let v): members.append((column, .string(v)))
            case .blob(let v): members.append((column, .string(SimplexJSON.base64(Array(v)))))
            }
        }
        return JSONValue.object(members).jsonText
    }

    /// A TEXT column, or "" when NULL or absent.
    private func text(_ row: Row, _ column: String) -> String { (row[column] as String?) ?? "" }

    /// SQLite Booleans: 0/1, or NULL for false.
    private func flag(_ v: DatabaseValue?) -> Bool {
        guard let v else { return false }
        switch v.storage {
        case .int64(let i): return i != 0
        case .double(let d): return d != 0
        case .string(let s): return s == "1" || s == "true"
        default: return false
        }
    }
}
