import ChatModel
import ChatText
import Foundation
import GRDB

// Chats and members: upserted by source id, their database ids cached for the items that follow.
extension BatchStore {
    func write(_ c: Chat, nameKey: String, translitKey translit: String, _ db: Database) throws {
        let isNew = try chatId(c.sourceId, db) == nil
        let id = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    INSERT INTO chat(sourceId, source, type, business, displayName, fullName, localAlias, nameKey, translitKey,
                                     favorite, notifications, unreadChat, draft, keyed)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                    ON CONFLICT(sourceId) DO UPDATE SET
                        type = excluded.type, business = excluded.business, displayName = excluded.displayName,
                        fullName = excluded.fullName, localAlias = excluded.localAlias, nameKey = excluded.nameKey,
                        translitKey = excluded.translitKey, favorite = excluded.favorite,
                        notifications = excluded.notifications, unreadChat = excluded.unreadChat, draft = excluded.draft
                    RETURNING id
                    """),
            arguments: [
                c.sourceId, c.source, c.type.rawValue, c.business?.rawValue, c.displayName, c.fullName, c.localAlias,
                nameKey, translit, c.isFavorite, c.notifications.rawValue, c.isMarkedUnread, c.draft,
            ])
        guard let id else { throw ArchiveError("could not store chat \(c.sourceId)") }
        chatIds[c.sourceId] = id
        if isNew {
            newChats[id] = (nameKey, translit)
        } else if let pending = newChats[id], pending != (nameKey, translit) {
            // Renamed in the transaction that inserted it: the update trigger added its row.
            newChats[id] = nil
        }
        try db.cachedStatement(sql: "DELETE FROM chatTag WHERE chatId = ?").execute(arguments: [id])
        for tag in Set(c.tags) where !tag.isEmpty {
            try db.cachedStatement(sql: "INSERT INTO chatTag(chatId, tag) VALUES (?, ?)").execute(arguments: [id, tag])
        }
        if aggregates[id] == nil { aggregates[id] = ChatAggregateDelta() }
    }

    /// The member of the chat that is the user, if any (cached; 0: none).
    func userMemberId(_ chat: Int64, _ db: Database) throws -> Int64? {
        if let id = userMember[chat] { return id == 0 ? nil : id }
        let id = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM member WHERE chatId = ? AND isUser LIMIT 1"), arguments: [chat])
        userMember[chat] = id ?? 0
        return id
    }

    func chatId(_ sourceId: String, _ db: Database) throws -> Int64? {
        if let id = chatIds[sourceId] { return id }
        // Cached statements: each chat and member of an export misses the id caches once, and
        // preparing a statement costs many times what running it does.
        let id = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM chat WHERE sourceId = ?"), arguments: [sourceId])
        if let id { chatIds[sourceId] = id }
        return id
    }

    @discardableResult
    func write(_ m: Member, nameKey: String, searchKey: String, _ db: Database) throws -> Int64? {
        guard let chat = try chatId(m.chatSourceId, db) else {
            issues.append("member \(m.sourceId) of unknown chat \(m.chatSourceId) skipped")
            return nil
        }
        let key = MemberKey(chat: chat, source: m.sourceId)
        let isNew =
            try memberIds[key] == nil
            && Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM member WHERE chatId = ? AND sourceId = ?"),
                arguments: [chat, m.sourceId]) == nil
        let id = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    INSERT INTO member(chatId, sourceId, displayName, fullName, localAlias, isUser, nameKey, searchKey, hasLeft)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(chatId, sourceId) DO UPDATE SET
                        displayName = excluded.displayName, fullName = excluded.fullName,
                        localAlias = excluded.localAlias, isUser = excluded.isUser, nameKey = excluded.nameKey,
                        searchKey = excluded.searchKey, hasLeft = excluded.hasLeft
                    RETURNING id
                    """),
            arguments: [
                chat, m.sourceId, m.displayName, m.fullName, m.localAlias, m.isUser, nameKey, searchKey, m.hasLeft,
            ])
        guard let id else { return nil }
        memberIds[key] = id
        if isNew {
            newMembers[id] = (searchKey, nameKey, chat)
        } else if let pending = newMembers[id], pending.search != searchKey || pending.name != nameKey {
            newMembers[id] = nil
        }
        memberNames[chat] = nil
        if m.isUser { userMember[chat] = id } else if userMember[chat] == id { userMember[chat] = nil }
        return id
    }

    func memberId(chat: Int64, sourceId: String, name: String?, _ db: Database) throws -> Int64? {
        let key = MemberKey(chat: chat, source: sourceId)
        if let id = memberIds[key] { return id }
        if let id = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM member WHERE chatId = ? AND sourceId = ?"),
            arguments: [chat, sourceId])
        {
            memberIds[key] = id
            return id
        }
        // A sender the export never described: make a member for it so `from:` finds it.
        let shown = name ?? sourceId
        let (nameKey, searchKey) = (ChatNames.key(shown, "", ""), MemberNames.searchKey(shown, "", ""))
        let id = try Int64.fetchOne(
            db,
            sql:
                "INSERT INTO member(chatId, sourceId, displayName, fullName, localAlias, isUser, nameKey, searchKey) VALUES (?, ?, ?, '', '', 0, ?, ?) RETURNING id",
            arguments: [chat, sourceId, shown, nameKey, searchKey])
        memberIds[key] = id
        if let id { newMembers[id] = (searchKey, nameKey, chat) }
        memberNames[chat] = nil
        return id
    }

    /// Adds the name-index rows (`chatNameGram`, `memberNameGram`, `memberNameShort`) of the
    /// chats and members this transaction inserted, in rowid order, after its other statements.
    ///
    /// Triggers used to add them with each insert, but FTS5 writes its pending rows out as a
    /// new segment whenever a statement opens a savepoint, and every chat or member upsert does
    /// (its triggers write several tables): one segment per chat and per member, a large part
    /// of an ingest of many small chats (<doc:WritePerformance>). Updates and deletions
    /// still go through triggers (a chat or member renamed in the transaction that inserted it
    /// gets its row from the update trigger, and is dropped from these).
    func writeNewNameRows(_ db: Database) throws {
        // Plain single-row inserts: an INSERT … SELECT (or OR REPLACE) would open a savepoint
        // and flush each row on its own again.
        if !newChats.isEmpty {
            let insert = try db.cachedStatement(
                sql: "INSERT INTO chatNameGram(rowid, name, translit) VALUES (?, ?, ?)")
            for (id, keys) in newChats.sorted(by: { $0.key < $1.key }) {
                try insert.execute(arguments: [id, keys.name, keys.translit == keys.name ? "" : keys.translit])
            }
            newChats.removeAll()
        }
        if !newMembers.isEmpty {
            let insert = try db.cachedStatement(sql: MemberGrams.insertSQL)
            let short = try db.cachedStatement(sql: MemberNameGrams.insertSQL)
            for (id, keys) in newMembers.sorted(by: { $0.key < $1.key }) {
                try insert.execute(arguments: [id, keys.search, keys.name, keys.chat])
                let folded = String(String.UnicodeScalarView(keys.name.unicodeScalars.prefix { $0 != "\n" }))
                if shortGramsCount > Self.shortGramsRemembered {
                    (shortGramsWritten, shortKeysSeen, shortGramsCount) = ([:], [], 0)
                }
                // Members of many chats share their keys: their pieces are taken once.
                guard shortKeysSeen.insert(keys.search + "\u{0}" + keys.name).inserted else { continue }
                shortGramsCount += 1
                for gram in NamePieces.memberShortGrams(searchKey: keys.search, nameKey: keys.name)
                where shortGramsWritten[folded, default: []].insert(gram).inserted {
                    shortGramsCount += 1
                    try short.execute(arguments: [gram, folded])
                }
            }
            newMembers.removeAll()
        }
    }

    /// Member ids of a chat by normalised display name and alias, for mentions without a map entry.
    func membersByName(chat: Int64, _ db: Database) throws -> [String: Int64] {
        if let m = memberNames[chat] { return m }
        var m: [String: Int64] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, displayName, localAlias FROM member WHERE chatId = ?"),
            arguments: [chat])
        {
            let id: Int64 = row["id"]
            for n in [row["displayName"] as String, row["localAlias"] as String] where !n.isEmpty {
                m[TextNormalizer.normalize(n)] = m[TextNormalizer.normalize(n)] ?? id
            }
        }
        memberNames[chat] = m
        return m
    }
}
