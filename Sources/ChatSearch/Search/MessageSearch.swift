import ChatIndex
import ChatModel
import ChatText
import GRDB

/// Message search over one chat or all chats.
///
/// Every filter is part of the FTS5 MATCH (chat, content, sender, mentions, state tokens in
/// the `tags` column) and rowids follow time, so newest-first pages are `ORDER BY rowid DESC
/// LIMIT n` with a keyset cursor: complete to the very first match, at index speed for chats
/// and words of every size. A search in one chat reads that chat's rowid range of the
/// chat-keyed index instead (`KeyedChat`), when the chat's keys are complete.
package enum MessageSearch {
    /// How many of the newest matches relevance order ranks (older ones follow newest first).
    package static let relevanceCandidates = 2000

    /// The average UTF-8 bytes of an item's text, from the archive's counters (at least 1).
    static func averageTextBytes(_ db: Database) throws -> Double {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT coalesce(sum(iif(name = ?, value, 0)), 0), coalesce(sum(iif(name LIKE ?, value, 0)), 0)
                    FROM archiveCounter
                    """), arguments: [ArchiveCounters.textBytes, ArchiveCounters.itemsPrefix + "%"])
        let bytes = Double(row?[0] as Int64? ?? 0)
        let items = Double(row?[1] as Int64? ?? 0)
        return items > 0 ? max(1, bytes / items) : 1
    }
    /// Up to this many items, a chat's matches are read oldest first, all of them (see `newestPage`).
    static let ascendingWalkMaxItems = 5000
    /// A chat walked oldest first is walked in two parts, its newest this many items first (see
    /// `newestPage`).
    static let recentWindowItems = 512

    /// Runs a search; any `text` is valid, only an unknown ``SearchOptions/chat`` throws (`ArchiveError/Code/unknownChat`).
    package static func search(_ text: String, options: SearchOptions, in db: Database) throws -> SearchPage {
        guard let run = try SearchRun(text, options: options, db) else { return SearchPage(hits: [], nextCursor: nil) }
        let limit = max(1, min(options.limit, 10_000))
        let page =
            switch SearchCursor(options.cursor, order: options.order) {
            case .relevance(let offset): try run.relevancePage(from: offset, limit: limit)
            case .newest(let below): try run.newestPage(below: below, limit: limit)
            }
        return SearchPage(hits: try run.hits(page.ids), nextCursor: page.next?.text)
    }

    /// How many items a search matches (its options' chat and filters; its cursor, limit and
    /// order do not count), and the place of item `item` among them newest first.
    ///
    /// Counting stops past `limit` matches (`nil`: never): the count is then `limit` and not
    /// exact, and a place beyond `limit` is `nil`.
    ///
    /// - Complexity: O(min(matches, limit)): it walks the index's postings of the matches (in
    ///   one chat, that chat's part of each list) without reading the items, and those newer than
    ///   `item` a second time; the deleted ones among them are counted by a seek per deleted item.
    package static func count(
        _ text: String, options: SearchOptions, positionOf item: Int64?, limit: Int? = nil, in db: Database
    ) throws -> SearchCount {
        guard let run = try SearchRun(text, options: options, db) else { return SearchCount(total: 0, position: nil) }
        let (min, max) = (run.compiled.minRowid, run.compiled.maxRowid)
        let total = try run.count(lower: min, upper: max, limit: limit)
        guard let item, item >= min, item < max, try run.count(lower: item, upper: item + 1).count == 1 else {
            return SearchCount(total: total.count, position: nil, isExact: total.isExact)
        }
        let newer = try run.count(lower: item + 1, upper: max, limit: limit)
        let isCounted = newer.isExact && newer.count < (limit ?? Int.max)
        return SearchCount(total: total.count, position: isCounted ? newer.count + 1 : nil, isExact: total.isExact)
    }

    /// Archive ids matching a query inside one chat, for window filters.
    static func matchingIds(
        _ text: String?, content: ContentFilter?, chatId: Int64, below: Int64?, above: Int64?, limit: Int,
        descending: Bool, usesChatKeys: Bool = true,
        _ db: Database
    ) throws -> [Int64] {
        let query = QueryParser.parse(text ?? "")
        let keyed = usesChatKeys ? KeyedChat.ifKeyed(chatId, db) : nil
        let scope = SearchScope(
            chatIds: [chatId], chatByKeys: keyed != nil, keyedWithoutPositions: keyed?.hasPositions == false,
            content: content, includeDeleted: true)
        let compiled = try QueryCompiler.compile(query, scope: scope, db)
        if compiled.isUnsatisfiable { return [] }
        let upper = min(compiled.maxRowid, below ?? Int64.max)
        let lower = max(compiled.minRowid, above.map { $0 + 1 } ?? Int64.min)
        if let keyed {
            let high = try keyed.keyBound(id: upper, db)
            // Just above an item of the chat (a window's anchor): its key + 1, one lookup instead
            // of a search for `above + 1`.
            let low =
                try above.flatMap { a in lower == a + 1 ? try keyed.key(ofItem: a, db).map { $0 + 1 } : nil }
                ?? keyed.keyBound(id: lower, db)
            return try compiled.statement(compiled.keyedMatchesSQL(descending: descending), db).int64s(arguments: [
                compiled.match, high, low, limit,
            ])
        }
        let unread =
            compiled.requiresUnread
            ? " AND EXISTS (SELECT 1 FROM item JOIN chat ON chat.id = item.chatId WHERE item.id = itemFts.rowid AND \(ReadMark.unreadSQL(item: "item", chat: "chat")))"
            : ""
        return try db.cachedStatement(
            sql:
                "SELECT rowid FROM itemFts WHERE itemFts MATCH ? AND rowid < ? AND rowid >= ?\(unread) ORDER BY rowid \(descending ? "DESC" : "ASC") LIMIT ?"
        ).int64s(arguments: [compiled.match, upper, lower, limit])
    }
}

/// One search's compiled query and scope, and the pages read with them.
struct SearchRun {
    let options: SearchOptions
    let compiled: CompiledQuery
    let scope: SearchScope
    /// The items of the chat searched (`Int.max` for all chats).
    let chatItems: Int
    /// The chat-keyed index of the chat searched, when it has its keys.
    let keyed: KeyedChat?
    let db: Database

    /// Compiles `text` for the options' scope; `nil` when no item can match.
    init?(_ text: String, options: SearchOptions, _ db: Database) throws {
        let query = QueryParser.parse(text)
        var scope = SearchScope(content: options.content, includeDeleted: options.includeDeleted)
        var chatItems = Int.max
        var keyed: KeyedChat? = nil
        if let chat = options.chat {
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT id, itemCount FROM chat WHERE sourceId = ?"), arguments: [chat])
            else {
                throw ArchiveError.unknownChat(chat)
            }
            scope.chatIds = [row[0]]
            chatItems = row[1]
            if options.usesChatKeys { keyed = KeyedChat.ifKeyed(row[0], db) }
            // Relevance reads each match's term counts from the index, which an index without
            // positions and without content does not hold: the time-ordered index ranks.
            if options.order == .relevance, keyed?.hasPositions == false { keyed = nil }
            scope.chatByKeys = keyed != nil
            scope.keyedWithoutPositions = keyed?.hasPositions == false
        }
        let compiled = try QueryCompiler.compile(query, scope: scope, db)
        if compiled.isUnsatisfiable { return nil }
        self.options = options
        self.compiled = compiled
        self.scope = scope
        self.chatItems = chatItems
        self.keyed = keyed
        self.db = db
    }

    /// A page newest first, below `below` (from the newest when `nil`), and the cursor of the next.
    func newestPage(below: Int64?, limit: Int) throws -> (ids: [Int64], next: SearchCursor?) {
        var upper = compiled.maxRowid
        if let below { upper = min(upper, below) }
        var ids = try newest(below: upper, count: limit + 1)
        var next: SearchCursor? = nil
        if ids.count > limit {
            ids.removeLast()
            next = .newest(below: ids[ids.count - 1])
        }
        return (ids, next)
    }

    /// Newest-first matches strictly below `upper`: lazy, one page read whatever the word's frequency.
    func newest(below upper: Int64, count: Int) throws -> [Int64] {
        if let keyed {
            // The chat's own rowid range: a page costs what the chat holds of the word.
            let keys = try keyed.keyRange(lower: compiled.minRowid, upper: upper, db)
            return try compiled.statement(compiled.keyedMatchesSQL(), db).int64s(arguments: [
                compiled.match, keys.high, keys.low, count,
            ])
        }
        if chatItems <= options.ascendingWalkMaxItems { return try newestOfSmallChat(below: upper, count: count) }
        return try db.cachedStatement(sql: compiled.matchesSQL()).int64s(arguments: [
            compiled.match, upper, compiled.minRowid, count,
        ])
    }

    /// ``newest(below:count:)`` in a chat of bounded size, walked oldest first.
    ///
    /// FTS5 joins the chat's sparse posting list with a word's long one faster walking up than
    /// down (reverse iteration re-parses pages), and the chat bounds how many matches come back.
    /// Its newest `recentWindowItems` first: a word frequent in the chat fills the page there,
    /// and otherwise the older items follow, the two parts costing what one walk did plus the
    /// lookup of where to split. More parts helped no word further and cost rare ones (see
    /// SearchPerformance.md in ChatSearch.docc).
    private func newestOfSmallChat(below upper: Int64, count: Int) throws -> [Int64] {
        let sql = compiled.matchesSQL(ascending: true)
        var matches: [Int64] = []
        var below = upper
        if chatItems > options.recentWindowItems, let chat = scope.chatIds?.first,
            let split = try Int64.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT id FROM item WHERE chatId = ? AND id < ? ORDER BY ts DESC, id DESC LIMIT 1 OFFSET ?"
                ), arguments: [chat, upper, options.recentWindowItems - 1]),
            split > compiled.minRowid
        {
            matches = try db.cachedStatement(sql: sql).int64s(arguments: [compiled.match, upper, split])
            if matches.count >= count { return Array(matches.suffix(count).reversed()) }
            below = split
        }
        let older = try db.cachedStatement(sql: sql).int64s(arguments: [compiled.match, below, compiled.minRowid])
        return Array((older + matches).suffix(count).reversed())
    }

    /// A page in relevance order from `offset` among the ranked candidates, then every older
    /// match newest first, and the cursor of the next.
    ///
    /// Relevance over a bounded candidate set (scoring every match of a frequent word costs too
    /// much: see SearchPerformance.md in ChatSearch.docc): the newest `relevanceCandidates` matches ranked
    /// by BM25 blended with recency, then every older match newest first — paging stays complete.
    func relevancePage(from offset: Int, limit: Int) throws -> (ids: [Int64], next: SearchCursor?) {
        let rows = try relevanceCandidates()
        let more = rows.count > MessageSearch.relevanceCandidates
        let candidates = rows.prefix(MessageSearch.relevanceCandidates).map {
            (id: $0[0] as Int64, score: $0[1] as Double)
        }
        let ranked = candidates.sorted { ($0.score, -$0.id) < ($1.score, -$1.id) }.map(\.id)
        var ids = Array(ranked.dropFirst(offset).prefix(limit))
        var next: SearchCursor? = nil
        if offset + limit < ranked.count {
            next = .relevance(offset: offset + limit)
        } else if more, let oldest = candidates.last?.id {
            // Fill the page with the matches older than every candidate.
            let room = limit - ids.count
            var older = try newest(below: oldest, count: room + 1)
            if older.count > room {
                older.removeLast()
                next = .newest(below: older.last ?? oldest)
            }
            ids += older
        }
        return (ids, next)
    }

    /// The newest `relevanceCandidates + 1` matches, newest first, each with its score.
    ///
    /// BM25 by `chat_bm25` (CChatICU): FTS5's formula with the row's length passed in, the
    /// UTF-8 bytes of its text over the archive's average, instead of its tokens read from the
    /// index's sizes table, which format 11 no longer writes (`Migrations.itemFtsSQL`). The
    /// score is negative (more negative = better); dividing by a factor growing with age moves
    /// older items down. Text matches weigh more than link targets and file names.
    private func relevanceCandidates() throws -> [Row] {
        let newest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM item")) ?? 0
        let average = try MessageSearch.averageTextBytes(db)
        // A year of ids: a year's milliseconds times the archive's ids per millisecond (more
        // in archives made before format 12, fewer since format 22).
        let year = String(31_535_156_250 * (try ArchiveIds.scale(db)).idsPerMillisecond)
        func score(_ table: String, id: String, length: String) -> String {
            ", chat_bm25(\(table), 10.0, 3.0, 0.0, \(length) / ?) / (1.0 + (? - \(id)) / \(year))"
        }
        let itemFtsScore = score(
            "itemFts", id: "f.rowid", length: "(SELECT chat_text_bytes(text) FROM item WHERE id = f.rowid)")
        let candidates = MessageSearch.relevanceCandidates
        if let keyed {
            let keys = try keyed.keyRange(lower: compiled.minRowid, upper: compiled.maxRowid, db)
            return try Row.fetchAll(
                db.cachedStatement(
                    sql: compiled.keyedMatchesSQL(
                        columns: score("itemChatFts", id: "i.id", length: "chat_text_bytes(i.text)"))),
                arguments: [average, newest, compiled.match, keys.high, keys.low, candidates + 1])
        } else if chatItems <= options.ascendingWalkMaxItems {
            return try Row.fetchAll(
                db.cachedStatement(sql: compiled.matchesSQL(columns: itemFtsScore, ascending: true)),
                arguments: [average, newest, compiled.match, compiled.maxRowid, compiled.minRowid]
            ).suffix(candidates + 1).reversed()
        }
        return try Row.fetchAll(
            db.cachedStatement(sql: compiled.matchesSQL(columns: itemFtsScore)),
            arguments: [average, newest, compiled.match, compiled.maxRowid, compiled.minRowid, candidates + 1])
    }

    /// How many items match with archive ids in `[lower, upper)`, at most `limit` (all when
    /// `nil`): `isExact` is false when more match, and then the count is `limit`.
    func count(lower: Int64, upper: Int64, limit: Int? = nil) throws -> (count: Int, isExact: Bool) {
        guard lower < upper else { return (0, true) }
        var (low, high) = (lower, upper)
        if let keyed {
            // A bound just above an item of the chat (the hit whose place is counted) is its key
            // + 1: one lookup instead of a search of the key space.
            func bound(_ x: Int64) throws -> Int64 {
                if x > Int64.min, x < Int64.max, let key = try keyed.key(ofItem: x - 1, db) { return key + 1 }
                return try keyed.keyBound(id: x, db)
            }
            (low, high) = (try bound(lower), try bound(upper))
        }
        if compiled.requiresUnread || compiled.checks != nil {
            // Unread needs each item's flags and its chat's read mark, and a phrase of an index
            // without positions each item's text: the joined walk.
            let ids = keyed != nil ? compiled.keyedMatchesSQL() : compiled.matchesSQL()
            let n =
                try Int.fetchOne(
                    compiled.statement("SELECT count(*) FROM (\(ids))", db),
                    arguments: [compiled.match, high, low, limit.map { $0 + 1 } ?? Int.max]) ?? 0
            return limit.map { n > $0 ? ($0, false) : (n, true) } ?? (n, true)
        }
        // The index alone, without reading the items: the deleted matches are counted apart.
        let isKeyed = keyed != nil
        func deleted(below upper: Int64, from lower: Int64) throws -> Int {
            guard compiled.excludesDeleted else { return 0 }
            return try Int.fetchOne(
                db.cachedStatement(sql: CompiledQuery.indexCountSQL(keyed: isKeyed)),
                arguments: [compiled.deletedMatch, upper, lower]) ?? 0
        }
        guard let limit else {
            let all =
                try Int.fetchOne(
                    db.cachedStatement(sql: CompiledQuery.indexCountSQL(keyed: isKeyed)),
                    arguments: [compiled.match, high, low]) ?? 0
            return (all - (try deleted(below: high, from: low)), true)
        }
        // The newest matches in turns until more than `limit` are live or the range is walked.
        var found = 0
        while true {
            let wanted = limit + 1 - found
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: CompiledQuery.indexWalkSQL(keyed: isKeyed)),
                    arguments: [compiled.match, high, low, wanted])
            else { return (found, true) }
            let (n, oldest): (Int, Int64?) = (row[0], row[1])
            let isWalked = n < wanted
            found += n - (try deleted(below: high, from: isWalked ? low : oldest ?? low))
            if isWalked { return (found, true) }
            if found > limit { return (limit, false) }
            high = oldest ?? low
        }
    }

    /// The hits of `ids`, in that order: each item with its match ranges and snippet.
    func hits(_ ids: [Int64]) throws -> [SearchHit] {
        let items = try ArchivedItem.fetch(ids, db)
        var matches = items.map { compiled.highlighter.matches(in: $0.text) }
        // A hit found only in a link's hidden target marks the link's shown text.
        let unmarked = zip(items, matches).filter { $0.1.isEmpty }.map(\.0.id)
        if !unmarked.isEmpty {
            let spans = try ItemWindows.spans(of: unmarked, db)
            for k in items.indices where matches[k].isEmpty {
                matches[k] = compiled.highlighter.hiddenLinkMatches(in: items[k].text, spans: spans[items[k].id] ?? [])
            }
        }
        return zip(items, matches).map { item, matches in
            SearchHit(
                item: item, ranges: matches.map(\.utf16), snippet: Highlighter.snippet(item.text, matches: matches))
        }
    }
}
