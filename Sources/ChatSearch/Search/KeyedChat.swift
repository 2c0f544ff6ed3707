import ChatIndex
import GRDB

/// A chat searched through its rowid range of the chat-keyed index (see `ChatKeys`): FTS5
/// reads only this chat's part of each posting list, whatever the word's frequency elsewhere.
struct KeyedChat {
    let id: Int64
    /// The chat's rowid range in the chat-keyed index.
    let range: ClosedRange<Int64>
    /// Whether the index has positions (archives made before format 19): without them, a
    /// query's phrases are checked on the candidates' text (`CompiledQuery/checks`).
    let hasPositions: Bool

    /// The chat, when its keys are complete (state `1`) in an archive that has them; its state,
    /// the archive's key layout and the index's kind in one statement (each search in a chat asks).
    static func ifKeyed(_ chat: Int64, _ db: Database) -> KeyedChat? {
        guard chat <= ChatKeys.maxChatId,
            let row = try? Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT keyed, (SELECT value FROM meta WHERE key = ?), (SELECT value FROM meta WHERE key = ?)
                        FROM chat WHERE id = ?
                        """),
                arguments: [ChatKeys.Layout.metaKey, ChatKeys.positionsMetaKey, chat]),
            row[0] as Int? == 1
        else { return nil }
        return KeyedChat(
            id: chat, range: ChatKeys.Layout.with(bits: row[1]).range(of: chat), hasPositions: row[2] as String? != "0")
    }

    /// The key that splits the chat's items at archive id `x`: every key below it is an item
    /// with a smaller id, every key at or above it an item whose id is at least `x` (keys follow
    /// ids within a chat).
    ///
    /// - Complexity: one lookup when `x` is an item of the chat (a paging cursor); otherwise a
    ///   binary search of the key space, at most 36 index probes (44 in archives made before
    ///   format 14; a date bound).
    func keyBound(id x: Int64, _ db: Database) throws -> Int64 {
        let r = range
        if x == Int64.max { return r.upperBound + 1 }
        if x == Int64.min { return r.lowerBound }
        if let k = try key(ofItem: x, db) { return k }
        let probe = try db.cachedStatement(
            sql: "SELECT chatKey, id FROM item WHERE chatKey >= ? AND chatKey < ? ORDER BY chatKey LIMIT 1")
        var lo = r.lowerBound
        var hi = r.upperBound + 1
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            // No key in [mid, hi), or the first one's id is at least x: the split is below mid.
            guard let row = try Row.fetchOne(probe, arguments: [mid, hi]), (row[1] as Int64) < x else {
                hi = mid
                continue
            }
            lo = (row[0] as Int64) + 1
        }
        return lo
    }

    /// ``keyBound(id:_:)`` in a few lookups, for `x` an item of the chat or the first id of a
    /// millisecond's slot (as period bounds are): the key of the chat's first item at or after
    /// that millisecond by the `(chat, ts, id)` index, then back over the items before it whose
    /// ids were pushed to `x` or past by others sharing their millisecond (keys follow ids within
    /// a keyed chat, and an item's id is never below its millisecond's slot).
    func slotKeyBound(id x: Int64, scale: ArchiveIds.Scale, _ db: Database) throws -> Int64 {
        if x == Int64.max { return range.upperBound + 1 }
        if x == Int64.min { return range.lowerBound }
        if let k = try key(ofItem: x, db) { return k }
        let ms = scale.firstMillisecond(atOrAfterId: x)
        var bound =
            try Int64.fetchOne(
                db.cachedStatement(
                    sql: "SELECT chatKey FROM item WHERE chatId = ? AND ts >= ? ORDER BY ts, id LIMIT 1"),
                arguments: [id, ms]) ?? range.upperBound + 1
        let previous = try db.cachedStatement(
            sql: "SELECT chatKey, id FROM item WHERE chatKey < ? AND chatKey >= ? ORDER BY chatKey DESC LIMIT 1")
        while let row = try Row.fetchOne(previous, arguments: [bound, range.lowerBound]), (row[1] as Int64) >= x {
            bound = row[0]
        }
        return bound
    }

    /// The archive id of the chat's item with key `key`.
    func id(ofKey key: Int64, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM item WHERE chatKey = ?"), arguments: [key])
    }

    /// The key of item `x` when it is an item of this chat.
    func key(ofItem x: Int64, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT chatKey FROM item WHERE id = ? AND chatId = ?"), arguments: [x, id])
    }

    /// The keys of archive ids in `[lower, upper)`, as `[low, high)`.
    func keyRange(lower: Int64, upper: Int64, _ db: Database) throws -> (low: Int64, high: Int64) {
        (try keyBound(id: lower, db), try keyBound(id: upper, db))
    }
}
