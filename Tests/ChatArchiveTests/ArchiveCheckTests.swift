import ChatArchive
import ChatTestSupport
import ChatText
import Foundation
import GRDB
import Testing

/// `chat-archive check` (issue 6, part 5): every problem is found and worded for a user, and
/// `--repair` rebuilds the indexes without touching a stored item.
@Suite struct ArchiveCheckTests {
    /// - Parameter pageChecksums: false for an archive made before page checksums, whose pages
    ///   SQLite's structural checks alone protect (with them, a changed byte is a checksum error).
    static func makeArchive(pageChecksums: Bool = true) throws -> String {
        var lines = [
            Lines.chat("g1", name: "Hiking club"), Lines.member("g1", "m1", "Zoë"),
            Lines.chat("d1", type: "direct", name: "Ana"),
        ]
        for k in 0..<60 {
            lines.append(
                Lines.item(
                    k % 2 == 0 ? "g1" : "d1", "i\(k)", ts: String(format: "2024-04-01T10:%02d:00Z", k),
                    text: "summit *plan* \(k) https://example.com/\(k) @Zoë", member: k % 2 == 0 ? "m1" : nil,
                    unread: k % 5 == 0))
        }
        let path = TestArchive.temporaryPath()
        let report = try Archive(path: path, pageChecksums: pageChecksums).ingestSync([
            try TestArchive.writeFile(lines.joined(separator: "\n"))
        ])
        #expect(report.itemsAdded == 60)
        return path
    }

    /// Every stored row that is data, not index: items, spans, mentions, members, chats' own fields.
    static func storedRows(_ path: String) throws -> [[Row]] {
        let database = try ArchiveDatabase(path: path, rebuildsStaleIndexes: false)
        return try database.writer.read { db in
            [
                try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id"),
                try Row.fetchAll(db, sql: "SELECT * FROM itemSpan ORDER BY itemId, seq"),
                try Row.fetchAll(db, sql: "SELECT * FROM itemMention ORDER BY itemId, name"),
                try Row.fetchAll(db, sql: "SELECT * FROM member ORDER BY id"),
                try Row.fetchAll(
                    db,
                    sql:
                        "SELECT id, sourceId, type, displayName, fullName, localAlias, favorite, notifications FROM chat ORDER BY id"
                ),
            ]
        }
    }

    /// Changes the archive with SQL, as damage or an interrupted program would.
    static func tamper(_ path: String, _ sql: String) throws {
        let database = try ArchiveDatabase(path: path, rebuildsStaleIndexes: false)
        try database.writer.writeWithoutTransaction { db in try db.execute(sql: sql) }
    }

    /// Copies the WAL into the file and closes every connection, so the file can be edited.
    static func settle(_ path: String) throws -> (pageSize: Int, roots: [String: Int]) {
        let database = try ArchiveDatabase(path: path, rebuildsStaleIndexes: false)
        try database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return try database.writer.read { db in
            let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 8192
            var roots: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0") {
                roots[row["name"]] = row["rootpage"]
            }
            return (size, roots)
        }
    }

    /// XORs one byte of the archive file.
    static func flip(_ path: String, at offset: Int, with mask: UInt8 = 0x5A) throws {
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? h.close() }
        try h.seek(toOffset: UInt64(offset))
        let old = try h.read(upToCount: 1)?.first ?? 0
        try h.seek(toOffset: UInt64(offset))
        try h.write(contentsOf: [old ^ mask])
    }

    func check(_ path: String) async throws -> [String] {
        try await Archive(path: path, rebuildsStaleIndexes: false).check()
    }

    /// Repairs and expects a healthy archive whose stored rows did not change.
    func expectRepairKeepsItems(_ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws
    {
        let before = try Self.storedRows(path)
        let left = try await Archive(path: path, rebuildsStaleIndexes: false).repair()
        #expect(left == [], sourceLocation: sourceLocation)
        #expect(try Self.storedRows(path) == before, "stored rows changed", sourceLocation: sourceLocation)
        #expect(try await check(path) == [], sourceLocation: sourceLocation)
        let archive = try Archive(path: path)
        #expect(
            try await archive.search("summit", options: SearchOptions(limit: 100)).hits.count == 60,
            sourceLocation: sourceLocation)
        #expect(
            try await archive.search("summ", options: SearchOptions(limit: 100)).hits.count == 60,
            sourceLocation: sourceLocation)
    }

    @Test func aHealthyArchiveHasNoProblems() async throws {
        #expect(try await check(try Self.makeArchive()) == [])
    }

    @Test func damagedFullTextShadowTablesAreFoundAndRebuilt() async throws {
        let path = try Self.makeArchive()
        try Self.tamper(path, "UPDATE itemFts_data SET block = zeroblob(length(block)) WHERE id > 10")
        let problems = try await check(path)
        #expect(
            problems.contains {
                $0.hasPrefix("the full-text search index is damaged or does not match the stored items")
                    && $0.contains("a repair rebuilds it")
            }, "\(problems)")
        try await expectRepairKeepsItems(path)
    }

    @Test func itemsMissingFromTheFullTextIndexAreCounted() async throws {
        let path = try Self.makeArchive()
        try Self.tamper(
            path,
            """
            INSERT INTO itemFts(itemFts, rowid, text, extra, tags)
                SELECT 'delete', id, text, extra, tags FROM itemText ORDER BY id LIMIT 3
            """)
        let problems = try await check(path)
        #expect(
            problems.contains(
                "the full-text search index has 57 entries for 60 stored items: 3 stored items are missing from it and cannot be found by search; a repair rebuilds it from the stored items"
            ), "\(problems)")
        try await expectRepairKeepsItems(path)
    }

    @Test func anInterruptedRebuildAndAnOldAnalyserAreReported() async throws {
        let path = try Self.makeArchive()
        try Self.tamper(path, "INSERT OR REPLACE INTO meta(key, value) VALUES ('ftsStale', '1')")
        #expect(
            try await check(path).contains {
                $0.hasPrefix("the full-text search index is incomplete: an ingest or index rebuild was interrupted")
            })
        try await expectRepairKeepsItems(path)
        try Self.tamper(path, "UPDATE meta SET value = '0' WHERE key = 'analyzerVersion'")
        #expect(
            try await check(path).contains {
                $0.hasPrefix(
                    "the full-text search index was built by text analyser version 0; this ChatArchive uses version \(Analyzer.version)"
                )
            })
        try await expectRepairKeepsItems(path)
    }

    @Test func wrongChatCountersAreNamedAndRecounted() async throws {
        let path = try Self.makeArchive()
        try Self.tamper(path, "UPDATE chat SET itemCount = 999, unreadCount = 0 WHERE sourceId = 'g1'")
        let problems = try await check(path)
        #expect(
            problems.contains {
                $0.hasPrefix("1 chat has wrong counts in the chat list")
                    && $0.contains("chat \"g1\" says 999 items and holds 30")
            }, "\(problems)")
        try await expectRepairKeepsItems(path)
        let row = try await Archive(path: path).chats().first { $0.chatId == "g1" }
        #expect(row?.unreadCount == 6)
    }

    @Test(arguments: [
        "DELETE FROM chatNameGram WHERE rowid = (SELECT min(id) FROM chat)",
        "UPDATE chatNameGram SET name = 'somebody else' WHERE rowid = (SELECT min(id) FROM chat)",
        "INSERT INTO chatNameGram(rowid, name, translit) VALUES (9999, 'ghost', '')",
    ])
    func aStaleChatNameIndexIsFoundAndRebuilt(_ damage: String) async throws {
        let path = try Self.makeArchive()
        let names = try await Archive(path: path).chats().map(\.displayName)
        try Self.tamper(path, damage)
        let problems = try await check(path)
        #expect(
            problems == [
                "the chat-name search index does not match the chats' names; chat-list searches may miss chats; a repair rebuilds it"
            ])
        try await expectRepairKeepsItems(path)
        // Every chat is found again by its own name.
        let archive = try Archive(path: path)
        for name in names {
            #expect(try await archive.chats(matching: name).contains { $0.displayName == name }, "\(name)")
        }
    }

    @Test(arguments: [
        "DELETE FROM memberNameGram WHERE rowid = (SELECT min(id) FROM member)",
        "UPDATE memberNameGram SET words = char(10) || 'nobody' WHERE rowid = (SELECT min(id) FROM member)",
        "INSERT INTO memberNameGram(rowid, words, name) VALUES (9999, char(10) || 'ghost', 'ghost')",
    ])
    func aStaleMemberNameIndexIsFoundAndRebuilt(_ damage: String) async throws {
        let path = try Self.makeArchive()
        let members = try Self.members(path)
        try #require(!members.isEmpty)
        try Self.tamper(path, damage)
        let problems = try await check(path)
        #expect(
            problems == [
                "the member-name index of mention autocomplete does not match the members' names; autocomplete may miss members; a repair rebuilds it"
            ])
        try await expectRepairKeepsItems(path)
        // Every member is offered again for (the first 3 letters of) a name.
        let archive = try Archive(path: path)
        for (chat, id, name) in members where name.unicodeScalars.count >= 3 {
            let found = try await archive.members(chat: chat, matching: String(name.prefix(3)), limit: 1000)
            #expect(found.contains { $0.sourceId == id }, "\(chat) \(name)")
        }
    }

    /// The chat, id and display name of every member who can be mentioned.
    static func members(_ path: String) throws -> [(String, String, String)] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT chat.sourceId, member.sourceId, member.displayName FROM member JOIN chat ON chat.id = member.chatId
                    WHERE member.isUser = 0 AND member.hasLeft = 0
                    """
            ).map { ($0[0], $0[1], $0[2]) }
        }
    }

    @Test func aDamagedSQLiteIndexIsFoundAndReindexed() async throws {
        let path = try Self.makeArchive(pageChecksums: false)
        let (pageSize, roots) = try Self.settle(path)
        let root = try #require(roots["item_chat_ts"])
        // The last byte of the index's only page: the row id of its first entry.
        try Self.flip(path, at: root * pageSize - 1)
        let problems = try await check(path)
        #expect(
            problems.contains {
                $0.hasPrefix("the database index item_chat_ts does not match its table")
                    && $0.contains("a repair rebuilds it")
            }, "\(problems)")
        try await expectRepairKeepsItems(path)
    }

    @Test func damagedStoredDataIsReportedAndNotRepairedAway() async throws {
        let path = try Self.makeArchive(pageChecksums: false)
        let (pageSize, roots) = try Self.settle(path)
        let root = try #require(roots["member"])
        // The member table's page header: its cell count.
        try Self.flip(path, at: (root - 1) * pageSize + 3, with: 0x7F)
        let problems = try await check(path)
        #expect(
            problems.contains { $0.hasPrefix("the archive file is damaged") && $0.contains("backup") }, "\(problems)")
        let left = try await Archive(path: path, rebuildsStaleIndexes: false).repair()
        #expect(left.contains { $0.hasPrefix("the archive file is damaged") })
    }

    @Test func theCommandWordsProblemsAndRepairsThem() throws {
        let path = try Self.makeArchive()
        try Self.tamper(
            path, "INSERT OR REPLACE INTO meta(key, value) VALUES ('ftsStale', '1'); UPDATE chat SET itemCount = 1")
        let before = try Self.storedRows(path)
        let cli = ChildProcess.chatArchiveBinary
        let check = try ChildProcess.run(cli, ["check", "--archive", path])
        #expect(check.status == 1)
        #expect(check.out.contains("problem: the full-text search index is incomplete"), "\(check.out)")
        #expect(check.out.contains("problem: 2 chats have wrong counts in the chat list"), "\(check.out)")
        let json = try JSONParser.parse(
            Array(try ChildProcess.run(cli, ["check", "--json", "--archive", path]).out.utf8))
        #expect(json["ok"]?.boolValue == false)
        #expect(json["problems"]?.arrayValue?.count == 2)
        let repair = try ChildProcess.run(cli, ["check", "--repair", "--archive", path])
        #expect(repair.status == 0, "\(repair.out)\(repair.err)")
        #expect(repair.out.contains("repaired:"))
        #expect(try Self.storedRows(path) == before)
        #expect(try ChildProcess.run(cli, ["check", "--archive", path]).out.hasPrefix("ok:"))
    }
}
