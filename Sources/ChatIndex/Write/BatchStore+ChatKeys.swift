import ChatText
import Foundation
import GRDB

// Chat keys of new items and their rows in the chat-keyed index (see ChatKeys).
extension BatchStore {
    /// The archive's key layout, read once (it is fixed for the archive's life).
    func keyLayout(_ db: Database) throws -> ChatKeys.Layout {
        if let keyLayout { return keyLayout }
        let layout = try ChatKeys.Layout.of(db)
        keyLayout = layout
        return layout
    }

    /// The chat's keying state, looked up once per transaction while no other writer commits.
    func keyTail(_ chat: Int64, _ db: Database) throws -> KeyTail {
        if let t = keyTails[chat] { return t }
        var tail = KeyTail(keyed: false)
        if chat <= ChatKeys.maxChatId {
            let state = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT keyed FROM chat WHERE id = ?"), arguments: [chat])
            if state == 1 {
                let r = try keyLayout(db).range(of: chat)
                tail = KeyTail(keyed: true)
                if let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql:
                            "SELECT id, chatKey FROM item WHERE chatKey BETWEEN ? AND ? ORDER BY chatKey DESC LIMIT 1"),
                    arguments: [r.lowerBound, r.upperBound])
                {
                    tail.id = row[0]
                    tail.key = row[1]
                }
            } else if state == 0,
                try
                    !(Bool.fetchOne(
                        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM item WHERE chatId = ?)"),
                        arguments: [chat])
                    ?? true)
            {
                // A chat with no items yet (made by another path than this writer's) starts keyed.
                try db.cachedStatement(sql: "UPDATE chat SET keyed = 1 WHERE id = ?").execute(arguments: [chat])
                tail = KeyTail(keyed: true)
            }
        }
        keyTails[chat] = tail
        return tail
    }

    /// The key a new item of `chat` with archive id `id` and time `ts` takes, or nil when the
    /// chat is not keyed or has no room for it between its neighbours (the item then gets its
    /// key at the end of the transaction, see ``keyItemsWithoutRoom(_:)``).
    ///
    /// - Complexity: no lookup for an item newer than the chat's newest (the usual case);
    ///   otherwise two index lookups: the item before it in time, and the next key after that
    ///   one's, which is the item after it in id unless items of one time slot came out of
    ///   order (a few more, ``neighboursInIds(chat:id:ts:keyedOnly:in:_:)``).
    func proposeKey(chat: Int64, id: Int64, ts: Int64, _ db: Database) throws -> Int64? {
        let tail = try keyTail(chat, db)
        guard tail.keyed else { return nil }
        let layout = try keyLayout(db)
        let r = layout.range(of: chat)
        guard let tailKey = tail.key else { return r.lowerBound + layout.firstPlace }
        if id > tail.id {
            let k = tailKey + layout.gap
            return k <= r.upperBound ? k : nil
        }
        guard let (before, after) = try neighboursInIds(chat: chat, id: id, ts: ts, keyedOnly: false, in: r, db),
            let after
        else { return nil }
        let predecessorKey = before?.key ?? r.lowerBound
        let room = after.key - predecessorKey
        guard room >= 2 else { return nil }
        if before == nil {
            return after.key - min(layout.gap, room / 2)
        }
        return predecessorKey + min(layout.lateStep, room / 2)
    }

    /// The most keys ``neighboursInIds(chat:id:ts:keyedOnly:in:_:)`` walks past.
    static let neighbourWalk = 64

    /// The keyed items just below and above archive id `id` in `chat`, whose keys lie in `r`
    /// (keys follow ids), for a new item of time `ts`: found from the item before it in time,
    /// then along the keys past the items whose ids disagree with their times. Those are items
    /// that shared a time slot with a later item of the chat written before them, whose id they
    /// had to follow (ArchiveIds; since format 22 a slot is a second), so the walk is short.
    /// `nil` when the item before it in time has no key (`keyedOnly` false) or the walk passes
    /// ``neighbourWalk`` keys (a time that was edited).
    private func neighboursInIds(
        chat: Int64, id: Int64, ts: Int64, keyedOnly: Bool, in r: ClosedRange<Int64>, _ db: Database
    ) throws -> (below: (key: Int64, id: Int64)?, above: (key: Int64, id: Int64)?)? {
        let keyed = keyedOnly ? " AND chatKey IS NOT NULL" : ""
        let first = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT chatKey, id FROM item WHERE chatId = ? AND (ts, id) < (?, ?)\(keyed)
                    ORDER BY ts DESC, id DESC LIMIT 1
                    """), arguments: [chat, ts, id])
        var below: (key: Int64, id: Int64)? = nil
        if let first {
            guard let key = first[0] as Int64? else { return nil }
            below = (key, first[1])
        }
        let previous = try db.cachedStatement(
            sql: "SELECT chatKey, id FROM item WHERE chatKey < ? AND chatKey >= ? ORDER BY chatKey DESC LIMIT 1")
        let next = try db.cachedStatement(
            sql: "SELECT chatKey, id FROM item WHERE chatKey > ? AND chatKey <= ? ORDER BY chatKey LIMIT 1")
        func step(_ statement: Statement, from key: Int64, bound: Int64) throws -> (key: Int64, id: Int64)? {
            try Row.fetchOne(statement, arguments: [key, bound]).map { ($0[0], $0[1]) }
        }
        var steps = 0
        while let b = below, b.id > id {
            steps += 1
            guard steps <= Self.neighbourWalk else { return nil }
            below = try step(previous, from: b.key, bound: r.lowerBound)
        }
        var above = try step(next, from: below?.key ?? r.lowerBound - 1, bound: r.upperBound)
        while let a = above, a.id < id {
            steps += 1
            guard steps <= Self.neighbourWalk else { return nil }
            below = a
            above = try step(next, from: a.key, bound: r.upperBound)
        }
        return (below, above)
    }

    /// Records the key a new item took (nil in a keyed chat: the item waits for room).
    func noteKey(_ key: Int64?, id: Int64, chat: Int64) {
        guard var tail = keyTails[chat], tail.keyed else { return }
        guard let key else {
            withoutRoom.append((chat: chat, id: id))
            return
        }
        if id > tail.id {
            tail.id = id
            tail.key = key
            keyTails[chat] = tail
        }
    }

    /// Writes this transaction's rows of the chat-keyed index, in key order (one FTS5 flush).
    func writeChatKeyedRows(_ fts: [FTSOp], _ db: Database) throws {
        // Positions, not copies of the rows (each copy retains three strings and two documents).
        let keyed = fts.indices.filter { fts[$0].chatKey != nil }.sorted {
            (fts[$0].chatKey!, fts[$0].isDelete ? 0 : 1) < (fts[$1].chatKey!, fts[$1].isDelete ? 0 : 1)
        }
        guard !keyed.isEmpty else { return }
        let insert = try ChatKeys.insertStatement(db)
        let delete = try ChatKeys.deleteStatement(db)
        for k in keyed { try fts[k].write(fts[k].isDelete ? delete : insert, rowid: fts[k].chatKey) }
    }

    /// Keys the items that found no room between their neighbours, after this transaction's
    /// rows are written: the keys of the items around each are spread evenly over a wider
    /// span (16 items on each side, then 128, 1,024, 8,192), their rows moved; when no span
    /// has room, or the item's neighbours in id lie far from its neighbours in time (a time
    /// that was edited), the chat loses its keys (``ChatKeys/dropKeys(chat:_:)``).
    func keyItemsWithoutRoom(_ db: Database) throws {
        for (chat, id) in withoutRoom where try keyTail(chat, db).keyed {
            if try !makeRoom(chat: chat, id: id, db) {
                losingKeys.insert(chat)
                keyTails[chat] = KeyTail(keyed: false)
            }
        }
        withoutRoom.removeAll()
    }

    /// Re-spaces the keys around item `id` of `chat` and gives it one; false when it cannot.
    private func makeRoom(chat: Int64, id: Int64, _ db: Database) throws -> Bool {
        guard let ts = try Int64.fetchOne(db.cachedStatement(sql: "SELECT ts FROM item WHERE id = ?"), arguments: [id])
        else { return true }
        let layout = try keyLayout(db)
        let r = layout.range(of: chat)
        // Its neighbours in id, near its neighbours in time.
        guard let (before, _) = try neighboursInIds(chat: chat, id: id, ts: ts, keyedOnly: true, in: r, db) else {
            return false
        }
        let pivot = before?.key ?? r.lowerBound
        let below = try db.cachedStatement(
            sql: "SELECT chatKey, id FROM item WHERE chatKey BETWEEN ? AND ? ORDER BY chatKey DESC LIMIT ?")
        let above = try db.cachedStatement(
            sql: "SELECT chatKey, id FROM item WHERE chatKey > ? AND chatKey <= ? ORDER BY chatKey LIMIT ?")
        for side in [16, 128, 1_024, 8_192] {
            let lower = try Row.fetchAll(below, arguments: [r.lowerBound, pivot, side + 1]).map {
                (key: $0[0] as Int64, id: $0[1] as Int64)
            }
            let upper = try Row.fetchAll(above, arguments: [pivot, r.upperBound, side + 1]).map {
                (key: $0[0] as Int64, id: $0[1] as Int64)
            }
            if let first = upper.first, first.id < id { return false }
            // The span: from the key before the window (or the range's start) to the one after it.
            let low = lower.count > side ? lower[side].key : r.lowerBound
            let high = upper.count > side ? upper[side].key : r.upperBound + 1
            let window = Array(lower.prefix(side).reversed()) + [(key: Int64(-1), id: id)] + Array(upper.prefix(side))
            let step = (high - low) / Int64(window.count + 1)
            guard step >= 2 * layout.lateStep else { continue }
            try respace(window, from: low, step: step, db)
            keyTails[chat] = nil  // its newest key may have moved
            return true
        }
        return false
    }

    /// Gives the items of `window` (in id order; key -1: none yet) the keys `from + step`,
    /// `from + 2·step`, …, moving their rows: all old rows and keys out first, since a new key
    /// may be an old one of another item of the window.
    private func respace(_ window: [(key: Int64, id: Int64)], from low: Int64, step: Int64, _ db: Database) throws {
        let moving = window.enumerated().map { (item: $0.element, key: low + Int64($0.offset + 1) * step) }
            .filter { $0.key != $0.item.key }
        let read = try db.cachedStatement(
            sql: "SELECT chat_text(text), extra, \(storedTags.wholeSQL) FROM item WHERE id = ?")
        let clearKey = try db.cachedStatement(sql: "UPDATE item SET chatKey = NULL WHERE id = ?")
        let delete = try ChatKeys.deleteStatement(db)
        for m in moving where m.item.key >= 0 {
            guard let row = try Row.fetchOne(read, arguments: [m.item.id]) else { continue }
            try delete.execute(arguments: [m.item.key, row[0], row[1], row[2]])
            try clearKey.execute(arguments: [m.item.id])
        }
        for m in moving { try ChatKeys.give(m.key, toItem: m.item.id, tags: storedTags, db) }
    }
}
