import ChatArchive
import ChatIndex
import ChatModel
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// An archive written by an earlier build opens with this one and answers as it did.
///
/// `Fixtures/schema-v2.archive` was written by `chat-archive ingest` when the schema's last
/// migration was "v2" (see `Fixtures/README.md`; it is never regenerated). Every test opens a
/// copy, so later migrations and an analyser-version rebuild run on it exactly as they would on
/// a user's archive: an edited migration or a broken upgrade path fails here.
@Suite struct ArchiveCompatibilityTests {
    static let fixture = TestArchive.packagePath + "/Tests/ChatArchiveTests/Fixtures/schema-v2.archive"

    /// The archive id the v2 build gave item 1001 of chat g1 (2024-05-01T10:00:00Z × 1024).
    static let firstItemId: Int64 = 1_755_706_982_400_000

    /// A private copy of the fixture (opening an archive may migrate and rebuild it).
    static func openCopy() throws -> Archive {
        let path = TestArchive.temporaryPath("compat.sqlite")
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
        return try Archive(path: path)
    }

    @Test func theFixtureIsCommittedAsOneFile() {
        #expect(FileManager.default.fileExists(atPath: Self.fixture))
        #expect(!FileManager.default.fileExists(atPath: Self.fixture + "-wal"))
    }

    @Test func statsAndCheck() async throws {
        let archive = try Self.openCopy()
        let stats = try await archive.stats()
        #expect(stats.chats == 4)
        #expect(stats.items == 11)
        #expect(stats.deletedItems == 1)
        #expect(stats.unreadItems == 3)
        #expect(stats.itemsBySource.values.reduce(0, +) == 11)
        #expect(!stats.indexIsStale)
        #expect(try await archive.check() == [])
    }

    /// Searches in several scripts, with folding of case, accents, width and Hebrew points.
    @Test(arguments: [
        ("straße", "1001"),  // infix of Heinestraße
        ("HEINESTRASSE", "1001"),  // full case folding
        ("東京", "1004"),  // Han, no spaces
        ("สวัสดี", "a1"),  // Thai, no spaces
        ("cafe", "a1"),  // accent folded
        ("rope", "s1"),  // full-width letters folded
        ("שלום", "a3"),  // Hebrew points removed
        ("مرحبا", "a3"),  // Arabic
        ("🎉", "1002"),  // emoji
        ("mentions:me", "1004"),
        ("has:link trail", "1006"),
    ])
    func search(query: String, sourceId: String) async throws {
        let archive = try Self.openCopy()
        let page = try await archive.search(query)
        #expect(page.hits.map(\.item.sourceId) == [sourceId], "\(query)")
        #expect(page.hits.allSatisfy { !$0.ranges.isEmpty || query.contains(":") }, "\(query)")
    }

    @Test func searchOptionsAndIds() async throws {
        let archive = try Self.openCopy()
        let hit = try #require(try await archive.search("Heinestraße").hits.first)
        #expect(hit.item.id == Self.firstItemId)
        #expect(hit.item.chatId == "g1")
        #expect(hit.item.text == "Meet at Heinestraße 5, see https://example.com/route")
        #expect(try await archive.search("mistake").hits.isEmpty)
        let deleted = try await archive.search("mistake", options: SearchOptions(includeDeleted: true))
        #expect(deleted.hits.map(\.item.sourceId) == ["1005"])
        let images = try await archive.search("", options: SearchOptions(content: .image))
        #expect(images.hits.map(\.item.sourceId) == ["1003"])
        #expect(images.hits.first?.item.file?.name == "summit.jpg")
        let inChat = try await archive.search("https", options: SearchOptions(chat: "g1", limit: 1))
        #expect(inChat.hits.map(\.item.sourceId) == ["1006"])
        let next = try await archive.search(
            "https", options: SearchOptions(chat: "g1", limit: 1, cursor: inChat.nextCursor))
        #expect(next.hits.map(\.item.sourceId) == ["1001"])
    }

    /// The open that migrates the archive gives its chats their chat keys (format 10), so
    /// searches in one chat use the chat-keyed index from then on.
    @Test func theOpenKeysEveryChat() async throws {
        let archive = try Self.openCopy()
        let (unkeyed, rows, items) = try await archive.database.writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM chat WHERE keyed <> 1"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM itemChatFts WHERE itemChatFts MATCH 'all'"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item")
            )
        }
        #expect(unkeyed == 0)
        #expect(rows == items)
        #expect(try await archive.check().isEmpty)
    }

    @Test func chatList() async throws {
        let archive = try Self.openCopy()
        #expect(try await archive.chats().map(\.chatId) == ["n1", "d1", "g1", "b1"])
        #expect(try await archive.chats(filter: .groups).map(\.chatId) == ["g1"])
        #expect(try await archive.chats(filter: .business).map(\.chatId) == ["b1"])
        #expect(try await archive.chats(filter: .unread).map(\.chatId) == ["g1", "b1"])
        #expect(try await archive.chats(filter: .favorites).map(\.chatId) == ["g1"])
        #expect(try await archive.chats(filter: .notes).map(\.chatId) == ["n1"])
        #expect(try await archive.chats(filter: .tag("friends")).map(\.chatId) == ["g1"])
        #expect(try await archive.chats(matching: "heine").map(\.chatId) == ["g1"])
        #expect(try await archive.chats(matching: "LIMA").map(\.chatId) == ["d1"])
        let group = try #require(try await archive.chats(filter: .groups).first)
        #expect(group.displayName == "Hiking club")
        #expect(group.unreadCount == 2)
        #expect(group.unreadMentions == 1)
        #expect(group.tags == ["friends"])
        let direct = try #require(try await archive.chats(matching: "ana").first)
        #expect(direct.isMuted)
        #expect(direct.preview.text == "مرحبا بالعالم و שָׁלוֹם")
    }

    @Test func windows() async throws {
        let archive = try Self.openCopy()
        let last = try await archive.items(in: "g1", window: .last(2))
        #expect(last.items.map(\.sourceId) == ["1005", "1006"])
        #expect(last.navInfo == nil)
        let initial = try await archive.items(in: "g1", window: .initial(1))
        #expect(initial.items.map(\.sourceId) == ["1003", "1004", "1005"])
        #expect(initial.navInfo?.afterTotal == 1)
        #expect(initial.navInfo?.afterUnread == 1)
        let hit = try #require(try await archive.search("Heinestraße").hits.first)
        let context = try await archive.context(of: hit, count: 1)
        #expect(context.items.map(\.sourceId) == ["1001", "1002"])
        #expect(context.navInfo?.afterTotal == 4)
        let before = try await archive.items(in: "g1", window: .before(context.items[1].id, count: 5))
        #expect(before.items.map(\.sourceId) == ["1001"])
        let after = try await archive.items(in: "g1", window: .after(Self.firstItemId, count: 2))
        #expect(after.items.map(\.sourceId) == ["1002", "1003"])
        let quoted = context.items[1]
        #expect(quoted.quote?.itemSourceId == "1001")
        #expect(quoted.text == "On my way @Zoë 🎉")
        let direct = try await archive.items(in: "d1", window: .last(10))
        #expect(direct.items.map(\.sourceId) == ["a1", "a2", "a3"])
        #expect(direct.items[1].duration == 12)
        #expect(direct.items[1].status == .read)
    }

    /// Whether a full-text index has its sizes table (`<index>_docsize`).
    static func hasSizes(_ archive: Archive, _ index: String) async throws -> Bool {
        try await archive.database.writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?)", arguments: [index + "_docsize"])
                == true
        }
    }

    /// Rows of (chat/item source ids, tags) by the first column.
    static func tagsBySourceId(_ db: Database, _ sql: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: sql) { out[row[0]] = row[1] }
        return out
    }

    /// A new archive of the current format holding the fixture the old archive was made from.
    static func freshFromFixture() throws -> Archive {
        let fresh = try Archive(path: TestArchive.temporaryPath())
        _ = try fresh.ingestSync([TestArchive.packagePath + "/Tests/ChatArchiveTests/Fixtures/compat-v2.jsonl"])
        return fresh
    }

    /// Format 21 stores an item's tags without the head that its chat, content type and sender
    /// spell, and the view the items index reads spells it again, in plain SQL: a new archive
    /// and an old one (which stores whole tags) read the same tokens through live edits and a
    /// rebuild, their indexes agree with them, and every filter finds the same items in both.
    @Test func tagsReadWholeWhetherTheirHeadIsStoredOrSpelled() async throws {
        let old = try Self.openCopy()
        let fresh = try Self.freshFromFixture()
        // An item's whole tags as a writer reads them (an old archive's index reads `item`, a
        // new one's the view `itemText`, which spells them alike).
        func tags(_ archive: Archive) async throws -> [String: String] {
            try await archive.database.writer.read { db in
                try Self.tagsBySourceId(
                    db,
                    "SELECT (SELECT sourceId FROM chat WHERE chat.id = chatId) || '/' || sourceId, \(try StoredTags.of(db).wholeSQL) FROM item"
                )
            }
        }
        func tokens(_ archive: Archive) async throws -> [String: Set<Substring>] {
            try await tags(archive).mapValues { Set($0.split(separator: " ")) }
        }
        let viewTags = try await fresh.database.writer.read { db in
            try Self.tagsBySourceId(
                db,
                "SELECT chat.sourceId || '/' || item.sourceId, itemText.tags FROM itemText JOIN item USING (id) JOIN chat ON chat.id = item.chatId"
            )
        }
        // The stored tags, and the whole tags by the archive's own SQL in a connection without
        // the archive's functions, as any SQLite shell opens it.
        var configuration = Configuration()
        configuration.readonly = true
        let plain = try DatabaseQueue(path: fresh.database.path, configuration: configuration)
        let (tails, spelled) = try await plain.read { db in
            let whole = try StoredTags.of(db)
            #expect(whole.headTypes == ContentType.allCases.count)
            return (
                try Self.tagsBySourceId(
                    db,
                    "SELECT chat.sourceId || '/' || item.sourceId, item.tags FROM item JOIN chat ON chat.id = item.chatId"
                ),
                try Self.tagsBySourceId(
                    db,
                    "SELECT (SELECT sourceId FROM chat WHERE chat.id = chatId) || '/' || sourceId, \(whole.wholeSQL) FROM item"
                )
            )
        }
        #expect(tails["g1/1005"] == " xdel", "\(tails)")
        #expect(tails["d1/a2"] == "")
        #expect(tails["g1/1004"] == " xunread mnme mn1")
        #expect(try await tags(fresh)["g1/1005"] == "all c1 ttext fr3 xdel")
        #expect(try await tags(fresh)["d1/a2"] == "all c2 tvoice frme")
        #expect(try await tags(fresh) == spelled)
        #expect(viewTags == spelled)
        #expect(try await tags(fresh).count == 11)
        // The same tokens; a new archive puts the sender's before the states.
        #expect(try await tokens(fresh) == tokens(old))
        let filters = [
            "from:me", "is:pinned", "has:link", "type:image", "type:voice", "is:unread", "e", "@Zoë", "in:g1 e",
        ]
        func answers(_ archive: Archive) async throws -> [[String]] {
            var out: [[String]] = []
            for q in filters {
                for deleted in [false, true] {
                    let options = SearchOptions(limit: 50, includeDeleted: deleted)
                    out.append(try await archive.search(q, options: options).hits.map(\.item.sourceId))
                }
            }
            return out
        }
        let expected = try await answers(fresh)
        #expect(expected.filter { !$0.isEmpty }.count >= 8, "\(expected)")
        #expect(try await answers(old) == expected)
        for archive in [old, fresh] {
            try await archive.setPinned(["1001"], in: "g1", to: true)
            try await archive.setPinned(["1003"], in: "g1", to: false)
            try await archive.markDeleted(["a3"], in: "d1")
            #expect(try await archive.check().isEmpty)
        }
        #expect(try await tags(fresh)["g1/1001"] == "all c1 ttext fr2 xlink xpin")
        #expect(try await tokens(fresh) == tokens(old))
        #expect(try await answers(old) == answers(fresh))
        try old.database.rebuildIndexes()
        try fresh.database.rebuildIndexes()
        #expect(try await tokens(fresh) == tokens(old))
        #expect(try await answers(old) == answers(fresh))
        #expect(try await old.check().isEmpty)
        #expect(try await fresh.check().isEmpty)
    }

    /// Format 20 creates the vocabulary's trigram index (infix search) without its sizes table;
    /// an archive made before keeps its own until a rebuild. Every infix, in every script the
    /// fixture holds, finds the same items in both, and in the old one after its rebuild.
    @Test func theVocabularyIndexWithAndWithoutItsSizesTableAnswersAlike() async throws {
        func hasSizes(_ archive: Archive) async throws -> Bool { try await Self.hasSizes(archive, "termGram") }
        let old = try Self.openCopy()
        #expect(try await hasSizes(old), "an archive with items keeps the index it has")
        let fresh = try Self.freshFromFixture()
        #expect(try await !hasSizes(fresh), "a new archive's vocabulary index has no sizes table")
        let queries = [
            "umm", "eine", "rail", "ist", "ack", "ope", "ｏｐｅ", "afé", "rhab", "حبا", "לום", "会いま", "hoto", "xyz",
        ]
        func answers(_ archive: Archive) async throws -> [[String]] {
            var out: [[String]] = []
            for q in queries {
                out.append(try await archive.search(q, options: SearchOptions(limit: 50)).hits.map(\.item.sourceId))
            }
            return out
        }
        let expected = try await answers(fresh)
        #expect(expected.filter { !$0.isEmpty }.count >= 9, "\(expected)")
        #expect(try await answers(old) == expected)
        try old.database.rebuildIndexes()
        #expect(try await !hasSizes(old), "a rebuild creates the current index")
        #expect(try await answers(old) == expected)
        #expect(try await old.check().isEmpty)
    }

    /// Format 11 creates the time-ordered index without its sizes table; an archive made before
    /// keeps its own until a rebuild. Both answer every search alike, relevance order included
    /// (ranked by `chat_bm25`, which takes each row's length from the stored text).
    /// Format 12 does the same for the chat-keyed index, and numbers a new archive's items by
    /// the millisecond (ids × 1 instead of × 1,024): dates in queries and the recency of
    /// relevance order follow each archive's scale, so both kinds answer alike.
    @Test func theIndexWithAndWithoutItsSizesTableAnswersAlike() async throws {
        func hasSizes(_ archive: Archive, _ index: String = "itemFts") async throws -> Bool {
            try await Self.hasSizes(archive, index)
        }
        let old = try Self.openCopy()
        #expect(try await hasSizes(old), "an archive with items keeps the index it has")
        let fresh = try Self.freshFromFixture()
        #expect(try await !hasSizes(fresh), "a new archive's index has no sizes table")
        #expect(try await !hasSizes(fresh, "itemChatFts"))
        let queries = [
            "e", "at", "on", "the", "東京", "https", "🎉", "*", "after:2024-05-01", "before:2024-05-02",
            "after:2024-05-02 before:2024-05-03", "e after:2024-05-01", "after:2024-05",
        ]
        func answers(_ archive: Archive) async throws -> [[String]] {
            var out: [[String]] = []
            for q in queries {
                for options in [
                    SearchOptions(limit: 50), SearchOptions(limit: 50, order: .relevance),
                    SearchOptions(chat: "g1", limit: 50, order: .relevance),
                    SearchOptions(limit: 50, order: .relevance, includeDeleted: true),
                ] {
                    out.append(try await archive.search(q, options: options).hits.map(\.item.sourceId))
                }
            }
            return out
        }
        let expected = try await answers(fresh)
        #expect(expected.filter { $0.count >= 2 }.count >= 8, "\(expected)")
        #expect(try await answers(old) == expected)
        // Both take new items, each by its own scale, and still answer alike.
        let late = Item(
            chatSourceId: "g1", sourceId: "late-1", timestamp: try #require(Timestamp.parse("2024-05-01T10:02:30Z")),
            direction: .rcv, memberSourceId: "m2", content: MessageContent(type: .text, text: "late at the summit"))
        try await old.upsert(items: [late])
        try await fresh.upsert(items: [late])
        let oldLate = try #require(try await old.search("late").hits.first)
        let freshLate = try #require(try await fresh.search("late").hits.first)
        #expect(oldLate.item.id == late.timestamp.milliseconds * 1024)
        #expect(freshLate.item.id == late.timestamp.milliseconds / 1_000, "a new archive's ids are seconds (format 22)")
        #expect(try await answers(old) == answers(fresh))
        // Chat keys: `chat.id << 43` in the old archive for good, `chat.id << 35` in a new one
        // (format 14), every key below 2^56, the late item's included.
        func keysBelong(_ archive: Archive, shift: Int) async throws -> Bool {
            try await archive.database.writer.read { db in
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) > 0 AND count(*) = sum((chatKey >> ?) = chatId AND chatKey < (1 << 56))
                        FROM item WHERE chatKey IS NOT NULL
                        """, arguments: [shift]) == true
            }
        }
        #expect(try await keysBelong(old, shift: 43))
        #expect(try await keysBelong(fresh, shift: 35))
        try old.database.rebuildIndexes()
        #expect(try await keysBelong(old, shift: 43), "a rebuild keeps the keys")
        #expect(try await !hasSizes(old), "a rebuild creates the indexes as format 12 does")
        #expect(try await !hasSizes(old, "itemChatFts"))
        #expect(try await answers(old) == answers(fresh))
        #expect(try await old.check().isEmpty)
        #expect(try await fresh.check().isEmpty)
    }

    /// The same on a bigger archive: the sample corpus in an index with its sizes table (as
    /// every archive before format 11 had) and in one without, pages of 20 hits in every order.
    /// (The index reads the rows through `itemText`, which spells each item's whole tags.)
    @Test func bothKindsOfIndexRankTheSampleCorpusAlike() async throws {
        let path = TestArchive.corpusPath + "/sample/chats-1.jsonl"
        let fresh = try Archive(path: TestArchive.temporaryPath())
        _ = try fresh.ingestSync([path])
        let old = try Archive(path: TestArchive.temporaryPath())
        _ = try old.ingestSync([path])
        try await old.database.writer.write { db in
            try db.execute(
                sql: """
                    DROP TABLE itemFts;
                    CREATE VIRTUAL TABLE itemFts USING fts5(
                        text, extra, tags, content='itemText', content_rowid='id', tokenize='chat');
                    INSERT INTO itemFts(itemFts) VALUES ('rebuild');
                    """)
        }
        let queries = ["the", "video", "東京", "مرحبا", "prüfung", "e", "from:me", "has:link", "thé vidéo"]
        var pages = 0
        for q in queries {
            for options in [
                SearchOptions(limit: 20), SearchOptions(limit: 20, order: .relevance),
                SearchOptions(chat: "g-hiking", limit: 20, order: .relevance),
            ] {
                var cursor: String? = nil
                repeat {
                    var o = options
                    o.cursor = cursor
                    let a = try await fresh.search(q, options: o)
                    let b = try await old.search(q, options: o)
                    #expect(a.hits.map(\.item.sourceId) == b.hits.map(\.item.sourceId), "\(q) \(o)")
                    #expect(a.nextCursor == b.nextCursor)
                    cursor = a.nextCursor
                    pages += 1
                } while cursor != nil && pages < 500
            }
        }
        #expect(pages > 40)
        #expect(try await old.check().isEmpty)
    }
}
