import ChatArchive
import ChatIndex
import ChatTestSupport
import Foundation
import GRDB
import Testing

/// `stats` reads archive-wide counters that the writer keeps in each batch's transaction: they
/// equal what full scans of the stored rows count after every kind of ingest, and `check`
/// names a wrong one that `check --repair` recounts.
@Suite struct StatsCountersTests {
    /// Items in several scripts, with formatted spans, links, mentions, unread and deleted ones.
    static func lines(edited: Bool) -> [String] {
        var lines = [
            Lines.chat("g1", name: "Hiking club"), Lines.member("g1", "m1", "Zoë"), Lines.member("g1", "m2", "Дмитрий"),
            Lines.chat("d1", type: "direct", name: "Ana"),
        ]
        let texts = [
            "summit *plan* https://example.com/a @Zoë", "東京で会いましょう _明日_", "สวัสดีครับ ~พรุ่งนี้~",
            "مرحبا بالعالم *غدا*", "שָׁלוֹם עולם @Дмитрий", "emoji 👩‍👩‍👧 family 🇫🇷 `code`", "e\u{301}te\u{301} cafe\u{301}",
        ]
        for k in 0..<28 {
            var text = texts[k % texts.count] + " \(k)"
            // The edited export changes every third text (shorter, other spans and mentions) and
            // flips the flags of every fourth item.
            if edited && k % 3 == 0 {
                text = k % 2 == 0 ? "plain \(k)" : "*bold* @Zoë @Дмитрий https://example.org/\(k) 한국어"
            }
            let flip = edited && k % 4 == 0
            lines.append(
                Lines.item(
                    k % 2 == 0 ? "g1" : "d1", "i\(k)", ts: String(format: "2024-04-01T10:%02d:00Z", k), text: text,
                    member: k % 2 == 0 ? (k % 4 == 0 ? "m1" : "m2") : nil, unread: (k % 5 == 0) != flip,
                    deleted: (k % 7 == 0) != flip))
        }
        return lines
    }

    /// The counters as stored, and as full scans count them.
    static func counters(_ path: String) throws -> (stored: [String: Int64], actual: [String: Int64]) {
        let database = try ArchiveDatabase(path: path, rebuildsStaleIndexes: false)
        return try database.writer.read { db in
            (try ArchiveCounters.stored(db) ?? [:], try ArchiveCounters.actual(db))
        }
    }

    /// Stats, the stored counters and full scans agree.
    static func expectExact(_ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
        let (stored, actual) = try counters(path)
        // Six totals, the chats, the members and one per source (every chat here is JSON Lines).
        #expect(actual.count == 9, sourceLocation: sourceLocation)
        #expect(stored == actual, sourceLocation: sourceLocation)
        let stats = try await Archive(path: path).stats()
        let scanned = try await ArchiveDatabase(path: path).writer.read { db in
            (
                items: try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? -1,
                chats: try Int.fetchOne(db, sql: "SELECT count(*) FROM chat") ?? -1,
                members: try Int.fetchOne(db, sql: "SELECT count(*) FROM member") ?? -1,
                deleted: try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE flags & 2") ?? -1,
                unread: try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE flags & 4") ?? -1,
                spans: try Int.fetchOne(db, sql: "SELECT count(*) FROM itemSpan") ?? -1,
                mentions: try Int.fetchOne(db, sql: "SELECT count(*) FROM itemMention") ?? -1,
                terms: try Int.fetchOne(db, sql: "SELECT count(*) FROM term") ?? -1,
                bytes: try Int64.fetchOne(db, sql: "SELECT sum(length(CAST(text AS BLOB))) FROM item") ?? -1
            )
        }
        #expect(stats.items == scanned.items, sourceLocation: sourceLocation)
        #expect(
            stats.itemsBySource == (scanned.items == 0 ? [:] : ["jsonl": scanned.items]), sourceLocation: sourceLocation
        )
        #expect(stats.chats == scanned.chats && stats.members == scanned.members, sourceLocation: sourceLocation)
        #expect(stats.deletedItems == scanned.deleted, sourceLocation: sourceLocation)
        #expect(stats.unreadItems == scanned.unread, sourceLocation: sourceLocation)
        #expect(stats.spans == scanned.spans, sourceLocation: sourceLocation)
        #expect(stats.mentions == scanned.mentions, sourceLocation: sourceLocation)
        #expect(stats.vocabularyTerms == scanned.terms, sourceLocation: sourceLocation)
        #expect(stats.textBytes == scanned.bytes, sourceLocation: sourceLocation)
        #expect(try await Archive(path: path).check() == [], sourceLocation: sourceLocation)
    }

    @Test func countersAreExactAfterIngestReingestAndUpdates() async throws {
        let path = TestArchive.temporaryPath()
        let original = try TestArchive.writeFile(Self.lines(edited: false).joined(separator: "\n"))
        let first = try Archive(path: path).ingestSync([original])
        #expect(first.itemsAdded == 28)
        try await Self.expectExact(path)
        let stats = try await Archive(path: path).stats()
        #expect(stats.deletedItems == 4 && stats.unreadItems == 6)
        #expect(stats.spans > 0 && stats.mentions > 0 && stats.textBytes > 28 * 10)

        // The same export again changes nothing.
        let again = try Archive(path: path).ingestSync([original])
        #expect(again.itemsAdded == 0 && again.itemsUpdated == 0)
        try await Self.expectExact(path)
        #expect(try await Archive(path: path).stats().textBytes == stats.textBytes)

        // An edited export updates texts, spans, mentions and flags in place.
        let edited = try TestArchive.writeFile(Self.lines(edited: true).joined(separator: "\n"), name: "edited.jsonl")
        let update = try Archive(path: path).ingestSync([edited])
        #expect(update.itemsUpdated > 0 && update.itemsAdded == 0)
        try await Self.expectExact(path)
        #expect(try await Archive(path: path).stats().textBytes != stats.textBytes)

        // And back, in one run with the edited export: one batch inserts and updates the same items.
        let other = TestArchive.temporaryPath("other.sqlite")
        _ = try Archive(path: other).ingestSync([original, edited])
        try await Self.expectExact(other)

        // Live writes: a new chat with a member and items, items deleted, a whole chat deleted.
        let live = try Archive(path: other)
        try await live.upsert(
            chats: [Chat(sourceId: "n1", type: .group, displayName: "Новый чат")],
            members: [Member(chatSourceId: "n1", sourceId: "x1", displayName: "Şule")],
            items: (0..<5).map {
                Item(
                    chatSourceId: "n1", sourceId: "n\($0)",
                    timestamp: Timestamp(milliseconds: 1_800_000_000_000 + Int64($0)),
                    direction: .rcv, memberSourceId: "x1",
                    content: MessageContent(type: .text, text: "merhaba dünya \($0) 🌍"))
            })
        try await Self.expectExact(other)
        try await live.deleteItems(["n0", "n1"], in: "n1")
        try await Self.expectExact(other)
        #expect(try await live.stats().items == 28 + 3)
        try await live.deleteChat("g1")
        try await Self.expectExact(other)
        let left = try await live.stats()
        #expect(left.chats == 2 && left.members == 1 && left.items == 14 + 3)
        try await live.deleteChat("d1")
        try await live.deleteChat("n1")
        let empty = try await live.stats()
        #expect(empty.chats == 0 && empty.members == 0 && empty.items == 0 && empty.itemsBySource == [:])
        #expect(try await live.check() == [])
    }

    @Test func aWrongCounterIsNamedAndRecounted() async throws {
        let path = TestArchive.temporaryPath()
        _ = try Archive(path: path).ingestSync([
            try TestArchive.writeFile(Self.lines(edited: false).joined(separator: "\n"))
        ])
        let database = try ArchiveDatabase(path: path, rebuildsStaleIndexes: false)
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    UPDATE archiveCounter SET value = value + 5 WHERE name = 'textBytes';
                    UPDATE archiveCounter SET value = value - 2 WHERE name = 'items:jsonl';
                    """)
        }
        let problems = try await Archive(path: path, rebuildsStaleIndexes: false).check()
        #expect(problems.count == 1)
        #expect(
            problems.first?.hasPrefix(
                "the archive's totals shown by `stats` are wrong (items from jsonl: 26 stored, 28 counted; text bytes")
                == true,
            "\(problems)")
        #expect(try await Archive(path: path, rebuildsStaleIndexes: false).repair() == [])
        try await Self.expectExact(path)
    }

    @Test func withoutTheCounterTableStatsCountByScanning() async throws {
        // As a read-only open of an archive written before the counters existed sees it.
        let path = TestArchive.temporaryPath()
        _ = try Archive(path: path).ingestSync([
            try TestArchive.writeFile(Self.lines(edited: false).joined(separator: "\n"))
        ])
        let before = try await Archive(path: path).stats()
        let database = try ArchiveDatabase(path: path, rebuildsStaleIndexes: false)
        try await database.writer.write { db in try db.execute(sql: "DROP TABLE archiveCounter") }
        let after = try await Archive(path: path).stats()
        #expect(after.items == before.items && after.deletedItems == before.deletedItems)
        #expect(
            after.unreadItems == before.unreadItems && after.spans == before.spans && after.mentions == before.mentions)
        #expect(after.textBytes == before.textBytes && after.vocabularyTerms == before.vocabularyTerms)
        #expect(after.itemsBySource == before.itemsBySource)
    }
}
