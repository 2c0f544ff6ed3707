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
    ///   one's, which must be the item after it.
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
        let before = try Row.fetchOne(
            db.cachedStatement(
                sql:
                    "SELECT chatKey, id FROM item WHERE chatId = ? AND (ts, id) < (?, ?) ORDER BY ts DESC, id DESC LIMIT 1"
            ), arguments: [chat, ts, id])
        let predecessorKey: Int64
        if let before {
            guard let k = before[0] as Int64?, (before[1] as Int64) < id else { return nil }
            predecessorKey = k
        } else {
            predecessorKey = r.lowerBound
        }
        guard
            let after = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT chatKey, id FROM item WHERE chatKey > ? AND chatKey <= ? ORDER BY chatKey LIMIT 1"),
                arguments: [predecessorKey, r.upperBound]),
            (after[1] as Int64) > id
        else { return nil }
        let successorKey: Int64 = after[0]
        let room = successorKey - predecessorKey
        guard room >= 2 else { return nil }
        if before == nil {
            return successorKey - min(layout.gap, room / 2)
        }
        return predecessorKey + min(layout.lateStep, room / 2)
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
    /// has room, or the item's neighbours in time are not its neighbours in id (a time that was
    /// edited), the chat loses its keys (``ChatKeys/dropKeys(chat:_:)``).
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
        // The keyed item before it in time must be the one before it in id.
        let before = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT chatKey, id FROM item WHERE chatId = ? AND (ts, id) < (?, ?) AND chatKey IS NOT NULL
                    ORDER BY ts DESC, id DESC LIMIT 1
                    """), arguments: [chat, ts, id])
        let pivot: Int64 = before?[0] ?? r.lowerBound
        if let before, (before[1] as Int64) > id { return false }
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
