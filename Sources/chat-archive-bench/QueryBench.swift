import ChatArchive
import ChatIndex
import Foundation
import GRDB

/// Query latencies: ours against SimpleX's `LIKE '%q%'` scan on the same archive.
struct QueryBench {
    let archive: Archive
    let repeats: Int
    let seed: UInt64
    /// The trigram index of the texts (the infix design not kept), when built.
    var trigram: DatabaseQueue? = nil
    /// Whether to time SimpleX's LIKE scan beside ours (a scan of every item per global query:
    /// slow at 10M, ChatSearch's SearchPerformance).
    var withLike = true

    struct Word {
        var term: String
        var docs: Int
    }

    /// The items and members of `archive` in a file beside it (`like.sqlite`, made once), their
    /// text as text, with the index on `(chatId, ts, id)` that SimpleX's table has. The rows keep
    /// their order by id, as in the archive.
    static func plainCopy(of archive: Archive) throws -> DatabaseQueue {
        let path = URL(fileURLWithPath: archive.database.path).deletingLastPathComponent().appendingPathComponent(
            "like.sqlite"
        ).path
        let done = FileManager.default.fileExists(atPath: path)
        if !done {
            try archive.database.writer.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS plain", arguments: [path + ".tmp"])
                defer { try? db.execute(sql: "DETACH DATABASE plain") }
                try db.execute(
                    sql: """
                        CREATE TABLE plain.item AS SELECT * FROM main.item ORDER BY id;
                        UPDATE plain.item SET text = chat_text(text) WHERE typeof(text) = 'blob';
                        CREATE INDEX plain.item_chat_ts ON item(chatId, ts, id);
                        CREATE TABLE plain.member (id INTEGER PRIMARY KEY, displayName TEXT NOT NULL);
                        INSERT INTO plain.member SELECT id, displayName FROM main.member;
                        """)
            }
            try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
        }
        // Read as the archive's readers read: its page cache and a mapped file.
        var config = Configuration()
        config.readonly = true
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA cache_size = -65536; PRAGMA mmap_size = 1073741824")
        }
        return try DatabaseQueue(path: path, configuration: config)
    }

    /// Query words of known frequency, read from the index itself.
    struct QueryWords {
        var frequent: [Word]
        var mid: [Word]
        var rare: [Word]
    }

    /// A chat with items, as the search rows pick them.
    struct ChatInfo {
        var sourceId: String
        var id: Int64
        var count: Int
    }

    /// The chats the per-chat rows search in.
    struct BenchChats {
        var big: ChatInfo
        var mid: ChatInfo
        var small: ChatInfo
    }

    func run(into report: inout BenchReport) throws {
        guard let words = try queryWords(into: &report) else { return }
        guard let chats = try benchChats(into: &report) else { return }
        // SimpleX's search: a LIKE scan returning whole items (with the sender), newest first,
        // over a copy of the items whose text is stored as it is, as SimpleX stores it (ours may
        // be compressed: a scan through `chat_text` would time the decompression too).
        let plain = withLike ? try Self.plainCopy(of: archive) : nil
        report.addNoiseRow(repeats: repeats)
        try addSearchRows(words, chats, plain: plain, into: &report)

        // Windows around random items of the big chat.
        report.latencies.append(try windowRow(big: chats.big))

        // Chat list name search.
        if let row = try chatListRow() { report.latencies.append(row) }
    }

    /// Reads the frequent, mid and rare query words from the index and notes them in `report`.
    func queryWords(into report: inout BenchReport) throws -> QueryWords? {
        let db = archive.database.writer
        // Words of known frequency, read from the index itself.
        let words: [Word] = try db.read { db in
            try db.execute(
                sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.benchVocab USING fts5vocab(main, itemFts, col)")
            return try Row.fetchAll(
                db,
                sql: "SELECT term, doc FROM temp.benchVocab WHERE col = 'text' AND length(term) >= 4 ORDER BY doc DESC"
            ).map { Word(term: $0["term"], docs: $0["doc"]) }
        }
        guard !words.isEmpty else { return nil }
        let latinish = words.filter {
            $0.term.unicodeScalars.allSatisfy { $0.value < 0x250 } && $0.term.allSatisfy(\.isLetter)
        }
        let frequent = Array(latinish.prefix(5))
        let rare = Array(latinish.filter { $0.docs >= 3 && $0.docs <= 30 }.prefix(20))
        // Mid: in about one message of a hundred, never one of the frequent words.
        let messages = try db.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
        let mid = Array(
            latinish.dropFirst(frequent.count).filter { $0.docs >= messages / 200 && $0.docs <= messages / 50 }.prefix(
                5))
        report.note(
            "query words",
            "frequent \(frequent.map { "\($0.term)(\($0.docs))" }.joined(separator: " ")); mid \(mid.map { "\($0.term)(\($0.docs))" }.joined(separator: " ")); rare \(rare.prefix(5).map { "\($0.term)(\($0.docs))" }.joined(separator: " "))"
        )
        return QueryWords(frequent: frequent, mid: mid, rare: rare)
    }

    /// Picks the big, mid-size and small chats and notes them in `report`.
    func benchChats(into report: inout BenchReport) throws -> BenchChats? {
        let chats: [ChatInfo] = try archive.database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT sourceId, id, itemCount FROM chat WHERE itemCount > 0 ORDER BY itemCount DESC"
            ).map {
                ChatInfo(sourceId: $0["sourceId"], id: $0["id"], count: $0["itemCount"])
            }
        }
        guard let big = chats.first else { return nil }
        let small = chats.min(by: { abs($0.count - 372) < abs($1.count - 372) }) ?? big
        // Mid-size: dense enough that FTS5 walks a frequent word's whole posting list, too sparse
        // to find a page of matches early (the hardest case for a chat token ANDed into the match).
        let midChat = chats.min(by: { abs($0.count - 3000) < abs($1.count - 3000) }) ?? big
        report.note(
            "chats",
            "big \(big.sourceId) (\(big.count) items), mid \(midChat.sourceId) (\(midChat.count) items), small \(small.sourceId) (\(small.count) items), \(chats.count) chats"
        )
        return BenchChats(big: big, mid: midChat, small: small)
    }

    /// Our search's latency over the words `ws`, in `chat` or globally.
    func ours(_ name: String, _ ws: [Word], chat: ChatInfo?, prefixLength: Int? = nil) throws -> Latency {
        let db = archive.database.writer
        return try Latency.measure(repeats: repeats) { i in
            var q = ws[i % ws.count].term
            if let p = prefixLength { q = String(q.prefix(p)) }
            return try db.read { db in
                try MessageSearch.search(q, options: SearchOptions(chat: chat?.sourceId, limit: 50), in: db).hits
                    .count
            }
        }
    }

    /// SimpleX's LIKE scan's latency over the words `ws` on `plain`, in `chat` or globally.
    func like(_ ws: [Word], chat: ChatInfo?, prefixLength: Int? = nil, plain: DatabaseQueue?) throws -> Latency {
        guard let plain else { return Latency(p50: 0, p99: 0, hits: 0) }
        return try Latency.measure(repeats: max(5, repeats / 10)) { i in
            var q = ws[i % ws.count].term
            if let p = prefixLength { q = String(q.prefix(p)) }
            return try plain.read { db in
                let select =
                    "SELECT item.*, member.displayName AS memberName FROM item LEFT JOIN member ON member.id = item.memberId"
                if let chat {
                    return try Row.fetchAll(
                        db,
                        sql:
                            "\(select) WHERE item.chatId = ? AND item.text LIKE ? ORDER BY item.ts DESC, item.id DESC LIMIT 50",
                        arguments: [chat.id, "%\(q)%"]
                    ).count
                }
                return try Row.fetchAll(
                    db, sql: "\(select) WHERE item.text LIKE ? ORDER BY item.ts DESC, item.id DESC LIMIT 50",
                    arguments: ["%\(q)%"]
                ).count
            }
        }
    }

    /// Appends the search rows, global and per chat, ours beside the LIKE scan or the trigram index.
    func addSearchRows(_ words: QueryWords, _ chats: BenchChats, plain: DatabaseQueue?, into report: inout BenchReport)
        throws
    {
        func add(_ name: String, _ ws: [Word], chat: ChatInfo?, prefixLength: Int? = nil) throws {
            guard !ws.isEmpty else { return }
            let o = try ours(name, ws, chat: chat, prefixLength: prefixLength)
            let b = withLike ? try like(ws, chat: chat, prefixLength: prefixLength, plain: plain) : nil
            report.latencies.append((name, o, b, "LIKE"))
        }
        let (frequent, mid, rare) = (words.frequent, words.mid, words.rare)
        try add("global, rare word", rare, chat: nil)
        try add("global, mid word", mid, chat: nil)
        try add("global, frequent word", frequent, chat: nil)
        try add("global, 3-letter infix/prefix", frequent, chat: nil, prefixLength: 3)
        if let row = try trigramRow(frequent) { report.latencies.append(row) }
        try add("big chat, rare word", rare, chat: chats.big)
        try add("big chat, frequent word", frequent, chat: chats.big)
        try add("mid chat, rare word", rare, chat: chats.mid)
        try add("mid chat, frequent word", frequent, chat: chats.mid)
        try add("small chat, rare word", rare, chat: chats.small)
        try add("small chat, frequent word", frequent, chat: chats.small)
        try add("small chat, mid word", mid, chat: chats.small)
        // "k of N" beside an in-chat search: the count and the place of the oldest hit of the
        // first page, up to the library's default limit and, for the frequent word, every match.
        for (name, ws, chat, limit) in [
            ("big chat, rare word: k of N", rare, chats.big, SearchCount.defaultLimit),
            ("big chat, frequent word: k of N", frequent, chats.big, SearchCount.defaultLimit),
            ("big chat, frequent word: k of N, every match", frequent, chats.big, nil),
            ("mid chat, frequent word: k of N", frequent, chats.mid, SearchCount.defaultLimit),
        ] where !ws.isEmpty {
            report.latencies.append((name, try searchCount(ws, chat: chat, limit: limit), nil, ""))
        }
    }

    /// The latency of ``MessageSearch/count(_:options:positionOf:limit:in:)`` over the words `ws`
    /// in `chat`, with the place of the oldest hit of each word's first page of 50.
    func searchCount(_ ws: [Word], chat: ChatInfo, limit: Int?) throws -> Latency {
        let db = archive.database.writer
        let options = SearchOptions(chat: chat.sourceId, limit: 50)
        let oldest = try ws.map { w in
            try db.read { db in try MessageSearch.search(w.term, options: options, in: db).hits.last?.item.id }
        }
        return try Latency.measure(repeats: repeats) { i in
            try db.read { db in
                try MessageSearch.count(
                    ws[i % ws.count].term, options: options, positionOf: oldest[i % ws.count], limit: limit, in: db
                )
                .total
            }
        }
    }

    /// The 3-letter queries on the trigram index beside ours, when the index is built.
    func trigramRow(_ frequent: [Word]) throws -> (String, Latency, Latency?, String)? {
        guard let trigram, !frequent.isEmpty else { return nil }
        // The same 3-letter queries on the trigram index: ids only, no filters, no hydration.
        let tri = try Latency.measure(repeats: repeats) { i in
            let q = String(frequent[i % frequent.count].term.prefix(3))
            return try trigram.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM tri WHERE tri MATCH ? ORDER BY rowid DESC LIMIT 50",
                    arguments: ["\"" + q + "\""]
                ).count
            }
        }
        let full = try ours("", frequent, chat: nil, prefixLength: 3)
        return ("3-letter infix: ours (full) vs trigram (ids)", full, tri, "trigram")
    }

    /// The latency of windows around random items of the big chat.
    func windowRow(big: ChatInfo) throws -> (String, Latency, Latency?, String) {
        let db = archive.database.writer
        let anchors: [Int64] = try db.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM item WHERE chatId = ? ORDER BY id", arguments: [big.id])
        }
        var rng = SplitMix(seed: seed)
        let drawn = (0..<max(1, repeats)).map { _ in anchors[Int(rng.next() % UInt64(anchors.count))] }
        let around = try Latency.measure(repeats: repeats) { i in
            let id = drawn[i]
            return try db.read { db in
                try ItemWindows.window(chat: big.sourceId, .around(id, count: 50), in: db).items.count
            }
        }
        return ("window around(id, 50), big chat", around, nil, "")
    }

    /// The chat-list row: 3-letter lowercase fragments of every display name, ours against a
    /// `LIKE` scan of the display names.
    func chatListRow() throws -> (String, Latency, Latency?, String)? {
        let db = archive.database.writer
        let names: [String] = try db.read { db in try String.fetchAll(db, sql: "SELECT displayName FROM chat") }
        let fragments = names.filter { $0.count >= 4 }.map { String($0.prefix(3)).lowercased() }
        guard !fragments.isEmpty else { return nil }
        // ICU builds each script's transliterator on its first use (tens of ms each, once per
        // process). A full run's ingest has transliterated every name before this row; with
        // --reuse nothing has, and those first uses would be timed as searches. Do what ingest does.
        for name in names { _ = ChatNames.transliterationKey(name) }
        let o = try Latency.measure(repeats: repeats) { i in
            try db.read { db in try ChatList.chats(matching: fragments[i % fragments.count], limit: 50, in: db).count }
        }
        let b = try Latency.measure(repeats: repeats) { i in
            try db.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT id FROM chat WHERE displayName LIKE ? ORDER BY lastTs DESC LIMIT 50",
                    arguments: ["%\(fragments[i % fragments.count])%"]
                ).count
            }
        }
        return ("chat list name search (\(names.count) chats)", o, b, "LIKE")
    }
}

/// A small deterministic PRNG (SplitMix64): query anchors and the Telegram export generator.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(below n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
}
