import GRDB

/// A chat's read mark: every item at or before `(ts, id)` is read, whatever its `unread` flag says.
///
/// Marking a chat read moves the mark (`chat.readTs`, `chat.readId`) and recounts what stays
/// unread after it in the partial unread indexes: it writes one chat row and no item, so reading
/// a chat to its end costs the same with 10 unread items as with 10,000 (rewriting each item's
/// flags cost about one page write per item).
///
/// An item is unread when its flag is set and it lies after its chat's mark. Everything that
/// reads read state follows that rule: ``ReadMark/unreadSQL(item:chat:)`` in SQL and
/// ``ReadMark/effective(flags:ts:id:)`` in code (windows, `is:unread`, counters, `check`).
/// A write that would put an unread item at or before the mark (a message that arrives late,
/// with an older time) first applies the mark to the flags it covers (``materialize(chat:_:)``)
/// and removes it, so that flags alone are the truth again for that chat.
package struct ReadMark: Sendable, Equatable {
    package var ts: Int64
    package var id: Int64

    /// No mark: the flags alone say what is unread.
    package static let none = ReadMark(ts: .min, id: .min)

    package init(ts: Int64, id: Int64) {
        self.ts = ts
        self.id = id
    }

    /// Whether the item at `(ts, id)` lies at or before the mark (and is therefore read).
    package func covers(ts: Int64, id: Int64) -> Bool { (ts, id) <= (self.ts, self.id) }

    /// The flags as readers see them: `unread` cleared for an item the mark covers.
    package func effective(flags: Int64, ts: Int64, id: Int64) -> Int64 {
        covers(ts: ts, id: id) ? flags & ~ItemFlags.unread.rawValue : flags
    }

    /// The SQL condition "the item is unread" for an item row aliased `item` of a chat row aliased `chat`.
    package static func unreadSQL(item i: String, chat c: String) -> String {
        "(\(ItemFlags.sql("\(i).flags", set: .unread)) AND (\(i).ts, \(i).id) > (\(c).readTs, \(c).readId))"
    }

    /// The mark of a chat (``none`` when it has none).
    package static func of(chat: Int64, _ db: Database) throws -> ReadMark {
        guard
            let r = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT readTs, readId FROM chat WHERE id = ?"), arguments: [chat])
        else { return .none }
        return ReadMark(ts: r[0], id: r[1])
    }

    /// Moves the chat's mark forward to `through` (never back) and sets the chat's unread
    /// counters to what stays unread after it; the archive's count loses the difference.
    ///
    /// - Complexity: O(log n) plus the unread items after the new mark, counted in the partial
    ///   unread indexes (none when a chat is read to its end); no item row is written.
    package static func advance(chat: Int64, through: ReadMark, _ db: Database) throws {
        let old = try of(chat: chat, db)
        guard (through.ts, through.id) > (old.ts, old.id) else { return }
        // What the chat counts now is what lies after the old mark; what stays is what lies
        // after the new one (counted there: an app marks read up to about the newest item).
        let after = "chatId = ?1 AND (ts, id) > (?2, ?3)"
        let arguments: StatementArguments = [chat, through.ts, through.id]
        let unread =
            try Int64.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT count(*) FROM item INDEXED BY item_unreadAll WHERE \(after) AND \(ItemFlags.sql(set: .unread))"
                ),
                arguments: arguments) ?? 0
        let mentions =
            try Int64.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT count(*) FROM item INDEXED BY item_unreadMention WHERE \(after) AND \(ItemFlags.sql(set: [.unread, .mentionsUser], clear: .deleted))"
                ),
                arguments: arguments) ?? 0
        let before =
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT unreadCount FROM chat WHERE id = ?"), arguments: [chat]) ?? 0
        try db.cachedStatement(
            sql: "UPDATE chat SET readTs = ?2, readId = ?3, unreadCount = ?4, unreadMentions = ?5 WHERE id = ?1"
        ).execute(arguments: [chat, through.ts, through.id, unread, mentions])
        try ArchiveCounters.add(unread - before, to: ArchiveCounters.unreadItems, db)
    }

    /// Applies the chat's mark to the flags it covers and removes it. Counters do not change:
    /// they already count those items as read.
    ///
    /// - Complexity: one row update per flagged item the mark covers (rare: only a write that
    ///   puts an unread item at or before the mark needs it).
    package static func materialize(chat: Int64, _ db: Database) throws {
        let mark = try of(chat: chat, db)
        guard mark != .none else { return }
        try db.cachedStatement(
            sql: """
                UPDATE item INDEXED BY item_unreadAll SET flags = flags & ~4, contentHash = 0
                WHERE chatId = ? AND \(ItemFlags.sql(set: .unread)) AND (ts, id) <= (?, ?)
                """
        ).execute(arguments: [chat, mark.ts, mark.id])
        try db.cachedStatement(sql: "UPDATE chat SET readTs = ?2, readId = ?2 WHERE id = ?1").execute(
            arguments: [chat, Int64.min])
    }
}
