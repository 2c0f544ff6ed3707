import ChatArchive
import ChatIndex
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// A new archive files its items in the order they are written, the archive id a unique column
/// (format 24); an older one files them by id. Both answer every search, window and count alike,
/// before and after live edits, and a writer finds an id taken in either.
@Suite struct ItemsInArrivalOrderTests {
    /// The item table's layout: whether the id is its rowid, and the columns of its index by
    /// time and of its keys' index that names the id.
    static func layout(_ archive: Archive) async throws -> (idIsRowid: Bool, byTime: [String], byKey: [String]) {
        try await archive.database.writer.read { db in
            let pk = try Int.fetchOne(db, sql: "SELECT pk FROM pragma_table_info('item') WHERE name = 'id'") ?? -1
            func columns(_ index: String) throws -> [String] {
                try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
            }
            return (pk == 1, try columns("item_chat_ts"), try columns("item_chatKeyId"))
        }
    }

    @Test func aNewArchiveFilesItemsAsWrittenAndAnOlderOneById() async throws {
        let export = ArchiveIdsTests.burstyExport()
        let (written, _) = try TestArchive.make(jsonl: export)
        let (byId, _) = try TestArchive.make(jsonl: export, itemsById: true)
        let new = try await Self.layout(written)
        #expect(!new.idIsRowid)
        #expect(new.byTime == ["chatId", "ts", "id"])
        #expect(new.byKey == ["chatKey", "id"])
        let old = try await Self.layout(byId)
        #expect(old.idIsRowid)
        #expect(old.byTime == ["chatId", "ts"])
        #expect(old.byKey.isEmpty)
        // Rows in the order the export listed them: one chat after another.
        let order = try await written.database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT sourceId FROM item ORDER BY rowid")
        }
        let listed = export.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("\"kind\":\"item\"") || line.contains("\"kind\": \"item\"") else { return nil }
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["id"] as? String
        }
        #expect(listed.count == 900)
        #expect(order == listed)
        // Ids unique and in time order within each chat in both.
        for archive in [written, byId] {
            let disorder = try await archive.database.writer.read { db in
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM item a JOIN item b ON b.chatId = a.chatId AND b.id > a.id AND b.ts < a.ts
                        """)
            }
            #expect(disorder == 0)
            #expect(try await archive.check().isEmpty)
        }
    }

    /// Every search, count, histogram and window of ``ArchiveIdsTests/answers(_:)``, the
    /// contexts of hits, and the same after live writes: new items, an edit, deletions and a
    /// read mark.
    @Test func bothLayoutsAnswerAlikeBeforeAndAfterLiveWrites() async throws {
        let export = ArchiveIdsTests.burstyExport()
        let (written, _) = try TestArchive.make(jsonl: export)
        let (byId, _) = try TestArchive.make(jsonl: export, itemsById: true)
        func contexts(_ archive: Archive) async throws -> [String] {
            var out: [String] = []
            for q in ["東京", "café", "서울 from:Zoë"] {
                for chat in [nil, "g1"] {
                    let page = try await archive.search(q, options: SearchOptions(chat: chat, limit: 15))
                    for hit in page.hits {
                        let window = try await archive.context(of: hit, count: 7)
                        out.append(
                            "\(q) \(hit.item.sourceId): \(window.items.map(\.sourceId)) \(window.navInfo.map { "\($0)" } ?? "")"
                        )
                    }
                }
            }
            return out
        }
        func compare(_ stage: String) async throws {
            let expected = try await ArchiveIdsTests.answers(byId) + contexts(byId)
            let got = try await ArchiveIdsTests.answers(written) + contexts(written)
            #expect(got.count == expected.count)
            for (a, b) in zip(got, expected) where a != b { Issue.record("\(stage): \(a)\n  filed by id: \(b)") }
            #expect(try await written.check().isEmpty)
            #expect(try await byId.check().isEmpty)
        }
        try await compare("ingested")
        for archive in [written, byId] {
            // Late items into a busy second of g1, a new day's items, an edit and deletions.
            let t = ArchiveIdsTests.base + 3 * 86_400_000
            try await archive.upsert(items: [
                Item(
                    chatSourceId: "g1", sourceId: "late-1", timestamp: Timestamp(milliseconds: t), direction: .rcv,
                    content: MessageContent(type: .text, text: "東京 late")),
                Item(
                    chatSourceId: "g1", sourceId: "late-2", timestamp: Timestamp(milliseconds: t + 10), direction: .rcv,
                    content: MessageContent(type: .text, text: "café late")),
                Item(
                    chatSourceId: "d1", sourceId: "new-1", timestamp: Timestamp(milliseconds: t + 90 * 86_400_000),
                    direction: .snd, content: MessageContent(type: .text, text: "서울 привет")),
                Item(
                    chatSourceId: "g1", sourceId: "g1-5",
                    timestamp: try #require(
                        try await archive.items(in: "g1", window: .last(1_000)).items.first { $0.sourceId == "g1-5" }
                    ).timestamp, direction: .rcv, content: MessageContent(type: .text, text: "edited שלום")),
            ])
            try await archive.deleteItems(["g1-7"], in: "g1")
            try await archive.deleteItems(["d1-3"], in: "d1")
            try await archive.markRead(chat: "g1", through: "g1-300")
        }
        try await compare("after live writes")
    }

    /// An item whose second's next id a later second's item already holds takes the first free
    /// id after it, whichever way the archive files its items.
    @Test func anIdHeldByALaterSecondIsPassed() async throws {
        let second = "2024-03-01T10:00:0"
        var lines = [Lines.chat("a", name: "A"), Lines.chat("b", name: "B")]
        // Chat a holds seconds 1 and 2; chat b, written after it, has three items in second 0.
        lines += (1...2).map { Lines.item("a", "a\($0)", ts: "\(second)\($0)Z", text: "alpha \($0)") }
        lines += (0..<3).map { Lines.item("b", "b\($0)", ts: "\(second)0.\($0)00Z", text: "beta \($0)") }
        for itemsById in [false, true] {
            let (archive, report) = try TestArchive.make(jsonl: lines.joined(separator: "\n"), itemsById: itemsById)
            #expect(report.itemsAdded == 5)
            let rows = try await archive.database.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT sourceId, id FROM item ORDER BY id")
            }
            let ids = rows.map { $0["id"] as Int64 }
            #expect(Set(ids).count == 5)
            #expect(rows.map { $0["sourceId"] as String } == ["b0", "a1", "a2", "b1", "b2"])
            let beta = try await archive.search("beta", options: SearchOptions(chat: "b"))
            #expect(beta.hits.map(\.item.sourceId) == ["b2", "b1", "b0"])
            let window = try await archive.items(in: "b", window: .last(10))
            #expect(window.items.map(\.sourceId) == ["b0", "b1", "b2"])
            #expect(try await archive.check().isEmpty)
        }
    }
}
