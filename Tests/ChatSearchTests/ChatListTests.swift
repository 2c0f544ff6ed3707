import ChatArchive
import ChatIndex
import ChatTestSupport
import ChatText
import Foundation
import GRDB
import Testing

@Suite struct ChatListTests {
    static let fixture = [
        Lines.chat("d1", type: "direct", name: "Zoë", favorite: true),
        Lines.chat("muted", type: "group", name: "Muted group", notifications: "none"),
        Lines.chat("mutedMarked", type: "group", name: "Muted but marked", notifications: "none", unreadChat: true),
        Lines.chat("mentionsOnly", type: "group", name: "Mentions only", notifications: "mentions"),
        Lines.chat("req", type: "contactRequest", name: "Request from Łukasz"),
        Lines.chat("pending", type: "contactConnection", name: "Pending invite"),
        Lines.chat("shop", type: "group", name: "Bike shop", business: "business"),
        Lines.chat("client", type: "group", name: "Customer Дмитрий", alias: "Dima", business: "customer"),
        Lines.chat("notes", type: "local", name: "Notes", tags: ["work"]),
        Lines.chat(
            "club", type: "group", name: "Hiking club", fullName: "Alpine Hiking Club", alias: "Hikers",
            tags: ["friends"]),
        Lines.item("d1", "1", ts: "2024-01-01T10:00:00Z", text: "hi", unread: true),
        Lines.item("muted", "1", ts: "2024-01-02T10:00:00Z", text: "noise", unread: true),
        Lines.item("mutedMarked", "1", ts: "2024-01-03T10:00:00Z", text: "old"),
        Lines.item("mentionsOnly", "1", ts: "2024-01-04T10:00:00Z", text: "not for you", unread: true),
        Lines.item("club", "1", ts: "2024-01-05T10:00:00Z", text: "summit!", member: "m1", type: "image"),
        Lines.member("club", "m1", "Zoë"),
        Lines.item("shop", "1", ts: "2024-01-06T10:00:00Z", text: "gone", deleted: true),
        Lines.item("client", "r", ts: "2024-01-07T10:00:00Z", text: "spam", type: "report"),
    ].joined(separator: "\n")

    func names(_ rows: [ChatRow]) -> [String] { rows.map(\.chatId) }

    @Test func unreadExcludesMutedUnlessMarked() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        #expect(Set(names(try await a.chats(filter: .unread))) == ["d1", "mutedMarked"])
    }

    @Test func contactsIncludeRequestsPendingAndCustomerBusinessChats() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        #expect(Set(names(try await a.chats(filter: .contacts))) == ["d1", "req", "pending", "client"])
        #expect(Set(names(try await a.chats(filter: .business))) == ["shop"])
        #expect(Set(names(try await a.chats(filter: .groups))) == ["muted", "mutedMarked", "mentionsOnly", "club"])
        #expect(names(try await a.chats(filter: .notes)) == ["notes"])
        #expect(names(try await a.chats(filter: .favorites)) == ["d1"])
        #expect(names(try await a.chats(filter: .tag("friends"))) == ["club"])
        #expect(names(try await a.chats(filter: .reports)) == ["client"])
    }

    @Test func sortedByLastActivity() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let all = names(try await a.chats())
        #expect(Array(all.prefix(6)) == ["client", "shop", "club", "mentionsOnly", "mutedMarked", "muted"])
        #expect(all.count == 10)
    }

    @Test(arguments: [
        ("zoe", "d1"), ("ZOË", "d1"), ("alpine", "club"), ("hikers", "club"), ("hiking", "club"), ("dima", "client"),
        ("bike", "shop"), ("invite", "pending"),
    ])
    func nameSearchCoversEveryNameField(query: String, expected: String) async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        #expect(names(try await a.chats(matching: query)).contains(expected))
    }

    @Test func nameSearchCombinesWithATab() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        #expect(names(try await a.chats(matching: "zoe", filter: .groups)) == [])
        #expect(names(try await a.chats(matching: "club", filter: .groups)) == ["club"])
    }

    @Test func previewShowsSenderKindAndDeletion() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.fixture)
        let rows = try await a.chats()
        let club = try #require(rows.first { $0.chatId == "club" })
        #expect(club.preview.kind == .message)
        #expect(club.preview.sender == "Zoë")
        #expect(club.preview.contentType == .image)
        #expect(rows.first { $0.chatId == "shop" }?.preview.kind == .deleted)
        #expect(rows.first { $0.chatId == "req" }?.preview.kind == ChatPreview.Kind.none)
        #expect(rows.first { $0.chatId == "d1" }?.unreadCount == 1)
    }

    // Name search has two plans: queries of 3+ characters go through the trigram index of names,
    // shorter ones scan names newest first. Both must give the same rows in the same order.

    static let people = [
        Lines.chat("artemis", type: "direct", name: "Artemis"),
        Lines.chat("cyr", type: "direct", name: "Артём"),
        Lines.chat("smith", type: "group", name: "Artem Smith", tags: ["work"]),
        Lines.chat("quiet", type: "direct", name: "Artem Quiet"),
        Lines.chat("quieter", type: "direct", name: "Artem Quieter"),
        Lines.chat("zed", type: "direct", name: "Zed"),
        Lines.item("smith", "1", ts: "2024-02-01T10:00:00Z", text: "a"),
        Lines.item("artemis", "1", ts: "2024-02-02T10:00:00Z", text: "b"),
        Lines.item("cyr", "1", ts: "2024-02-03T10:00:00Z", text: "c"),
        Lines.item("zed", "1", ts: "2024-02-04T10:00:00Z", text: "d"),
    ].joined(separator: "\n")

    @Test(arguments: ["artem", "ar", "a"])
    func looseMatchesComeAfterDirectOnesAndEmptyChatsLast(query: String) async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.people)
        let rows = try await a.chats(matching: query)
        // Direct matches newest first, then chats without items (newest row first), then loose.
        let direct = ["artemis", "smith", "quieter", "quiet"]
        #expect(Array(names(rows).prefix(4)) == direct)
        #expect(rows.prefix(4).allSatisfy { !$0.isLooseMatch })
        #expect(rows.contains { $0.chatId == "cyr" && $0.isLooseMatch })
        #expect(!names(rows).contains("zed"))
    }

    @Test(arguments: ["арт", "ар"])
    func aNonLatinQueryFindsLatinNamesThroughItsTransliteration(query: String) async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.people)
        let rows = try await a.chats(matching: query)
        #expect(names(rows) == ["cyr", "artemis", "smith", "quieter", "quiet"])
        #expect(rows.map(\.isLooseMatch) == [false, true, true, true, true])
    }

    @Test(arguments: ["artem", "ar"])
    func aPageEndingInsideTheLooseMatchesKeepsTheOrder(query: String) async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.people)
        #expect(names(try await a.chats(matching: query, limit: 2)) == ["artemis", "smith"])
        #expect(names(try await a.chats(matching: query, limit: 5)) == ["artemis", "smith", "quieter", "quiet", "cyr"])
    }

    @Test(arguments: ["artem", "ar"])
    func aSearchCombinesWithEveryKindOfTab(query: String) async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.people)
        #expect(names(try await a.chats(matching: query, filter: .groups)) == ["smith"])
        #expect(names(try await a.chats(matching: query, filter: .tag("work"))) == ["smith"])
        #expect(names(try await a.chats(matching: query, filter: .contacts)) == ["artemis", "quieter", "quiet", "cyr"])
        #expect(names(try await a.chats(matching: query, filter: .favorites)) == [])
    }

    @Test func theListWithoutAQueryPutsEmptyChatsLastNewestRowFirst() async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.people)
        #expect(names(try await a.chats()) == ["zed", "cyr", "artemis", "smith", "quieter", "quiet"])
    }

    @Test(arguments: ["quiet", "qu"])
    func aRenamedChatIsFoundByItsNewNameOnly(query: String) async throws {
        let (a, _) = try TestArchive.make(jsonl: Self.people)
        _ = try a.ingestSync([
            try TestArchive.writeFile(Lines.chat("quiet", type: "direct", name: "Loud Larry"), name: "rename.jsonl")
        ])
        #expect(names(try await a.chats(matching: query)) == ["quieter"])
        #expect(names(try await a.chats(matching: "larry")) == ["quiet"])
        #expect(names(try await a.chats(matching: "ла")) == ["quiet"])
    }

    @Test func quotesAndSpacesInAQueryAreText() async throws {
        let (a, _) = try TestArchive.make(
            jsonl: [
                Lines.chat("q", type: "group", name: "The \\\"best\\\" club"),
                Lines.chat("o", type: "group", name: "best OR club"),
            ].joined(separator: "\n"))
        #expect(names(try await a.chats(matching: "\"best\"")) == ["q"])
        #expect(names(try await a.chats(matching: "best or")) == ["o"])
        #expect(names(try await a.chats(matching: "t OR c")) == ["o"])
    }

    /// An archive whose chats were written before the trigram index existed is indexed when it
    /// is opened by this build.
    @Test func anArchiveFromAnOlderBuildIsIndexedWhenOpened() async throws {
        let path = TestArchive.temporaryPath()
        do {
            let a = try Archive(path: path)
            _ = try a.ingestSync([try TestArchive.writeFile(Self.people)])
            // Back to the v1 schema, as an older build left it.
            try await a.database.writer.write { db in
                try db.execute(
                    sql: """
                        DROP TRIGGER chat_nameGram_update; DROP TRIGGER chat_nameGram_delete;
                        DROP TABLE chatNameGram; DROP INDEX chat_recentNames;
                        CREATE INDEX chat_names ON chat(nameKey, translitKey, lastTs);
                        DELETE FROM grdb_migrations WHERE identifier IN ('v2', 'v9-nameRowsByWriter');
                        """)
            }
        }
        let reopened = try Archive(path: path)
        #expect(names(try await reopened.chats(matching: "artem")) == ["artemis", "smith", "quieter", "quiet", "cyr"])
    }

    /// The index of one- and two-character name pieces holds exactly every such piece of each
    /// chat's name key and transliteration key (none across the newline between names), kept by
    /// its triggers through new chats, renames and deletions; `check` notices a damaged one and
    /// `repair` rebuilds it.
    @Test func namePiecesFollowEveryChatAndARepairRebuildsThem() async throws {
        let chatNames = [
            "Zoë Łukasz", "東京都 🇯🇵", "สวัสดี", "مرحبا", "שָׁלוֹם", "नमस्ते", "Дмитрий", "Straße", "İstanbul",
            "ＦＵＬＬ", "e\u{301}te\u{301}", "👩‍👩‍👧 family", "a", "",
        ]
        var lines = chatNames.enumerated().map {
            Lines.chat("p\($0.offset)", name: $0.element, fullName: "Full \($0.offset)")
        }
        lines.append(Lines.item("p0", "1", ts: "2024-01-01T00:00:00Z", text: "x"))
        let (a, _) = try TestArchive.make(jsonl: lines.joined(separator: "\n"))
        func expectPiecesMatchNames(_ when: String) async throws {
            let (stored, chats) = try await a.database.writer.read { db in
                (
                    try Row.fetchAll(db, sql: "SELECT gram, chatId FROM chatNameShort").map {
                        "\($0[1] as Int64) \($0[0] as String)"
                    },
                    try Row.fetchAll(db, sql: "SELECT id, nameKey, translitKey FROM chat").map {
                        ($0[0] as Int64, $0[1] as String, $0[2] as String)
                    }
                )
            }
            var expected = Set<String>()
            for (id, key, translit) in chats {
                for text in [key, translit] {
                    let scalars = Array(text.unicodeScalars)
                    for width in 1...2 where scalars.count >= width {
                        for start in 0...(scalars.count - width) {
                            var piece = String.UnicodeScalarView()
                            piece.append(contentsOf: scalars[start..<(start + width)])
                            if !piece.contains("\n") { expected.insert("\(id) \(String(piece))") }
                        }
                    }
                }
            }
            #expect(Set(stored) == expected, "\(when)")
            #expect(stored.count == expected.count, "\(when): no piece twice")
            #expect(try await a.check() == [], "\(when)")
        }
        try await expectPiecesMatchNames("after ingest")
        // A rename, a new chat and a deletion through the live-write API.
        try await a.upsert(chats: [
            Chat(sourceId: "p1", type: .group, displayName: "大阪 Ōsaka"),
            Chat(sourceId: "new", type: .direct, displayName: "Ἀθῆναι", fullName: "Athína"),
        ])
        try await a.deleteChat("p2")
        try await expectPiecesMatchNames("after live writes")
        func direct(_ q: String) async throws -> [String] {
            names(try await a.chats(matching: q).filter { !$0.isLooseMatch })
        }
        #expect(try await direct("大阪") == ["p1"])
        #expect(try await direct("東") == [])
        #expect(try await direct("ส") == [])
        #expect(try await direct("θ") == ["new"])
        #expect(try await direct("ß") == ["p7"])
        // Damage: pieces lost and a stray one; check names it, repair rebuilds it.
        try await a.database.writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM chatNameShort WHERE gram IN ('z', 'ö');
                    INSERT INTO chatNameShort(gram, chatId) VALUES ('qq', 1);
                    """)
        }
        let problems = try await a.check()
        #expect(problems.count == 1 && problems.first?.contains("chat-name search index") == true, "\(problems)")
        #expect(try await a.repair() == [])
        try await expectPiecesMatchNames("after repair")
    }

    /// `chat_short_grams`, the C function the triggers use since format v8, yields exactly the
    /// rows of the SQL it replaced, on names in many scripts, with quotes, backslashes, control
    /// characters, newlines between names, combining marks and emoji sequences.
    @Test func shortPiecesFromTheFunctionEqualThoseOfTheSQL() throws {
        var g = SplitMix64(seed: 88)
        let parts = [
            "a", "Zoë", "Ł", "東京", "都", "สวั", "ดี", "مر", "حبا", "שָׁ", "नम", "स्ते", "Дм", "ß", "İ", "ＦＵ", "e\u{301}",
            "👩‍👩‍👧", "🇯🇵", "\"", "\\", "\n", "\t", "\u{1}", " ", "'", "[", "]", ",", "\u{FFFD}",
        ]
        var pairs: [(String, String)] = [("", ""), ("a", ""), ("", "b"), ("\n", "\n\n")]
        for _ in 0..<300 {
            func text() -> String {
                (0..<Int(g.next() % 7)).map { _ in parts[Int(g.next() % UInt64(parts.count))] }.joined()
            }
            pairs.append((text(), text()))
        }
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            #expect(FTS5Registration.register(on: db.sqliteConnection!) == 0)
            for (key, translit) in pairs {
                func rows(_ sql: String) throws -> [String] {
                    try String.fetchAll(db, sql: "SELECT gram FROM (\(sql)) ORDER BY gram", arguments: [key, translit])
                }
                let bySQL = try rows(ChatNameGrams.selectInSQL(id: "0", nameKey: "?1", translitKey: "?2"))
                let byFunction = try rows(ChatNameGrams.select(id: "0", nameKey: "?1", translitKey: "?2"))
                #expect(byFunction == bySQL, "\(key.debugDescription) / \(translit.debugDescription)")
            }
        }
    }

    /// An archive of format v7 (its short-piece triggers in SQL) is read as it is by a read-only
    /// open, which cannot migrate it, and is migrated by the first program that opens it to
    /// write; the index stays the same and its triggers keep it from then on.
    @Test func anArchiveWithTheOldPieceTriggersIsReadAndThenMigrated() async throws {
        let path = TestTemporary.folder("v7-pieces") + "/archive.sqlite"
        let lines = [
            Lines.chat("p0", name: "Zoë Łukasz"), Lines.chat("p1", name: "東京都"),
            Lines.item("p0", "1", ts: "2024-01-01T00:00:00Z", text: "hello"),
        ]
        _ = try Archive(path: path).ingestSync([try TestArchive.writeFile(lines.joined(separator: "\n"))])
        try await TestArchive.rawQueue(path).write { db in
            try db.execute(
                sql: """
                    DROP TRIGGER chat_nameShort_insert; DROP TRIGGER chat_nameShort_update; DROP TRIGGER chat_nameShort_delete;
                    \(ChatNameGrams.sqlTriggersSQL)
                    DELETE FROM grdb_migrations WHERE identifier = 'v8-chatNameShortFunction';
                    """)
        }
        let reader = try Archive(path: path, mode: .readOnly)
        #expect(try await reader.chats(matching: "東").map(\.chatId) == ["p1"])
        #expect(try await reader.search("hello").hits.count == 1)
        let writer = try Archive(path: path, mode: .readWrite)
        try await writer.upsert(chats: [Chat(sourceId: "p2", type: .group, displayName: "大阪")])
        let (applied, trigger) = try await writer.database.writer.read { db in
            (
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'chat_nameShort_insert'") ?? ""
            )
        }
        #expect(applied.contains("v8-chatNameShortFunction"))
        #expect(trigger.contains("chat_short_grams"))
        #expect(try await writer.chats(matching: "阪").map(\.chatId) == ["p2"])
        #expect(try await writer.check() == [])
    }

    /// Both plans agree with a plain substring test of the stored name keys, on seeded random
    /// names and queries in several scripts.
    @Test func nameSearchEqualsASubstringTestOfTheNames() async throws {
        var g = SplitMix64(seed: 20_240_501)
        let syllables = [
            "ar", "te", "m", "ан", "тё", "ми", "北", "京", "Ö", "ö", "ss", "ß", " ", "-", "\\\"", "ng", "ia",
            // Latin spellings of 北 and 北京: loose matches of one- and two-character queries.
            "bei", "bei jing",
        ]
        func word(_ n: Int) -> String {
            (0..<n).map { _ in syllables[Int(g.next() % UInt64(syllables.count))] }.joined()
        }
        var lines: [String] = []
        for i in 0..<80 {
            let name = word(1 + Int(g.next() % 5))
            let id = "c\(i)"
            lines.append(Lines.chat(id, type: "direct", name: "n" + name))
            // Every seventh chat has no items; the rest share 300 seconds, so times tie.
            if i % 7 != 0 {
                let s = Int(g.next() % 300)
                let ts = "2024-01-01T00:0\(s / 60):\(s % 60 < 10 ? "0" : "")\(s % 60)Z"
                lines.append(Lines.item(id, "1", ts: ts, text: "x"))
            }
        }
        let (a, _) = try TestArchive.make(jsonl: lines.joined(separator: "\n"))
        let stored = try await a.database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT sourceId, nameKey, translitKey, lastTs, id FROM chat").map {
                (
                    id: $0[0] as String, key: $0[1] as String, translit: $0[2] as String, ts: $0[3] as Int64?,
                    rowid: $0[4] as Int64
                )
            }
        }
        func contains(_ s: String, _ q: String) -> Bool {
            q.isEmpty
                || s.utf8.count >= q.utf8.count
                    && Array(s.utf8).withUnsafeBufferPointer { h in
                        let n = Array(q.utf8)
                        return (0...(h.count - n.count)).contains { i in h[i..<(i + n.count)].elementsEqual(n) }
                    }
        }
        for _ in 0..<150 {
            let q = word(1 + Int(g.next() % 3)).trimmingCharacters(in: .whitespaces)
            guard !q.isEmpty else { continue }
            let key = TextNormalizer.normalize(q)
            let translit =
                q.utf8.allSatisfy { $0 < 0x80 } ? key : TextNormalizer.normalize(TextNormalizer.transliterate(q))
            let expected = stored.compactMap { c -> (String, Bool, Int64?, Int64)? in
                if contains(c.key, key) { return (c.id, false, c.ts, c.rowid) }
                if contains(c.translit, translit) { return (c.id, true, c.ts, c.rowid) }
                return nil
            }.sorted { x, y in
                if x.1 != y.1 { return !x.1 }
                if x.2 != y.2 { return (x.2 ?? .min) > (y.2 ?? .min) }
                return x.3 > y.3
            }
            let rows = try await a.chats(matching: q, limit: 1000)
            #expect(names(rows) == expected.map(\.0), "query \(q)")
            #expect(rows.map(\.isLooseMatch) == expected.map(\.1), "query \(q)")
        }
    }
}
