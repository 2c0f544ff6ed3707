import ChatIndex
import ChatModel
import GRDB

/// Windows of a chat's items, ordered by `(ts, id)`.
package enum ItemWindows {
    /// The archive id of the item whose source id is `sourceId` in `chat` (what a quote names),
    /// or `nil` when the archive does not hold it (the export left it out, or it was deleted).
    ///
    /// - Throws: `ArchiveError` `.unknownChat` when there is no such chat.
    package static func itemId(chat: String, sourceId: String, in db: Database) throws -> Int64? {
        guard
            let chatId = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM chat WHERE sourceId = ?"), arguments: [chat])
        else {
            throw ArchiveError(.unknownChat, "no chat with id \"\(chat)\"")
        }
        return try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM item WHERE chatId = ? AND sourceId = ?"),
            arguments: [chatId, sourceId])
    }

    /// A window of a chat's items; an unknown chat or anchor id throws `ArchiveError` (`ArchiveError/Code/unknownChat`, `ArchiveError/Code/unknownItem`).
    ///
    /// - Parameters:
    ///   - chat: the chat's source id.
    ///   - request: which items: `last`, `before`, `after`, `around`, `initial` or `at`.
    ///   - content: an optional content filter; the anchor of `around` is included regardless.
    ///   - search: an optional search query; the anchor of `around` is included regardless.
    ///   - db: a database connection of the archive.
    package static func window(
        chat: String, _ request: WindowRequest, content: ContentFilter? = nil, search: String? = nil, in db: Database
    ) throws -> ItemWindow {
        guard
            let chatId = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM chat WHERE sourceId = ?"), arguments: [chat])
        else {
            throw ArchiveError(.unknownChat, "no chat with id \"\(chat)\"")
        }
        let filtered = content != nil || !(search ?? "").isEmpty
        func anchor(_ id: Int64) throws -> (ts: Int64, id: Int64) {
            guard
                let ts = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT ts FROM item WHERE id = ? AND chatId = ?"), arguments: [id, chatId])
            else {
                throw ArchiveError(.unknownItem, "no item with id \(id) in chat \"\(chat)\"")
            }
            return (ts, id)
        }
        func page(before a: (ts: Int64, id: Int64)?, after b: (ts: Int64, id: Int64)?, count: Int, newestFirst: Bool)
            throws
            -> [ArchivedItem]
        {
            guard count > 0 else { return [] }
            let n = min(count, 100_000)
            if filtered {
                return try ArchivedItem.fetch(
                    MessageSearch.matchingIds(
                        search, content: content, chatId: chatId, below: a?.id, above: b?.id, limit: n,
                        descending: newestFirst, db),
                    db)
            }
            // Whole rows straight from the (chatId, ts, id) index: no second lookup by id.
            return try ArchivedItem.fetch(chatId: chatId, before: a, after: b, limit: n, newestFirst: newestFirst, db)
        }
        var items: [ArchivedItem]
        var nav = false
        switch request {
        case .last(let n):
            items = try page(before: nil, after: nil, count: n, newestFirst: true).reversed()
        case .before(let id, let n):
            items = try page(before: anchor(id), after: nil, count: n, newestFirst: true).reversed()
        case .after(let id, let n):
            items = try page(before: nil, after: anchor(id), count: n, newestFirst: false)
        case .around(let id, let n):
            let a = try anchor(id)
            items =
                try page(before: a, after: nil, count: n, newestFirst: true).reversed() + ArchivedItem.fetch([id], db)
                + page(before: nil, after: a, count: n, newestFirst: false)
            nav = true
        case .initial(let n):
            // The oldest unread item: the first flagged one after the chat's read mark.
            let mark = try ReadMark.of(chat: chatId, db)
            if let unread = try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT id FROM item INDEXED BY item_unreadAll
                        WHERE chatId = ? AND flags & 4 = 4 AND (ts, id) > (?, ?) ORDER BY ts, id LIMIT 1
                        """),
                arguments: [chatId, mark.ts, mark.id])
            {
                return try window(chat: chat, .around(unread, count: n), content: content, search: search, in: db)
            }
            items = try page(before: nil, after: nil, count: n, newestFirst: true).reversed()
            nav = true
        case .at(let time, let n):
            if let first = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM item WHERE chatId = ? AND ts >= ? ORDER BY ts, id LIMIT 1"),
                arguments: [chatId, time.milliseconds])
            {
                return try window(chat: chat, .around(first, count: n), content: content, search: search, in: db)
            }
            items = try page(before: nil, after: nil, count: n, newestFirst: true).reversed()
            nav = true
        }
        var info: NavigationInfo? = nil
        if nav {
            if let newest = items.last {
                // afterTotal from positions (O(1)); afterUnread from the partial unread index.
                let last =
                    try Int.fetchOne(
                        db.cachedStatement(
                            sql: "SELECT pos FROM item WHERE chatId = ? ORDER BY ts DESC, id DESC LIMIT 1"),
                        arguments: [chatId]) ?? 0
                let here =
                    try Int.fetchOne(
                        db.cachedStatement(sql: "SELECT pos FROM item WHERE id = ?"), arguments: [newest.id]) ?? 0
                let total: Int? = max(0, last - here)
                // Unread after the newest shown item and after the chat's read mark.
                let mark = try ReadMark.of(chat: chatId, db)
                let shown = ReadMark(ts: newest.timestamp.milliseconds, id: newest.id)
                let from = mark.covers(ts: shown.ts, id: shown.id) ? mark : shown
                let unread = try Int.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT count(*) FROM item WHERE chatId = ? AND (ts, id) > (?, ?) AND flags & 4 = 4"),
                    arguments: [chatId, from.ts, from.id])
                info = NavigationInfo(afterTotal: total ?? 0, afterUnread: unread ?? 0)
            } else {
                info = NavigationInfo(afterTotal: 0, afterUnread: 0)
            }
        }
        var result = ItemWindow(items: items, navInfo: info)
        result.spans = try spans(of: items.map(\.id), db)
        return result
    }

    /// The stored markdown spans of items, by item id.
    static func spans(of ids: [Int64], _ db: Database) throws -> [Int64: [StoredSpan]] {
        guard !ids.isEmpty else { return [:] }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql:
                    "SELECT itemId, start, \"end\", format FROM itemSpan WHERE itemId IN (SELECT value FROM json_each(?)) ORDER BY itemId, seq"
            ),
            arguments: [list])
        var out: [Int64: [StoredSpan]] = [:]
        while let r = try rows.next() {
            out[r[0], default: []].append(StoredSpan(start: r[1], end: r[2], formatJSON: r[3]))
        }
        return out
    }
}
