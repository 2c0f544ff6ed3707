import ChatArchive
import ChatIndex
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// The full-text indexes keep a few segments, each at least four times all newer ones together
/// (`FullTextStructure.tiered`): an ingest merges what it wrote with the segments not much
/// bigger, leaves the big ones alone on levels FTS5's own merging never reaches, and every
/// search finds what it found before.
@Suite struct SegmentTiersTests {
    /// A record of the first version whose segments, oldest first, have these leaf pages (one
    /// level each, the oldest highest).
    static func structure(_ pages: [Int]) -> FullTextStructure {
        FullTextStructure(
            header: [0, 0, 0, 3], writeCounter: 99,
            levels: pages.reversed().enumerated().map { k, p in
                .init(merging: 0, segments: [.init(id: UInt64(k + 1), firstPage: 1, lastPage: UInt64(p))])
            })
    }

    /// Per level that holds segments: the level and their leaf pages.
    static func shape(_ s: FullTextStructure) -> [String] {
        s.levels.enumerated().filter { !$0.element.segments.isEmpty }.map { k, level in
            "\(k): " + level.segments.map { String($0.pages) }.joined(separator: "+")
        }
    }

    @Test func theNewestSegmentsJoinWhileTheOlderOneIsLessThanFourTimesThem() throws {
        let top = FullTextStructure.topLevel
        let s = Self.structure([1_000, 50, 10, 3, 1])
        #expect(s.segmentsOldestFirst.map(\.pages) == [1_000, 50, 10, 3, 1])
        let (layout, pages) = try #require(s.tiered(floor: 0))
        #expect(Self.shape(layout) == ["\(top - 2): 50+10+3+1", "\(top): 1000"])
        #expect(pages == 64)
        #expect(layout.header == s.header && layout.writeCounter == s.writeCounter)
        #expect(FullTextStructure(layout.encoded) == layout)

        // Equal segments all join; a lone one is only lifted; a big one stops the walk early.
        #expect(try #require(Self.structure([100, 100, 100]).tiered(floor: 0)).mergedPages == 300)
        #expect(
            Self.shape(try #require(Self.structure([100, 100, 100]).tiered(floor: 0)).layout) == [
                "\(top - 1): 100+100+100"
            ])
        #expect(Self.shape(try #require(Self.structure([7]).tiered()).layout) == ["\(top): 7"])
        #expect(try #require(Self.structure([7]).tiered()).mergedPages == 0)
        let stops = try #require(Self.structure([1_000, 300, 1]).tiered(floor: 0))
        #expect(Self.shape(stops.layout) == ["\(top - 2): 1", "\(top - 1): 300", "\(top): 1000"])
        #expect(stops.mergedPages == 0)
        // An already tiered index with a new small segment: only that one is new work.
        let again = try #require(Self.structure([1_000, 200, 40, 5]).tiered(floor: 0))
        #expect(Self.shape(again.layout) == ["\(top - 3): 5", "\(top - 2): 40", "\(top - 1): 200", "\(top): 1000"])

        // A merge in progress: its output so far (level 1's last) stands before its trimmed
        // inputs (level 0's first two), which join the newer small ones.
        func seg(_ id: UInt64, _ pages: UInt64) -> FullTextStructure.Segment {
            .init(id: id, firstPage: 1, lastPage: pages)
        }
        let merging = FullTextStructure(
            header: [0, 0, 0, 3], writeCounter: 5,
            levels: [
                .init(merging: 2, segments: [seg(1, 10), seg(2, 5), seg(3, 3)]),
                .init(merging: 0, segments: [seg(4, 1_000), seg(5, 7)]),
            ])
        #expect(FullTextStructure(merging.encoded) == merging)
        #expect(merging.segmentsOldestFirst.map(\.id) == [4, 5, 1, 2, 3])
        let (laidOut, joinedPages) = try #require(merging.tiered(floor: 0))
        #expect(Self.shape(laidOut) == ["\(top - 2): 7+10+5+3", "\(top): 1000"])
        #expect(joinedPages == 25)

        // Segments written since a snapshot join whole, with every newer one.
        let base = Self.structure([1_000, 600, 30, 5])
        let before = Set(base.segmentsOldestFirst.prefix(1))
        let sinceBase = try #require(base.tiered(floor: 0, since: before))
        #expect(Self.shape(sinceBase.layout) == ["\(top - 2): 600+30+5", "\(top): 1000"])
        #expect(try #require(base.tiered(floor: 0)).mergedPages == 0)

        // The second version's segments carry origins: no layout of ours.
        let v2: [UInt8] = [0, 0, 0, 7, 0xff, 0, 0, 1, 1, 1, 5, 0, 1, 9, 1, 4, 3, 4, 0, 0, 1]
        #expect(try #require(FullTextStructure(v2)).tiered() == nil)

        // Segments under the floor always join, whatever their sizes.
        let small = try #require(Self.structure([100_000, 40, 200, 3, 90]).tiered(floor: 256))
        #expect(Self.shape(small.layout) == ["\(top - 2): 40+200+3+90", "\(top): 100000"])
    }

    /// Words in several scripts; `word(k)` is in exactly one message.
    static func word(_ k: Int) -> String { IdleMergeTests.word(k) }

    static func lines(_ range: Range<Int>, chat: String = "g1") -> String {
        ([Lines.chat(chat)]
            + range.map { k in
                Lines.item(chat, "x\(k)", ts: "2024-05-02T10:00:00Z", text: "imported \(word(k)) and some more words")
            }).joined(separator: "\n") + "\n"
    }

    static func structures(_ archive: Archive) throws -> [FullTextStructure] {
        try archive.database.writer.read { db in
            try ["itemFts", "itemChatFts"].map { try #require(try FullTextStructure.read(db, of: $0)) }
        }
    }

    /// Each index's segments' pages, oldest first, and whether every one sits where the layout
    /// puts it (what FTS5 keeps after its merges).
    static func expectTiered(_ archive: Archive, _ comment: Comment) throws {
        for s in try structures(archive) {
            let pages = s.segmentsOldestFirst.map(\.pages)
            #expect(s.levels.allSatisfy { $0.merging == 0 }, comment)
            // The oldest segment, then at most one more: these tests' ingests write fewer pages
            // than the floor.
            #expect(pages.count <= 2, "\(pages) \(comment)")
            #expect(s.tiered(floor: archive.database.smallSegmentPages)?.mergedPages == 0, comment)
        }
    }

    static func expectFound(_ archive: Archive, _ ks: [Int], chat: String = "g1") async throws {
        for k in ks {
            let page = try await archive.search(word(k), options: SearchOptions(chat: chat))
            #expect(page.hits.map(\.item.sourceId) == ["x\(k)"], "\(word(k))")
            let global = try await archive.search(word(k))
            #expect(global.hits.map(\.item.sourceId) == ["x\(k)"], "\(word(k)) in every chat")
        }
    }

    @Test func ingestsMergeTheirOwnSegmentsAndLeaveTheBigOneAlone() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        // Small segments join whatever their sizes; here the ratio alone decides.
        archive.database.smallSegmentPages = 0
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(0..<3_000))])
        let first = try Self.structures(archive)
        // One segment per index, on the top level.
        #expect(first.map { Self.shape($0).count } == [1, 1])
        #expect(first.allSatisfy { !$0.levels[FullTextStructure.topLevel].segments.isEmpty })
        let base = first.map { $0.levels[FullTextStructure.topLevel].segments[0] }

        // A small ingest: its segment stays beside the big one, which is not rewritten.
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(3_000..<3_040))])
        let second = try Self.structures(archive)
        #expect(second.map { $0.levels[FullTextStructure.topLevel].segments } == base.map { [$0] })
        #expect(second.map { $0.segmentsOldestFirst.count } == [2, 2])
        try Self.expectTiered(archive, "after a small ingest")

        // Live writes, then idle merging: the big segment stays where it is.
        for k in 3_040..<3_100 {
            try await archive.upsert(items: [
                LiveWriteFixtures.message("g1", "x\(k)", "imported \(Self.word(k)) live", at: Int64(k))
            ])
        }
        while try archive.database.mergeIdleSegments() {}
        #expect(
            try Self.structures(archive).map { $0.levels[FullTextStructure.topLevel].segments } == base.map { [$0] })

        // An ingest as big as everything: one segment again.
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(3_100..<7_000, chat: "g2"))])
        #expect(try Self.structures(archive).map { $0.segmentsOldestFirst.count } == [1, 1])
        try Self.expectTiered(archive, "after a big ingest")

        try await Self.expectFound(archive, [0, 1, 17, 2_999, 3_000, 3_039, 3_040, 3_099])
        for k in [3_100, 5_000, 6_999] {
            let page = try await archive.search(Self.word(k), options: SearchOptions(chat: "g2"))
            #expect(page.hits.map(\.item.sourceId) == ["x\(k)"])
        }
        #expect(try await archive.check() == [])
    }

    /// An ingest's own segments end as one, however many transactions wrote them (with the
    /// ratio alone, an ingest whose first batches were merged into a big segment kept it apart).
    @Test func anIngestsOwnSegmentsEndAsOne() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        archive.database.smallSegmentPages = 0
        let small = IngestOptions(batchSize: 40)
        // Big enough that the chat-keyed index without positions (format 19) still holds the
        // first ingest in a segment over four times the second's.
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(0..<6_000))], options: small)
        #expect(try Self.structures(archive).map { $0.segmentsOldestFirst.count } == [1, 1])
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(6_000..<6_300, chat: "g2"))], options: small)
        let after = try Self.structures(archive)
        #expect(after.map { $0.segmentsOldestFirst.count } == [2, 2], "\(after.map(Self.shape))")
        try await Self.expectFound(archive, [0, 5_999])
        for k in [6_000, 6_299] {
            let page = try await archive.search(Self.word(k), options: SearchOptions(chat: "g2"))
            #expect(page.hits.map(\.item.sourceId) == ["x\(k)"])
        }
        #expect(try await archive.check() == [])
    }

    /// The merges at the end of an ingest free the pages of the segments they merged: a new
    /// archive gives them back to the file system (`auto_vacuum = INCREMENTAL`), so the file
    /// holds no free page after an ingest, and answers and checks as before.
    @Test func theMergesFreedPagesAreGivenBackToTheFileSystem() async throws {
        let path = TestArchive.temporaryPath()
        let archive = try Archive(path: path)
        archive.database.smallSegmentPages = 0
        let small = IngestOptions(batchSize: 40)
        func pages() throws -> (mode: Int, free: Int, count: Int) {
            try archive.database.writer.read { db in
                (
                    try #require(try Int.fetchOne(db, sql: "PRAGMA auto_vacuum")),
                    try #require(try Int.fetchOne(db, sql: "PRAGMA freelist_count")),
                    try #require(try Int.fetchOne(db, sql: "PRAGMA page_count"))
                )
            }
        }
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(0..<3_000))], options: small)
        let first = try pages()
        #expect(first.mode == 2)
        #expect(first.free == 0)
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(3_000..<6_000, chat: "g2"))], options: small)
        let second = try pages()
        #expect(second.free == 0)
        #expect(second.count > first.count)
        try await Self.expectFound(archive, [0, 1_500, 2_999])
        try await Self.expectFound(archive, [3_000, 5_999], chat: "g2")
        #expect(try await archive.check() == [])
        // The log copied back, the file is as long as its pages.
        try await archive.database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size == second.count * 8192)
    }

    /// The chat-keyed index writes leaves of `ChatKeys.leafBytes`, smaller than the other
    /// index's: in a new archive, in one from before the setting (its next writable open sets
    /// it, and its next ingest writes such leaves), and after a rebuild, which creates the
    /// table again. A word in each of a chat's items then has a doclist index to seek in.
    @Test func theChatKeyedIndexWritesSmallLeaves() async throws {
        // Enough items that a word in each fills several leaves even without positions.
        let path = TestArchive.temporaryPath()
        var archive = try Archive(path: path)
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(0..<8_000))])
        struct Leaves: Equatable {
            var setting: Int?
            var doclistIndexes: Int
            var meanBytes: Int
        }
        func leaves(_ table: String) throws -> Leaves {
            try archive.database.writer.read { db in
                // Rows above 10 are leaves and doclist indexes (FTS5's rowid layout: bit 36 marks
                // the latter); 1 and 10 hold the structure and the averages.
                Leaves(
                    setting: try Int.fetchOne(db, sql: "SELECT v FROM \(table)_config WHERE k = 'pgsz'"),
                    doclistIndexes: try #require(
                        try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM \(table)_data WHERE id > 10 AND (id >> 36) & 1 = 1")),
                    meanBytes: try #require(
                        try Int.fetchOne(
                            db, sql: "SELECT avg(length(block)) FROM \(table)_data WHERE id > 10 AND (id >> 36) & 1 = 0"
                        )))
            }
        }
        func expectSmall(_ comment: Comment) throws {
            let keyed = try leaves("itemChatFts")
            #expect(keyed.setting == ChatKeys.leafBytes, comment)
            #expect(keyed.meanBytes <= ChatKeys.leafBytes, comment)
            #expect(keyed.doclistIndexes > 0, comment)
            let timeOrdered = try leaves("itemFts")
            #expect(timeOrdered.setting == nil, comment)
            #expect(timeOrdered.meanBytes > 2 * ChatKeys.leafBytes, comment)
        }
        try expectSmall("a new archive")
        try await Self.expectFound(archive, [0, 4_000, 7_999])

        // An archive from before: the setting gone, its migration not run; the next writable
        // open sets it, and the next ingest's segments (merged with the old ones) have such leaves.
        try await archive.database.writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM itemChatFts_config WHERE k = 'pgsz';
                    DELETE FROM grdb_migrations WHERE identifier = 'v18-chatKeyLeafSize';
                    """)
        }
        archive = try Archive(path: path)
        #expect(try leaves("itemChatFts").setting == ChatKeys.leafBytes)
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(8_000..<8_100))])
        try expectSmall("an archive from before, after an ingest")
        try await Self.expectFound(archive, [0, 7_999, 8_000, 8_099])

        try archive.database.rebuildIndexes(chunk: 500)
        try expectSmall("after a rebuild")
        try await Self.expectFound(archive, [0, 4_000, 8_099])
        #expect(try await archive.check() == [])
    }

    /// An archive left with FTS5's merge of the whole index half done (as an earlier build's idle
    /// merging left big archives): the next ingest lays the segments out anew, the merge's two
    /// parts as segments of their own, and answers the same.
    @Test func aWholeIndexMergeLeftHalfDoneIsLaidOutAnew() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(0..<3_000))])
        for k in 3_000..<3_030 {
            try await archive.upsert(items: [
                LiveWriteFixtures.message("g1", "x\(k)", "imported \(Self.word(k)) live", at: Int64(k))
            ])
        }
        // The live writes' idle merging done (it would go on with the merge below).
        while try archive.database.mergeIdleSegments() {}
        try await Task.sleep(nanoseconds: 1_000_000_000)
        while try archive.database.mergeIdleSegments() {}
        // FTS5's merge of every level, a few pages of it.
        try await archive.database.writer.write { db in _ = try FullTextSegments.merge(db, pages: -2) }
        let half = try Self.structures(archive)
        #expect(half.contains { $0.levels.contains { $0.merging > 0 } }, "\(half.map(Self.shape))")
        try await Self.expectFound(archive, [0, 1500, 2_999, 3_000, 3_029])

        _ = try await archive.ingest([try TestArchive.writeFile(Self.lines(3_030..<3_060))])
        try Self.expectTiered(archive, "after the ingest")
        try await Self.expectFound(archive, [0, 1, 1_500, 2_999, 3_000, 3_029, 3_030, 3_059])
        // Every row of each index, read through all its segments.
        let counts = try await archive.database.writer.read { db in
            try ["itemFts", "itemChatFts"].map { table in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(table) MATCH 'imported'")
            }
        }
        #expect(counts == [3_060, 3_060])
        #expect(try await archive.check() == [])
    }
}
