import ChatArchive
import ChatIndex
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// Live writes leave the merging of full-text segments to idle time (`IdleMerger`): FTS5's
/// merging inside writes is off while an app writes, on during an ingest, and the segments that
/// single upserts leave are merged in small steps without changing what any search finds.
@Suite struct IdleMergeTests {
    static func segments(_ archive: Archive) throws -> FullTextSegments {
        try #require(try archive.database.writer.read { db in try FullTextSegments.read(db) })
    }

    static func automerge(_ archive: Archive) throws -> Int? {
        try archive.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT v FROM itemFts_config WHERE k = 'automerge'")
        }
    }

    /// Each index's `automerge` and `crisismerge` settings (nil: FTS5's default).
    static func mergeSettings(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try ["itemFts", "itemChatFts"].map { table in
                let a = try Int.fetchOne(db, sql: "SELECT v FROM \(table)_config WHERE k = 'automerge'")
                let c = try Int.fetchOne(db, sql: "SELECT v FROM \(table)_config WHERE k = 'crisismerge'")
                let u = try Int.fetchOne(db, sql: "SELECT v FROM \(table)_config WHERE k = 'usermerge'")
                return "\(table) \(a.map(String.init) ?? "-") \(c.map(String.init) ?? "-") \(u.map(String.init) ?? "-")"
            }
        }
    }

    /// An ingest merges 16 segments at a time with its crisis merge at 64, and its last merge
    /// with `usermerge` 2; all end with it, and an ingest killed before its end leaves them to
    /// the next live write, which resets them.
    @Test func anIngestsMergeSettingsEndWithIt() async throws {
        let path = TestArchive.temporaryPath()
        _ = try Archive(path: path).ingestSync([TestArchive.corpusPath + "/sample/chats-1.jsonl"])
        // (This small ingest leaves one segment per index: its last merge has nothing to do.)
        #expect(try Self.mergeSettings(path) == ["itemFts 0 16 -", "itemChatFts 0 16 -"])

        // As a killed ingest leaves them (in the tables FTS5 reads them from when it opens an index).
        try await TestArchive.rawQueue(path).write { db in
            for table in ["itemFts", "itemChatFts"] {
                try db.execute(
                    sql:
                        "INSERT OR REPLACE INTO \(table)_config(k, v) VALUES ('automerge', 16), ('crisismerge', 64), ('usermerge', 2)"
                )
            }
        }
        #expect(try Self.mergeSettings(path) == ["itemFts 16 64 2", "itemChatFts 16 64 2"])
        let reopened = try Archive(path: path)
        try await reopened.upsert(items: [
            LiveWriteFixtures.message("g-hiking", "x1", "after a killed ingest", at: 1, from: "m-zoe")
        ])
        #expect(try Self.mergeSettings(path) == ["itemFts 0 16 4", "itemChatFts 0 16 4"])
    }

    /// Words in several scripts, one per upsert, so that each search has exactly one hit.
    static let words = [
        "Heinestraße", "東京", "مرحبا", "שלום", "เที่ยว", "привет", "नमस्ते", "서울", "İstanbul", "ｆｕｌｌ", "café",
        "ласкаво", "大阪", "ありがとう", "שבת", "ขอบคุณ",
    ]

    static func word(_ k: Int) -> String { "\(words[k % words.count])\(k)q" }

    @Test func singleUpsertsLeaveSegmentsThatIdleStepsMergeWithoutChangingResults() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        // Counted as the upserts leave them, however long each takes on a loaded machine.
        archive.database.pauseIdleMerging(true)
        let count = 70
        for k in 0..<count {
            try await archive.upsert(items: [
                LiveWriteFixtures.message("g1", "i\(k)", "message \(Self.word(k)) number \(k)", at: Int64(k))
            ])
        }
        #expect(try Self.automerge(archive) == 0)
        let left = try Self.segments(archive)
        // FTS5's crisis merge still bounds a level at 15 segments.
        #expect(left.levels.allSatisfy { $0.count < 16 }, "\(left.levels)")
        #expect(left.count > 1)

        var steps = 0
        while try archive.database.mergeIdleSegments() {
            steps += 1
            try #require(steps < 10_000)
        }
        let merged = try Self.segments(archive)
        // What FTS5's own merging leaves: fewer than 4 segments on every level, none in progress.
        #expect(merged.levels.allSatisfy { $0.count < 4 }, "\(merged.levels)")
        #expect(merged.merging.allSatisfy { $0 == 0 })
        #expect(merged.count < left.count || left.levels.allSatisfy { $0.count < 4 })

        for k in [0, 1, 7, 15, 16, 33, 50, 69] {
            let page = try await archive.search(Self.word(k), options: SearchOptions(chat: "g1"))
            #expect(page.hits.map(\.item.sourceId) == ["i\(k)"], "\(Self.word(k))")
        }
        let all = try await archive.search("message", options: SearchOptions(chat: "g1", limit: 200))
        #expect(all.hits.count == count)
        #expect(try await archive.check() == [])
    }

    @Test func theArchiveMergesOnItsOwnOnceWritesPause() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        for k in 0..<40 {
            try await archive.upsert(items: [
                LiveWriteFixtures.message("g1", "i\(k)", "note \(Self.word(k))", at: Int64(k))
            ])
        }
        // Polls for the background merging (a generous deadline, not a timing assertion).
        let deadline = Date().addingTimeInterval(30)
        var levels = try Self.segments(archive).levels
        while !levels.allSatisfy({ $0.count < 4 }) && Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
            levels = try Self.segments(archive).levels
        }
        #expect(levels.allSatisfy { $0.count < 4 }, "\(levels)")
        let page = try await archive.search(Self.word(39), options: SearchOptions(chat: "g1"))
        #expect(page.hits.map(\.item.sourceId) == ["i39"])
    }

    /// Live writes request a background checkpoint only every 2 MiB of log; what a few writes
    /// left is copied into the file once they pause. Seen through the file alone: an immutable
    /// connection ignores the log.
    @Test func theLogIsCopiedIntoTheFileOnceWritesPause() async throws {
        // Two upserts: fewer segments than a merge step takes, so only the pause copies them.
        let archive = try await LiveWriteFixtures.makeGroup()
        for k in 0..<2 {
            try await archive.upsert(items: [
                LiveWriteFixtures.message("g1", "i\(k)", "note \(Self.word(k))", at: Int64(k))
            ])
        }
        var config = Configuration()
        config.readonly = true
        let path = archive.database.path
        func itemsInTheFile() -> Int? {
            // (A read that meets the checkpoint copying pages fails; the poll tries again.)
            try? DatabaseQueue(path: "file:\(path)?immutable=1", configuration: config).read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE sourceId LIKE 'i%'")
            }
        }
        // Polls (a generous deadline, not a timing assertion).
        let deadline = Date().addingTimeInterval(30)
        while itemsInTheFile() != 2 && Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(itemsInTheFile() == 2)
    }

    @Test func anIngestMergesWithFTS5AndLeavesItOffForLiveWrites() async throws {
        let archive = try await LiveWriteFixtures.makeGroup()
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "first", "before the ingest", at: 0)])
        // An archive whose setting was left on (an ingest that stopped half-way, an older build).
        try await archive.database.writer.write { db in
            try db.execute(sql: "INSERT INTO itemFts(itemFts, rank) VALUES ('automerge', 4)")
        }
        let lines =
            [Lines.chat("g1")]
            + (0..<300).map { k in
                Lines.item("g1", "x\(k)", ts: "2024-05-02T10:00:00Z", text: "imported \(Self.word(k))")
            }
        let report = try await archive.ingest([try TestArchive.writeFile(lines.joined(separator: "\n") + "\n")])
        #expect(report.itemsAdded == 300)
        #expect(try Self.automerge(archive) == 0)
        // The ingest merged what it wrote into one segment.
        #expect(try Self.segments(archive).count == 1)
        let page = try await archive.search(Self.word(299), options: SearchOptions(chat: "g1"))
        #expect(page.hits.map(\.item.sourceId) == ["x299"])

        // An ingest that stops half-way leaves the setting on: the next live write turns it off.
        try await archive.database.writer.write { db in
            try db.execute(sql: "INSERT INTO itemFts(itemFts, rank) VALUES ('automerge', 4)")
        }
        _ = try ArchiveWriter(database: archive.database)
        try await archive.upsert(items: [LiveWriteFixtures.message("g1", "after", "after the ingest", at: 400)])
        #expect(try Self.automerge(archive) == 0)
        #expect(try await archive.check() == [])
    }

    @Test func structureRecordsOfBothVersionsDecode() throws {
        // Cookie, then levels 2, segments 3, write counter 300 (two bytes), then level 0: merging
        // 1, 2 segments (id 1, pages 1…1; id 2, pages 1…3), level 1: merging 0, 1 segment
        // (id 3, pages 1…200, two-byte varint: the merge's output so far).
        let v1: [UInt8] = [0, 0, 0, 7, 2, 3, 0x82, 0x2c, 1, 2, 1, 1, 1, 2, 1, 3, 0, 1, 3, 1, 0x81, 0x48]
        let decoded = try #require(FullTextSegments.decode(v1))
        #expect(decoded.levels == [[1, 3], [200]])
        #expect(decoded.merging == [1, 0])
        #expect(decoded.count == 3)
        // The second version: a marker after the cookie and five more varints per segment.
        let v2: [UInt8] = [0, 0, 0, 7, 0xff, 0, 0, 1, 1, 1, 5, 0, 1, 9, 1, 4, 3, 4, 0, 0, 0x81, 0]
        #expect(FullTextSegments.decode(v2)?.levels == [[4]])
        #expect(FullTextStructure(v2)?.levels[0].segments[0].more == [3, 4, 0, 0, 128])
        // Both encode back to the same bytes.
        #expect(FullTextStructure(v1)?.encoded == v1)
        #expect(FullTextStructure(v2)?.encoded == v2)
        // A count of segments that the levels do not hold, a merge on the last level or into an
        // empty level: refused, as FTS5 refuses them.
        #expect(FullTextStructure([0, 0, 0, 7, 1, 2, 0, 0, 1, 1, 1, 1]) == nil)
        #expect(FullTextStructure([0, 0, 0, 7, 1, 1, 0, 1, 1, 1, 1, 1]) == nil)
        #expect(FullTextStructure([0, 0, 0, 7, 3, 2, 0, 1, 1, 1, 1, 1, 0, 0, 1, 2, 1, 1]) == nil)
        // Truncated records are refused, not misread.
        #expect(FullTextSegments.decode(Array(v1.prefix(12))) == nil)
        #expect(FullTextSegments.decode([0, 0]) == nil)
    }
}
