import ChatArchive
import ChatIndex
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// A new archive numbers its items by the second (format 22; by the millisecond in formats 12
/// to 21): an item whose slot is taken gets the first free id after it, ids stay unique and
/// follow time within each chat, and every search, window and chat key works as with 1,024 ids
/// a millisecond. Each test runs on both kinds of archive, its times in slots of the kind's.
@Suite struct ArchiveIdsTests {
    static let base: Int64 = 1_709_287_200_000  // 2024-03-01T10:00:00Z

    /// Milliseconds an id spans: a new archive's, and formats 12 to 21's.
    static let units: [Int64] = [1_000, 1]

    static func ts(_ slots: Int64, _ unit: Int64) -> String {
        Timestamp(milliseconds: base + slots * unit).rfc3339
    }

    static func rows(_ archive: Archive) async throws -> [(id: Int64, chat: String, source: String, ts: Int64)] {
        try await archive.database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT item.id, chat.sourceId, item.sourceId, item.ts FROM item JOIN chat ON chat.id = chatId"
            ).map { ($0[0], $0[1], $0[2], $0[3]) }
        }
    }

    @Test(arguments: units) func itemsSharingASlotTakeTheNextFreeIds(unit: Int64) async throws {
        // 1,100 messages of one chat in one slot, then, in another chat, messages in the slots
        // their ids run into (written after them, in the same ingest).
        var lines = [Lines.chat("a", name: "Burst"), Lines.member("a", "m", "Mia")]
        for n in 0..<1_100 {
            lines.append(Lines.item("a", "a\(n)", ts: Self.ts(0, unit), text: "burst \(n) 東京", member: "m"))
        }
        lines += [Lines.chat("b", name: "Next"), Lines.member("b", "m", "Mia")]
        for (n, offset) in [1, 2, 1_099, 1_100, 5_000].enumerated() {
            lines.append(
                Lines.item("b", "b\(n)", ts: Self.ts(Int64(offset), unit), text: "next \(n) 東京", member: "m"))
        }
        let (archive, report) = try TestArchive.make(jsonl: lines.joined(separator: "\n"), millisecondIds: unit == 1)
        #expect(report.itemsAdded == 1_105)
        let scale = try await archive.database.writer.read { db in try ArchiveIds.scale(db) }
        #expect(scale == (unit == 1 ? .milliseconds : .seconds))
        let slot = Self.base / unit
        var rows = try await Self.rows(archive)
        let burst = rows.filter { $0.chat == "a" }.sorted { $0.id < $1.id }
        #expect(burst.map(\.source) == (0..<1_100).map { "a\($0)" }, "a burst keeps its order")
        #expect(burst.first?.id == slot)
        #expect(burst.last?.id == slot + 1_099)
        let next = rows.filter { $0.chat == "b" }.sorted { $0.id < $1.id }
        #expect(next.map(\.source) == ["b0", "b1", "b2", "b3", "b4"])
        #expect(next.map(\.id) == [slot + 1_100, slot + 1_101, slot + 1_102, slot + 1_103, slot + 5_000])

        // Live writes: a message late in the burst's slot, one in the burst's chat just before
        // it, and one in a slot nobody holds.
        try await archive.upsert(items: [
            Item(
                chatSourceId: "b", sourceId: "b-late", timestamp: Timestamp(milliseconds: Self.base + unit - 1),
                direction: .rcv, memberSourceId: "m", content: MessageContent(type: .text, text: "late 東京")),
            Item(
                chatSourceId: "a", sourceId: "a-early", timestamp: Timestamp(milliseconds: Self.base - unit),
                direction: .rcv, memberSourceId: "m", content: MessageContent(type: .text, text: "early 東京")),
            Item(
                chatSourceId: "a", sourceId: "a-after", timestamp: Timestamp(milliseconds: Self.base + 7_000 * unit),
                direction: .rcv, memberSourceId: "m", content: MessageContent(type: .text, text: "after 東京")),
        ])
        rows = try await Self.rows(archive)
        #expect(Set(rows.map(\.id)).count == rows.count, "ids are unique")
        #expect(rows.first { $0.source == "a-early" }?.id == slot - 1)
        #expect(rows.first { $0.source == "a-after" }?.id == slot + 7_000)
        let late = try #require(rows.first { $0.source == "b-late" })
        #expect(late.id > slot + 1_103 && late.id < slot + 5_000, "after the run of taken ids")

        // Chat `a`'s id order is its time order; in `b` the late message follows the ids it had
        // to follow, and takes its key among them. Both chats stay keyed, and every search, in
        // one chat or all, finds every message in id order, newest first.
        for chat in ["a", "b"] {
            let byId = rows.filter { $0.chat == chat }.sorted { $0.id < $1.id }.map(\.source)
            let byTime = rows.filter { $0.chat == chat }.sorted { ($0.ts, $0.id) < ($1.ts, $1.id) }.map(\.source)
            if chat == "a" { #expect(byId == byTime) }
            let keyed = try await archive.database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT keyed FROM chat WHERE sourceId = ?", arguments: [chat])
            }
            #expect(keyed == 1, "chat \(chat)")
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

    /// An export whose messages come in bursts of several a second, across midnights, in
    /// every script a search must find, with deleted and pinned items: the same bytes for every
    /// archive it is ingested into.
    static func burstyExport() -> String {
        var rng = SplitMix64(seed: 22)
        let words = ["東京", "café", "привет", "สวัสดี", "مرحبا", "שלום", "नमस्ते", "Straße", "İstanbul", "ｆｕｌｌ", "🙂", "서울"]
        var lines: [String] = []
        for (chat, count) in [("g1", 700), ("d1", 160), ("n1", 40)] {
            lines += [Lines.chat(chat, name: chat), Lines.member(chat, "m", "Mia"), Lines.member(chat, "z", "Zoë")]
            // From 2024-03-01 over about 40 days; a third of the messages 0 to 900 ms after the
            // one before, the rest minutes to hours after.
            var t = base - 7_200_000 + Int64(rng.next(below: 600_000))
            for n in 0..<count {
                t += rng.next(below: 3) == 0 ? Int64(rng.next(below: 900)) : Int64(60_000 + rng.next(below: 9_000_000))
                let text = (0..<(1 + rng.next(below: 3))).map { _ in words[rng.next(below: words.count)] }
                lines.append(
                    Lines.item(
                        chat, "\(chat)-\(n)", ts: Timestamp(milliseconds: t).rfc3339, text: text.joined(separator: " "),
                        dir: rng.next(below: 4) == 0 ? "snd" : "rcv", member: rng.next(below: 2) == 0 ? "m" : "z",
                        deleted: rng.next(below: 25) == 0, pinned: rng.next(below: 30) == 0))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Format 22's ids (a second apart) and format 21's (a millisecond apart) answer every search,
    /// count, histogram, date filter and window alike, on an export whose bursts put several
    /// messages in one second: ids order each chat's items as their times do in both, and a
    /// search of all chats finds the same items.
    @Test func secondIdsAnswerAsMillisecondIds() async throws {
        let export = Self.burstyExport()
        let (seconds, _) = try TestArchive.make(jsonl: export)
        let (milliseconds, _) = try TestArchive.make(jsonl: export, millisecondIds: true)
        #expect(try await seconds.database.writer.read { try ArchiveIds.scale($0) } == .seconds)
        #expect(try await milliseconds.database.writer.read { try ArchiveIds.scale($0) } == .milliseconds)
        let queries = [
            "東京", "café", "привет", "สวัสดี", "مرحبا", "שלום", "नमस्ते", "strasse", "istanbul", "full", "🙂", "서울",
            "東京 café", "\"東京 café\"", "-東京 -café", "from:Zoë", "from:me 서울", "is:pinned",
            "café after:2024-03-05", "café before:2024-03-10", "東京 after:2024-03-02 before:2024-03-20",
            "привет after:2024-03-15T12:30", "before:2024-03-03",
        ]
        func answers(_ archive: Archive) async throws -> [String] {
            var out: [String] = []
            for q in queries {
                for chat in [nil, "g1", "d1"] {
                    for order in SearchOrder.allCases {
                        var hits: [String] = []
                        var cursor: String? = nil
                        repeat {
                            let page = try await archive.search(
                                q, options: SearchOptions(chat: chat, limit: 40, cursor: cursor, order: order))
                            hits += page.hits.map(\.item.sourceId)
                            cursor = page.nextCursor
                        } while cursor != nil && order == .newest
                        // Across chats, items of one second (or pushed past it by a burst) may
                        // come in either order: ids follow time only to the slot's width.
                        out.append("\(q) in \(chat ?? "*") by \(order): \(chat == nil ? hits.sorted() : hits)")
                    }
                    let count = try await archive.searchCount(q, options: SearchOptions(chat: chat), limit: nil)
                    out.append("\(q) in \(chat ?? "*"): \(count.total)")
                    for period in HistogramPeriod.allCases {
                        let h = try await archive.histogram(q, by: period, options: SearchOptions(chat: chat))
                        out.append("\(q) in \(chat ?? "*") by \(period): \(h)")
                    }
                }
            }
            for chat in ["g1", "d1", "n1"] {
                for period in HistogramPeriod.allCases {
                    let h = try await archive.histogram("", by: period, options: SearchOptions(chat: chat))
                    out.append("activity of \(chat) by \(period): \(h)")
                }
                let at = Timestamp(milliseconds: Self.base + 9 * 86_400_000)
                let window = try await archive.items(in: chat, window: .at(at, count: 6))
                out.append("\(chat) at day 9: \(window.items.map(\.sourceId))")
            }
            return out
        }
        let expected = try await answers(milliseconds)
        #expect(expected.filter { !$0.hasSuffix("[]") && !$0.hasSuffix(": 0") }.count > 300)
        let got = try await answers(seconds)
        for (a, b) in zip(got, expected) where a != b { Issue.record("\(a)\n  with millisecond ids: \(b)") }
        #expect(got.count == expected.count)
        #expect(try await seconds.check().isEmpty)
        #expect(try await milliseconds.check().isEmpty)
    }
}
