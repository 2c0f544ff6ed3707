import ChatArchive
import ChatTestSupport
import ChatText
import Foundation
import GRDB
import Synchronization
import Testing

@Suite struct ArchiveWriterTests {
    static let base = [
        Lines.chat("g1", name: "Hiking club"),
        Lines.member("g1", "m1", "Zoë"),
        Lines.item("g1", "1", ts: "2024-05-01T10:00:00Z", text: "first *bold* message", member: "m1"),
        Lines.item("g1", "2", ts: "2024-05-01T10:05:00Z", text: "second message", member: "m1", unread: true),
        Lines.item("g1", "3", ts: "2024-05-01T10:05:00Z", text: "third, same time", dir: "snd"),
    ].joined(separator: "\n")

    @Test func reingestingTheSameFileChangesNothing() throws {
        let path = try TestArchive.writeFile(Self.base)
        let archive = try Archive(path: TestArchive.temporaryPath())
        let first = try archive.ingestSync([path])
        #expect(first.itemsAdded == 3)
        let again = try archive.ingestSync([path])
        #expect(again.itemsAdded == 0)
        #expect(again.itemsUpdated == 0)
        #expect(again.itemsUnchanged == 3)
        let count = try archive.database.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") }
        #expect(count == 3)
    }

    @Test func anIngestReportsWhereItsTimeWentAndWhatItWroteToTheLog() throws {
        var lines = [Lines.chat("g1", name: "Hiking club"), Lines.member("g1", "m1", "Zoë")]
        for i in 0..<3_000 {
            lines.append(
                Lines.item(
                    "g1", "\(i)",
                    ts: "2024-05-01T10:\(String(format: "%02d", i / 60 % 60)):\(String(format: "%02d", i % 60))Z",
                    text: "message \(i) 東京で会いましょう مرحبا \(i * 7919)", member: "m1"))
        }
        let path = try TestArchive.writeFile(lines.joined(separator: "\n"))
        let archive = try Archive(path: TestArchive.temporaryPath())
        let pages = { () throws -> Int64 in
            try archive.database.writer.read { db in
                try Int64.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size")
                    ?? 0
            }
        }
        let before = try pages()
        let report = try archive.ingestSync([path], options: IngestOptions(batchSize: 500))
        #expect(report.itemsAdded == 3_000)
        let timing = report.timing
        // Every page the ingest added went through the log first (its batches were copied back).
        #expect(timing.logBytes >= (try pages()) - before)
        #expect(timing.logBytes > 0)
        #expect(timing.writing > 0)
        #expect(timing.waiting >= 0 && timing.finishing >= 0)
        var other = report
        other.timing.writing += 1
        #expect(other == report, "timings are not part of what an ingest did")
        let again = try archive.ingestSync([path])
        #expect(again.itemsUnchanged == 3_000)
        #expect(again.timing.logBytes < timing.logBytes, "an unchanged export writes little")
    }

    @Test func aLaterFileUpdatesEditsDeletionsAndReadState() async throws {
        let (archive, _) = try TestArchive.make(jsonl: Self.base)
        let ids = try await archive.database.writer.read {
            try Int64.fetchAll($0, sql: "SELECT id FROM item ORDER BY id")
        }
        let update = [
            Lines.chat("g1", name: "Hiking club"),
            Lines.item(
                "g1", "1", ts: "2024-05-01T10:00:00Z", text: "first message, edited", member: "m1",
                extra: "\"edited\":true"),
            Lines.item("g1", "2", ts: "2024-05-01T10:05:00Z", text: "second message", member: "m1", unread: false),
            Lines.item("g1", "3", ts: "2024-05-01T10:05:00Z", text: "third, same time", dir: "snd", deleted: true),
        ].joined(separator: "\n")
        let r = try archive.ingestSync([try TestArchive.writeFile(update)])
        #expect(r.itemsUpdated == 3)
        #expect(r.itemsAdded == 0)
        let after = try await archive.database.writer.read {
            try Int64.fetchAll($0, sql: "SELECT id FROM item ORDER BY id")
        }
        #expect(after == ids, "archive ids are stable across updates")
        let edited = try await archive.search("edited")
        #expect(edited.hits.map(\.item.sourceId) == ["1"])
        #expect(edited.hits.first?.item.isEdited == true)
        #expect(try await archive.search("first bold").hits.isEmpty, "the old text is no longer indexed")
        #expect(try await archive.search("third").hits.isEmpty, "deleted items are excluded")
        #expect(try await archive.search("third", options: SearchOptions(includeDeleted: true)).hits.count == 1)
        let chats = try await archive.chats()
        #expect(chats.first?.unreadCount == 0)
        #expect(try await archive.check().isEmpty)
    }

    /// An item added and changed within one batch is indexed once, in its last version: the FTS
    /// index never receives a 'delete' for a row it does not hold (that corrupts it).
    @Test(arguments: [true, false])
    func anItemChangedWithinOneBatchIsIndexedOnceInItsLastVersion(intoEmptyArchive: Bool) async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        if !intoEmptyArchive {
            _ = try archive.ingestSync([try TestArchive.writeFile(Self.base)])
        }
        let lines = [
            Lines.chat("g2", name: "Book club"),
            Lines.item("g2", "a", ts: "2024-06-01T10:00:00Z", text: "draft wording"),
            Lines.item("g2", "b", ts: "2024-06-01T10:01:00Z", text: "unrelated"),
            Lines.item("g2", "a", ts: "2024-06-01T10:00:00Z", text: "final wording", extra: "\"edited\":true"),
            Lines.item("g2", "a", ts: "2024-06-01T10:00:00Z", text: "final wording, really", extra: "\"edited\":true"),
        ].joined(separator: "\n")
        let r = try archive.ingestSync([try TestArchive.writeFile(lines)])
        #expect(r.itemsAdded == 2)
        #expect(r.itemsUpdated == 2)
        #expect(try await archive.search("draft").hits.isEmpty)
        #expect(try await archive.search("really").hits.map(\.item.sourceId) == ["a"])
        #expect(try await archive.check().isEmpty)
        // A later file changes it again: the index row written above is replaced cleanly.
        let later = Lines.item("g2", "a", ts: "2024-06-01T10:00:00Z", text: "third version", extra: "\"edited\":true")
        _ = try archive.ingestSync([try TestArchive.writeFile(Lines.chat("g2", name: "Book club") + "\n" + later)])
        #expect(try await archive.search("really").hits.isEmpty)
        #expect(try await archive.search("third version").hits.map(\.item.sourceId) == ["a"])
        #expect(try await archive.check().isEmpty)
    }

    /// Counts the transactions that wrote item rows.
    final class ItemCommits: TransactionObserver, @unchecked Sendable {
        private var wroteItems = false
        private(set) var count = 0
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "item" }
        func databaseDidChange(with event: DatabaseEvent) { wroteItems = true }
        func databaseDidCommit(_ db: Database) {
            if wroteItems { count += 1 }
            wroteItems = false
        }
        func databaseDidRollback(_ db: Database) { wroteItems = false }
    }

    /// A batch ends at its item count or at its analysed bytes, whichever comes first, and
    /// cutting batches by bytes loses nothing: every item is written once, in any script.
    @Test func batchesEndAtTheirBytesAsWellAsTheirItems() async throws {
        let texts = [
            "今日は東京で会議があります、明日は大阪へ行きます", "我们明天在北京见面吧，好不好", "오늘 회의는 서울에서 합니다",
            "วันนี้ฝนตกหนักมาก", "مرحبا بكم في الاجتماع", "שלום לכולם בפגישה", "आज बैठक दिल्ली में है",
            "Встреча завтра в Москве", "Grüße aus München, Straße", "İstanbul'da görüşürüz", "see you 🎉👍🏽",
            "ｆｕｌｌｗｉｄｔｈ ｔｅｘｔ", "cafe\u{301} crème",
        ]
        var lines = [Lines.chat("g1", name: "Every script")]
        for k in 0..<130 {
            let ts = String(format: "2024-05-01T10:%02d:%02dZ", k / 60, k % 60)
            lines.append(Lines.item("g1", "\(k)", ts: ts, text: "\(texts[k % texts.count]) n\(k)"))
        }
        let path = try TestArchive.writeFile(lines.joined(separator: "\n"))
        func ingest(batchBytes: Int) throws -> (Archive, IngestReport, Int) {
            let archive = try Archive(path: TestArchive.temporaryPath())
            let commits = ItemCommits()
            archive.database.writer.add(transactionObserver: commits, extent: .databaseLifetime)
            let report = try archive.ingestSync([path], options: IngestOptions(batchBytes: batchBytes))
            return (archive, report, commits.count)
        }
        let (whole, wholeReport, wholeCommits) = try ingest(batchBytes: IngestOptions.defaultBatchBytes)
        #expect(wholeReport.itemsAdded == 130)
        #expect(wholeCommits == 1, "130 short messages are far below the default bound")
        // Each analysed item holds well over 600 bytes: 8 KiB cuts the ingest into more than 10 batches.
        let (cut, cutReport, cutCommits) = try ingest(batchBytes: 8 << 10)
        #expect(cutReport.itemsAdded == 130)
        #expect(cutCommits > 10)
        #expect(cutCommits < 130)
        for word in [
            "東京", "北京", "서울", "ฝนตก", "الاجتماع", "בפגישה", "दिल्ली", "Москве", "strasse", "istanbul", "🎉", "full", "café",
        ] {
            let expected = try await whole.search(word).hits.map(\.item.sourceId)
            #expect(!expected.isEmpty, "\(word)")
            #expect(try await cut.search(word).hits.map(\.item.sourceId) == expected, "\(word)")
        }
        #expect(try await cut.check().isEmpty)
    }

    /// The writer's set of terms already offered to the vocabulary forgets them all past its
    /// limit (its memory grew with the vocabulary: about 50 MB at 10M messages): terms seen
    /// again are offered again, and the vocabulary ends the same, counters included.
    @Test func theVocabularyIsCompleteWhenTheWriterForgetsTerms() async throws {
        let set = TermSet(limit: 3)
        set.add(TokenizedDocument("alpha beta"))
        #expect(Set(set.drain()) == ["alpha", "beta"])
        set.add(TokenizedDocument("beta gamma Straße"))
        let second = set.drain()
        #expect(second.contains("gamma") && !second.contains("beta"), "\(second)")
        set.add(TokenizedDocument("alpha"))
        #expect(set.drain() == ["alpha"], "past the limit the set forgot alpha")
        let remembering = TermSet(limit: 100)
        remembering.add(TokenizedDocument("alpha beta"))
        _ = remembering.drain()
        remembering.add(TokenizedDocument("beta alpha"))
        #expect(remembering.drain().isEmpty)

        let path = TestArchive.corpusPath + "/sample/chats-1.jsonl"
        func vocabulary(termLimit: Int?) async throws -> (Set<String>, Int64?) {
            let archive = try Archive(path: TestArchive.temporaryPath())
            var options = IngestOptions(batchSize: 40)
            options.termLimit = termLimit
            _ = try archive.ingestSync([path], options: options)
            #expect(try await archive.check().isEmpty)
            return try await archive.database.writer.read { db in
                (
                    try Set(String.fetchAll(db, sql: "SELECT term FROM term")),
                    try Int64.fetchOne(db, sql: "SELECT value FROM archiveCounter WHERE name = 'terms'")
                )
            }
        }
        let (whole, wholeCount) = try await vocabulary(termLimit: nil)
        #expect(whole.count > 500)
        #expect(wholeCount == Int64(whole.count))
        let (forgetting, forgettingCount) = try await vocabulary(termLimit: 50)
        #expect(forgetting == whole)
        #expect(forgettingCount == Int64(whole.count))
    }

    /// The vocabulary an ingest writes is the one a rebuild reads back from the index.
    @Test func rebuildingTheIndexesRebuildsTheSameVocabulary() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        _ = try archive.ingestSync([TestArchive.corpusPath + "/sample/chats-1.jsonl"])
        let read = {
            try await archive.database.writer.read { try Set(String.fetchAll($0, sql: "SELECT term FROM term")) }
        }
        let ingested = try await read()
        #expect(ingested.count > 500)
        try archive.database.rebuildIndexes()
        let rebuilt = try await read()
        #expect(
            rebuilt == ingested,
            "only after ingest: \(ingested.subtracting(rebuilt).prefix(10)); only after rebuild: \(rebuilt.subtracting(ingested).prefix(10))"
        )
        #expect(try await archive.check().isEmpty)
    }

    /// A rebuild in many small transactions (the WAL stays near one chunk) indexes every item
    /// once: the same hits, the same vocabulary, a sound index, progress up to the total.
    @Test func aRebuildInSmallTransactionsIndexesEveryItemOnce() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        _ = try archive.ingestSync([TestArchive.corpusPath + "/sample/chats-1.jsonl"])
        let queries = ["the", "video", "東京", "مرحبا", "prüfung", "e", "*", "from:me", "has:link"]
        let hits = { (q: String) in try await archive.search(q, options: SearchOptions(limit: 500)).hits.map(\.item.id)
        }
        var before: [[Int64]] = []
        for q in queries { before.append(try await hits(q)) }
        let terms = {
            try await archive.database.writer.read { try Set(String.fetchAll($0, sql: "SELECT term FROM term")) }
        }
        let vocabulary = try await terms()
        let items = try await archive.database.writer.read { try Int64.fetchOne($0, sql: "SELECT count(*) FROM item") }
        let seen = Mutex<[(Int64, Int64)]>([])
        try archive.database.rebuildIndexes(
            progress: { done, total in seen.withLock { $0.append((done, total)) } }, chunk: 37)
        for (k, q) in queries.enumerated() { #expect(try await hits(q) == before[k], "\(q)") }
        #expect(before.map(\.count).reduce(0, +) > 150, "\(before.map(\.count))")
        #expect(try await terms() == vocabulary)
        let rows = try await archive.database.writer.read {
            try Int64.fetchOne($0, sql: "SELECT count(*) FROM itemFts WHERE itemFts MATCH '{tags}: all'")
        }
        #expect(rows == items)
        let progress = seen.withLock { $0 }
        #expect(progress.count > Int(items ?? 0) / 37)
        #expect(progress.map(\.0) == progress.map(\.0).sorted())
        #expect(progress.last.map { $0.0 == $0.1 && $0.1 == items } == true)
        #expect(try await archive.check().isEmpty)
    }

    @Test func badLinesAreReportedWithFileAndLineAndSkipped() throws {
        let text = [
            Lines.chat("g1"),
            "{not json",
            Lines.item("g1", "1", ts: "2024-05-01T10:00:00Z", text: "ok"),
            #"{"kind":"item","chatId":"g1","ts":"2024-05-01T10:00:00Z","content":{"type":"text","text":"no id"}}"#,
            #"{"kind":"item","chatId":"nochat","id":"9","ts":"2024-05-01T10:00:00Z","content":{"type":"text","text":"x"}}"#,
            #"{"kind":"item","chatId":"g1","id":"5","ts":"yesterday","content":{"type":"text","text":"x"}}"#,
            #"{"kind":"thing"}"#,
            "",
            Lines.item("g1", "2", ts: "2024-05-01T10:01:00Z", text: "still ok"),
        ].joined(separator: "\n")
        let path = try TestArchive.writeFile(text, name: "bad.jsonl")
        let archive = try Archive(path: TestArchive.temporaryPath())
        let r = try archive.ingestSync([path])
        #expect(r.itemsAdded == 2)
        #expect(r.errors.map(\.location.line) == [2, 4, 5, 6, 7])
        #expect(r.errors.allSatisfy { $0.location.file.hasSuffix("bad.jsonl") })
        #expect(r.errors[1].message.contains("\"id\""))
        #expect(r.errors[3].message.contains("RFC 3339"))
    }

    @Test func strictStopsAtTheFirstBadLineKeepingWhatCameBefore() throws {
        var lines = [Lines.chat("g1")]
        for k in 0..<30 {
            lines.append(Lines.item("g1", "\(k)", ts: "2024-05-01T10:\(String(format: "%02d", k)):00Z", text: "m\(k)"))
        }
        lines.append("garbage")
        lines.append(Lines.item("g1", "late", ts: "2024-06-01T10:00:00Z", text: "after the error"))
        let archive = try Archive(path: TestArchive.temporaryPath())
        let r = try archive.ingestSync(
            [try TestArchive.writeFile(lines.joined(separator: "\n"))], options: IngestOptions(strict: true))
        #expect(r.stoppedEarly)
        #expect(r.itemsAdded == 30)
        #expect(r.errors.first?.location.line == 32)
        let count = try archive.database.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") }
        #expect(count == 30)
    }

    @Test func archiveFileIsPrivateAndNotSQLiteIsRefused() throws {
        let path = TestArchive.temporaryPath()
        _ = try Archive(path: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let junk = try TestArchive.writeFile("this is not a database, just text", name: "junk.sqlite")
        #expect(throws: ArchiveError.self) { _ = try Archive(path: junk) }
    }

    @Test func idsFollowTimeAndTiesAreBrokenById() throws {
        let (archive, _) = try TestArchive.make(jsonl: Self.base)
        let rows = try archive.database.writer.read {
            try Row.fetchAll($0, sql: "SELECT id, ts, sourceId FROM item ORDER BY ts, id")
        }
        let ids = rows.map { $0["id"] as Int64 }
        #expect(ids == ids.sorted())
        #expect(rows.map { $0["sourceId"] as String } == ["1", "2", "3"])
    }

    @Test func rebuildingIndexesKeepsSearchResults() async throws {
        let (archive, _) = try TestArchive.make(jsonl: Self.base)
        let before = try await archive.search("message").hits.map(\.item.id)
        try archive.database.rebuildIndexes()
        let after = try await archive.search("message").hits.map(\.item.id)
        #expect(before == after)
        #expect(before.count == 2)
        #expect(try await archive.check().isEmpty)
    }
}

/// An ingest's batches count what they change, the rows FTS5 writes out included, so a batch
/// never takes its own previous batch for another writer's (which would drop its caches and
/// look up every id slot); a write by anyone else between two batches is noticed.
@Suite struct WriterOwnChangesTests {
    static func items(_ chat: String, _ range: Range<Int>) -> [Item] {
        range.map { n in
            Item(
                chatSourceId: chat, sourceId: "i\(n)",
                timestamp: Timestamp(milliseconds: 1_714_557_600_000 + Int64(n) * 1_000),
                direction: n % 2 == 0 ? .rcv : .snd, memberSourceId: n % 2 == 0 ? "m1" : nil,
                content: MessageContent(type: .text, text: "Встреча \(n) 東京で会いましょう ราคาถูก café"))
        }
    }

    @Test func batchesOfOneWriterAreNotTakenForAnotherWriters() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let writer = try ArchiveWriter(database: archive.database, batchSize: 50, textTrainingTexts: 60)
        for c in 0..<4 {
            try writer.add(Chat(sourceId: "c\(c)", type: .group, displayName: "Chat \(c)"))
            try writer.add(Member(chatSourceId: "c\(c)", sourceId: "m1", displayName: "Zoë"))
            for item in Self.items("c\(c)", c * 100..<c * 100 + 100) { try writer.add(item) }
        }
        try writer.flush()
        #expect(writer.otherWritersNoticed == 0)
        // Someone else writes between two batches: the next batch notices.
        try await archive.database.writer.write { db in
            try db.execute(sql: "UPDATE chat SET favorite = 1 WHERE sourceId = 'c0'")
        }
        for item in Self.items("c3", 400..<460) { try writer.add(item) }
        let summary = try writer.finish()
        #expect(writer.otherWritersNoticed == 1)
        #expect(summary.itemsAdded == 460)
        #expect(try await archive.check().isEmpty)
    }
}
