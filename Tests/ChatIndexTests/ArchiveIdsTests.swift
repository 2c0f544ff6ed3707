import ChatArchive
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// A new archive numbers its items by the millisecond (format 12): an item whose millisecond
/// is taken gets the first free id after it, ids stay unique and follow time within each
/// chat, and every search, window and chat key works as with 1,024 ids a millisecond.
@Suite struct ArchiveIdsTests {
    static let base: Int64 = 1_709_287_200_000  // 2024-03-01T10:00:00Z

    static func ts(_ offset: Int64) -> String {
        Timestamp(milliseconds: base + offset).rfc3339
    }

    static func rows(_ archive: Archive) async throws -> [(id: Int64, chat: String, source: String, ts: Int64)] {
        try await archive.database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT item.id, chat.sourceId, item.sourceId, item.ts FROM item JOIN chat ON chat.id = chatId"
            ).map { ($0[0], $0[1], $0[2], $0[3]) }
        }
    }

    @Test func itemsSharingAMillisecondTakeTheNextFreeIds() async throws {
        // 1,100 messages of one chat in one millisecond, then, in another chat, messages in the
        // milliseconds their ids run into (written after them, in the same ingest).
        var lines = [Lines.chat("a", name: "Burst"), Lines.member("a", "m", "Mia")]
        for n in 0..<1_100 {
            lines.append(Lines.item("a", "a\(n)", ts: Self.ts(0), text: "burst \(n) 東京", member: "m"))
        }
        lines += [Lines.chat("b", name: "Next"), Lines.member("b", "m", "Mia")]
        for (n, offset) in [1, 2, 1_099, 1_100, 5_000].enumerated() {
            lines.append(Lines.item("b", "b\(n)", ts: Self.ts(Int64(offset)), text: "next \(n) 東京", member: "m"))
        }
        let (archive, report) = try TestArchive.make(jsonl: lines.joined(separator: "\n"))
        #expect(report.itemsAdded == 1_105)
        let scale = try await archive.database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'idScale'")
        }
        #expect(scale == "1")
        var rows = try await Self.rows(archive)
        let burst = rows.filter { $0.chat == "a" }.sorted { $0.id < $1.id }
        #expect(burst.map(\.source) == (0..<1_100).map { "a\($0)" }, "a burst keeps its order")
        #expect(burst.first?.id == Self.base)
        #expect(burst.last?.id == Self.base + 1_099)
        let next = rows.filter { $0.chat == "b" }.sorted { $0.id < $1.id }
        #expect(next.map(\.source) == ["b0", "b1", "b2", "b3", "b4"])
        #expect(
            next.map(\.id) == [
                Self.base + 1_100, Self.base + 1_101, Self.base + 1_102, Self.base + 1_103, Self.base + 5_000,
            ])

        // Live writes: a message late in the burst's millisecond, one in the burst's chat just
        // before it, and one in a millisecond nobody holds.
        try await archive.upsert(items: [
            Item(
                chatSourceId: "b", sourceId: "b-late", timestamp: Timestamp(milliseconds: Self.base),
                direction: .rcv, memberSourceId: "m", content: MessageContent(type: .text, text: "late 東京")),
            Item(
                chatSourceId: "a", sourceId: "a-early", timestamp: Timestamp(milliseconds: Self.base - 1),
                direction: .rcv, memberSourceId: "m", content: MessageContent(type: .text, text: "early 東京")),
            Item(
                chatSourceId: "a", sourceId: "a-after", timestamp: Timestamp(milliseconds: Self.base + 7_000),
                direction: .rcv, memberSourceId: "m", content: MessageContent(type: .text, text: "after 東京")),
        ])
        rows = try await Self.rows(archive)
        #expect(Set(rows.map(\.id)).count == rows.count, "ids are unique")
        #expect(rows.first { $0.source == "a-early" }?.id == Self.base - 1)
        #expect(rows.first { $0.source == "a-after" }?.id == Self.base + 7_000)
        let late = try #require(rows.first { $0.source == "b-late" })
        #expect(late.id > Self.base + 1_103 && late.id < Self.base + 5_000, "after the run of taken ids")

        // In every chat, id order is time order, so the chats stay keyed and every search,
        // in one chat or all, finds every message newest first.
        for chat in ["a", "b"] {
            let byId = rows.filter { $0.chat == chat }.sorted { $0.id < $1.id }.map(\.source)
            let byTime = rows.filter { $0.chat == chat }.sorted { ($0.ts, $0.id) < ($1.ts, $1.id) }.map(\.source)
            if chat == "a" { #expect(byId == byTime) }
            let keyed = try await archive.database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT keyed FROM chat WHERE sourceId = ?", arguments: [chat])
            }
            #expect(keyed == 1 || chat == "b", "chat \(chat)")
            var found: [String] = []
            var cursor: String? = nil
            repeat {
                let page = try await archive.search("東京", options: SearchOptions(chat: chat, limit: 97, cursor: cursor))
                found += page.hits.map(\.item.sourceId)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(found == Array(byId.reversed()), "chat \(chat)")
        }
        let all = try await archive.search("東京", options: SearchOptions(limit: 2_000))
        #expect(all.hits.map(\.item.id) == rows.map(\.id).sorted(by: >))
        let window = try await archive.items(in: "a", window: .around(burst[550].id, count: 4))
        #expect(window.items.map(\.sourceId) == (546..<555).map { "a\($0)" })
        let dated = try await archive.search(
            "東京 after:2024-03-01 before:2024-03-02", options: SearchOptions(limit: 2_000))
        #expect(dated.hits.count == rows.count)
        #expect(try await archive.search("東京 before:2024-03-01").hits.isEmpty)
        #expect(try await archive.check().isEmpty)
    }
}
