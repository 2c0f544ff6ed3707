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
            throw ArchiveError.unknownChat(chat)
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
            throw ArchiveError.unknownChat(chat)
        }
        let filtered = content != nil || !(search ?? "").isEmpty
        func anchor(_ id: Int64) throws -> (ts: Int64, id: Int64) {
            guard
                let ts = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT ts FROM item WHERE id = ? AND chatId = ?"), arguments: [id, chatId])
            else {
                throw ArchiveError.unknownItem(id: id, chat: chat)
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
                        WHERE chatId = ? AND \(ItemFlags.sql(set: .unread)) AND (ts, id) > (?, ?) ORDER BY ts, id LIMIT 1
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
                info = try navigationInfo(
                    chat: chatId, newest: ReadMark(ts: newest.timestamp.milliseconds, id: newest.id), db)
            } else {
                info = NavigationInfo(afterTotal: 0, afterUnread: 0)
            }
        }
        var result = ItemWindow(items: items, navInfo: info)
        result.spans = try spans(of: items.map(\.id), db)
        if let oldest = items.first, let newest = items.last {
            result.counts = try counts(chat: chatId, oldest: oldest.id, newest: newest.id, db)
        }
        return result
    }

    /// The window `request` asks for, grown by up to `older` items before it and `newer`
    /// items after it (with the same filters): a chat view that the user scrolled both ways.
    /// Its navigation info, when the request gives one, is about its newest item.
    package static func window(
        chat: String, _ request: WindowRequest, content: ContentFilter?, search: String?, older: Int, newer: Int,
        in db: Database
    ) throws -> ItemWindow {
        var grown = try window(chat: chat, request, content: content, search: search, in: db)
        guard older > 0 || newer > 0, let first = grown.items.first, let last = grown.items.last else { return grown }
        func part(_ request: WindowRequest) throws -> ItemWindow {
            let part = try window(chat: chat, request, content: content, search: search, in: db)
            grown.spans.merge(part.spans) { shown, _ in shown }
            return part
        }
        if older > 0 { grown.items = try part(.before(first.id, count: older)).items + grown.items }
        if newer > 0 { grown.items += try part(.after(last.id, count: newer)).items }
        guard
            let chatId = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM chat WHERE sourceId = ?"), arguments: [chat]),
            let oldest = grown.items.first, let newest = grown.items.last
        else { return grown }
        grown.counts = try counts(chat: chatId, oldest: oldest.id, newest: newest.id, db)
        if grown.navInfo != nil, newest.id != last.id {
            grown.navInfo = try navigationInfo(
                chat: chatId, newest: ReadMark(ts: newest.timestamp.milliseconds, id: newest.id), db)
        }
        return grown
    }

    /// How many of the chat's items lie before `oldest` and after `newest`, from their positions.
    static func counts(chat: Int64, oldest: Int64, newest: Int64, _ db: Database) throws -> WindowCounts {
        let position = try db.cachedStatement(sql: "SELECT pos FROM item WHERE id = ?")
        let first = try Int.fetchOne(position, arguments: [oldest]) ?? 1
        let here = try Int.fetchOne(position, arguments: [newest]) ?? 0
        return WindowCounts(before: max(0, first - 1), after: max(0, try lastPosition(chat: chat, db) - here))
    }

    /// The position of the chat's newest item (its item count), 0 for an empty chat.
    private static func lastPosition(chat: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT pos FROM item WHERE chatId = ? ORDER BY ts DESC, id DESC LIMIT 1"),
            arguments: [chat]) ?? 0
    }

    /// What lies after the newest item a window shows: all items, and the unread ones.
    ///
    /// - Complexity: O(log n) for `afterTotal` (from positions), and for `afterUnread` when the
    ///   shown item lies before the chat's first unread item or after its last (the chat's
    ///   unread count, or none), and inside that span when every item of it is unread (by
    ///   positions). Otherwise it counts entries of the partial unread index on the shorter
    ///   side: after the shown item, or between the read mark and it (then subtracted from the
    ///   chat's unread count).
    static func navigationInfo(chat: Int64, newest shown: ReadMark, _ db: Database) throws -> NavigationInfo {
        let last = try lastPosition(chat: chat, db)
        let here =
            try Int.fetchOne(db.cachedStatement(sql: "SELECT pos FROM item WHERE id = ?"), arguments: [shown.id]) ?? 0
        let afterTotal = max(0, last - here)
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT readTs, readId, unreadCount FROM chat WHERE id = ?"), arguments: [chat])
        else { return NavigationInfo(afterTotal: afterTotal, afterUnread: 0) }
        let mark = ReadMark(ts: row[0], id: row[1])
        let unreadAfterMark: Int = row[2]
        // Everything the chat counts as unread lies after the shown item when the mark covers
        // it, or when the first unread item after the mark comes after it.
        if mark.covers(ts: shown.ts, id: shown.id) {
            return NavigationInfo(afterTotal: afterTotal, afterUnread: unreadAfterMark)
        }
        func edge(_ sql: String, _ arguments: StatementArguments) throws -> (at: ReadMark, pos: Int)? {
            try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments).map {
                (ReadMark(ts: $0[0], id: $0[1]), $0[2])
            }
        }
        guard
            let first = try edge(
                """
                SELECT ts, id, pos FROM item WHERE id = (
                    SELECT id FROM item INDEXED BY item_unreadAll
                    WHERE chatId = ? AND \(ItemFlags.sql(set: .unread)) AND (ts, id) > (?, ?) ORDER BY ts, id LIMIT 1)
                """, [chat, mark.ts, mark.id]),
            !first.at.covers(ts: shown.ts, id: shown.id) || first.at == shown
        else { return NavigationInfo(afterTotal: afterTotal, afterUnread: unreadAfterMark) }
        guard
            let lastUnread = try edge(
                """
                SELECT ts, id, pos FROM item WHERE id = (
                    SELECT id FROM item INDEXED BY item_unreadAll
                    WHERE chatId = ? AND \(ItemFlags.sql(set: .unread)) ORDER BY ts DESC, id DESC LIMIT 1)
                """, [chat]),
            lastUnread.at.covers(ts: shown.ts, id: shown.id), lastUnread.at != shown
        else { return NavigationInfo(afterTotal: afterTotal, afterUnread: 0) }
        // A backlog: every item from the first unread to the last is unread, so the positions
        // count them (a chat with 100,000 unread items counted them one by one).
        if unreadAfterMark == lastUnread.pos - first.pos + 1 {
            return NavigationInfo(afterTotal: afterTotal, afterUnread: lastUnread.pos - here)
        }
        let afterUnread =
            lastUnread.pos - here <= here - first.pos
            ? try flaggedUnread(chat: chat, after: shown, through: nil, db)
            : unreadAfterMark - (try flaggedUnread(chat: chat, after: mark, through: shown, db))
        return NavigationInfo(afterTotal: afterTotal, afterUnread: max(0, afterUnread))
    }

    /// The items flagged unread in `chat` after `a` and up to `b` (to the end when `nil`),
    /// counted in the partial unread index by plain key ranges: a row-value comparison would be
    /// evaluated for every entry and costs twice as much.
    static func flaggedUnread(chat: Int64, after a: ReadMark, through b: ReadMark?, _ db: Database) throws -> Int {
        func count(_ condition: String, _ arguments: StatementArguments) throws -> Int {
            try Int.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT count(*) FROM item INDEXED BY item_unreadAll WHERE chatId = ? AND \(ItemFlags.sql(set: .unread)) AND "
                        + condition),
                arguments: [chat] + arguments) ?? 0
        }
        let ties = "ts = ? AND id > ? AND id <= ?"
        if let b, b.ts == a.ts { return try count(ties, [a.ts, a.id, b.id]) }
        let first = try count(ties, [a.ts, a.id, Int64.max])
        guard let b else { return try first + count("ts > ?", [a.ts]) }
        return try first + count("ts > ? AND ts < ?", [a.ts, b.ts]) + count(ties, [b.ts, Int64.min, b.id])
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
