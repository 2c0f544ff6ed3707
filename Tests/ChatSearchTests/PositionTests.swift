import ChatArchive
import ChatTestSupport
import GRDB
import Testing

/// Items carry their position in the chat by `(ts, id)`, so navInfo's afterTotal is O(1):
/// positions must stay exact whatever order items arrive in.
@Suite struct PositionTests {
    static func item(_ id: Int, minute: Int, unread: Bool = false) -> String {
        Lines.item(
            "g1", "\(id)", ts: String(format: "2024-05-01T10:%02d:00Z", minute), text: "message \(id)", unread: unread)
    }

    /// Every item's position equals its rank, and afterTotal/afterUnread equal brute-force counts.
    static func expectExact(_ archive: Archive) async throws {
        let wrong = try await archive.database.writer.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM item JOIN (
                        SELECT id, row_number() OVER (PARTITION BY chatId ORDER BY ts, id) AS n FROM item) r ON r.id = item.id
                    WHERE item.pos <> r.n
                    """)
        }
        #expect(wrong == 0)
        let ids = try await archive.database.writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM item ORDER BY ts, id")
        }
        for (k, id) in ids.enumerated() {
            let w = try await archive.items(in: "g1", window: .around(id, count: 1))
            guard let newest = w.items.last else { continue }
            let after = try await archive.database.writer.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) AS total, coalesce(sum(flags & 4 = 4), 0) AS unread FROM item
                        WHERE chatId = (SELECT id FROM chat WHERE sourceId = 'g1') AND (ts, id) > (?, ?)
                        """, arguments: [newest.timestamp.milliseconds, newest.id])
            }
            #expect(w.navInfo?.afterTotal == after?["total"], "item \(k)")
            #expect(w.navInfo?.afterUnread == after?["unread"], "item \(k)")
        }
    }

    @Test func inOrderOutOfOrderAndMovedItemsKeepExactPositions() async throws {
        let first =
            ([Lines.chat("g1", name: "Order")] + (0..<10).map { Self.item($0, minute: $0 * 2, unread: $0 % 3 == 0) })
            .joined(separator: "\n")
        let (archive, _) = try TestArchive.make(jsonl: first)
        try await Self.expectExact(archive)
        // Older items arrive later (between and before existing ones), one item moves in time.
        let second = [
            Lines.chat("g1", name: "Order"),
            Self.item(20, minute: 1), Self.item(21, minute: 0, unread: true), Self.item(22, minute: 30),
            Self.item(3, minute: 50),
        ].joined(separator: "\n")
        let r = try archive.ingestSync([try TestArchive.writeFile(second)])
        #expect(r.itemsAdded == 3)
        #expect(r.itemsUpdated == 1)
        try await Self.expectExact(archive)
    }

    /// A backlog (every item from the first unread to the last is unread) is counted by
    /// positions; with one read item inside it, it is counted entry by entry again.
    @Test func aBacklogOfUnreadItemsCountsExactly() async throws {
        let dense =
            ([Lines.chat("g1", name: "Backlog")]
            + (0..<30).map { Self.item($0, minute: $0, unread: $0 >= 6 && $0 < 26) })
            .joined(separator: "\n")
        let (archive, _) = try TestArchive.make(jsonl: dense)
        try await Self.expectExact(archive)
        let holed = [Lines.chat("g1", name: "Backlog"), Self.item(15, minute: 15, unread: false)].joined(
            separator: "\n")
        _ = try archive.ingestSync([try TestArchive.writeFile(holed)])
        try await Self.expectExact(archive)
    }
}
