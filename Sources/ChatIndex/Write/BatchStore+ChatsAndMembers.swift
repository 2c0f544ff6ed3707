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
        // What the member was before this write, for its key's counts.
        var before: MemberState? = nil
        var isNew = false
        if let id = memberIds[key] {
            before = try memberStates[id] ?? memberState(id: id, db)
        } else if let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(MemberState.columns) FROM member WHERE chatId = ? AND sourceId = ?"),
            arguments: [chat, m.sourceId])
        {
            before = MemberState(row)
        } else {
            isNew = true
        }
        let keyId = try memberKeyId(nameKey: nameKey, searchKey: searchKey, db)
        let id = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    INSERT INTO member(chatId, sourceId, displayName, fullName, localAlias, isUser, nameKey, searchKey, hasLeft, keyId)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(chatId, sourceId) DO UPDATE SET
                        displayName = excluded.displayName, fullName = excluded.fullName,
                        localAlias = excluded.localAlias, isUser = excluded.isUser, nameKey = excluded.nameKey,
                        searchKey = excluded.searchKey, hasLeft = excluded.hasLeft, keyId = excluded.keyId
                    RETURNING id
                    """),
            arguments: [
                chat, m.sourceId, m.displayName, m.fullName, m.localAlias, m.isUser, nameKey, searchKey, m.hasLeft,
                keyId,
            ])
        guard let id else { return nil }
        memberIds[key] = id
        let after = MemberState(
            key: keyId, isListed: !m.isUser && !m.hasLeft && !m.displayName.isEmpty, name: m.displayName)
        try noteKeyChange(of: id, in: chat, nameKey: nameKey, from: before, to: after, db)
        memberStates[id] = after
        if isNew {
            newMembers[id] = (searchKey, nameKey, chat)
        } else if let pending = newMembers[id], pending.search != searchKey || pending.name != nameKey {
            newMembers[id] = nil
        }
        memberNames[chat] = nil
        if m.isUser { userMember[chat] = id } else if userMember[chat] == id { userMember[chat] = nil }
        return id
    }

    /// A member's key, listing and spelling, as its key's counts see it.
    struct MemberState: Equatable {
        var key: Int64?
        var isListed: Bool
        var name: String

        static let columns = "keyId, \(MemberKeys.live("")), displayName"

        init(key: Int64?, isListed: Bool, name: String) {
            (self.key, self.isListed, self.name) = (key, isListed, name)
        }

        init(_ row: Row) { (key, isListed, name) = (row[0], row[1], row[2]) }
    }

    private func memberState(id: Int64, _ db: Database) throws -> MemberState? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(MemberState.columns) FROM member WHERE id = ?"), arguments: [id]
        ).map(MemberState.init)
    }

    /// Records what a member's write changes in its keys' and names' counts: a new listed
    /// member is added to its key, and to its name's chats when no other listed member of the
    /// chat has the name; a member that changed key, listing or spelling has both keys and
    /// their names counted again from the members at the end of the transaction.
    private func noteKeyChange(
        of id: Int64, in chat: Int64, nameKey: String, from before: MemberState?, to after: MemberState,
        _ db: Database
    ) throws {
        guard let before else {
            guard after.isListed, let key = after.key else { return }
            keyAdditions[key, default: (0, after.name)].count += 1
            let folded = MemberKeys.folded(nameKey: nameKey)
            if try Bool.fetchOne(db.cachedStatement(sql: MemberKeys.nameInChatSQL), arguments: [folded, chat, id])
                != true
            {
                nameChatAdditions[folded, default: 0] += 1
            }
            return
        }
        guard before != after else { return }
        if let key = before.key { keysToRecount.insert(key) }
        if let key = after.key { keysToRecount.insert(key) }
    }

    /// The id of the member key of these names (``MemberKeys``), added when new.
    private func memberKeyId(nameKey: String, searchKey: String, _ db: Database) throws -> Int64 {
        let cacheKey = nameKey + "\u{0}" + searchKey
        if let id = memberKeyIds[cacheKey] { return id }
        let (id, isNew) = try MemberKeys.key(nameKey: nameKey, searchKey: searchKey, db)
        if isNew { newKeys.append((id, nameKey, searchKey)) }
        memberKeyIds[cacheKey] = id
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
        let keyId = try memberKeyId(nameKey: nameKey, searchKey: searchKey, db)
        let id = try Int64.fetchOne(
            db,
            sql:
                "INSERT INTO member(chatId, sourceId, displayName, fullName, localAlias, isUser, nameKey, searchKey, keyId) VALUES (?, ?, ?, '', '', 0, ?, ?, ?) RETURNING id",
            arguments: [chat, sourceId, shown, nameKey, searchKey, keyId])
        memberIds[key] = id
        if let id {
            newMembers[id] = (searchKey, nameKey, chat)
            let state = MemberState(key: keyId, isListed: !shown.isEmpty, name: shown)
            try noteKeyChange(of: id, in: chat, nameKey: nameKey, from: nil, to: state, db)
            memberStates[id] = state
        }
        memberNames[chat] = nil
        return id
    }

    /// Adds the name-index rows (`chatNameGram`, `memberNameGram`, `memberNameShort`,
    /// ``MemberKeys``' trigrams) of the chats, members and member keys this transaction
    /// inserted, in rowid order, after its other statements.
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
        try MemberKeys.writeSearchRows(newKeys, db)
        newKeys.removeAll()
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
